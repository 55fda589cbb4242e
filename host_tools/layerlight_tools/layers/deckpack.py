"""Writing deck files (the layout is described, and read, in firmware/layerlight/deck.py)."""

import struct
import zlib

from layerlight import deck as deckfile


def _level_table(ordered):
    out = bytearray()
    for k in range(deckfile.LEVEL_SLOTS):
        at = [i for i, m in enumerate(ordered) if m.level == k]
        out += struct.pack("<HH", at[0] if at else 0, len(at))
    return out


def pack_pattern(pattern):
    """N*N colour indices (each < 16) -> two cells a byte, low nibble first."""
    out = bytearray((len(pattern) + 1) // 2)
    for i, c in enumerate(pattern):
        out[i >> 1] |= (c << 4) if i & 1 else c
    return bytes(out)


def pack(layer_set, missions):
    """Bytes of a deck file for a sets.LayerSet and deck.Mission objects (any order; sorted by level, then id)."""
    n = layer_set.size
    name = layer_set.name.encode("utf-8")[:255].decode("utf-8", "ignore").encode("utf-8")  # whole characters
    body = bytearray()
    body += bytes((n, len(layer_set.colours), len(layer_set.layers))) + bytes(layer_set.background)
    body += bytes((len(name),)) + name
    for ch, rgb in layer_set.colours:
        body += bytes((ord(ch),)) + bytes(rgb)
    for layer in layer_set.layers:
        ident = layer.id.encode("ascii")
        body += bytes((len(ident),)) + ident + layer.front + layer.back
    ordered = sorted(missions, key=lambda m: (m.level, m.id))
    body += _level_table(ordered)
    rec = deckfile.record_size(n)
    body += struct.pack("<HH", len(ordered), rec)
    for m in ordered:
        r = bytearray(rec)
        struct.pack_into("<HBHI", r, 0, m.id, m.level, int(round(m.difficulty * 1000)), m.solution_count)
        packed = pack_pattern(m.pattern)
        at = deckfile.RECORD_HEAD
        r[at:at + len(packed)] = packed
        at += len(packed)
        for k, (li, o) in enumerate(m.solution):
            r[at + 2 * k] = li
            r[at + 2 * k + 1] = o
        body += r
    length = 4 + 1 + 4 + len(body) + 4
    out = bytearray(deckfile.MAGIC) + bytes((deckfile.VERSION,)) + struct.pack("<I", length) + body
    out += struct.pack("<I", zlib.crc32(bytes(out)) & 0xFFFFFFFF)
    return bytes(out)
