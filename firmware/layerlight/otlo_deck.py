# The OTLO challenge deck, as the device reads it (the card tools write it:
# layerlight_tools.otlo.deckpack).
#
# Layout, version 1 (integers little-endian):
#   header     b"LLOT", version u8, file length u32, tile_w u8, tile_h u8,
#              tiles u8, colours u8, table R G B, name length u8, name (UTF-8)
#   colours    per colour: character u8 (ASCII), R, G, B  (colour index = position + 1)
#   tiles      per tile: id length u8, id, front tile_w*tile_h, back tile_w*tile_h
#              (colour indices, 0 = hole)
#   levels     4 x (first challenge u16, count u16), by stars 0..3; sorted by stars
#   challenges count u16, record size u16, then fixed-size records:
#              id u16, stars u8, difficulty u16 (thousandths), solutions u32,
#              w u8, h u8, pattern: 8x8 cells two a byte (low nibble first;
#              otlo_tiles.OUTSIDE, TABLE or a colour), placements u8, then
#              one solution, bottom tiles first, one slot per tile:
#              tile u8, layer | side << 1 | rot << 2 u8, x u8, y u8
#   trailer    CRC-32 of everything before it, u32
#
# As with mission decks (deck.py, whose checks this shares): the version
# comes first, the length tells a truncated file from a corrupt one, the CRC
# is checked in small chunks, and a challenge is one seek and one read.

import struct

from layerlight.deckfile import DeckError, DeckFile  # noqa: F401 (DeckError: what opening one raises)

MAGIC = b"LLOT"
VERSION = 1
MAX_SIDE = 8         # a challenge grid is at most 8 x 8 (a quarter of a 16x16 matrix)
STAR_SLOTS = 4
PATTERN_BYTES = MAX_SIDE * MAX_SIDE // 2
RECORD_HEAD = 12     # id u16, stars u8, difficulty u16, solutions u32, w u8, h u8, placements u8


def record_size(tiles):
    """Bytes of one challenge record for a set of `tiles` tiles."""
    return RECORD_HEAD + PATTERN_BYTES + 4 * tiles


class Tile:
    def __init__(self, ident, front, back):
        self.id = ident
        self.front = front
        self.back = back


class Challenge:
    """One challenge card: id, stars, difficulty (0..1), solution count, the
    w x h pattern and one solution (placements, bottom first)."""

    def __init__(self, ident, stars, difficulty, count, w, h, pattern, solution):
        self.id = ident
        self.stars = stars
        self.level = stars  # what the trace calls it ("mission": {"id", "level"})
        self.difficulty = difficulty
        self.solution_count = count
        self.w = w
        self.h = h
        self.pattern = pattern
        self.solution = solution


class OtloDeck(DeckFile):
    """An open OTLO deck file; challenges are read one at a time."""

    kind = "otlo"
    MAGIC = MAGIC
    VERSION = VERSION

    def _read_header(self, f):
        head = self._read(f, 8)
        tw, th, ntiles, ncol = head[0], head[1], head[2], head[3]
        if not 1 <= tw <= 4 or not 1 <= th <= 4 or ntiles < 2 or not 1 <= ncol <= 14:
            self._fail("corrupt deck header")
        self.tile_w = tw
        self.tile_h = th
        self.name = self._read(f, head[7]).decode()
        self.colour_chars = []
        self.colours = [(head[4], head[5], head[6])]  # index 0: the table
        for _ in range(ncol):
            c = self._read(f, 4)
            self.colour_chars.append(chr(c[0]))
            self.colours.append((c[1], c[2], c[3]))
        self.tiles = []
        for _ in range(ntiles):
            n = self._read(f, 1)[0]
            ident = self._read(f, n).decode()
            self.tiles.append(Tile(ident, self._read(f, tw * th), self._read(f, tw * th)))
        table = self._read(f, 4 * STAR_SLOTS)
        self._levels = []
        present = []
        for k in range(STAR_SLOTS):
            first, count = struct.unpack_from("<HH", table, 4 * k)
            self._levels.append((first, count))
            if count:
                present.append(k)
        self.levels = tuple(present)
        self.count, self._rec = struct.unpack("<HH", self._read(f, 4))
        self._base = f.tell()
        if self._rec != record_size(ntiles) or self._base + self.count * self._rec + 4 != self._length:
            self._fail("corrupt deck records")
        for first, count in self._levels:
            if first + count > self.count:
                self._fail("corrupt deck level table")

    def level_count(self, stars):
        """How many challenges of this many stars the deck holds."""
        return self._levels[stars][1] if 0 <= stars < STAR_SLOTS else 0

    def level_challenge(self, stars, i):
        """The i-th challenge (0-based) of a star level."""
        return self.challenge(self._levels[stars][0] + i)

    def challenge(self, i):
        """Challenge number i (0-based position in the file)."""
        f = self._storage.open_read(self.path)
        try:
            f.seek(self._base + i * self._rec)
            r = self._read(f, self._rec)
        finally:
            f.close()
        ident, stars, diff, count, w, h, n = struct.unpack_from("<HBHIBBB", r, 0)
        if not 1 <= w <= MAX_SIDE or not 1 <= h <= MAX_SIDE or n > len(self.tiles):
            self._fail("corrupt challenge %d" % ident)
        pattern = bytearray(w * h)
        at = RECORD_HEAD
        for k in range(w * h):
            b = r[at + (k >> 1)]
            pattern[k] = (b >> 4) if k & 1 else (b & 15)
        at += PATTERN_BYTES
        solution = []
        for k in range(n):
            flags = r[at + 1]
            solution.append((r[at], flags & 1, (flags >> 1) & 1, flags >> 2, r[at + 2], r[at + 3]))
            at += 4
        return Challenge(ident, stars, diff / 1000, count, w, h, bytes(pattern), solution)
