"""Reading OTLO tile-set files (TOML, see docs/otlo-tiles.md).

`load(path)` gives an OtloSet with exactly what otlo_deckpack.pack wants.
Every mistake is an OtloSetError whose text is one line naming the file and
the line, tile, row or field: `stones.toml:14: tile t1 back row 2 has 3
cells, expected 2`.
"""

import re
import tomllib

from layerlight import otlo_tiles
from layerlight_tools.layers import sets

TABLE = (48, 48, 48)          # a neutral dark grey: what shows through a bottom hole
STARS = {1: 8, 2: 12, 3: 16}  # cells of a challenge's shape for each star level (the box's)
MAX_COLOURS = 14              # pattern cells are nibbles: 0 outside, 15 the table
MAX_TILES = 16
MAX_CELLS = 36                # a challenge fits a 6 x 6 box (otlo_search.MAX_BOX)


class OtloSetError(Exception):
    """A mistake in a tile-set file; str() is one line naming the file and the place."""


class Tile:
    """One tile: id, and its front and back as bytes of colour indices (0 = hole)."""

    def __init__(self, ident, front, back):
        self.id = ident
        self.front = front
        self.back = back


class OtloSet:
    """A parsed tile set: colours are (char, (r, g, b)); colour index i+1 is colours[i]."""

    kind = "otlo"

    def __init__(self, name, tile, table, colours, stars, tiles):
        self.name = name
        self.tile = tile
        self.table = table
        self.colours = colours
        self.stars = stars
        self.tiles = tiles

    def chars(self):
        """Character of every pattern value: '.' outside, '_' the table, then the colours."""
        out = ["."] * 16
        out[otlo_tiles.TABLE] = "_"
        for i, (ch, _) in enumerate(self.colours):
            out[i + 1] = ch
        return out


class _Places(sets._Places):
    """Line numbers in the text, with [[tiles]] where layer sets have [[layers]]."""

    LAYERS = re.compile(r"^\s*\[\[\s*tiles\s*\]\]")
    STARS = re.compile(r"^\s*\[\s*stars\s*\]")

    def stars(self, key):
        for i, line in enumerate(self.lines):
            if self.STARS.match(line):
                j = self._key_in(key, i + 1, self._block_end(i))
                return i + 1 if j is None else j + 1
        return None


def load(path):
    """Parse and check a tile-set file; raises OtloSetError with one clear line."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise OtloSetError("%s: cannot read: %s" % (path, e.strerror or e))
    return loads(raw, path)


def loads(raw, path="<set>"):
    """Parse and check the bytes (or text) of a tile-set file."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as e:
        raise OtloSetError("%s: not a text file (no UTF-8 at byte %d)" % (path, e.start))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        if m:
            raise OtloSetError("%s:%s: invalid TOML: %s (column %s)" % (
                path, m.group(1), msg[:m.start()].strip(), m.group(2)))
        raise OtloSetError("%s: invalid TOML: %s" % (path, msg))
    return parse(data, text, path)


def is_otlo(path):
    """True when a TOML file says kind = "otlo" (anything unreadable: False, the Layers loader explains)."""
    try:
        with open(path, "rb") as f:
            return is_otlo_text(f.read())
    except OSError:
        return False


def is_otlo_text(raw):
    """is_otlo on a set file's bytes (or text)."""
    try:
        return tomllib.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw).get("kind") == "otlo"
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


def _whole(v):
    return isinstance(v, int) and not isinstance(v, bool)


