"""The emulated Pico as a target: find its files, flash it as a person flashes a board, boot it.

The flash is a file (rp2040js models 16 MB; MicroPython's Pico build uses its
first 2 MB) kept between runs, like the chip on a board: the firmware and the device's files stay on
it, so flashing again copies only what changed and a saved game survives a
power cut.
"""

import os

from layerlight_tools.errors import UserError
from layerlight_tools.pico.bridge import SerialBridge
from layerlight_tools.pico.emulator import REPO, Pico

SHARED_RP2 = os.path.normpath(os.path.join(REPO, "..", "shared", "rp2"))
UF2_NAME = "micropython-v1.23.0-RPI_PICO.uf2"
BOOTROM_NAME = "rp2040-bootrom-B1.bin"
IMAGE_NAME = "flash.bin"
CONNECT_LIMIT_MS = 5000     # emulated ms from power on to the USB serial port
BOOT_WATCH_S = 0.5          # wall s of the boot log `layerlight flash` shows afterwards


def shared_files():
    """(uf2, bootrom) in the rp2 folder kept beside this repository, or None where absent."""
    uf2 = os.path.join(SHARED_RP2, UF2_NAME)
    rom = os.path.join(SHARED_RP2, BOOTROM_NAME)
    return (uf2 if os.path.isfile(uf2) else None, rom if os.path.isfile(rom) else None)


def chosen_files(uf2=None, bootrom=None):
    """The UF2 and boot ROM: as given, else LAYERLIGHT_UF2 / LAYERLIGHT_BOOTROM."""
    return (uf2 or os.environ.get("LAYERLIGHT_UF2"), bootrom or os.environ.get("LAYERLIGHT_BOOTROM"))


def power_on(uf2, bootrom, image=None, **kw):
    """A Pico powered on with the flash in `image` (None: blank), its USB serial port up."""
    from layerlight import boards
    pico = Pico(uf2, bootrom, image, **kw)
    # the buttons are wired to ground with the pins pulled up: up, they read high (rp2040js
    # does not apply a pull-up to an input no one drives)
    for pin in boards.PROFILES["pico"]["buttons"].values():
        pico.edge(pin, 1)
    try:
        pico.run_until(lambda: pico.connected, "its USB serial port", step_ms=5, limit_ms=CONNECT_LIMIT_MS)
    except BaseException:
        pico.close()
        raise
    return pico


def flash(pico, settings=None, deck=None, progress=None):
    """`layerlight flash` onto the running emulated Pico, over a pty as over a USB cable; returns
    its summary, with "emulated_s" (the Pico's time it took) added. The board restarts into the
    firmware."""
    from layerlight_tools import flash as flashing
    start = pico.us
    with SerialBridge(pico) as bridge:
        summary = flashing.flash(port=bridge.port, board_name="pico", deck=deck, settings=settings,
                                 progress=progress, watch_s=BOOT_WATCH_S, connect_timeout=60)
    summary["emulated_s"] = (pico.us - start) / 1e6
    return summary


def image_in(folder):
    """The flash image kept in `folder` (made if missing)."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise UserError("--flash: cannot use %s: %s" % (folder, e.strerror))
    return os.path.join(folder, IMAGE_NAME)
