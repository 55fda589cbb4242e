"""What a person sees of an LED: the one colour model of the host tools.

A frame pixel is a value 0xRRGGBB as the firmware writes it (before the
brightness cap). The strip then gets each channel scaled by the cap, rounded
as the firmware's own table does (display.brightness_table). A WS2812 sends
out light in proportion to that byte (PWM): the light is *linear* in the
value, unlike a screen, whose values are gamma-encoded. Looking at the matrix,
the eye adapts to the matrix's own white (all three channels at the cap), so
a colour is judged relative to that white. The LEDs' primaries are taken as
sRGB's (real LED primaries are a little more saturated, which only spreads
colours further apart).

So what the eye sees of a pixel is the linear light

    light = scaled(value) / scaled(255)     per channel, 0..1

in the sRGB-linear space with the matrix's white as D65 white. Everything
that shows an LED or judges one goes through here: the terminal simulator,
the web page (which gets `screen_table` from the server), the docs pictures
and the tests (CIEDE2000 and colour-vision deficiency through coloraide).
"""

from coloraide import Color

from layerlight.display import brightness_table

DEFAULT_CAP = 0.25  # the device's default brightness (config.py)
CVD_KINDS = ("deutan", "protan")  # the common colour-vision deficiencies: red-green, ~8 % of men


def _value(value):
    return int(value, 16) if isinstance(value, str) else value


def light(value, cap=DEFAULT_CAP):
    """The light of each channel of a pixel, 0..1 of the matrix's white at `cap`."""
    v = _value(value)
    table = brightness_table(cap)
    white = table[255] or 1
    return (table[v >> 16] / white, table[(v >> 8) & 0xFF] / white, table[v & 0xFF] / white)


def seen(value, cap=DEFAULT_CAP):
    """The colour a person sees (a coloraide Color, sRGB-linear)."""
    return Color("srgb-linear", list(light(value, cap)))


def lab(value, cap=DEFAULT_CAP):
    """CIELAB (D65 white = the matrix's white) of what a person sees."""
    return tuple(seen(value, cap).convert("lab-d65").coords())


def delta_e(a, b, cap=DEFAULT_CAP, cvd=None):
    """CIEDE2000 between two pixels as the eye sees them (about 2.3 is just noticeable);
    `cvd` ("deutan" or "protan") judges them as a person with that deficiency would."""
    ca, cb = seen(a, cap), seen(b, cap)
    if cvd:
        ca, cb = simulate(ca, cvd), simulate(cb, cvd)
    return ca.delta_e(cb, method="2000")


def simulate(colour, kind):
    """A Color as a dichromat of `kind` sees it (Brettel 1997, full severity)."""
    return colour.filter(kind, method="brettel", space="srgb-linear", out_space="srgb-linear").clip()


def screen_rgb(value, cap=DEFAULT_CAP):
    """The sRGB screen colour (r, g, b bytes) that looks like the LED: its linear light, encoded."""
    c = seen(value, cap).convert("srgb").clip()
    return tuple(int(round(255 * ch)) for ch in c.coords())


def screen_table(cap=DEFAULT_CAP):
    """For every channel value 0..255 the screen byte that shows it as the LEDs do.

    The model is channel by channel (linear light, sRGB primaries, the matrix's
    white as the screen's white), so one table of 256 bytes turns a frame into
    screen colours: what the web page and the terminal use.
    """
    table = brightness_table(cap)
    white = table[255] or 1
    out = bytearray(256)
    for v in range(256):
        out[v] = int(round(255 * Color("srgb-linear", [table[v] / white] * 3).convert("srgb").clip()["red"]))
    return bytes(out)


def frame_screen_rgb(rows, cap=DEFAULT_CAP):
    """A frame (rows of RRGGBB hex, as traced) as rows of screen (r, g, b) tuples."""
    t = screen_table(cap)
    out = []
    for row in rows:
        out.append([(t[int(row[i:i + 2], 16)], t[int(row[i + 2:i + 4], 16)], t[int(row[i + 4:i + 6], 16)])
                    for i in range(0, len(row), 6)])
    return out


def led_value_for(screen_hex):
    """The LED value (0xRRGGBB before the cap) whose light looks like a screen colour "#rrggbb":
    the inverse of the model, for colours chosen on a screen (a tile set's gems)."""
    c = Color(screen_hex).convert("srgb-linear").clip()
    r, g, b = (int(round(255 * ch)) for ch in c.coords())
    return (r << 16) | (g << 8) | b
