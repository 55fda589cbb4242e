"""The colour model: what a person sees of an LED value (layerlight_tools.led_colour)."""

import pytest

from layerlight.display import FrameBuffer
from layerlight_tools import led_colour
import table_view


@pytest.mark.parametrize("cap", [0.1, 0.25, 0.5, 1.0])
def test_the_matrix_white_is_the_eyes_white_at_every_brightness(cap):
    assert led_colour.light(0xFFFFFF, cap) == (1.0, 1.0, 1.0)
    assert led_colour.screen_rgb(0xFFFFFF, cap) == (255, 255, 255)
    assert led_colour.screen_rgb(0x000000, cap) == (0, 0, 0)


def test_light_is_what_the_firmware_puts_on_the_wire():
    """The cap is rounded as the device rounds it: the light is the wire byte over the white's."""
    fb = FrameBuffer(1, 1, cap=0.25, order="GRB")
    fb.pixel(0, 0, 0x60A0FF)
    g, r, b = fb.buf
    assert led_colour.light(0x60A0FF, 0.25) == (r / 64, g / 64, b / 64)


def test_an_led_is_brighter_than_a_screen_of_the_same_value():
    """Half the value is half the light, which the eye sees as much more than half of a screen's
    half: a half-value grey LED looks like screen value 188, not 128."""
    assert led_colour.screen_rgb(0x808080, 1.0) == (188, 188, 188)
    table = led_colour.screen_table(1.0)
    assert list(table) == sorted(table) and table[128] == 188


def test_a_dim_grey_led_is_visible_not_black():
    """What the web page once drew as black: 0x202020 at the default cap is a clear grey."""
    r, g, b = led_colour.screen_rgb(0x202020)
    assert r == g == b and r > 80


def test_screen_yellow_turns_orange_on_an_led_only_through_the_model():
    """FFA000 (CO.OP's yellow LED) shown as a screen colour would look orange: its light is much more
    yellow than the screen colour of the same value."""
    seen = led_colour.lab(0xFFA000)
    screen = led_colour.Color("srgb", [1, 0xA0 / 255, 0]).convert("lab-d65").coords()
    assert seen[2] > 0 and led_colour.seen(0xFFA000).delta_e(led_colour.Color("srgb", [1, 0xA0 / 255, 0]),
                                                             method="2000") > 10
    assert seen[0] > screen[0]  # the LED is lighter than the screen shows the same value


@pytest.mark.parametrize("hex6", ["#d1495b", "#1d70b8", "#f2c14e", "#303030"])
def test_a_screen_colour_gets_the_led_value_that_looks_like_it(hex6):
    led = led_colour.led_value_for(hex6)
    want = led_colour.Color(hex6)
    assert led_colour.seen(led, 1.0).delta_e(want, method="2000") < 1.5


def test_colour_vision_deficiency_is_simulated():
    """Red and green seat colours are far apart for most people and much closer for a deuteranope."""
    normal = led_colour.delta_e(0xFF1010, 0x10D020)
    deutan = led_colour.delta_e(0xFF1010, 0x10D020, cvd="deutan")
    assert normal > 50 and deutan < normal / 2


def test_touching_clashes_finds_neighbours_that_look_alike():
    rows = ["0040ff1040ff000000", "000000ff0000000000", "00ff00000000000000"]
    clashes = table_view.touching_clashes(rows)
    assert [(c[1], c[2]) for c in clashes] == [((0, 0), (1, 0))]  # blue against seat blue: too close
    # red touches blue below the blue: far apart; green is not next to anything lit of another colour


def test_the_firmware_decodes_screen_colours_as_the_model_does():
    """firmware led_light (the device turns a tile set's screen colours into LED values) is the
    colour model's inverse, for every channel value."""
    from layerlight import led_light
    for v in range(256):
        assert led_light.led_value(v, v, v) == led_colour.led_value_for("#%02x%02x%02x" % (v, v, v)), v
