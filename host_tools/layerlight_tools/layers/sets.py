"""Reading layer-set files (TOML, see docs/formats.md) into firmware geometry.

Every mistake is a SetError whose text is one line naming the file and the
line (or the layer and the cell): `default.toml:12: layer moon back row 3 has
5 cells, expected 6`.
"""

import os
import re
import tomllib

from layerlight import geometry, stacking

ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
HEX_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
MAX_COLOURS = 15      # a deck stores two cells a byte
MAX_LAYERS = 255
MIN_LAYERS = 2
MIN_SIZE, MAX_SIZE = 2, 16
SIDES = ("front", "back")


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
        """The set's character for a colour index ('.' for 0)."""
        return "." if index == 0 else self.colours[index - 1][0]

    def rows(self, grid):
        """A grid as rows of colour characters."""
        n = self.size
        return ["".join(self.char_of(grid[y * n + x]) for x in range(n)) for y in range(n)]

    def rgb(self, index):
        """(r, g, b) of a colour index; 0 is the background."""
        return self.background if index == 0 else self.colours[index - 1][1]


def hex_rgb(text):
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def rgb_hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


class _Places:
    """Line numbers of things in the TOML text, for error messages (None when not found)."""

    HEADER = re.compile(r"^\s*\[")
    LAYERS = re.compile(r"^\s*\[\[\s*layers\s*\]\]")
    COLORS = re.compile(r"^\s*\[\s*colors\s*\]")

    def __init__(self, text):
        self.lines = text.split("\n")
        self.layer_at = [i for i, line in enumerate(self.lines) if self.LAYERS.match(line)]

    def _key_in(self, key, start, stop):
        pat = re.compile(r"^\s*[\"']?%s[\"']?\s*=" % re.escape(key))
        for i in range(start, min(stop, len(self.lines))):
            if pat.match(self.lines[i]):
                return i
        return None

    def _block_end(self, start):
        for i in range(start + 1, len(self.lines)):
            if self.HEADER.match(self.lines[i]):
                return i
        return len(self.lines)

    def top(self, key):
        i = self._key_in(key, 0, self._block_end(-1))
        return None if i is None else i + 1

    def colour(self, key):
        for i, line in enumerate(self.lines):
            if self.COLORS.match(line):
                j = None if key is None else self._key_in(key, i + 1, self._block_end(i))
                return i + 1 if j is None else j + 1
        return None

    def layer(self, k, field=None):
        if k >= len(self.layer_at):
            return None
        start = self.layer_at[k]
        if field is None:
            return start + 1
        j = self._key_in(field, start + 1, self._block_end(start))
        return start + 1 if j is None else j + 1

    def row(self, k, side, y, leading):
        """Line of row y of a multi-line string field (leading: blank lines before the first row)."""
        at = self.layer(k, side)
        if at is None:
            return None
        line = self.lines[at - 1]
        quote = line.find('"""')
        if quote < 0:
            quote = line.find("'''")
        if quote < 0:
            return at
        first = at + 1 if not line[quote + 3:].strip() else at
        return first + leading + y


def load(path):
    """Parse and check a set file; raises SetError with one clear line."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SetError("%s: cannot read: %s" % (path, e.strerror or e))
    return loads(raw, path)


def loads(raw, path="<set>"):
    """Parse and check the bytes (or text) of a set file."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise SetError("%s: not a text file (no UTF-8 at byte %d)" % (path, e.start))
    else:
        text = raw
    if "\x00" in text:
        raise SetError("%s: not a text file (a NUL byte at character %d)" % (path, text.index("\x00")))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        if m:
            raise SetError("%s:%s: invalid TOML: %s (column %s)" % (path, m.group(1), msg[:m.start()].strip(), m.group(2)))
        raise SetError("%s: invalid TOML: %s" % (path, msg))
    return parse(data, text, path)


