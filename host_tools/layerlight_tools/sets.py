"""Reading layer-set files (TOML, see shared/spec/layer-sets.md) into firmware geometry."""

import re
import tomllib

from layerlight import geometry

ID_RE = re.compile(r"^[A-Za-z0-9_-]+$")
HEX_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


class SetError(Exception):
    """A mistake in a set file; str() is one line naming the file and the place."""


class LayerSet:
    """A parsed set: colours are (char, (r, g, b)); colour index i+1 is colours[i]."""

    def __init__(self, name, size, background, colours, layers):
        self.name = name
        self.size = size
        self.background = background
        self.colours = colours
        self.layers = layers

    def char_of(self, index):
        return "." if index == 0 else self.colours[index - 1][0]

    def rows(self, grid):
        n = self.size
        return ["".join(self.char_of(grid[y * n + x]) for x in range(n)) for y in range(n)]


def hex_rgb(text):
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def rgb_hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def _line_of(text, needle, start=0):
    at = text.find(needle, start)
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def load(path):
    """Parse and check a set file; raises SetError with one clear line."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SetError("%s: cannot read: %s" % (path, e.strerror))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SetError("%s: not a text file (not UTF-8)" % path)
    if "\x00" in text:
        raise SetError("%s: not a text file" % path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SetError("%s: invalid TOML: %s" % (path, e))
    return parse(data, text, path)


def parse(data, text="", path="<set>"):
    def fail(msg, needle=None, start=0):
        line = _line_of(text, needle, start) if needle else None
        where = "%s:%d" % (path, line) if line else path
        raise SetError("%s: %s" % (where, msg))

    name = data.get("name", "")
    if not isinstance(name, str):
        fail("name must be text", "name")
    size = data.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or not 2 <= size <= 16:
        fail("size must be a whole number from 2 to 16, not %r" % (size,), "size")
    bg = data.get("background", "#000000")
    if not isinstance(bg, str) or not HEX_RE.match(bg):
        fail("background must be a colour like \"#f5f0e6\"", "background")
    colours_in = data.get("colors")
    if not isinstance(colours_in, dict) or not colours_in:
        fail("[colors] is missing or empty")
    colours = []
    for ch, value in colours_in.items():
        if len(ch) != 1 or ch == "." or ch.isspace():
            fail("colour key %r must be one character other than '.'" % ch, ch + " =")
        if not isinstance(value, str) or not HEX_RE.match(value):
            fail("colour %s must look like \"#d1495b\", not %r" % (ch, value), ch + " =")
        colours.append((ch, hex_rgb(value)))
    index = {ch: i + 1 for i, (ch, _) in enumerate(colours)}
    layers_in = data.get("layers")
    if not isinstance(layers_in, list) or len(layers_in) < 2:
        fail("a set needs at least 2 [[layers]], found %d" % (len(layers_in) if isinstance(layers_in, list) else 0))
    if len(layers_in) > 255:
        fail("too many layers (%d; at most 255)" % len(layers_in))
    layers = []
    seen = set()
    for k, layer in enumerate(layers_in):
        ident = layer.get("id")
        if not isinstance(ident, str) or not ID_RE.match(ident):
            fail("layer %d: id must be letters, digits, _ or -, not %r" % (k + 1, ident), "[[layers]]")
        anchor = 'id = "%s"' % ident
        if ident in seen:
            fail("duplicate layer id %r" % ident, anchor, text.find(anchor) + 1)
        seen.add(ident)
        grids = []
        for side in ("front", "back"):
            grid_text = layer.get(side)
            if not isinstance(grid_text, str):
                fail("layer %s: %s is missing" % (ident, side), anchor)
            rows = [r.strip() for r in grid_text.strip("\n").split("\n")]
            side_at = text.find(side, text.find(anchor))
            if len(rows) != size:
                fail("layer %s %s: %d rows, expected %d" % (ident, side, len(rows), size), side, text.find(anchor))
            grid = bytearray()
            for y, row in enumerate(rows):
                if len(row) != size:
                    line = _line_of(text, row, side_at) if side_at >= 0 else None
                    where = "%s:%d" % (path, line) if line else path
                    raise SetError("%s: layer %s %s row %d has %d cells, expected %d" % (where, ident, side, y + 1, len(row), size))
                for x, ch in enumerate(row):
                    if ch == ".":
                        grid.append(0)
                    elif ch in index:
                        grid.append(index[ch])
                    else:
                        fail("layer %s %s: unknown colour %r at row %d, column %d" % (ident, side, ch, y + 1, x + 1), side, text.find(anchor))
            grids.append(bytes(grid))
        bad = geometry.holes_match(grids[0], grids[1], size)
        if bad:
            x, y = bad
            fail("layer %s: holes of back are not the mirror of front (first wrong cell: row %d, column %d of back)" % (ident, y + 1, x + 1), anchor)
        layers.append(geometry.Layer(ident, grids[0], grids[1], size))
    return LayerSet(name, size, hex_rgb(bg), colours, layers)


def parse_pattern(text, layer_set, where="<pattern>"):
    """A pattern typed as rows of colour characters and '.'; returns bytes of colour indices."""
    rows = [r.strip() for r in text.strip().split("\n") if r.strip() and not r.strip().startswith("#")]
    n = layer_set.size
    if len(rows) != n:
        raise SetError("%s: %d rows, expected %d" % (where, len(rows), n))
    index = {ch: i + 1 for i, (ch, _) in enumerate(layer_set.colours)}
    out = bytearray()
    for y, row in enumerate(rows):
        if len(row) != n:
            raise SetError("%s: row %d has %d cells, expected %d" % (where, y + 1, len(row), n))
        for x, ch in enumerate(row):
            if ch == ".":
                out.append(0)
            elif ch in index:
                out.append(index[ch])
            else:
                raise SetError("%s: unknown colour %r at row %d, column %d" % (where, ch, y + 1, x + 1))
    return bytes(out)
