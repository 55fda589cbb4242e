# What every deck file shares (mission decks, deck.py; OTLO challenge decks,
# otlo_deck.py): the magic, the version, the length and the CRC-32, checked
# before anything else is trusted, and the error that says what is wrong.
# Its own small module so that OTLO does not load the mission deck reader.

import struct

from layerlight.crc import crc32

CHUNK = 256


class DeckError(Exception):
    """A deck that cannot be used: missing, truncated, corrupt or too new."""


def check_file(f, path, magic, version):
    """Check a deck file's magic, version, length and CRC-32 (read in small
    chunks); returns (length, crc). Both kinds of deck (missions, OTLO
    challenges) start this way: magic, version u8, length u32, and end with
    the CRC-32 of everything before it. DeckError says what is wrong."""
    head = f.read(9)
    if not head or len(head) < 4 or head[:4] != magic:
        if magic.startswith(head[:4] if head else b""):
            raise DeckError("deck truncated: " + path)
        raise DeckError("not a deck file: " + path)
    if len(head) < 9:
        raise DeckError("deck truncated: " + path)
    if head[4] > version:
        raise DeckError("deck version %d is newer than this firmware reads (%d): %s" % (head[4], version, path))
    if head[4] < version:
        raise DeckError("deck version %d is too old (rebuild it with `layerlight cards build`): %s" % (head[4], path))
    length = struct.unpack_from("<I", head, 5)[0]
    size = f.seek(0, 2)
    if size < length:
        raise DeckError("deck truncated (%d of %d bytes): %s" % (size, length, path))
    if size > length:
        raise DeckError("deck has %d bytes of trailing data: %s" % (size - length, path))
    f.seek(0)
    buf = bytearray(CHUNK)
    view = memoryview(buf)
    crc = 0
    left = length - 4
    while left > 0:
        got = f.readinto(view[:min(CHUNK, left)])
        if not got:
            raise DeckError("deck truncated: " + path)
        crc = crc32(view[:got], crc)
        left -= got
    stored = f.read(4)
    if stored is None or len(stored) != 4:
        raise DeckError("deck truncated: " + path)
    stored = struct.unpack("<I", stored)[0]
    if stored != crc & 0xFFFFFFFF:
        raise DeckError("deck checksum wrong (corrupt file): " + path)
    return length, stored  # the CRC names this deck's content (a saved game remembers it)


class DeckFile:
    """What opening any deck file does: check it whole (check_file), then read its header
    (the subclass's _read_header, from just after magic, version and length). A subclass
    names its MAGIC and VERSION, and has a _read_header(f)."""

    MAGIC = b""
    VERSION = 0

    def __init__(self, storage, path):
        self.path = path
        self._storage = storage
        try:
            f = storage.open_read(path)
        except OSError:
            raise DeckError("deck not found: " + path)
        try:
            self._length, self.crc = check_file(f, path, self.MAGIC, self.VERSION)
            f.seek(9)
            self._read_header(f)  # pyright: ignore[reportAttributeAccessIssue] (each kind's own; no stub: heap)
        finally:
            f.close()

    def _fail(self, what):
        raise DeckError(what + ": " + self.path)

    def _read(self, f, n):
        data = f.read(n)
        if data is None or len(data) != n:
            self._fail("deck truncated")
        return data
