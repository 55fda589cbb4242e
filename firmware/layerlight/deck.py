# The deck file: a layer set and its missions, as the device reads it.
#
# Layout, version 2 (integers little-endian):
#   header   b"LLDK", version u8, file length u32, N u8, colours u8, layers u8,
#            background R G B, name length u8, name (UTF-8)
#   colours  per colour: character u8 (ASCII), R, G, B  (colour index = position + 1)
#   layers   per layer: id length u8, id, front N*N, back N*N (colour indices, 0 = hole)
#   levels   8 x (first mission u16, count u16); missions are sorted by level
#   missions count u16, record size u16, then fixed-size records:
#            id u16, level u8, difficulty u16 (thousandths), solutions u32,
#            pattern: two cells a byte (low nibble first, 0 = background),
#            one solution: 5 x (layer u8, orientation u8), bottom first
#   trailer  CRC-32 of everything before it, u32
#
# The version comes first so that a newer deck is refused before anything
# else is read; the length tells a truncated file from a corrupt one; the CRC
# is checked in small chunks before the header is trusted. Records have a
# fixed size: a mission is one seek and one read, the deck never sits in RAM.
# The host tools write decks (layerlight_tools.layers.deckpack).

import struct

from layerlight import geometry

MAGIC = b"LLDK"
VERSION = 2
MAX_LEVEL = 5
LEVEL_SLOTS = 8
RECORD_HEAD = 9  # id u16, level u8, difficulty u16, solutions u32

from layerlight.deckfile import DeckError, DeckFile  # noqa: F401 (the tools catch deck.DeckError)


def record_size(n):
    """Bytes of one mission record for an N x N set."""
    return RECORD_HEAD + (n * n + 1) // 2 + 2 * MAX_LEVEL


class Mission:
    """One mission card: id, level, difficulty (0..1), solution count, pattern, one solution."""

    def __init__(self, ident, level, difficulty, count, pattern, solution):
        self.id = ident
        self.level = level
        self.difficulty = difficulty
        self.solution_count = count
        self.pattern = pattern    # bytes of N*N colour indices, 0 = background
        self.solution = solution  # list of (layer index, orientation), bottom first


class Deck(DeckFile):
    """An open deck file. Missions are read one at a time with `mission(i)`."""

    kind = "layers"  # the puzzle kind (otlo_deck.OtloDeck is "otlo")
    MAGIC = MAGIC
    VERSION = VERSION

    def _read_header(self, f):
        head = self._read(f, 7)
        n, ncol, nlay = head[0], head[1], head[2]
        if not 2 <= n <= 16 or not 1 <= ncol <= 15 or nlay < 2:
            self._fail("corrupt deck header")
        self.size = n
        self.background = (head[3], head[4], head[5])
        self.name = self._read(f, head[6]).decode()
        self.colour_chars = []
        self.colours = [self.background]
        for _ in range(ncol):
            c = self._read(f, 4)
            self.colour_chars.append(chr(c[0]))
            self.colours.append((c[1], c[2], c[3]))
        self.layers = []
        for _ in range(nlay):
            ln = self._read(f, 1)[0]
            ident = self._read(f, ln).decode()
            front = self._read(f, n * n)
            back = self._read(f, n * n)
            self.layers.append(geometry.Layer(ident, front, back, n))
        lv = self._read(f, 4 * LEVEL_SLOTS)
        self.levels = []
        for k in range(LEVEL_SLOTS):
            self.levels.append(struct.unpack_from("<HH", lv, 4 * k))
        self.count, self._rec = struct.unpack("<HH", self._read(f, 4))
        self._base = f.tell()
        if self._rec != record_size(n) or self._base + self.count * self._rec + 4 != self._length:
            self._fail("corrupt deck records")
        for first, cnt in self.levels:
            if first + cnt > self.count:
                self._fail("corrupt deck level table")

    def level_count(self, level):
        """How many missions of this level the deck holds."""
        return self.levels[level][1] if 0 <= level < LEVEL_SLOTS else 0

    def mission(self, i):
        """Mission number i (0-based position in the file)."""
        f = self._storage.open_read(self.path)
        try:
            f.seek(self._base + i * self._rec)
            r = self._read(f, self._rec)
        finally:
            f.close()
        n2 = self.size * self.size
        ident, level, diff, count = struct.unpack_from("<HBHI", r, 0)
        pattern = bytearray(n2)
        at = RECORD_HEAD
        for k in range(n2):
            b = r[at + (k >> 1)]
            pattern[k] = (b >> 4) if k & 1 else (b & 15)
        at += (n2 + 1) // 2
        sol = []
        for k in range(min(level, MAX_LEVEL)):
            sol.append((r[at + 2 * k], r[at + 2 * k + 1]))
        return Mission(ident, level, diff / 1000, count, bytes(pattern), sol)

    def level_mission(self, level, k):
        """The k-th mission (0-based) of a level."""
        return self.mission(self.levels[level][0] + k)
