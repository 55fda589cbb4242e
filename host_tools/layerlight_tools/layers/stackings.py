"""Every stacking of 1 to 5 layers of a set, level by level, in NumPy.

The search builds stacks from the top down. A stack seen from above is a
picture (bit planes of the colour indices, one bit per cell) and the set of
layers used; putting a layer underneath only fills the cells still open. Two
observations keep it small:

- A stacking in which some layer shows no cell makes a picture that fewer
  layers make too, so it can never be a mission of its level: such stacks are
  dropped as soon as the hidden layer goes in (and nothing is built below a
  stack that covers every cell).
- Stacks with the same layers and the same picture have the same future: they
  are merged, keeping how many stackings they stand for.

The pictures left at depth k, merged over the layers used, are the patterns
made by exactly k layers each showing; a pattern is a mission of level k when
no smaller depth made it. The orientations come from the firmware's
geometry module (Layer.grid), the one source of truth.
"""

import numpy as np

MAX_LEVEL = 5
MAX_LAYERS = 63       # the layers a stack used are one bit each of a 64-bit word
ORIENTATIONS = 8
_MIX = np.uint64(0x9E3779B97F4A7C15)


class Candidates:
    """The missions of one level: bit-plane patterns, solution counts and visibility."""

    def __init__(self, level, planes, counts, visible):
        self.level = level
        self.planes = planes      # (k, planes, words) uint64
        self.counts = counts      # (k,) int64: stackings of exactly `level` layers
        self.visible = visible    # (k,) float64: best over solutions of the least visible layer's share

    def __len__(self):
        return len(self.counts)


class Shapes:
    """Bit planes of every layer in every orientation."""

    def __init__(self, layers, size, colours):
        self.n = size
        self.cells = size * size
        self.words = (self.cells + 63) // 64
        self.nplanes = max(1, colours.bit_length())
        nl = len(layers)
        grids = np.zeros((nl, ORIENTATIONS, self.cells), np.uint8)
        for li, layer in enumerate(layers):
            for o in range(ORIENTATIONS):
                grids[li, o] = np.frombuffer(layer.grid(o), np.uint8)
        self.grids = grids
        self.planes = to_planes(grids.reshape(-1, self.cells), self.nplanes).reshape(
            nl, ORIENTATIONS, self.nplanes, self.words)
        self.opaque = self.planes[:, :, 0].copy()
        for b in range(1, self.nplanes):
            self.opaque |= self.planes[:, :, b]
        self.opaque_cells = (grids != 0).sum(axis=2)  # (layers, 8)


def to_planes(grids, nplanes):
    """(m, cells) colour indices -> (m, nplanes, words) uint64 bit planes (cell i = bit i % 64 of word i // 64)."""
    m, cells = grids.shape
    words = (cells + 63) // 64
    padded = np.zeros((m, words * 64), np.uint8)
    padded[:, :cells] = grids
    out = np.empty((m, nplanes, words), np.uint64)
    for b in range(nplanes):
        bits = ((padded >> b) & 1).astype(np.uint8)
        out[:, b] = np.packbits(bits, axis=1, bitorder="little").view("<u8").reshape(m, words)
    return out


def to_grids(planes, cells):
    """(m, nplanes, words) bit planes -> (m, cells) uint8 colour indices."""
    m, nplanes, words = planes.shape
    out = np.zeros((m, words * 64), np.uint8)
    for b in range(nplanes):
        raw = np.ascontiguousarray(planes[:, b]).astype("<u8").view(np.uint8).reshape(m, words * 8)
        out |= np.unpackbits(raw, axis=1, bitorder="little") << b
    return out[:, :cells]


def _hash(keys):
    h = np.zeros(len(keys), np.uint64)
    for c in range(keys.shape[1]):
        h ^= keys[:, c]
        h *= _MIX
        h ^= h >> np.uint64(29)
    return h


def _rows_differ(ks):
    """For sorted rows: does row i+1 differ from row i."""
    d = ks[1:, 0] != ks[:-1, 0]
    for c in range(1, ks.shape[1]):
        d |= ks[1:, c] != ks[:-1, c]
    return d


