"""The Layerlight UF2 on the emulated Pico with its watchdog on (watchdog_ms 8000, the default),
as a builder's board meets it (issue 34):

- a firmware that stops feeding the watchdog is reset (pico.mjs resets the chip as a board
  does, flash kept, the console says so) and comes back to the menu;
- a host that takes over (Ctrl-C: layerlight doctor, flash, mpremote) is never cut off: the
  firmware stops the watchdog when it hands over, so a 30 s mpremote session stays up and
  the doctor runs to its end with a 9 s wait for a press; every frame the doctor showed on
  the data pin is within the 3 A supply by the power model;
- any bytes on the console (non-ASCII, binary) are ignored with a note: the menu answers on;
- a pin setting the board cannot use falls back to the board's pin: the matrix shows the
  error glyph (E5), the console says what and where, and the box plays on;
- an exception that escapes the loop is logged, shown as the error glyph (E6), and the device
  restarts into the menu; a host's Ctrl-C still gets the REPL.

Re-flashing a running board on stock MicroPython is tests/test_emulated_pico.py's `flashed`
fixture (its second flash goes onto a board running the firmware, watchdog on).
"""

import json
import shutil
import time

import pytest

from layerlight import power, screens
from layerlight_tools import devicefs, doctor, firmware_files, simcore
from layerlight_tools.pico import target, wire
from layerlight_tools.pico.bridge import SerialBridge

import test_doctor
import uf2_fixture

pytestmark = pytest.mark.chip  # the emulated RP2040: in make test, not in make quick

SIZE = 16


@pytest.fixture(scope="module")
def uf2():
    return uf2_fixture.built_uf2(), uf2_fixture.boot_rom()


def power_on(uf2, image):
    return target.power_on(uf2[0], uf2[1], str(image))


def text(pico, since_us=0):
    with pico.cond:
        return "\n".join(line for us, line in pico.lines if us >= since_us)


def frames_since(pico, us):
    with pico.cond:
        return [f["data"] for f in pico.frames if f["start_us"] >= us]


