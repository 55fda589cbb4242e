"""A small hand-made OTLO deck for the tests, until firmware/decks/otlo.deck ships.

Six 2 x 2 tiles in four colours; 20 challenges (10 of 1 star, 6 of 2, 4 of 3)
whose patterns are composed by the firmware's own geometry
(otlo_tiles.compose) from a chosen solution, so every card is solvable and its
stored solution is right by construction. When the shipped deck is there,
`ensure` leaves the device files alone and the tests play that deck.
"""

import os
import tempfile
import types

from layerlight import otlo_tiles as T

SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "firmware", "decks", "otlo.deck")
COLOURS = [("R", (209, 73, 91)), ("B", (29, 112, 184)), ("Y", (242, 193, 78)), ("G", (60, 170, 90))]
R, B, Y, G = 1, 2, 3, 4
# front, back (the back's holes mirror the front's left-right)
TILES = [
    ((R, 0, B, Y), (0, B, R, R)),
    ((Y, Y, 0, B), (G, Y, B, 0)),
    ((B, B, B, 0), (R, R, 0, G)),
    ((G, 0, 0, R), (0, Y, G, 0)),
    ((R, G, Y, 0), (B, B, 0, Y)),
    ((0, Y, G, G), (R, 0, Y, B)),
]
SET = types.SimpleNamespace(
    name="Test stones", tile=(2, 2), table=(16, 16, 16), colours=COLOURS,
    tiles=[types.SimpleNamespace(id="t%d" % (i + 1), front=bytes(f), back=bytes(b))
           for i, (f, b) in enumerate(TILES)])


def _challenge(ident, stars, solution, w, h):
    out = bytearray(w * h)
    T.compose(SET.tiles, solution, w, h, out, 2, 2)
    return types.SimpleNamespace(id=ident, stars=stars, difficulty=0.5, solution_count=1, w=w, h=h,
                                 pattern=bytes(out), solution=solution)


def challenges():
    """The 20 cards: bottom tiles side by side (and a 2 x 2 block for 3 stars), one top tile."""
    out = []
    ident = 1
    for k in range(10):  # 1 star: 4 x 2, two bottom tiles, a top tile across the middle
        a, b, top = k % 6, (k + 1) % 6, (k + 3) % 6
        sol = [(a, 0, k % 2, k % 4, 0, 0), (b, 0, (k // 2) % 2, (k + 1) % 4, 2, 0), (top, 1, 1, k % 4, 1, 0)]
        out.append(_challenge(ident, 1, sol, 4, 2))
        ident += 1
    for k in range(6):  # 2 stars: 6 x 2, three bottom tiles, a top tile
        t = [(k + i) % 6 for i in range(4)]
        sol = [(t[0], 0, 0, k % 4, 0, 0), (t[1], 0, 1, (k + 2) % 4, 2, 0), (t[2], 0, k % 2, 1, 4, 0),
               (t[3], 1, (k + 1) % 2, k % 4, 1 + 2 * (k % 2), 0)]
        out.append(_challenge(ident, 2, sol, 6, 2))
        ident += 1
    for k in range(4):  # 3 stars: 4 x 4, four bottom tiles, two top tiles
        t = [(k + i) % 6 for i in range(6)]
        sol = [(t[0], 0, 0, k, 0, 0), (t[1], 0, 1, k, 2, 0), (t[2], 0, 0, (k + 1) % 4, 0, 2),
               (t[3], 0, 1, (k + 2) % 4, 2, 2), (t[4], 1, k % 2, 0, 1, 0), (t[5], 1, 0, k, 1, 2)]
        out.append(_challenge(ident, 3, sol, 4, 4))
        ident += 1
    return out


def deck_bytes():
    from layerlight_tools.otlo import deckpack as otlo_deckpack
    return otlo_deckpack.pack(SET, challenges())


def shipped():
    return os.path.exists(SHIPPED)


def ensure(files):
    """The device files with an OTLO deck: the shipped one, else this fixture."""
    if "decks/otlo.deck" not in files:
        files["decks/otlo.deck"] = deck_bytes()
    return files


_DIR = []


def mounts():
    """Extra mounts for the real MicroPython runs: the fixture deck under /decks (none once one ships)."""
    if shipped():
        return []
    if not _DIR:
        d = tempfile.mkdtemp(prefix="otlo-fixture-")
        with open(os.path.join(d, "otlo.deck"), "wb") as f:
            f.write(deck_bytes())
        _DIR.append(d)
    return [_DIR[0] + ":/decks"]
