"""The pty board itself (tests/wasm/pty_device.mjs): the real mpremote command line talks to it as to a board."""

import os
import subprocess

import pytest

from layerlight_tools import flash
from wasm.pty_device import PtyDevice

MPREMOTE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".venv", "bin", "mpremote")


def mpremote(dev, *args):
    r = subprocess.run([MPREMOTE, "connect", dev.port] + list(args), capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


@pytest.mark.parametrize("raw_paste", [True, False], ids=["raw-paste", "plain-raw-repl"])
def test_mpremote_file_commands(tmp_path, raw_paste):
    src = tmp_path / "hello.txt"
    src.write_bytes(b"hello \x00\xff board\n" * 50)
    with PtyDevice(raw_paste=raw_paste) as dev:
        assert mpremote(dev, "exec", "print(6 * 7)")[:2] == (0, "42\n")
        assert mpremote(dev, "fs", "mkdir", "d")[0] == 0
        code, out, err = mpremote(dev, "fs", "mkdir", "d")
        assert code == 1 and "File exists" in err           # Emscripten's EEXIST (20) became a board's 17
        code, out, err = mpremote(dev, "fs", "cat", ":nope.txt")
        assert code == 1 and "No such file or directory" in err  # ENOENT: 44 -> 2
        assert mpremote(dev, "fs", "cp", str(src), ":d/hello.txt")[0] == 0
        assert dev.read("/d/hello.txt") == src.read_bytes()
        code, out, err = mpremote(dev, "fs", "sha256sum", ":d/hello.txt")
        import hashlib
        assert hashlib.sha256(src.read_bytes()).hexdigest() in out
        assert mpremote(dev, "soft-reset", "fs", "ls", "d")[1].endswith("hello.txt\n")  # the flash survives
        assert dev.status()["boots"] >= 3  # each mpremote command line starts with a soft reset


def test_ctrl_c_stops_the_firmware_and_ctrl_d_starts_it_again():
    with PtyDevice() as dev:
        flash.flash(port=dev.port, board_name="pico", watch_s=0.2)
        assert dev.status()["running"]
        code, out, err = mpremote(dev, "resume", "exec", "print('hello from the REPL')")
        assert (code, out) == (0, "hello from the REPL\n")
        assert not dev.status()["running"]
        code, out, err = mpremote(dev, "resume", "eval", "__import__('sys').path")
        assert out.startswith("['/firmware/a', ")  # left by the main.py that ran, as on a board
        dev.power_cycle()
        assert dev.status()["running"]
