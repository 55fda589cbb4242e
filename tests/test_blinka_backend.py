"""The Raspberry Pi (Blinka) backend against the real Blinka + neopixel libraries.

Blinka picks its platform once, at import, from the environment: with
BLINKA_OS_AGNOSTIC=1 adafruit_platformdetect reports chip OS_AGNOSTIC and board
OS_AGNOSTIC_BOARD, `board` becomes adafruit_blinka.board.generic_agnostic_board,
and digitalio/pwmio/neopixel_write use the mocks in
adafruit_blinka.microcontroller.generic_agnostic_board. Since that choice is
global and sticky, every test runs the backend in a fresh subprocess.

How the LED bytes are caught: neopixel.NeoPixel.show() -> adafruit_pixelbuf
-> NeoPixel._transmit -> neopixel_write.neopixel_write(pin, buf), which calls
`_neopixel.neopixel_write(pin, buf)` on the platform module, looked up at call
time. On the agnostic board that module is
adafruit_blinka.microcontroller.generic_agnostic_board.neopixel (whose
function just discards the bytes), so replacing its `neopixel_write` sees the
final wire-order buffer with every Blinka layer above it still running.

How buttons are simulated: the agnostic board has no D5/D18/... pins, so the
prelude adds the rpi profile's pin names to `board`, as agnostic Pin objects.
That Pin's simulated input level is chosen by its id (id 1 = Dx_INPUT_FALSE
reads low, id 2 = Dx_INPUT_TRUE_PULL_UP reads high), and DigitalInOut builds its
own Pin(pin.id), so a "pressed" button is a name bound to a pin with id 1. No
Blinka code is patched for input.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FIRMWARE = str(Path(__file__).resolve().parents[1] / "firmware")

PRELUDE = r'''
import json
import board
from adafruit_blinka.microcontroller.generic_agnostic_board import neopixel as agnostic_neopixel
from adafruit_blinka.microcontroller.generic_agnostic_board.pin import Pin

from layerlight import boards, config
from layerlight.display import FrameBuffer

WRITES = []


def capture(gpio, buf):
    WRITES.append(bytes(buf))


agnostic_neopixel.neopixel_write = capture

PIN_LOW, PIN_HIGH = 1, 2  # agnostic pin ids: Dx_INPUT_FALSE, Dx_INPUT_TRUE_PULL_UP
RPI = boards.PROFILES["rpi"]


def fake_pi_header(pressed=()):
    """Give `board` the rpi profile's pin names; buttons in `pressed` read low."""
    for name, pin_name in RPI["buttons"].items():
        setattr(board, pin_name, Pin(PIN_LOW if name in pressed else PIN_HIGH))
    setattr(board, RPI["matrix_pin"], board.NEOPIXEL)
    setattr(board, RPI["buzzer_pin"], board.Dx_OUTPUT)


def make_cfg(**overrides):
    cfg = config.defaults()
    cfg.update(
        board="rpi",
        width=16,
        height=16,
        layout="serpentine",
        origin="top-left",
        brightness=1.0,
        color_order="GRB",
        matrix_pin=RPI["matrix_pin"],
        buttons=dict(RPI["buttons"]),
        buzzer_pin=RPI["buzzer_pin"],
    )
    cfg.update(overrides)
    return cfg


def make_hw(pressed=(), **overrides):
    from layerlight.backends.blinka_hw import Hardware

    fake_pi_header(pressed)
    return Hardware(make_cfg(**overrides))


def test_frame(hw):
    # the backend's own frame buffer: wired and capped like its matrix
    fb = hw.framebuffer()
    fb.clear()
    fb.pixel(0, 0, 0xFF0000)
    fb.pixel(1, 0, 0x00FF00)
    fb.pixel(0, 1, 0x0000FF)
    fb.pixel(15, 1, 0x102030)
    return fb


def emit(obj):
    print("RESULT " + json.dumps(obj))