def parse(data, text="", path="<set>"):
    """A LayerSet from parsed TOML data; `text` is only used to find line numbers."""
    places = _Places(text)

    def fail(msg, line=None):
        raise SetError("%s:%d: %s" % (path, line, msg) if line else "%s: %s" % (path, msg))

    kind = data.get("kind", "layers")
    if kind != "layers":  # kind = "otlo" never comes here (otlo_sets reads it): a typo
        fail("unknown kind %r: a set file is kind = \"layers\" (Layers layers, the default) or "
             "kind = \"otlo\" (OTLO tiles)" % (kind,), places.top("kind"))
    name = data.get("name", os.path.splitext(os.path.basename(path))[0])
    if not isinstance(name, str):
        fail("name must be text", places.top("name"))
    if "size" not in data:
        fail("size is missing (size = N, the cells of a side, 2 to 16)")
    size = data["size"]
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        fail("size must be a whole number from %d to %d, not %r" % (MIN_SIZE, MAX_SIZE, size), places.top("size"))
    bg = data.get("background", "#ffffff")
    if not isinstance(bg, str) or not HEX_RE.match(bg):
        fail("background must be a colour like \"#f5f0e6\", not %r" % (bg,), places.top("background"))

    colours_in = data.get("colors")
    if not isinstance(colours_in, dict) or not colours_in:
        fail("[colors] is missing or empty (one character per colour: R = \"#d1495b\")", places.colour(None) or places.top("colors"))
    if len(colours_in) > MAX_COLOURS:
        fail("%d colours; at most %d" % (len(colours_in), MAX_COLOURS), places.colour(None))
    colours = []
    for ch, value in colours_in.items():
        if len(ch) != 1 or ch == "." or not ("!" <= ch <= "~"):
            fail("colour key %r must be one printable ASCII character other than '.'" % ch, places.colour(ch))
        if not isinstance(value, str) or not HEX_RE.match(value):
            fail("colour %s must look like \"#d1495b\", not %r" % (ch, value), places.colour(ch))
        colours.append((ch, hex_rgb(value)))
    index = {ch: i + 1 for i, (ch, _) in enumerate(colours)}

    layers_in = data.get("layers")
    if layers_in is None:
        layers_in = []
    if not isinstance(layers_in, list) or not all(isinstance(x, dict) for x in layers_in):
        fail("layers must be [[layers]] tables", places.top("layers") or places.layer(0))
    if len(layers_in) < MIN_LAYERS:
        fail("a set needs at least %d [[layers]], found %d" % (MIN_LAYERS, len(layers_in)), places.layer(0))
    if len(layers_in) > MAX_LAYERS:
        fail("%d layers; at most %d" % (len(layers_in), MAX_LAYERS))
    layers = []
    seen = {}
    for k, layer in enumerate(layers_in):
        ident = layer.get("id")
        if not isinstance(ident, str) or not ID_RE.match(ident):
            fail("layer %d: id must be 1 to 32 letters, digits, _ or -, not %r" % (k + 1, ident), places.layer(k, "id"))
        if ident in seen:
            fail("duplicate layer id %r (layer %d and layer %d)" % (ident, seen[ident] + 1, k + 1), places.layer(k, "id"))
        seen[ident] = k
        grids = []
        for side in SIDES:
            grids.append(_side(layer, k, ident, side, size, index, places, fail))
        bad = stacking.holes_match(grids[0], grids[1], size)
        if bad:
            x, y = bad
            hole = grids[1][y * size + x] == 0
            fail("layer %s: back row %d, column %d is %s, but front row %d, column %d is %s: the holes of back "
                 "must be the left-right mirror of front" % (
                     ident, y + 1, x + 1, "a hole" if hole else "opaque", y + 1, size - x,
                     "opaque" if hole else "a hole"),
                 places.row(k, "back", y, _leading(layer.get("back"))))
        layers.append(geometry.Layer(ident, grids[0], grids[1], size))
    return LayerSet(name, size, hex_rgb(bg), colours, layers)


def _leading(value):
    if isinstance(value, str):
        return len(value) - len(value.lstrip("\n"))
    return 0


def _side(layer, k, ident, side, size, index, places, fail):
    """One side of a layer -> bytes of colour indices (side_grid)."""
    return side_grid(layer, k, ident, side, size, size, index, places, fail)


def side_grid(entry, k, ident, side, w, h, index, places, fail, noun="layer", size_note=""):
    """One side of a layer or tile (a multi-line string or a list of rows, w x h) -> bytes of
    colour indices, 0 a hole; every mistake is `fail` with the place it is at. The OTLO tile
    sets read their tiles with it too (noun "tile")."""
    value = entry.get(side)
    if isinstance(value, str):
        rows = [r.strip() for r in value.strip("\n").split("\n")]
        leading = _leading(value)
    elif isinstance(value, list) and all(isinstance(r, str) for r in value):
        rows = [r.strip() for r in value]
        leading = 0
    else:
        fail("%s %s: %s is %s (rows of colour characters and '.')" % (
            noun, ident, side, "missing" if value is None else "not text"), places.layer(k, side if value is not None else None))
    if len(rows) != h:
        fail("%s %s %s: %d rows, expected %d%s" % (noun, ident, side, len(rows), h, size_note), places.layer(k, side))
    grid = bytearray()
    for y, row in enumerate(rows):
        line = places.row(k, side, y, leading) if isinstance(value, str) else places.layer(k, side)
        if len(row) != w:
            fail("%s %s %s row %d has %d cells, expected %d" % (noun, ident, side, y + 1, len(row), w), line)
        for x, ch in enumerate(row):
            if ch == ".":
                grid.append(0)
            elif ch in index:
                grid.append(index[ch])
            else:
                fail("%s %s %s row %d, column %d: unknown colour %r (not in [colors])" % (
                    noun, ident, side, y + 1, x + 1, ch), line)
    return bytes(grid)


def parse_pattern(text, layer_set, where="<pattern>"):
    """A pattern typed as rows of colour characters and '.' (blank lines and # comments skipped) -> bytes."""
    lines = text.split("\n")
    rows = [(i + 1, r.strip()) for i, r in enumerate(lines) if r.strip() and not r.strip().startswith("#")]
    n = layer_set.size
    if len(rows) != n:
        raise SetError("%s: %d rows, expected %d (the set is %dx%d)" % (where, len(rows), n, n, n))
    index = {ch: i + 1 for i, (ch, _) in enumerate(layer_set.colours)}
    out = bytearray()
    for y, (line, row) in enumerate(rows):
        if len(row) != n:
            raise SetError("%s:%d: row %d has %d cells, expected %d" % (where, line, y + 1, len(row), n))
        for x, ch in enumerate(row):
            if ch == ".":
                out.append(0)
            elif ch in index:
                out.append(index[ch])
            else:
                raise SetError("%s:%d: unknown colour %r at row %d, column %d (the set has %s)" % (
                    where, line, ch, y + 1, x + 1, " ".join(c for c, _ in layer_set.colours)))
    return bytes(out)
