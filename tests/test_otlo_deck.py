"""The OTLO deck file and the tile geometry the device uses (firmware/layerlight/otlo_*.py)."""

import types

import pytest

from layerlight import otlo_tiles as T
from layerlight.deck import DeckError
from layerlight.otlo_deck import OtloDeck
from layerlight_tools import simcore
from layerlight_tools.otlo import deckpack as otlo_deckpack

# two 2x2 tiles; front R. / BY, back .B / RR (holes mirrored): colours R=1, B=2, Y=3
FRONT = bytes((1, 0, 2, 3))
BACK = bytes((0, 2, 1, 1))
SET = types.SimpleNamespace(
    name="Stones", tile=(2, 2), table=(16, 16, 16), colours=[("R", (209, 73, 91)), ("B", (29, 112, 184)),
                                                              ("Y", (242, 193, 78))],
    tiles=[types.SimpleNamespace(id="t1", front=FRONT, back=BACK),
           types.SimpleNamespace(id="t2", front=bytes((3, 3, 0, 2)), back=bytes((3, 3, 2, 0))),
           types.SimpleNamespace(id="t3", front=bytes((2, 2, 2, 0)), back=bytes((2, 2, 0, 1)))])


def challenge(ident, stars, solution, w=4, h=2):
    out = bytearray(w * h)
    T.compose(SET.tiles, solution, w, h, out, 2, 2)
    return types.SimpleNamespace(id=ident, stars=stars, difficulty=0.25, solution_count=3, w=w, h=h,
                                 pattern=bytes(out), solution=solution)


def test_turning_a_tile_clockwise():
    grid = bytes((1, 2, 3, 4, 5, 6))  # 3 wide, 2 tall: 1 2 3 / 4 5 6
    assert T.oriented(grid, 3, 2, 1) == (bytes((4, 1, 5, 2, 6, 3)), 2, 3)  # the top row becomes the right column
    assert T.oriented(grid, 3, 2, 2) == (bytes((6, 5, 4, 3, 2, 1)), 3, 2)
    assert T.oriented(grid, 3, 2, 3) == (bytes((3, 6, 2, 5, 1, 4)), 2, 3)
    assert T.oriented(*T.oriented(grid, 3, 2, 1), 3)[0] == grid


def test_what_shows_top_gem_then_bottom_gem_then_the_table():
    out = bytearray(8)
    # bottom: t1 front at (0,0) and t2 front at (2,0); top: t1 back straddling at (1,0)
    T.compose(SET.tiles, [(0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 2, 0), (2, 1, 1, 0, 1, 0)], 4, 2, out, 2, 2)
    # bottom alone: R _ Y Y / B Y _ B; the top tile's back (BB/.R) covers x 1..2: its hole shows what is below
    assert list(out) == [1, 2, 2, 3, 2, 3, 1, 2]
    T.compose(SET.tiles, [(0, 0, 0, 0, 0, 0)], 4, 2, out, 2, 2)
    assert list(out) == [1, T.TABLE, 0, 0, 2, 3, 0, 0]  # cells no tile covers are outside the shape


def test_holes_must_mirror():
    assert T.mirrored_holes(FRONT, BACK, 2, 2)
    assert not T.mirrored_holes(FRONT, FRONT, 2, 2)


def test_a_deck_round_trips_through_the_device_reader():
    sol = [(0, 0, 0, 1, 0, 0), (1, 0, 1, 2, 2, 0), (2, 1, 0, 3, 1, 0)]
    chs = [challenge(7, 2, sol), challenge(3, 1, sol[:2]), challenge(9, 1, sol)]
    data = otlo_deckpack.pack(SET, chs)
    assert otlo_deckpack.pack(SET, list(reversed(chs))) == data  # reproducible, whatever the order
    deck = OtloDeck(simcore.MemoryStorage({"d": data}), "d")
    assert deck.name == "Stones" and (deck.tile_w, deck.tile_h) == (2, 2) and deck.levels == (1, 2)
    assert deck.colours[0] == (16, 16, 16) and deck.colours[2] == (29, 112, 184)
    assert [t.id for t in deck.tiles] == ["t1", "t2", "t3"] and deck.tiles[0].back == BACK
    assert (deck.count, deck.level_count(1), deck.level_count(2), deck.level_count(3)) == (3, 2, 1, 0)
    c = deck.level_challenge(2, 0)
    assert (c.id, c.stars, c.w, c.h, c.solution_count, c.difficulty) == (7, 2, 4, 2, 3, 0.25)
    assert c.solution == sol and c.pattern == chs[0].pattern
    assert [deck.level_challenge(1, i).id for i in range(2)] == [3, 9]


@pytest.mark.parametrize("damage, message", [
    (lambda d: d[:40], "deck truncated"),
    (lambda d: d[:30] + bytes((d[30] ^ 4,)) + d[31:], "checksum wrong"),
    (lambda d: d[:4] + b"\x09" + d[5:], "newer than this firmware"),
    (lambda d: b"LLDK" + d[4:], "not a deck file"),
])
def test_a_damaged_deck_is_one_clear_error(damage, message):
    data = otlo_deckpack.pack(SET, [challenge(1, 1, [(0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 2, 0)])])
    with pytest.raises(DeckError, match=message):
        OtloDeck(simcore.MemoryStorage({"d": damage(data)}), "d")
    with pytest.raises(DeckError, match="deck not found: nothing"):
        OtloDeck(simcore.MemoryStorage({}), "nothing")


def test_the_writer_refuses_a_colour_the_set_does_not_have():
    """The device looks colours up without checking: a deck must never hold a colour index
    beyond its set's (a tool's bug would otherwise pass the CRC and crash the game)."""
    sol = [(0, 0, 0, 1, 0, 0), (1, 0, 1, 2, 2, 0)]
    bad = challenge(1, 1, sol)
    bad.pattern = bytes((4,)) + bad.pattern[1:]  # colour 4 of 3
    with pytest.raises(ValueError, match="pattern cell 0 is 4"):
        otlo_deckpack.pack(SET, [bad])
    odd = types.SimpleNamespace(**vars(SET))
    odd.tiles = [types.SimpleNamespace(id="t9", front=bytes((1, 0, 5, 3)), back=BACK)] + SET.tiles[1:]
    with pytest.raises(ValueError, match="tile t9"):
        otlo_deckpack.pack(odd, [challenge(1, 1, sol)])
    assert otlo_deckpack.pack(SET, [challenge(1, 1, sol)])  # the good deck still packs