def sim_frames(settings, ms=6000, code=None):
    """The frames the simulator's device with this layerlight.json shows in its first ms."""
    cfg = wire.device_config(settings)
    dev = simcore.make_device(firmware_files.device_files(None, settings), SIZE, SIZE, 1, None, 0)
    sim = simcore.Simulator(dev, frames=True)
    out = set()
    for no in range(ms // 10):
        sim.run_line("wait 10", no + 1)
        out.add(wire.wire_bytes(sim.state([])["frame"], cfg, dev.hw.cap))
    return out


def error_frame(code, settings=None):
    """The error glyph with its code, as the device sends it (default settings)."""
    from layerlight.display import FrameBuffer
    from layerlight.strip_map import config_map
    cfg = wire.device_config(settings or {})
    fb = FrameBuffer(SIZE, SIZE, config_map(cfg), cfg["brightness"], cfg["color_order"])
    screens.error(fb, code)
    return bytes(fb.buf)


MENU = None


def menu_frames():
    global MENU
    if MENU is None:
        MENU = sim_frames({})
    return MENU


def at_the_repl(pico):
    """Ctrl-C, as a host takes over; returns once the friendly REPL prompts."""
    pico.take_serial()
    pico.write(b"\x03\x03")
    pico.wait_serial(b">>> ", "the REPL prompt", limit_ms=5000)


def repl(pico, line, limit_ms=5000):
    pico.take_serial()
    pico.write(line.encode() + b"\r\n")
    return pico.wait_serial(b">>> ", "the REPL after %r" % line, limit_ms=limit_ms)


def test_a_firmware_that_stops_feeding_is_reset_and_comes_back_to_the_menu(uf2, tmp_path):
    pico = power_on(uf2, tmp_path / "flash.bin")
    try:
        pico.run_ms(1500)
        assert frames_since(pico, 0)[-1] in menu_frames()
        at_the_repl(pico)
        # a firmware that starts the watchdog and then hangs, never feeding it
        pico.write(b"import machine; w = machine.WDT(timeout=1000)\r\nwhile True: pass\r\n")
        hung = pico.us
        pico.run_until(lambda: pico.watchdog_resets, "the watchdog's reset", limit_ms=3000)
        assert 1000e3 <= pico.watchdog_resets[0] - hung <= 1300e3
        assert "[the watchdog reset the chip at" in text(pico)
        # the chip starts again from its boot code: main.py, the menu on the matrix
        pico.run_until(lambda: pico.connected, "USB again", limit_ms=5000)
        reset_us = pico.watchdog_resets[0]
        pico.run_ms(2500)
        after = frames_since(pico, reset_us)
        assert len(after) >= 10 and after[-1] in menu_frames()
        assert len(pico.watchdog_resets) == 1
    finally:
        pico.close()


def test_an_mpremote_session_of_30_s_stays_up(uf2, tmp_path):
    pico = power_on(uf2, tmp_path / "flash.bin")
    try:
        pico.run_ms(1500)  # the menu runs: its loop has started the watchdog
        with SerialBridge(pico) as bridge:
            board = devicefs.Board(bridge.port, timeout=60)
            try:
                assert board.eval("1 + 1") == 2
                start = pico.us
                while pico.us - start < 30e6:
                    time.sleep(0.5)
                assert board.eval("6 * 7") == 42
            finally:
                board.close()
        assert pico.watchdog_resets == []
    finally:
        pico.close()


def test_the_doctor_runs_to_its_end_within_the_supply(uf2, tmp_path, monkeypatch):
    # the doctor's waits for the board are in wall seconds, and the emulated Pico runs about
    # ten times slower than a board: its calls get that much longer here
    call = doctor.Session.call
    monkeypatch.setattr(doctor.Session, "call", lambda self, expr, timeout=10: call(self, expr, timeout * 20))
    pico = power_on(uf2, tmp_path / "flash.bin")
    heard = []
    seen_tones = [0]

    def leds():
        until = pico.us + 20000  # the frame the board just started (7.7 ms at 16x16) is out by then
        while pico.us < until:
            time.sleep(0.01)
        with pico.cond:
            return pico.frames[-1]["data"]

    def press(pin):
        if pin == 7:
            return  # nobody presses B: the doctor waits its 9 s for it, longer than the watchdog's 8
        at = pico.us + 300000
        pico.edge(pin, 0, at)
        pico.edge(pin, 1, at + 150000)

    def tones():
        with pico.cond:
            new = [hz for _us, hz in pico.tones[seen_tones[0]:]]
            seen_tones[0] = len(pico.tones)
        heard.extend(new)
        return new

    try:
        pico.run_ms(1500)
        start = pico.us
        with SerialBridge(pico) as bridge:
            person = test_doctor.Person(leds, press, tones)
            f = doctor.doctor(port=bridge.port, ui=person, button_timeout=9)
        assert f.problems == ["no press of B seen on GPIO 7 in 9 s: check its two wires, one to GPIO 7, "
                              "the other to GND"], f.problems
        assert f.fixes == {} and "every LED" in f.ok and "buzzer" in f.ok
        assert pico.watchdog_resets == [] and pico.us - start > 12e6
        frames = frames_since(pico, start)
        leds_n = SIZE * SIZE
        worst = max(leds_n * power.IDLE_MA + power.CHANNEL_MA * sum(d) / 255 for d in frames)
        assert worst <= 3000 - power.CONTROLLER_MA, worst
        # the doctor restarts the firmware at its end: the menu again
        pico.run_ms(2000)
        assert frames_since(pico, pico.us - 500000)[-1] in menu_frames()
    finally:
        pico.close()


def test_any_bytes_on_the_console_leave_the_menu_running(uf2, tmp_path):
    pico = power_on(uf2, tmp_path / "flash.bin")
    try:
        pico.run_ms(1500)
        pico.write("héllo\r\n".encode())
        pico.write(bytes([0, 1, 0xFF, 0xFE, 0x80, 0xC3]) + b"binary\n" + bytes(range(128, 256)) + b"\r")
        pico.run_ms(500)
        lines = text(pico)
        assert "console: ignored a line that is not ASCII text (6 bytes)" in lines
        assert "console: ignored a line that is not ASCII text (12 bytes)" in lines
        assert "console: ignored a line that is not ASCII text (128 bytes)" in lines
        assert "Traceback" not in lines and ">>>" not in lines
        # the menu answers: a host's request, and a press of B moves on to the next item
        pico.write(b"LL mem\n")
        pico.wait_line("LL {\"alloc\"", "the device's answer", limit_ms=2000)
        before = pico.us
        pico.edge(7, 0, pico.us + 100000)
        pico.edge(7, 1, pico.us + 200000)
        pico.run_ms(600)
        after = frames_since(pico, before + 300000)
        assert after and after[-1] in sim_frames_after_b()
    finally:
        pico.close()


def sim_frames_after_b():
    dev = simcore.make_device(firmware_files.device_files(), SIZE, SIZE, 1, None, 0)
    sim = simcore.Simulator(dev, frames=True)
    cfg = wire.device_config({})
    for no, line in enumerate(["wait 100", "down B", "wait 100", "up B"]):
        sim.run_line(line, no + 1)
    out = set()
    for no in range(100):
        sim.run_line("wait 10", no + 10)
        out.add(wire.wire_bytes(sim.state([])["frame"], cfg, dev.hw.cap))
    return out


def with_settings(pico, settings):
    """layerlight.json written at the REPL, then a soft reset: the firmware boots with it."""
    at_the_repl(pico)
    repl(pico, "open('layerlight.json', 'w').write(%r)" % json.dumps(settings))
    start = pico.us
    pico.take_serial()
    pico.write(b"\x04")  # Ctrl-D: a soft reset runs main.py
    return start


@pytest.mark.parametrize("settings,where", [
    ({"matrix_pin": 40}, "config matrix_pin: 40 is not a pin of the Raspberry Pi Pico (RP2040), "
                         "the board's pin 16 is used"),
    ({"buttons": {"B": 29}}, "config buttons.B: 29 is not a pin of the Raspberry Pi Pico (RP2040), "
                             "the board's pin 7 is used"),
    ({"buzzer_pin": 16}, "config buzzer_pin: 16 is already the matrix's, the board's pin 15 is used"),
])
def test_a_pin_the_board_cannot_use_shows_the_error_and_plays_on(uf2, tmp_path, settings, where):
    pico = power_on(uf2, tmp_path / "flash.bin")
    try:
        pico.run_ms(1500)
        start = with_settings(pico, settings)
        pico.run_ms(1500)
        assert "error E%d: %s" % (screens.ERR_PIN, where) in text(pico, start)
        frames = frames_since(pico, start)
        assert error_frame(screens.ERR_PIN) in frames
        # the box plays on its board's pins: B (GPIO 7) moves the menu on, after the error
        pico.run_ms(4000)
        assert frames_since(pico, pico.us - 300000)[-1] in menu_frames()
        before = pico.us
        pico.edge(7, 0, pico.us + 100000)
        pico.edge(7, 1, pico.us + 200000)
        pico.run_ms(600)
        assert frames_since(pico, before + 300000)[-1] in sim_frames_after_b()
        assert "Traceback" not in text(pico, start)
    finally:
        pico.close()


def test_an_exception_that_escapes_the_loop_shows_the_error_and_restarts(uf2, tmp_path):
    pico = power_on(uf2, tmp_path / "flash.bin")
    try:
        pico.run_ms(1500)
        at_the_repl(pico)
        # the loop fails outside the modes' guard (a bug in the device's own loop)
        repl(pico, "import sys, layerlight.app as app; del sys.modules['layerlight.start']")
        start = pico.us
        pico.take_serial()
        pico.write(b"app.Device.run = lambda self: 1 // 0; import layerlight.start\r\n")
        pico.run_ms(1000)
        lines = text(pico)
        assert "error E%d: the device stopped (ZeroDivisionError: divide by zero), it restarts" % (
            screens.ERR_CRASH) in lines
        assert "Traceback" in lines  # the traceback on the console, as for a mode's crash
        assert error_frame(screens.ERR_CRASH) in frames_since(pico, start)
        # the soft reset boots again (a fresh heap: the loop is right again) into the menu
        pico.run_ms(6000)
        assert frames_since(pico, pico.us - 300000)[-1] in menu_frames()
        assert pico.watchdog_resets == []
        # a host's Ctrl-C still gets the REPL
        at_the_repl(pico)
        assert "errors.log" in repl(pico, "import os; print(os.listdir())").decode()
    finally:
        pico.close()


class SlowHost:
    """`layerlight flash`'s progress on a slow PC: 2 s of the board's time pass after its first
    line (the board in the raw REPL, the files still to come)."""

    def __init__(self, pico):
        import io
        from layerlight_tools import flash
        self.pico = pico
        self.progress = flash.Progress(io.StringIO(), tty=False)
        self.waited = False

    def line(self, text):
        self.progress.line(text)
        if not self.waited:
            self.waited = True
            until = self.pico.us + 2000000
            while self.pico.us < until:
                time.sleep(0.05)

    def file(self, *args):
        return self.progress.file(*args)


@pytest.mark.xdist_group("stock-flashed")  # uf2_fixture.stock_flashed, made once a worker
def test_reflashing_a_running_board_on_stock_micropython_completes(stock_flashed, tmp_path):
    """`layerlight flash` onto a board running the firmware, on stock MicroPython, its watchdog
    at 1 s: the flash (a soft reset into the raw REPL, then the files) takes longer than that,
    and completes; the firmware runs again afterwards. (The board flashed from nothing is
    uf2_fixture's: here its settings change to the 1 s watchdog first.)"""
    settings = {"watchdog_ms": 1000}
    image = str(tmp_path / "flash.bin")
    shutil.copyfile(stock_flashed["image"], image)
    pico = target.power_on(stock_flashed["uf2"], stock_flashed["rom"], image)
    try:
        target.flash(pico, settings)
        pico.run_ms(1500)  # the firmware's loop runs: the watchdog is on
        start = pico.us
        summary = target.flash(pico, dict(settings, timer_s=7), progress=SlowHost(pico))
        assert summary["data"] == ["layerlight.json"] and "Traceback" not in summary["boot_log"]
        assert (pico.us - start) / 1e6 > 2.5
        assert pico.watchdog_resets == []
        pico.run_ms(1500)
        with pico.cond:
            assert pico.frames[-1]["start_us"] > pico.us - 200000  # the firmware draws again
    finally:
        pico.close()
