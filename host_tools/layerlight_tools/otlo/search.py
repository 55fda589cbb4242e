"""The OTLO challenge search: shapes the tiles cover, what patterns they show,
and every solution of one pattern (rules: docs/formats.md).

Patterns are (w, h, bytes of w*h): otlo_tiles.OUTSIDE, TABLE or a colour
index, row by row from the top-left. A solution is a list of placements
(tile, layer, side, rot, x, y) as in otlo_tiles, bottom first.

Shapes: connected (edge to edge) unions of tile rectangles, normalised by
translation (moved so that their box starts at 0, 0), whose box is at most
`box` x `box` cells: MAX_BOX (6, what the device shows in a quadrant of its
16x16 matrix, four piles at once) at the most, PREFERRED_BOX (4) where that
leaves at least MIN_SHAPES shapes of the size (see `box_for`).

`Solver(otlo_set, pattern)` counts and lists the solutions of one pattern
without trying every placement of every tile: the top layer comes first
(a top tile's gems must be exactly what the pattern shows, so few fit), then
the bottom layer is laid from the first uncovered cell of the shape (the
only tile corner that can go there), refusing any tile that shows, where no
top gem hides it, anything but the pattern; counts of the rest of the bottom
are memoised by (cells covered, tiles used, cells hidden by top gems).
`pattern_counts` gives the exact pattern -> solution count map of one shape
(for small sets: it walks every layout of rectangles, merging equal partial
pictures as it goes).
"""

from layerlight import otlo_tiles as T

MAX_BOX = 6          # a challenge's pattern fits 6 x 6: a quadrant of the 16x16 matrix (otlo_deck.MAX_SIDE is 8)
PREFERRED_BOX = 4    # easier to take in at a glance, on the device and on a card
MIN_SHAPES = 4       # below this many shapes in PREFERRED_BOX, the box grows towards MAX_BOX


class Orientation:
    """A tile laid one side up and turned: its grid as laid, width and height."""

    def __init__(self, tile, side, rot, grid, w, h):
        self.tile = tile
        self.side = side
        self.rot = rot
        self.grid = grid
        self.w = w
        self.h = h


def orientations(otlo_set):
    """Every (tile, side, turn) of a set: 8 per tile, symmetric looks included (they are other solutions)."""
    tw, th = otlo_set.tile
    out = []
    for i, tile in enumerate(otlo_set.tiles):
        for side in (T.FRONT, T.BACK):
            for rot in range(4):
                grid, w, h = T.oriented(T.side_of(tile, side), tw, th, rot)
                out.append(Orientation(i, side, rot, grid, w, h))
    return out


# --- shapes --------------------------------------------------------------------

def rect_sizes(tile):
    """The (w, h) a tile takes on the grid: one, or two for a non-square tile."""
    tw, th = tile
    return [(tw, th)] if tw == th else [(tw, th), (th, tw)]


def normalise(cells):
    """A set of (x, y) cells moved to start at 0, 0: (w, h, frozenset)."""
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    moved = frozenset((x - x0, y - y0) for x, y in cells)
    return max(x for x, _ in moved) + 1, max(y for _, y in moved) + 1, moved