def parse(data, text="", path="<set>"):
    """An OtloSet from parsed TOML data; `text` is only used to find line numbers."""
    places = _Places(text)

    def fail(msg, line=None):
        raise OtloSetError("%s:%d: %s" % (path, line, msg) if line else "%s: %s" % (path, msg))

    if data.get("kind") != "otlo":
        fail('kind must be "otlo" for a tile set, not %r' % (data.get("kind"),), places.top("kind"))
    name = data.get("name", "OTLO")
    if not isinstance(name, str):
        fail("name must be text", places.top("name"))
    tile = data.get("tile")
    if not (isinstance(tile, list) and len(tile) == 2 and all(_whole(v) for v in tile)
            and 1 <= tile[0] <= 4 and 1 <= tile[1] <= 4 and tile[0] * tile[1] >= 2):
        fail("tile must be [width, height] from 1 x 2 to 4 x 4, not %r" % (tile,), places.top("tile"))
    tw, th = tile
    table = data.get("table", sets.rgb_hex(TABLE))
    if not isinstance(table, str) or not sets.HEX_RE.match(table):
        fail('table must be a colour like "#303030", not %r' % (table,), places.top("table"))

    colours_in = data.get("colors")
    if not isinstance(colours_in, dict) or not colours_in:
        fail('[colors] is missing or empty (one character per gem colour: R = "#d1495b")',
             places.colour(None) or places.top("colors"))
    if len(colours_in) > MAX_COLOURS:
        fail("%d colours; at most %d" % (len(colours_in), MAX_COLOURS), places.colour(None))
    colours = []
    for ch, value in colours_in.items():
        if len(ch) != 1 or ch in "._#" or not ("!" <= ch <= "~"):
            fail("colour key %r must be one printable ASCII character other than '.', '_' and '#'" % ch,
                 places.colour(ch))
        if not isinstance(value, str) or not sets.HEX_RE.match(value):
            fail('colour %s must look like "#d1495b", not %r' % (ch, value), places.colour(ch))
        colours.append((ch, sets.hex_rgb(value)))
    index = {ch: i + 1 for i, (ch, _) in enumerate(colours)}

    stars = dict(STARS)
    stars_in = data.get("stars", {})
    if not isinstance(stars_in, dict):
        fail("stars must be a [stars] table (1 = 8, 2 = 12, 3 = 16)", places.top("stars"))
    for key, cells in stars_in.items():
        if key not in ("1", "2", "3"):
            fail("stars: %r is not a star level (1, 2 or 3)" % key, places.stars(key))
        if not _whole(cells) or not 1 <= cells <= MAX_CELLS or cells % (tw * th):
            fail("stars %s: %r cells; a shape the tiles cover has a multiple of %d cells, at most %d" % (
                key, cells, tw * th, MAX_CELLS), places.stars(key))
        stars[int(key)] = cells

    tiles_in = data.get("tiles", [])
    if not isinstance(tiles_in, list) or not all(isinstance(t, dict) for t in tiles_in):
        fail("tiles must be [[tiles]] tables", places.top("tiles") or places.layer(0))
    if len(tiles_in) < 2:
        fail("a set needs at least 2 [[tiles]], found %d" % len(tiles_in), places.layer(0))
    if len(tiles_in) > MAX_TILES:
        fail("%d tiles; at most %d" % (len(tiles_in), MAX_TILES), places.layer(MAX_TILES))
    tiles = []
    seen = {}
    for k, t in enumerate(tiles_in):
        ident = t.get("id")
        if not isinstance(ident, str) or not sets.ID_RE.match(ident):
            fail("tile %d: id must be 1 to 32 letters, digits, _ or -, not %r" % (k + 1, ident),
                 places.layer(k, "id"))
        if ident in seen:
            fail("duplicate tile id %r (tile %d and tile %d)" % (ident, seen[ident] + 1, k + 1),
                 places.layer(k, "id"))
        seen[ident] = k
        front = _side(t, k, ident, "front", tw, th, index, places, fail)
        back = _side(t, k, ident, "back", tw, th, index, places, fail)
        for y in range(th):
            for x in range(tw):
                hole = back[y * tw + x] == 0
                if hole != (front[y * tw + tw - 1 - x] == 0):
                    fail("tile %s: back row %d, column %d is %s, but front row %d, column %d is %s: the holes "
                         "of back must be the left-right mirror of front" % (
                             ident, y + 1, x + 1, "a hole" if hole else "a gem", y + 1, tw - x,
                             "a gem" if hole else "a hole"),
                         places.row(k, "back", y, sets._leading(t.get("back"))))
        tiles.append(Tile(ident, front, back))
    return OtloSet(name, (tw, th), sets.hex_rgb(table), colours, stars, tiles)


def _side(tile, k, ident, side, tw, th, index, places, fail):
    """One side of a tile -> bytes of colour indices (read as a Layers side is), with a gem."""
    grid = sets.side_grid(tile, k, ident, side, tw, th, index, places, fail, "tile",
                          " (tile = [%d, %d])" % (tw, th))
    if not any(grid):
        fail("tile %s %s has no gem (a side needs at least one)" % (ident, side), places.layer(k, side))
    return grid


def parse_pattern(text, otlo_set, where="<pattern>"):
    """A challenge typed as rows (colour characters, '_' table, '.' outside) -> (w, h, bytes)."""
    lines = text.split("\n")
    rows = [(i + 1, r.strip()) for i, r in enumerate(lines) if r.strip() and not r.strip().startswith("#")]
    if not rows:
        raise OtloSetError("%s: no rows" % where)
    w = len(rows[0][1])
    index = {ch: i + 1 for i, (ch, _) in enumerate(otlo_set.colours)}
    index["_"] = otlo_tiles.TABLE
    index["."] = otlo_tiles.OUTSIDE
    out = bytearray()
    for y, (line, row) in enumerate(rows):
        if len(row) != w:
            raise OtloSetError("%s:%d: row %d has %d cells, the first has %d" % (where, line, y + 1, len(row), w))
        for x, ch in enumerate(row):
            if ch not in index:
                raise OtloSetError("%s:%d: unknown colour %r at row %d, column %d (the set has %s)" % (
                    where, line, ch, y + 1, x + 1, " ".join(c for c, _ in otlo_set.colours)))
            out.append(index[ch])
    return w, len(rows), bytes(out)
