# A colour chosen on a screen, as the LED value that gives the same light.
#
# A screen's values are gamma-encoded (sRGB); a WS2812's light is linear in
# its value (PWM). Sent as it is, a screen colour looks washed out and pale on
# the matrix (a half-value channel is half the light, which looks far brighter
# than a screen's half). So a colour that comes from a screen (an OTLO tile
# set's gems) is decoded to linear light first. This is the inverse of the
# host's colour model, layerlight_tools/led_colour.py; tests/test_led_colour.py
# holds the two to each other for every channel value.


def channel(v):
    """One channel 0..255 of an sRGB screen colour -> the LED value 0..255 of the same light."""
    c = v / 255
    c = c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return int(255 * c + 0.5)


def led_value(r, g, b):
    """An sRGB screen colour (bytes) -> the LED value 0xRRGGBB that looks like it."""
    return (channel(r) << 16) | (channel(g) << 8) | channel(b)
