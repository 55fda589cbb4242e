"""The OTLO challenge search against a plain brute force, and the rules' edge cases (docs/formats.md)."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layerlight import otlo_tiles as T
from layerlight_tools.otlo import search as S
from layerlight_tools.otlo import sets as otlo_sets

R, B, Y = 1, 2, 3


def tile_set(size, *sides):
    """A set of tiles from (front, back) pairs of colour-index tuples."""
    return otlo_sets.OtloSet("t", size, (0, 0, 0), [("R", (255, 0, 0)), ("B", (0, 0, 255)), ("Y", (255, 255, 0))],
                             dict(otlo_sets.STARS),
                             [otlo_sets.Tile("t%d" % i, bytes(f), bytes(b)) for i, (f, b) in enumerate(sides)])


def brute_force(ts, w, h, shape):
    """{pattern: solutions} of one shape: every tile either unused or laid at every layer, side, turn and
    place of the w x h grid, keeping the combinations the rules allow (written plainly: no search)."""
    tw, th = ts.tile
    inside = {(x, y) for x, y in shape}
    states = [None]
    for layer in (T.BOTTOM, T.TOP):
        for side in (T.FRONT, T.BACK):
            for rot in range(4):
                rw, rh = T.turned_size(tw, th, rot)
                for y in range(h - rh + 1):
                    for x in range(w - rw + 1):
                        cells = frozenset((x + dx, y + dy) for dx in range(rw) for dy in range(rh))
                        if cells <= inside:  # no tile of either layer may stick out of the shape
                            states.append((layer, side, rot, x, y, cells))
    out = {}
    for choice in itertools.product(states, repeat=len(ts.tiles)):
        cells = {T.BOTTOM: [], T.TOP: []}
        for s in choice:
            if s is not None:
                cells[s[0]].append(s[5])
        bottom = [c for cs in cells[T.BOTTOM] for c in cs]
        top = [c for cs in cells[T.TOP] for c in cs]
        if len(bottom) != len(set(bottom)) or set(bottom) != inside:
            continue  # the bottom layer covers exactly the shape, no overlaps
        if len(top) != len(set(top)) or not set(top) <= inside:
            continue  # top tiles do not overlap and lie wholly inside the shape
        placements = [(i, s[0], s[1], s[2], s[3], s[4]) for i, s in enumerate(choice) if s is not None]
        p = S.picture(ts, w, h, placements)
        out[p] = out.get(p, 0) + 1
    return out


DOMINOES = tile_set((1, 2), ((R, B), (B, R)), ((R, 0), (0, R)), ((Y, Y), (B, Y)))
SQUARES = tile_set((2, 2), ((R, 0, B, Y), (0, B, R, R)), ((Y, Y, 0, B), (Y, Y, B, 0)), ((B, 0, 0, R), (0, B, R, 0)))


def test_the_search_finds_every_pattern_of_a_shape_with_its_exact_count():
    checked = 0
    for ts, cells in ((DOMINOES, 4), (DOMINOES, 6), (SQUARES, 8)):
        # the brute force is slow on bigger boxes: the smallest five shapes of each size
        for w, h, shape in S.shapes(ts.tile, cells, 4, len(ts.tiles))[:5]:
            want = brute_force(ts, w, h, shape)
            got = S.pattern_counts(ts, w, h, shape)
            assert got == want
            for p, n in list(want.items())[::7]:
                assert S.count(ts, w, h, p)[0] == n
            checked += 1
    assert checked >= 8


def test_shapes_are_the_connected_unions_of_tiles():
    # two dominoes make 15 tetrominoes (I x2, O, L/J x8, S/Z x4), never the T
    four = S.shapes((1, 2), 4, 4, 6)
    assert len(four) == 15
    assert (3, 2, frozenset({(0, 0), (1, 0), (2, 0), (1, 1)})) not in four
    assert all(w <= 3 and h <= 3 for w, h, _ in S.shapes((1, 2), 4, 3, 6))
    assert S.shapes((2, 2), 12, 6, 2) == []  # three squares need three tiles
    for cells in (8, 12, 16):
        box = S.box_for((2, 2), cells, 6)
        assert S.PREFERRED_BOX <= box <= S.MAX_BOX
        assert all(w <= box and h <= box for w, h, _ in S.shapes((2, 2), cells, box, 6))


colour = st.integers(0, 2)


@st.composite
def small_sets(draw):
    size = draw(st.sampled_from([(1, 2), (2, 1)]))
    tiles = []
    for _ in range(draw(st.integers(2, 3))):
        front = [draw(colour) for _ in range(2)]
        if not any(front):
            front[0] = 1
        back = [draw(st.integers(1, 2)) if front[1 - k] else 0 for k in range(2)]
        tiles.append((tuple(front), tuple(back)))
    return tile_set(size, *tiles)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_sets(), st.data())
def test_random_small_sets_agree_with_the_brute_force(ts, data):
    shapes = S.shapes(ts.tile, 4, 4, len(ts.tiles))
    w, h, shape = data.draw(st.sampled_from(shapes))
    want = brute_force(ts, w, h, shape)
    assert S.pattern_counts(ts, w, h, shape) == want
    for p, n in want.items():
        sols = S.solutions(ts, w, h, p)
        assert len(sols) == n == S.count(ts, w, h, p)[0]
        assert len(set(tuple(sorted(s)) for s in sols)) == n  # each solution once
        assert all(S.picture(ts, w, h, s) == p for s in sols)


SOLID_R = ((R, R), (R, R))


def test_a_top_tile_that_shows_nothing_new_is_another_solution():
    ts = tile_set((1, 2), SOLID_R, SOLID_R, SOLID_R)
    # 2 x 2 of R: 2 tilings x 6 ordered pairs of tiles x 4 x 4 turns and sides = 192 bottoms,
    # each with no top tile or the third tile in any of 4 places x 4 turns and sides: 17
    assert S.count(ts, 2, 2, bytes((R,) * 4))[0] == 192 * 17


def test_a_top_tile_never_lies_outside_the_shape():
    ts = tile_set((1, 2), SOLID_R, SOLID_R)
    pattern = bytes((R, R, T.OUTSIDE, T.OUTSIDE))  # 2 x 2 grid, only the top row is the shape
    sols = S.solutions(ts, 2, 2, pattern)
    # the bottom: either tile lying across, 2 sides x 2 turns; the top: the other tile on it, 4 ways, or none
    assert len(sols) == 2 * 4 * 5
    assert all(p[5] == 0 and p[3] % 2 == 1 for s in sols for p in s)


def test_a_tile_is_never_laid_twice():
    ts = tile_set((1, 2), SOLID_R, ((B, B), (B, B)))
    assert S.count(ts, 4, 1, bytes((R, R, R, R)))[0] == 0
    assert S.count(ts, 4, 1, bytes((R, R, B, B)))[0] == 4 * 4


def test_holes_show_the_table_unless_a_top_gem_covers_them():
    ts = tile_set((2, 1), ((R, 0), (0, R)), ((B, B), (B, B)))
    assert sorted(S.solutions(ts, 2, 1, bytes((R, T.TABLE)))) == [
        [(0, T.BOTTOM, T.FRONT, 0, 0, 0)], [(0, T.BOTTOM, T.BACK, 2, 0, 0)]]
    assert S.count(ts, 2, 1, bytes((B, T.TABLE)))[0] == 0   # the only hole is in an R tile
    assert S.count(ts, 2, 1, bytes((R, B)))[0] == 4 * 2       # B below, the R tile's hole over its right cell
    # B R: B below, the holed tile on top with its hole over the left cell
    assert sorted(S.solutions(ts, 2, 1, bytes((B, R)))) == sorted(
        [(1, T.BOTTOM, below, r, 0, 0), (0, T.TOP, side, rot, 0, 0)]
        for below in (T.FRONT, T.BACK) for r in (0, 2) for side, rot in ((T.FRONT, 2), (T.BACK, 0)))


def test_effort_counts_the_nodes_visited():
    ts = SQUARES
    sol = [(0, T.BOTTOM, T.FRONT, 0, 0, 0), (1, T.BOTTOM, T.BACK, 1, 2, 0), (2, T.TOP, T.FRONT, 0, 1, 0)]
    p = S.picture(ts, 4, 2, sol)
    n, nodes = S.count(ts, 4, 2, p)
    assert n >= 1 and nodes >= 3
    assert sol in S.solutions(ts, 4, 2, p)