def group(keys):
    """Rows of `keys` (m, c) uint64 grouped exactly: (order, starts).

    keys[order] has equal rows next to each other, in their original order;
    group g is order[starts[g]:starts[g+1]]. A hash of each row is sorted together with
    the row's index packed into its low bits (sorting plain integers is far
    cheaper than sorting rows or an argsort); then neighbours are compared
    row by row, and the few runs where different rows share a hash are
    sorted by their rows, so a collision never merges different patterns.
    """
    m = len(keys)
    if m == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    bits = np.uint64(max(1, (m - 1).bit_length()))
    packed = (_hash(keys) << bits) | np.arange(m, dtype=np.uint64)
    packed.sort()
    order = (packed & ((np.uint64(1) << bits) - np.uint64(1))).astype(np.intp)
    hashes = packed >> bits
    del packed
    ks = np.take(keys, order, axis=0)
    differ = _rows_differ(ks)
    same_hash = hashes[1:] == hashes[:-1]
    clash = np.flatnonzero(differ & same_hash)
    if len(clash):
        run_starts = np.flatnonzero(np.concatenate(([True], ~same_hash)))
        run_ends = np.append(run_starts[1:], m)
        for r in np.unique(np.searchsorted(run_starts, clash, side="right") - 1):
            a, b = run_starts[r], run_ends[r]
            sub = order[a:b]
            order[a:b] = sub[np.lexsort(keys[sub].T[::-1])]
        ks = np.take(keys, order, axis=0)
        differ = _rows_differ(ks)
    return order, np.flatnonzero(np.concatenate(([True], differ)))


class _States:
    """Stacks of one depth: keys (layers used, then the picture's planes), stackings merged in, least visible share."""

    def __init__(self, keys, mult, vis):
        self.keys = keys
        self.mult = mult
        self.vis = vis

    def __len__(self):
        return len(self.keys)

    def take(self, rows):
        return _States(np.take(self.keys, rows, axis=0), self.mult[rows], self.vis[rows])


def _merge(states):
    """Stacks with the same layers and picture merged (stackings added, visibility: the best)."""
    if len(states) == 0:
        return states
    order, starts = group(states.keys)
    return _States(np.take(states.keys, order[starts], axis=0),
                   np.add.reduceat(states.mult[order], starts),
                   np.maximum.reduceat(states.vis[order], starts))


def _deeper(states, shapes, tick, per_layer, chunk=1 << 20):
    """Every stack of the next depth (a new layer underneath) in which the new layer shows."""
    nl = shapes.planes.shape[0]
    np_, w = shapes.nplanes, shapes.words
    used = states.keys[:, 0]
    planes = states.keys[:, 1:].reshape(len(states), np_, w)
    covered = planes[:, 0].copy()
    for b in range(1, np_):
        covered |= planes[:, b]
    open_cells = ~covered
    parts = []
    for li in range(nl):
        free = np.flatnonzero((used >> np.uint64(li)) & np.uint64(1) == 0)
        for lo in range(0, len(free), chunk):
            sel = free[lo:lo + chunk]
            op = np.take(open_cells, sel, axis=0)                      # (m, W)
            shows = shapes.opaque[li][None] & op[:, None, :]           # (m, 8, W)
            nshow = np.bitwise_count(shows).sum(axis=2)                # (m, 8)
            keep_s, keep_o = np.nonzero(nshow)
            if len(keep_s) == 0:
                continue
            parent = sel[keep_s]
            keys = np.take(states.keys, parent, axis=0)
            keys[:, 0] |= np.uint64(1 << li)
            keys[:, 1:] |= (shapes.planes[li][keep_o] & np.take(op, keep_s, axis=0)[:, None, :]).reshape(len(parent), -1)
            share = nshow[keep_s, keep_o] / shapes.opaque_cells[li][keep_o]
            parts.append(_States(keys, states.mult[parent], np.minimum(states.vis[parent], share)))
        if tick:
            tick(per_layer)
    if not parts:
        return _States(np.zeros((0, states.keys.shape[1]), np.uint64), np.zeros(0, np.int64), np.zeros(0))
    return _States(np.concatenate([p.keys for p in parts]), np.concatenate([p.mult for p in parts]),
                   np.concatenate([p.vis for p in parts]))


