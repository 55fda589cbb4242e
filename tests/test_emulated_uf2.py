"""The Layerlight UF2 (`make uf2`: MicroPython v1.28 with the firmware frozen in, the decks in
ROMFS) on the emulated Pico, as a person's Pico runs it after the UF2 is dragged on: a blank chip
boots to the menu with nothing copied, and a newer UF2 put on over an older one keeps the
table's files. Every mode's game, the power cuts and the play log run on the same image in
tests/test_emulated_pico.py (tests/uf2_fixture.py makes it).
"""

import os

import pytest

from layerlight_tools import firmware_files, simcore, uf2
from layerlight_tools.pico import session, target, wire

import uf2_fixture
from test_emulated_pico import GAMES, after_power_on, saves_in

pytestmark = pytest.mark.chip  # the emulated RP2040: in make test, not in make quick

BOARD_DIR = os.path.join(uf2_fixture.REPO, "uf2", "boards", "LAYERLIGHT_PICO")


def menu_frames_of_the_simulator(ms=2500):
    """Every frame the simulator's device, with no layerlight.json, shows at the menu in its first ms."""
    cfg = wire.device_config({})
    dev = simcore.make_device(firmware_files.device_files(), 16, 16, 1, None, 0)
    sim = simcore.Simulator(dev, frames=True)
    out = set()
    for no in range(ms // 10):
        sim.run_line("wait 10", no + 1)
        s = sim.state([])
        assert s["game"] == "menu"
        out.add(wire.wire_bytes(s["frame"], cfg, dev.hw.cap))
    return out


def test_a_blank_chip_with_the_uf2_alone_boots_to_the_menu(uf2_image):
    lines = uf2_image["boot_lines"]
    head = lines[0]
    assert head.startswith("Layerlight 0.1.0") and "MicroPython v1.28.0" in head and "RP2040" in head, lines
    # no settings on the blank chip: the defaults; the Layers deck read from the UF2's ROMFS
    assert "config: no layerlight.json, using defaults" in lines
    assert "deck: decks/default.deck, 240 missions" in lines, lines
    assert not any("Traceback" in line or "error" in line for line in lines), lines
    # the menu on the matrix, as the simulator draws it (default settings: cap 0.25, 16x16)
    frames = [data for _us, data in uf2_image["boot_frames"]]
    assert len(frames) >= 10 and all(len(f) == 16 * 16 * 3 for f in frames)
    menu = menu_frames_of_the_simulator()
    assert frames[-1] in menu and frames[-1] != bytes(len(frames[-1])), "the last frame is not the menu's"
    # nothing on the filesystem but what the firmware wrote; the decks are the UF2's
    inside = uf2_image["inside"]
    assert "main.py" not in inside["root"] and "layerlight" not in inside["root"] and "decks" not in inside["root"]
    assert inside["rom"] == ["default.deck", "otlo.deck"]
    assert inside["uf2"].startswith("0.1.0")
    assert inside["versions"].startswith("Layerlight 0.1.0") and "the Layerlight UF2" in inside["versions"]
    assert "MicroPython 1.28.0" in inside["versions"]
    # `layerlight flash` onto it: only the table's own file (its settings) went over
    done = uf2_image["flash"]
    assert done["uf2"] == inside["uf2"] and done["data"] == ["layerlight.json"]
    assert done["sent"] == [] and done["copied"] == [] and not done["main"] and done["removed"] == []
    assert "Traceback" not in done["boot_log"] and "Layerlight 0.1.0" in done["boot_log"]


def test_no_block_of_the_uf2_reaches_the_filesystem():
    """The firmware ends below the ROMFS partition, the ROMFS below LittleFS at 0xA0000 (where
    stock MicroPython keeps it): a UF2 put on never erases a table's files."""
    layout = uf2.board_layout(BOARD_DIR)
    assert layout["fs"] == 0xA0000
    with open(uf2_fixture.built_uf2(), "rb") as f:
        data = f.read()
    low, high = uf2.program_span(data)
    assert low == 0 and high <= layout["fs"]
    firmware = [a + len(p) for a, p, _f in uf2.blocks(data) if a < 0x10000000 + layout["romfs"]]
    assert max(firmware) <= 0x10000000 + layout["romfs"]
    assert uf2.is_layerlight(data)
    with pytest.raises(uf2.UserError, match="ROMFS image is .* bytes, its partition"):
        uf2.assemble(data, bytes(layout["romfs_bytes"] + 2), layout)


def play_and_keep(uf2_path, rom, image, lines, seed, game, players):
    """Plays lines from a power on, then powers off keeping the flash; the reports."""
    pico = target.power_on(uf2_path, rom, image)
    reports = []
    try:
        pico.run_ms(500)
        game_on = session.Session(pico, bounce=False)
        game_on.begin(seed, game, players)
        game_on.play(session.Timeline().read(lines), lambda r, f, no: reports.append(r))
    finally:
        pico.close(keep=True)
    return reports


def test_a_newer_uf2_over_an_older_one_keeps_the_tables_files(uf2_image, tmp_path):
    """UF2 A plays a Layers game to a save; UF2 B (another ROMFS: a file of its own beside the same
    decks) is written over the program's part of the flash only, everything of A there erased
    first (the save journal at the top of the ROMFS partition and LittleFS kept: no UF2 block
    reaches them); B boots, offers RESUME and resumes the game A saved, with the table's settings."""
    name, script, game, players, seed = GAMES[0]
    lines = script.split("\n")
    saves = saves_in(script, game, players, seed)
    at, scores = next(s for s in saves if s[0] > len(lines) // 3 and any(s[1]))
    image = uf2_fixture.copy_image(uf2_image, tmp_path)
    reports = play_and_keep(uf2_image["uf2"], uf2_image["rom"], image, lines[:at + 1] + ["wait 1000"],
                            seed, game, players)
    assert reports[-1]["scores"] == scores and reports[-1]["game"] == game

    with open(uf2_image["uf2"], "rb") as f:
        a = f.read()
    layout = uf2.board_layout(BOARD_DIR)
    b = uf2.assemble(a, uf2.romfs_image(os.path.join(firmware_files.FIRMWARE, "decks"), {"uf2-b": b"B\n"}), layout)
    assert b != a and uf2.program_span(b)[1] <= layout["journal"]
    b_path = str(tmp_path / "b.uf2")
    with open(b_path, "wb") as f:
        f.write(b)
    with open(image, "rb") as f:
        flash = bytearray(f.read())
    # the program's part, below the save journal (no UF2 block reaches it): nothing of A left
    flash[:layout["journal"]] = b"\xff" * layout["journal"]
    with open(image, "wb") as f:
        f.write(flash)

    resumed = after_power_on({"uf2": b_path, "rom": uf2_image["rom"]}, image, ["wait 100", "wait 50", "press A", "wait 100"])
    assert resumed[0]["choice"] == "RESUME", resumed[0]
    assert resumed[-1]["game"] == game and resumed[-1]["phase"] != "error"
    assert resumed[-1]["scores"] == scores
    # B is what ran: its own ROMFS file is there, beside the table's files
    pico = target.power_on(b_path, uf2_image["rom"], image)
    try:
        pico.run_ms(300)
        inside = uf2_fixture.look_inside(pico)
    finally:
        pico.close()
    assert "uf2-b" in inside["rom_top"] and inside["rom"] == ["default.deck", "otlo.deck"]
    assert "layerlight.json" in inside["root"]


def test_emulate_boots_the_uf2_with_nothing_copied(tmp_path):
    """`layerlight emulate --uf2 build/layerlight-pico.uf2`: the Pico starts as after the drag onto
    RPI-RP2 (a blank chip, nothing flashed) and plays a script as `sim` does."""
    import subprocess
    uf2_path, rom = uf2_fixture.built_uf2(), uf2_fixture.boot_rom()
    r = subprocess.run([os.path.join(uf2_fixture.REPO, ".venv", "bin", "layerlight"), "emulate", "--uf2", uf2_path,
                        "--bootrom", rom, "--headless", "--script", "-", "--seed", "3"],
                       input="wait 600\npress B\nwait 100\n", capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "nothing copied" in r.stderr and "Traceback" not in r.stderr
    assert "copying only the table" not in r.stderr and "restarting the board" not in r.stderr
    assert "| Layerlight 0.1.0" in r.stderr and "| deck: decks/default.deck, 240 missions" in r.stderr
    dev = simcore.make_device(firmware_files.device_files(), 16, 16, 3, None, 0)
    sim = simcore.Simulator(dev)
    for no, line in enumerate(["wait 600", "press B", "wait 100"]):
        sim.run_line(line, no + 1)
    assert r.stdout.strip() == simcore.dumps(sim.state([]))


def test_a_developers_own_main_py_runs_instead_of_the_frozen_firmware(uf2_image, tmp_path):
    """A /main.py put on the filesystem by hand (not by `layerlight flash`) runs in place of the
    frozen firmware, with MicroPython's usual sys.path ('' before '.frozen')."""
    from layerlight_tools import devicefs, flash
    from layerlight_tools.pico.bridge import SerialBridge
    image = uf2_fixture.copy_image(uf2_image, tmp_path)
    pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], image)
    try:
        pico.run_ms(300)
        with SerialBridge(pico) as bridge:
            board = devicefs.Board(bridge.port, timeout=60)
            try:
                board.load_helpers()
                board.put_atomic("/main.py", b"import sys\nprint('my own main.py', sys.path[:2])\n")
                log = flash.restart(board, 1.0)
            finally:
                board.close()
    finally:
        pico.close()
    assert "running /main.py from the filesystem instead of the frozen firmware" in log, log
    assert "my own main.py ['', '.frozen']" in log and "deck:" not in log and "Traceback" not in log
