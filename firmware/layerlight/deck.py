# The deck file: a layer set and its missions, as the device reads it.
#
# Layout (all integers little-endian):
#   header   b"LLDK", version u8, N u8, colours u8, layers u8, background RGB
#   colours  per colour: character u8, R, G, B        (colour index = position + 1)
#   layers   per layer: id length u8, id, front N*N, back N*N   (0 = hole)
#   levels   8 x (first mission u16, count u16)        missions are sorted by level
#   missions count u16, record size u16, then fixed-size records:
#            id u16, level u8, difficulty u8 (0..255), solutions u16,
#            pattern N*N, first solution 5 x (layer u8, orientation u8)
#   trailer  CRC-32 of everything before it, u32
#
# Records have a fixed size so one mission is read with a seek and a read,
# never the whole file; the CRC is checked in small chunks when a deck is opened.

import struct

from layerlight import geometry

MAGIC = b"LLDK"
VERSION = 1
MAX_LEVEL = 5
LEVEL_SLOTS = 8
CHUNK = 256

try:
    from binascii import crc32
except ImportError:  # a port built without it: same polynomial, in Python
    def crc32(data, value=None):
        crc = (value or 0) ^ 0xFFFFFFFF
        for b in data:
            crc ^= b
            for _ in range(8):
                crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
        return crc ^ 0xFFFFFFFF


class DeckError(Exception):
    """A deck that cannot be used: missing, truncated, corrupt or too new."""


def record_size(n):
    return 7 + n * n + 2 * MAX_LEVEL


class Mission:
    """One mission card: id, level, difficulty (0..1), solution count, pattern, one solution."""

    def __init__(self, ident, level, difficulty, count, pattern, solution):
        self.id = ident
        self.level = level
        self.difficulty = difficulty
        self.solution_count = count
        self.pattern = pattern
        self.solution = solution  # list of (layer index, orientation), bottom first


class Deck:
    """An open deck file. Missions are read one at a time with `mission(i)`."""

    def __init__(self, storage, path):
        self.path = path
        self._storage = storage
        try:
            f = storage.open_read(path)
        except OSError:
            raise DeckError("deck not found: " + path)
        try:
            self._read_header(f)
            self._check_crc(f)
        finally:
            f.close()

    def _read(self, f, n):
        data = f.read(n)
        if data is None or len(data) != n:
            raise DeckError("deck truncated: " + self.path)
        return data

    def _read_header(self, f):
        head = self._read(f, 11)
        if head[:4] != MAGIC:
            raise DeckError("not a deck file: " + self.path)
        if head[4] > VERSION:
            raise DeckError("deck version %d is newer than this firmware reads (%d): %s" % (head[4], VERSION, self.path))
        if head[4] < 1:
            raise DeckError("bad deck version: " + self.path)
        n, ncol, nlay = head[5], head[6], head[7]
        if not 2 <= n <= 16 or ncol < 1 or nlay < 2:
            raise DeckError("corrupt deck header: " + self.path)
        self.size = n
        self.background = (head[8], head[9], head[10])
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
        if self._rec != record_size(n):
            raise DeckError("corrupt deck records: " + self.path)
        self._base = 11 + 4 * ncol + sum(1 + len(l.id) + 2 * n * n for l in self.layers) + 4 * LEVEL_SLOTS + 4
        for first, cnt in self.levels:
            if first + cnt > self.count:
                raise DeckError("corrupt deck level table: " + self.path)

    def _check_crc(self, f):
        f.seek(0)
        body = self._base + self.count * self._rec
        crc = 0
        left = body
        while left > 0:
            chunk = f.read(min(CHUNK, left))
            if not chunk:
                raise DeckError("deck truncated: " + self.path)
            crc = crc32(chunk, crc)
            left -= len(chunk)
        tail = f.read(4)
        if tail is None or len(tail) != 4:
            raise DeckError("deck truncated: " + self.path)
        if struct.unpack("<I", tail)[0] != crc & 0xFFFFFFFF:
            raise DeckError("deck checksum wrong (corrupt file): " + self.path)
        if f.read(1):
            raise DeckError("deck has trailing data: " + self.path)

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
        n = self.size
        ident, level, diff, count = struct.unpack_from("<HBBH", r, 0)
        pattern = bytes(r[7:7 + n * n])
        sol = []
        at = 7 + n * n
        for k in range(level):
            sol.append((r[at + 2 * k], r[at + 2 * k + 1]))
        return Mission(ident, level, diff / 255, count, pattern, sol)

    def level_mission(self, level, k):
        """The k-th mission (0-based) of a level."""
        return self.mission(self.levels[level][0] + k)


def pack(size, background, colours, layers, missions):
    """Bytes of a deck file.

    colours: list of (char, (r, g, b)); layers: list of geometry.Layer;
    missions: list of Mission, any order (they are sorted by level here).
    """
    out = bytearray(MAGIC)
    out += bytes((VERSION, size, len(colours), len(layers))) + bytes(background)
    for ch, rgb in colours:
        out += bytes((ord(ch),)) + bytes(rgb)
    for layer in layers:
        ident = layer.id.encode()
        out += bytes((len(ident),)) + ident + layer.front + layer.back
    ordered = sorted(missions, key=lambda m: (m.level, m.id))
    for k in range(LEVEL_SLOTS):
        at = [i for i, m in enumerate(ordered) if m.level == k]
        out += struct.pack("<HH", at[0] if at else 0, len(at))
    rec = record_size(size)
    out += struct.pack("<HH", len(ordered), rec)
    for m in ordered:
        r = bytearray(rec)
        struct.pack_into("<HBBH", r, 0, m.id, m.level, int(round(m.difficulty * 255)), min(m.solution_count, 0xFFFF))
        r[7:7 + size * size] = m.pattern
        at = 7 + size * size
        for k, (li, o) in enumerate(m.solution):
            r[at + 2 * k] = li
            r[at + 2 * k + 1] = o
        out += r
    out += struct.pack("<I", crc32(bytes(out)) & 0xFFFFFFFF)
    return bytes(out)
