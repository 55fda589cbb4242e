# Freezes the Layerlight firmware into a custom MicroPython build. Written by
# `python -m layerlight_tools.packaging` from the file list of `layerlight
# flash`; tests/test_manifest.py keeps the two in step.
#
# `make uf2` freezes it through uf2/manifest.py, which adds the main.py that
# starts the device at power-on and the project's version, into the Layerlight
# UF2 (build/layerlight-pico.uf2; the decks go into its ROMFS partition).
# Frozen on its own into a stock board's build (make BOARD=RPI_PICO
# FROZEN_MANIFEST=/path/to/layerlight/manifest.py), it needs main.py and the
# decks on the board's flash:  mpremote cp firmware/main.py : + cp -r firmware/decks :

# the port's own frozen modules (rp2: neopixel, which the firmware uses)
include("$(PORT_DIR)/boards/manifest.py")

package(
    "layerlight",
    files=(
        "__init__.py",
        "app.py",
        "backends/__init__.py",
        "backends/micropython_hw.py",
        "backends/rp2_chip.py",
        "backends/rp2_pio.py",
        "boards.py",
        "buttons.py",
        "config.py",
        "coop_cards.py",
        "crc.py",
        "deck.py",
        "deckfile.py",
        "display.py",
        "endings.py",
        "font.py",
        "geometry.py",
        "hardware.py",
        "host_link.py",
        "journal.py",
        "launch.py",
        "led_light.py",
        "mission_screens.py",
        "modes/__init__.py",
        "modes/base.py",
        "modes/coop.py",
        "modes/coop_screens.py",
        "modes/history.py",
        "modes/keeper.py",
        "modes/layers.py",
        "modes/layers_plus.py",
        "modes/otlo.py",
        "modes/otlo_screens.py",
        "modes/paper_world.py",
        "modes/paper_world_screens.py",
        "modes/settings.py",
        "modes/table.py",
        "modes/time_attack.py",
        "modes/time_attack_plus.py",
        "native_draw.py",
        "otlo_deck.py",
        "otlo_tiles.py",
        "persist.py",
        "play_record.py",
        "playlog.py",
        "power.py",
        "rng.py",
        "runtime.py",
        "screens.py",
        "selftest.py",
        "solver.py",
        "sound.py",
        "stacking.py",
        "start.py",
        "startup.py",
        "storage.py",
        "strip_map.py",
        "trace.py",
        "turned_view.py",
    ),
    base_path="firmware",
)
