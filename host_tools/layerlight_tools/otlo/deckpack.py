"""Writing OTLO challenge decks (the layout is described, and read, in
firmware/layerlight/otlo_deck.py).

`pack(deck_set, challenges)`:
- deck_set: anything with .name, .tile (w, h), .table (r, g, b), .colours
  [(char, (r, g, b))...] in colour-index order (index 1 first), and .tiles
  [objects with .id, .front, .back: bytes of w*h colour indices, 0 = hole];
- challenges: objects with .id, .stars, .difficulty (0..1), .solution_count,
  .w, .h, .pattern (bytes of w*h: OUTSIDE 0, TABLE 15 or a colour index) and
  .solution (placements (tile, layer, side, rot, x, y), bottom first).
The bytes are the same every time for the same input: decks are reproducible.
"""

import struct
import zlib

from layerlight import otlo_deck
from layerlight import otlo_tiles as T


def _pack_pattern(pattern, colours):
    out = bytearray(otlo_deck.PATTERN_BYTES)
    for i, c in enumerate(pattern):
        # the device looks a cell's colour up without checking it: a deck never holds one it lacks
        if not (c in (T.OUTSIDE, T.TABLE) or 1 <= c <= colours):
            raise ValueError("pattern cell %d is %d: not outside, the table or one of the %d colours" % (i, c, colours))
        out[i >> 1] |= (c << 4) if i & 1 else c
    return out


def pack(deck_set, challenges):
    """Bytes of an OTLO deck file; challenges are sorted by stars, then id."""
    tw, th = deck_set.tile
    name = deck_set.name.encode("utf-8")[:255].decode("utf-8", "ignore").encode("utf-8")
    ntiles = len(deck_set.tiles)
    body = bytearray((tw, th, ntiles, len(deck_set.colours))) + bytes(deck_set.table)
    body += bytes((len(name),)) + name
    for ch, rgb in deck_set.colours:
        body += bytes((ord(ch),)) + bytes(rgb)
    for tile in deck_set.tiles:
        for side in (tile.front, tile.back):
            if any(v > len(deck_set.colours) for v in side):
                raise ValueError("tile %s: a cell's colour is beyond the set's %d colours" % (tile.id, len(deck_set.colours)))
        ident = tile.id.encode("ascii")
        body += bytes((len(ident),)) + ident + bytes(tile.front) + bytes(tile.back)
    ordered = sorted(challenges, key=lambda c: (c.stars, c.id))
    for k in range(otlo_deck.STAR_SLOTS):
        at = [i for i, c in enumerate(ordered) if c.stars == k]
        body += struct.pack("<HH", at[0] if at else 0, len(at))
    rec = otlo_deck.record_size(ntiles)
    body += struct.pack("<HH", len(ordered), rec)
    for c in ordered:
        if not (1 <= c.w <= otlo_deck.MAX_SIDE and 1 <= c.h <= otlo_deck.MAX_SIDE):
            raise ValueError("challenge %d is %dx%d: at most %d cells each way" % (c.id, c.w, c.h,
                                                                                 otlo_deck.MAX_SIDE))
        if len(c.solution) > ntiles:
            raise ValueError("challenge %d: a solution lays each tile at most once" % c.id)
        r = bytearray(rec)
        struct.pack_into("<HBHIBBB", r, 0, c.id, c.stars, int(round(c.difficulty * 1000)),
                         min(c.solution_count, 0xFFFFFFFF), c.w, c.h, len(c.solution))
        at = otlo_deck.RECORD_HEAD
        r[at:at + otlo_deck.PATTERN_BYTES] = _pack_pattern(c.pattern, len(deck_set.colours))
        at += otlo_deck.PATTERN_BYTES
        for tile, layer, side, rot, x, y in c.solution:
            r[at:at + 4] = bytes((tile, layer | side << 1 | rot << 2, x, y))
            at += 4
        body += r
    length = 4 + 1 + 4 + len(body) + 4
    out = bytearray(otlo_deck.MAGIC) + bytes((otlo_deck.VERSION,)) + struct.pack("<I", length) + body
    out += struct.pack("<I", zlib.crc32(bytes(out)) & 0xFFFFFFFF)
    return bytes(out)