def stacking_count(layers, level):
    """How many stackings of exactly `level` distinct layers a set has (orders and orientations)."""
    total = 1
    for k in range(level):
        total *= (layers - k) * ORIENTATIONS
    return total


def pattern_hash(planes):
    """A 64-bit hash of each pattern (k, planes, words): a fixed, machine-independent order for ties."""
    return _hash(np.ascontiguousarray(planes).reshape(len(planes), -1))


def order_by(grades, planes):
    """Indices sorting patterns by grade (thousandths), ties in a fixed pseudo-random order (their hash).

    One sort of 64-bit integers: grade, then the top bits of the hash, then the index.
    """
    m = len(grades)
    if m == 0:
        return np.zeros(0, np.intp)
    ibits = max(1, (m - 1).bit_length())
    gbits = 11
    hbits = 64 - gbits - ibits
    key = np.rint(np.asarray(grades) * 1000).astype(np.uint64) << np.uint64(64 - gbits)
    key |= (pattern_hash(planes) >> np.uint64(64 - hbits)) << np.uint64(ibits)
    key |= np.arange(m, dtype=np.uint64)
    key.sort()
    return (key & ((np.uint64(1) << np.uint64(ibits)) - np.uint64(1))).astype(np.intp)


def missions(layers, size, colours, max_level=MAX_LEVEL, tick=None):
    """Candidates for each level 1..max_level: the patterns whose fewest layers is that level.

    layers: geometry.Layer list; colours: how many colours (indices 1..colours).
    tick(n) is called as the work goes on, n stackings at a time (they add up
    to every stacking of 1..max_level layers). Returns {level: Candidates}.
    """
    if len(layers) > MAX_LAYERS:
        raise ValueError("at most %d layers" % MAX_LAYERS)
    shapes = Shapes(layers, size, colours)
    nl = len(layers)
    top = min(max_level, nl)
    width = shapes.nplanes * shapes.words
    # depth 1: every layer in every orientation (a layer with no opaque cell never shows)
    li = np.repeat(np.arange(nl), ORIENTATIONS)
    lo = np.tile(np.arange(ORIENTATIONS), nl)
    keys = np.empty((nl * ORIENTATIONS, 1 + width), np.uint64)
    keys[:, 0] = np.uint64(1) << li.astype(np.uint64)
    keys[:, 1:] = shapes.planes[li, lo].reshape(-1, width)
    states = _States(keys, np.ones(len(keys), np.int64), np.ones(len(keys)))
    states = states.take(np.flatnonzero(shapes.opaque_cells[li, lo] > 0))
    seen = np.zeros((0, width), np.uint64)  # every pattern some smaller depth makes
    out = {}
    for level in range(1, top + 1):
        if level > 1:
            states = _deeper(states, shapes, tick, stacking_count(nl, level) // nl)
            if level < top:  # at the last depth the grouping below does the merging
                states = _merge(states)
        # patterns of this depth, merged over the layers used, against those of smaller depths:
        # in a group the rows keep their order, so a group holds an older pattern iff it starts with one
        pats = np.concatenate([seen, states.keys[:, 1:]])
        order, starts = group(pats)
        fresh = order[starts] >= len(seen)
        mult = np.concatenate([np.zeros(len(seen), np.int64), states.mult])
        vis = np.concatenate([np.zeros(len(seen)), states.vis])
        counts = np.add.reduceat(mult[order], starts)[fresh]
        best = np.maximum.reduceat(vis[order], starts)[fresh]
        new_pats = np.take(pats, order[starts[fresh]], axis=0)
        del pats, order, starts, mult, vis
        out[level] = Candidates(level, new_pats.reshape(-1, shapes.nplanes, shapes.words), counts, best)
        seen = np.concatenate([seen, new_pats])
        if level == 1 and tick:
            tick(stacking_count(nl, 1))
    return out
