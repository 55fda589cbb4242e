"""What a builder's board does with settings and input it cannot use, under CPython (the
emulated Pico's side of each is in tests/test_watchdog.py):

- a pin the board cannot use (not on its header, or taken by another setting) falls back to
  the board profile's pin, with a line saying what and where (config.pins_checked), and the
  device shows the error glyph (ERR_PIN) and plays on;
- the timer that samples the buttons (boards whose buttons are not within 8 GPIOs, and the
  ESP32-S3) counts on across MicroPython's ticks wrap and past half its period (2**29 ms,
  6.2 days): a clock that starts near the wrap, with MicroPython's own ticks arithmetic.
"""

import json
import sys
import types

import pytest

from layerlight import boards, config, screens
from layerlight_tools import firmware_files, simcore


class Storage:
    def __init__(self, settings):
        self.text = json.dumps(settings)

    def read_text(self, name):
        return self.text


def load(settings):
    return config.load(Storage(settings), lambda line: None)


PICO = boards.PROFILES["pico"]


@pytest.mark.parametrize("settings,key,why", [
    ({"matrix_pin": 40}, "matrix_pin", "40 is not a pin of the Raspberry Pi Pico (RP2040)"),
    ({"matrix_pin": 25}, "matrix_pin", "25 is not a pin of the Raspberry Pi Pico (RP2040)"),  # the board's LED
    ({"matrix_pin": "16"}, "matrix_pin", "'16' is not a pin of the Raspberry Pi Pico (RP2040)"),
    ({"buzzer_pin": 16}, "buzzer_pin", "16 is already the matrix's"),
    ({"buttons": {"P1": 99}}, "buttons.P1", "99 is not a pin of the Raspberry Pi Pico (RP2040)"),
    ({"buttons": {"A": 2}}, "buttons.A", "2 is already button P1's"),
    ({"board": "rpi", "buzzer_pin": 12}, "buzzer_pin", "12 is not a pin of the Raspberry Pi (CPython + Blinka)"),
])
def test_a_pin_the_board_cannot_use_falls_back_to_the_boards_own(settings, key, why):
    cfg = load(settings)
    profile = boards.PROFILES[cfg["board"]]
    default = profile[key] if "." not in key else profile["buttons"][key.split(".")[1]]
    assert cfg["pin_problems"] == ["config %s: %s, the board's pin %r is used" % (key, why, default)]
    assert cfg["matrix_pin"] == profile["matrix_pin"] and cfg["buttons"] == profile["buttons"]
    assert cfg["buzzer_pin"] == profile["buzzer_pin"]


def test_good_pins_are_kept_and_the_rest_filled_in():
    cfg = load({"matrix_pin": 22, "buttons": {"P1": 10, "B": 11}, "buzzer_pin": 28})
    assert cfg["pin_problems"] == []
    assert (cfg["matrix_pin"], cfg["buzzer_pin"]) == (22, 28)
    assert cfg["buttons"] == dict(PICO["buttons"], P1=10, B=11)


def test_a_fallback_that_collides_gives_the_board_its_own_pins():
    # the matrix on a bad pin falls back to 16, where the buzzer was put
    cfg = load({"matrix_pin": 40, "buzzer_pin": 16, "buttons": {"P1": 15}})
    assert (cfg["matrix_pin"], cfg["buzzer_pin"], cfg["buttons"]) == (16, 15, PICO["buttons"])
    assert cfg["pin_problems"][0].startswith("config matrix_pin: 40 is not a pin")


def test_the_device_shows_a_pin_problem_as_an_error_and_plays_on():
    files = firmware_files.device_files(None, {"matrix_pin": 40})
    dev = simcore.make_device(files, 16, 16, 1, None, 0)
    s = simcore.Simulator(dev, frames=True)
    s.run_line("wait 100", 1)
    assert dev.where == "error" and dev.error_code == screens.ERR_PIN
    s.run_line("wait 5000", 2)
    assert dev.where == "menu"


# ---------------------------------------------------------------- the timer sampler

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms period (MICROPY_PY_TIME_TICKS_PERIOD)


class Ticks:
    """MicroPython's time.ticks_* as documented: a ms counter modulo 2**30, ticks_diff signed
    within half the period."""

    def __init__(self, ms):
        self.now = ms

    def ticks_ms(self):
        return self.now % TICKS_PERIOD

    def ticks_add(self, a, b):
        return (a + b) % TICKS_PERIOD

    def ticks_diff(self, a, b):
        return (a - b + TICKS_PERIOD // 2) % TICKS_PERIOD - TICKS_PERIOD // 2


@pytest.fixture
def sampler(monkeypatch):
    """micropython_hw's Hardware with its timer's sampling alone (no pins: a button bitmask)."""
    monkeypatch.setitem(sys.modules, "machine", types.ModuleType("machine"))
    monkeypatch.delitem(sys.modules, "layerlight.backends.micropython_hw", raising=False)
    from layerlight.backends import micropython_hw
    clock = Ticks(TICKS_PERIOD - 5000)  # 5 s before the wrap
    monkeypatch.setattr(micropython_hw, "time", clock)
    hw = micropython_hw.Hardware.__new__(micropython_hw.Hardware)
    hw._sampler = None
    hw._timer = None
    hw._ring = bytearray(hw.SAMPLES_KEPT)
    hw._step = hw.SAMPLE_MS
    hw.down = 0
    hw.read_buttons = lambda: hw.down

    class Timer:
        PERIODIC = 1

        def __init__(self, *args, **kw):
            pass
    micropython_hw.machine.Timer = Timer
    hw.start_sampling()
    return hw, clock, micropython_hw


def run(hw, clock, ms, step=10):
    end = clock.now + ms
    while clock.now < end:
        clock.now += step
        hw._sample(None)


def test_the_timer_sampler_counts_across_the_wrap_and_past_half_the_period(sampler):
    hw, clock, micropython_hw = sampler
    run(hw, clock, 10000)  # across the wrap
    assert hw.samples_taken() == 1000
    # the device runs on for 6.2 days and more (the timer's callback every 17 minutes here,
    # its samples in between MISSED), then every 10 ms again
    run(hw, clock, TICKS_PERIOD // 2 + 60000 - 10000, step=1 << 20)
    taken = hw.samples_taken()
    assert taken >= (TICKS_PERIOD // 2 + 50000) // 10
    start = clock.now
    run(hw, clock, 1000)
    assert hw.samples_taken() > taken + 90
    # a press at an instant is filed at that instant
    hw.down = 1
    press = hw.samples_taken() + 1
    run(hw, clock, 100)
    hw.down = 0
    run(hw, clock, 100)
    assert hw.sample(press) == 1 and hw.sample(press - 1) == 0 and hw.sample(hw.samples_taken()) == 0
    assert clock.now - start == 1200 and hw.samples_taken() == taken + 120 + (clock.now - start - 1200) // 10