'''


def run_blinka(snippet, cwd):
    """Run PRELUDE + snippet in a fresh OS-agnostic Blinka process; return what it emit()s."""
    env = dict(os.environ)
    env["BLINKA_OS_AGNOSTIC"] = "1"
    # The agnostic board has no platform packages to install; never prompt/pip.
    env["BLINKA_SKIP_DEPENDENCY_CHECK"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (FIRMWARE, env.get("PYTHONPATH")) if p)
    code = PRELUDE + "\n" + textwrap.dedent(snippet)
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = [line[len("RESULT ") :] for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert results, proc.stdout + proc.stderr
    return json.loads(results[-1])


def strip_bytes(pixels, n=256):
    """Expected wire bytes: {strip index: (g, r, b)} over a black strip."""
    out = bytearray(n * 3)
    for i, grb in pixels.items():
        out[i * 3 : i * 3 + 3] = bytes(grb)
    return out.hex()


# Serpentine, origin top-left: row 0 runs left to right (strip 0..15), row 1
# right to left (strip 16 is x=15, strip 31 is x=0). Bytes are G, R, B.
EXPECTED_FULL = {
    0: (0x00, 0xFF, 0x00),  # (0, 0) red
    1: (0xFF, 0x00, 0x00),  # (1, 0) green
    31: (0x00, 0x00, 0xFF),  # (0, 1) blue
    16: (0x20, 0x10, 0x30),  # (15, 1) 0x102030
}
# brightness 0.5: display.brightness_table rounds, so 0xFF -> 0x80.
EXPECTED_HALF = {
    0: (0x00, 0x80, 0x00),
    1: (0x80, 0x00, 0x00),
    31: (0x00, 0x00, 0x80),
    16: (0x10, 0x08, 0x18),
}


def test_show_serpentine_grb(tmp_path):
    got = run_blinka(
        """
        hw = make_hw()
        fb = test_frame(hw)
        hw.show(fb)
        fb.clear()
        hw.show(fb)  # the cleared buffer reaches the LEDs too
        emit([w.hex() for w in WRITES])
        """,
        tmp_path,
    )
    assert len(got) == 2
    assert got[0] == strip_bytes(EXPECTED_FULL)
    assert got[1] == strip_bytes({})


def test_brightness_halves_bytes(tmp_path):
    got = run_blinka(
        """
        out = []
        hw = make_hw(brightness=0.5)
        hw.show(test_frame(hw))
        out.append(WRITES[-1].hex())
        hw = make_hw()
        fb = test_frame(hw)
        hw.show(fb)
        hw.set_brightness(0.5)
        hw.show(test_frame(hw))  # the device redraws every frame after a change
        out.append(WRITES[-1].hex())
        emit(out)
        """,
        tmp_path,
    )
    assert got == [strip_bytes(EXPECTED_HALF)] * 2


def test_color_order_rgb(tmp_path):
    got = run_blinka(
        """
        hw = make_hw(color_order="RGB")
        hw.show(test_frame(hw))
        emit(WRITES[-1].hex())
        """,
        tmp_path,
    )
    assert got == strip_bytes({i: (grb[1], grb[0], grb[2]) for i, grb in EXPECTED_FULL.items()})


@pytest.mark.parametrize(
    "pressed, bits",
    [
        ((), 0),
        (("P1",), 0b000001),
        (("P1", "P3", "B"), 0b100101),
        (("P2", "P4", "A"), 0b011010),
        (("P1", "P2", "P3", "P4", "A", "B"), 0b111111),
    ],
)
def test_buttons_read_as_bits(tmp_path, pressed, bits):
    got = run_blinka(
        """
        hw = make_hw(pressed=%r)
        emit([hw.read_buttons(), hw.read_buttons()])
        """
        % (pressed,),
        tmp_path,
    )
    assert got == [bits, bits]


@pytest.mark.parametrize(
    "overrides, key, pin",
    [
        ({"matrix_pin": "D77"}, "matrix_pin", "D77"),
        ({"buzzer_pin": "D78"}, "buzzer_pin", "D78"),
        (
            {"buttons": {"P1": "D5", "P2": "D6", "P3": "D99", "P4": "D19", "A": "D26", "B": "D21"}},
            "buttons.P3",
            "D99",
        ),
        ({"buzzer_pin": 15}, "buzzer_pin", "15"),  # a MicroPython GPIO number on a Pi
    ],
)
def test_bad_pin_is_a_clear_value_error(tmp_path, overrides, key, pin):
    got = run_blinka(
        """
        try:
            make_hw(**%r)
        except ValueError as e:
            emit(str(e))
        else:
            emit(None)
        """
        % (overrides,),
        tmp_path,
    )
    assert got is not None, "no ValueError"
    assert key in got and pin in got


def test_missing_button_is_a_clear_value_error(tmp_path):
    got = run_blinka(
        """
        buttons = dict(RPI["buttons"])
        del buttons["A"]
        try:
            make_hw(buttons=buttons)
        except ValueError as e:
            emit(str(e))
        """,
        tmp_path,
    )
    assert "buttons" in got and "A" in got


def test_tone_drives_pwm(tmp_path):
    got = run_blinka(
        """
        hw = make_hw()
        pwm = hw._pwm
        out = []
        for f in (440, 0, 3, 880):
            hw.tone(f)
            out.append([pwm.frequency, pwm.duty_cycle])
        emit(out)
        """,
        tmp_path,
    )
    assert got[0] == [440, 32768]
    assert got[1][1] == 0  # silent
    assert got[2] == [10, 32768]  # clamped to the PWM's lowest frequency
    assert got[3] == [880, 32768]


def test_open_hardware_picks_blinka_and_clock_works(tmp_path):
    got = run_blinka(
        """
        from layerlight.hardware import open_hardware

        fake_pi_header()
        hw = open_hardware(make_cfg())
        t0 = hw.ticks_ms()
        hw.sleep_ms(20)
        hw.feed()
        emit([type(hw).__module__, hw.width, hw.height, hw.ticks_diff(hw.ticks_ms(), t0), hw.storage.root])
        """,
        tmp_path,
    )
    module, w, h, elapsed, root = got
    assert module == "layerlight.backends.blinka_hw"
    assert (w, h) == (16, 16)
    assert 15 <= elapsed < 1000
    assert root == str(tmp_path)
