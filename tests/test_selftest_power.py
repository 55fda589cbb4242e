"""`layerlight doctor` never overloads the supply: every frame it has the board show, at every
size and on the default supplies, at the brightness the firmware uses (and at the most the
settings let a person choose), draws within what the supply leaves the LEDs, by the firmware's
own power model (layerlight/power.py). The doctor is run whole, as in tests/test_doctor.py
(the firmware's selftest.py drawing, a simulated person answering), and every frame it sent
is measured."""

import io
import json
from contextlib import redirect_stdout

import pytest

import test_doctor
from layerlight import config, power
from layerlight_tools import cli
from layerlight_tools import power as host_power

# the sizes, with the supplies the build docs give them (hardware/README.md: the 3 A USB-C
# supply by default, 10 A for a 32x32) and a 32x32 left on the default 3 A
SIZES = [(8, 3000, None), (16, 3000, None), (32, 3000, None), (32, 10000, None),
         (32, 10000, test_doctor.PANELS)]


class Storage:
    def __init__(self, settings):
        self.text = json.dumps(settings)

    def read_text(self, name):
        return self.text


def doctor_frames(monkeypatch, size, brightness, panels):
    """Every frame the doctor's whole run sent to the (simulated) LEDs."""
    frames = []
    show = test_doctor.FakeHardware.show

    def kept(hw, fb):
        frames.append(bytes(fb.buf))
        show(hw, fb)
    monkeypatch.setattr(test_doctor.FakeHardware, "show", kept)
    settings = {"width": size, "height": size, "brightness": brightness, "panels": panels}
    really = {"panels": panels} if panels else {}
    f, _person, _cfg = test_doctor.fake_doctor(settings, **really)
    assert f.problems == [] and f.fixes == {}, f.problems
    return frames


@pytest.mark.parametrize("size,supply,panels", SIZES)
@pytest.mark.parametrize("brightness", ["configured", "highest"])
def test_every_doctor_frame_is_within_the_supply(monkeypatch, size, supply, panels, brightness):
    cfg = config.load(Storage({"width": size, "height": size, "supply_ma": supply}), lambda line: None)
    level = cfg["brightness"] if brightness == "configured" else cfg["brightness_cap"]
    frames = doctor_frames(monkeypatch, size, level, panels)
    leds = size * size
    budget = supply - power.CONTROLLER_MA
    assert len(frames) > 2 * size  # the fills, the lines, the sweep's rows and columns, the seats
    assert all(len(f) == leds * 3 for f in frames)
    worst = max(leds * power.IDLE_MA + power.CHANNEL_MA * sum(f) / 255 for f in frames)
    assert worst <= budget, "a doctor frame draws %.0f mA, the supply leaves the LEDs %d mA" % (worst, budget)
    # the power model's own figure for the self-test is that frame (what `layerlight power` prints)
    assert host_power.selftest_peak(size, size, level, panels)["ma"] == pytest.approx(worst)


def test_the_sweep_lights_every_led_in_white():
    """Half white is still every channel of every LED lit (the person checks each LED)."""
    frames = [f for what, f in host_power.selftest_frames(16, 16, 0.25) if what == "sweep"]
    last = frames[-1]
    assert min(last) > 0 and len(set(last)) == 1


def test_layerlight_power_says_the_self_test_fits():
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["power", "--size", "16x16", "--supply", "3A"]) == 0
    line = [x for x in out.getvalue().splitlines() if "self-test" in x]
    assert line == ["the self-test (`layerlight doctor`) at brightness 0.250: 2.18 A in its brightest frame "
                    "(sweep), within the 2.75 A the supply leaves the LEDs"]
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["power", "--size", "32x32", "--supply", "10A", "--json"]) == 0
    r = json.loads(out.getvalue())
    assert r["selftest_brightest_ma"] <= r["led_budget_ma"] == 9750
