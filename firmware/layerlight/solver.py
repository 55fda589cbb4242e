# Finds every stacking of a layer set that shows a given pattern.
#
# It peels the stack from the top: the top card's opaque cells must show the
# pattern's colours exactly; the cells under its holes are left to the cards
# below. Cells are bits of an int, so "does this card fit" is one AND per
# card orientation. This is far cheaper than composing every stacking and is
# what makes level checks and `layerlight solve` fast, on the PC and on the
# device alike.


def masks(grid):
    """(opaque bits, {colour: bits}) of a grid."""
    opaque = 0
    by_colour = {}
    bit = 1
    for c in grid:
        if c:
            opaque |= bit
            by_colour[c] = by_colour.get(c, 0) | bit
        bit <<= 1
    return opaque, by_colour


class Solver:
    """Solutions of patterns over one layer set (a list of geometry.Layer)."""

    def __init__(self, layers):
        self.layers = layers
        # per layer, per orientation: (opaque bits, {colour: bits})
        self.shapes = [[masks(layer.grid(o)) for o in range(8)] for layer in layers]

    def prepare(self, pattern):
        """(wrong, shown) for a pattern.

        wrong[l][o] is (opaque bits, opaque bits whose colour differs from the
        pattern) of layer l in orientation o; shown: the pattern's coloured bits.
        """
        colour_bits = masks(pattern)[1]
        full = (1 << len(pattern)) - 1
        shown = 0
        for b in colour_bits.values():
            shown |= b
        # wrong[l][o]: opaque cells of the card whose colour differs from the pattern there
        wrong = []
        for shapes in self.shapes:
            row = []
            for opaque, by_colour in shapes:
                w = opaque
                for c, bits in by_colour.items():
                    w &= ~(bits & colour_bits.get(c, 0))
                row.append((opaque, w & full))
            wrong.append(row)
        return wrong, shown

    def solutions(self, pattern, level, limit=0, prepared=None, hidden=False):
        """Every stacking of exactly `level` distinct layers showing `pattern`.

        Each solution is a list of (layer index, orientation), bottom first.
        With limit > 0 the search stops after that many. `prepared` is what
        prepare(pattern) returned, when the caller has it already. Only
        stackings in which every layer shows count, unless `hidden` (at the
        fewest layers that make a pattern, every layer always shows).
        """
        wrong, shown = prepared or self.prepare(pattern)
        found = []
        top_down = []
        full = (1 << len(pattern)) - 1

        def search(open_bits, used, depth):
            if depth == level:
                if open_bits & shown == 0:
                    found.append(list(reversed(top_down)))
                return limit and len(found) >= limit
            for li in range(len(wrong)):
                if used & (1 << li):
                    continue
                for o in range(8):
                    opaque, w = wrong[li][o]
                    if w & open_bits or not (hidden or opaque & open_bits):
                        continue
                    top_down.append((li, o))
                    stop = search(open_bits & ~opaque, used | (1 << li), depth + 1)
                    top_down.pop()
                    if stop:
                        return True
            return False

        search(full, 0, 0)
        return found

    def min_level(self, pattern, most=5):
        """The smallest number of layers that shows `pattern`, or 0 if none up to `most` does."""
        prepared = self.prepare(pattern)
        for k in range(1, min(most, len(self.layers)) + 1):
            if self.solutions(pattern, k, 1, prepared):
                return k
        return 0