def shapes(tile, cells, box, max_tiles):
    """Every shape of `cells` cells made of tile rectangles edge to edge within a box x box box.

    Returns (w, h, frozenset of cells), sorted (smaller boxes first). Grown one
    rectangle at a time from a single one; each rectangle touches the shape.
    """
    sizes = rect_sizes(tile)
    area = tile[0] * tile[1]
    if cells % area or cells // area > max_tiles or cells == 0:
        return []
    level = {normalise([(x, y) for x in range(w) for y in range(h)]) for w, h in sizes if w <= box and h <= box}
    for _ in range(cells // area - 1):
        grown = set()
        for w, h, shape in level:
            for rw, rh in sizes:
                for x in range(-rw, w + 1):
                    for y in range(-rh, h + 1):
                        rect = [(x + dx, y + dy) for dx in range(rw) for dy in range(rh)]
                        if any(c in shape for c in rect):
                            continue
                        if not any((cx + 1, cy) in shape or (cx - 1, cy) in shape or (cx, cy + 1) in shape
                                   or (cx, cy - 1) in shape for cx, cy in rect):
                            continue
                        n = normalise(shape.union(rect))
                        if n[0] <= box and n[1] <= box:
                            grown.add(n)
        level = grown
    return sorted(level, key=lambda s: (s[0] * s[1], s[0], s[1], sorted(s[2])))


def box_for(tile, cells, max_tiles):
    """The box side for shapes of this size: PREFERRED_BOX if it holds MIN_SHAPES shapes, else larger, up to MAX_BOX."""
    for box in range(PREFERRED_BOX, MAX_BOX + 1):
        if len(shapes(tile, cells, box, max_tiles)) >= MIN_SHAPES:
            return box
    return MAX_BOX


def shape_mask(w, shape):
    m = 0
    for x, y in shape:
        m |= 1 << (y * w + x)
    return m


def tilings(tile, w, h, mask, max_tiles):
    """Every way to cover the cells of `mask` (a w x h grid) exactly by tile rectangles: lists of (x, y, rw, rh)."""
    sizes = rect_sizes(tile)
    out = []

    def walk(covered, laid):
        if covered == mask:
            out.append(list(laid))
            return
        if len(laid) == max_tiles:
            return
        free = mask & ~covered
        c = (free & -free).bit_length() - 1
        x, y = c % w, c // w
        for rw, rh in sizes:
            if x + rw > w or y + rh > h:
                continue
            m = rect_mask(w, x, y, rw, rh)
            if m & ~free:
                continue
            laid.append((x, y, rw, rh))
            walk(covered | m, laid)
            laid.pop()

    walk(0, [])
    return out


def rect_mask(w, x, y, rw, rh):
    m = 0
    for dy in range(rh):
        m |= ((1 << rw) - 1) << ((y + dy) * w + x)
    return m


def top_layouts(tile, w, h, mask, most):
    """Every set of at most `most` non-overlapping tile rectangles wholly inside `mask` (the empty set first)."""
    rects = []
    for rw, rh in rect_sizes(tile):
        for y in range(h - rh + 1):
            for x in range(w - rw + 1):
                m = rect_mask(w, x, y, rw, rh)
                if m & ~mask == 0:
                    rects.append((x, y, rw, rh, m))
    out = []

    def walk(start, occupied, laid):
        out.append([r[:4] for r in laid])
        if len(laid) == most:
            return
        for k in range(start, len(rects)):
            if rects[k][4] & occupied == 0:
                laid.append(rects[k])
                walk(k + 1, occupied | rects[k][4], laid)
                laid.pop()

    walk(0, 0, [])
    return out


# --- every pattern of a shape ---------------------------------------------------------

def pattern_counts(otlo_set, w, h, shape):
    """{pattern bytes (w*h): exact number of solutions} for one shape (a frozenset of (x, y)).

    Walks every layout (a tiling of the shape, then a set of top rectangles)
    and gives its slots tiles one at a time, keeping {(picture so far, tiles
    used): solutions} so that equal partial pictures are carried once.
    """
    mask = shape_mask(w, shape)
    n = len(otlo_set.tiles)
    by_size = {}
    for o in orientations(otlo_set):
        by_size.setdefault((o.w, o.h), []).append(o)
    blank = bytes(w * h)
    total = {}
    for tiling in tilings(otlo_set.tile, w, h, mask, n):
        for top in top_layouts(otlo_set.tile, w, h, mask, n - len(tiling)):
            states = {(blank, 0): 1}
            for layer, (x, y, rw, rh) in [(T.BOTTOM, r) for r in tiling] + [(T.TOP, r) for r in top]:
                nxt = {}
                for (pic, used), count in states.items():
                    for o in by_size[(rw, rh)]:
                        if used >> o.tile & 1:
                            continue
                        p = bytearray(pic)
                        for dy in range(rh):
                            for dx in range(rw):
                                v = o.grid[dy * rw + dx]
                                if v:
                                    p[(y + dy) * w + x + dx] = v
                                elif layer == T.BOTTOM:
                                    p[(y + dy) * w + x + dx] = T.TABLE
                        key = (bytes(p), used | 1 << o.tile)
                        nxt[key] = nxt.get(key, 0) + count
                states = nxt
            for (pic, _), count in states.items():
                total[pic] = total.get(pic, 0) + count
    return total


# --- the solutions of one pattern ------------------------------------------------------

class Solver:
    """Counts and lists the solutions of one pattern; `nodes` counts the search's steps (its effort)."""

    def __init__(self, otlo_set, w, h, pattern):
        self.w, self.h, self.pattern = w, h, bytes(pattern)
        self.shape = 0
        for i, v in enumerate(self.pattern):
            if v != T.OUTSIDE:
                self.shape |= 1 << i
        self.nodes = 0
        self.tops = []                           # (cells, gem cells, tile bit, placement)
        self.bottom_at = [[] for _ in range(w * h)]  # by top-left cell: (cells, cells that must be hidden, tile bit, placement)
        for o in orientations(otlo_set):
            for y in range(h - o.h + 1):
                for x in range(w - o.w + 1):
                    self._add(o, x, y)
        self._memo = {}

    def _add(self, o, x, y):
        w, pat = self.w, self.pattern
        cells = gems = wrong_bottom = 0
        top_ok = True
        for dy in range(o.h):
            for dx in range(o.w):
                i = (y + dy) * w + x + dx
                bit = 1 << i
                if not self.shape & bit:
                    return                        # a tile lies wholly inside the shape, in either layer
                cells |= bit
                v = o.grid[dy * o.w + dx]
                if v:
                    gems |= bit
                    if pat[i] != v:
                        top_ok = False
                        wrong_bottom |= bit
                elif pat[i] != T.TABLE:
                    wrong_bottom |= bit
        place = (o.tile, 0, o.side, o.rot, x, y)
        if top_ok:
            self.tops.append((cells, gems, 1 << o.tile, (o.tile, T.TOP, o.side, o.rot, x, y)))
        self.bottom_at[y * w + x].append((cells, wrong_bottom, 1 << o.tile, place))

    def _top_sets(self):
        """Every top layer that fits the pattern: (tiles used, cells its gems hide, placements)."""
        out = []
        tops = self.tops

        def walk(start, used, occupied, hidden, laid):
            self.nodes += 1
            out.append((used, hidden, list(laid)))
            for k in range(start, len(tops)):
                cells, gems, bit, place = tops[k]
                if used & bit or occupied & cells:
                    continue
                laid.append(place)
                walk(k + 1, used | bit, occupied | cells, hidden | gems, laid)
                laid.pop()

        walk(0, 0, 0, 0, [])
        return out

    def _bottoms(self, covered, used, hidden):
        """Solutions of the rest of the bottom layer (memoised)."""
        if covered == self.shape:
            return 1
        key = (covered, used, hidden)
        got = self._memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        free = self.shape & ~covered
        c = (free & -free).bit_length() - 1
        total = 0
        for cells, wrong, bit, _ in self.bottom_at[c]:
            if used & bit or cells & covered or wrong & ~hidden:
                continue
            total += self._bottoms(covered | cells, used | bit, hidden)
        self._memo[key] = total
        return total

    def count(self):
        """The exact number of solutions."""
        return sum(self._bottoms(0, used, hidden) for used, hidden, _ in self._top_sets())

    def solutions(self, limit=None):
        """Solutions (placements, bottom first, then top), at most `limit` of them (None: all)."""
        out = []
        for used, hidden, top in self._top_sets():
            if self._bottoms(0, used, hidden):
                self._walk_bottom(0, used, hidden, [], top, out, limit)
            if limit is not None and len(out) >= limit:
                break
        return out

    def _walk_bottom(self, covered, used, hidden, laid, top, out, limit):
        if limit is not None and len(out) >= limit:
            return
        if covered == self.shape:
            out.append(laid + top)
            return
        free = self.shape & ~covered
        c = (free & -free).bit_length() - 1
        for cells, wrong, bit, place in self.bottom_at[c]:
            if used & bit or cells & covered or wrong & ~hidden:
                continue
            if self._bottoms(covered | cells, used | bit, hidden):
                laid.append(place)
                self._walk_bottom(covered | cells, used | bit, hidden, laid, top, out, limit)
                laid.pop()


def solutions(otlo_set, w, h, pattern, limit=None):
    """Every solution of a pattern (at most `limit`), placements bottom first."""
    return Solver(otlo_set, w, h, pattern).solutions(limit)


def count(otlo_set, w, h, pattern):
    """(exact number of solutions, nodes the search visited to count them all)."""
    s = Solver(otlo_set, w, h, pattern)
    n = s.count()
    return n, s.nodes


def picture(otlo_set, w, h, placements):
    """What a solution shows (bytes of w*h), by the firmware's compose."""
    out = bytearray(w * h)
    T.compose(otlo_set.tiles, placements, w, h, out, otlo_set.tile[0], otlo_set.tile[1])
    return bytes(out)
