"""`layerlight monitor`: the error log, then the console of the restarted firmware (board on a pty)."""

import io

import pytest

from layerlight_tools import cli, devicefs, flash, monitor
from wasm.pty_device import PtyDevice


@pytest.fixture(scope="module")
def board():
    with PtyDevice() as dev:
        flash.flash(port=dev.port, board_name="pico", watch_s=0.2)
        yield dev


def test_monitor_shows_the_error_log_then_the_console(board):
    board.write("/" + devicefs.ERROR_LOG, b"E2 layers crashed: ZeroDivisionError\n")
    boots = board.status()["boots"]
    out = io.StringIO()
    # watched for 3 s: the WebAssembly board's restart printed its boot lines within 1 s alone,
    # and once missed them in 1 s with two emulated Picos running beside it
    assert monitor.monitor(port=board.port, seconds=3.0, out=out) == 0
    text = out.getvalue()
    assert "--- errors.log on the board ---\n" in text
    assert "E2 layers crashed: ZeroDivisionError\n" in text
    console = text.split("--- console of %s, firmware restarted (Ctrl-C to stop) ---\n" % board.port)[1]
    assert "deck: decks/default.deck" in console   # the firmware's boot messages
    assert "\r" not in text and "\x04" not in text
    status = board.status()
    assert status["running"] and status["boots"] == boots + 1


def test_monitor_log_only(board, capsys):
    board.write("/" + devicefs.ERROR_LOG, b"")
    code = cli.main(["monitor", "--port", board.port, "--log"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert "--- errors.log on the board ---\n(empty)\n" in out
    assert board.status()["running"]


def test_monitor_attach_does_not_stop_the_game(board):
    board.power_cycle()
    boots = board.status()["boots"]
    out = io.StringIO()
    assert monitor.monitor(port=board.port, restart=False, show_log=False, seconds=0.3, out=out) == 0
    assert out.getvalue().startswith("--- console of %s (Ctrl-C to stop) ---" % board.port)
    status = board.status()
    assert status["running"] and status["boots"] == boots


def test_monitor_without_an_error_log(board):
    board.control("remove", path="/" + devicefs.ERROR_LOG)
    out = io.StringIO()
    monitor.monitor(port=board.port, seconds=0.2, out=out)
    assert "--- no error log on the board (errors.log does not exist) ---" in out.getvalue()
