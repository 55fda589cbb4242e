# How stacked layers look from above, and whether a layer's holes go through:
# the host tools' half of the Layers geometry (the device never needs it, so
# it is not in geometry.py, which the device loads to play).
#
# A grid is a bytes-like sequence of N*N colour indices, row by row, top row
# first; index 0 is a hole (or, in a pattern, the background).


def holes_match(front, back, n):
    """None if the holes of `back` are the mirror of those of `front`, else the first wrong cell (x, y) of back."""
    for y in range(n):
        for x in range(n):
            if (front[y * n + n - 1 - x] == 0) != (back[y * n + x] == 0):
                return (x, y)
    return None


def stack(grids, n, out=None):
    """The picture seen from above of grids stacked bottom (first) to top (last)."""
    if out is None:
        out = bytearray(n * n)
    else:
        for i in range(n * n):
            out[i] = 0
    for g in grids:
        for i in range(n * n):
            c = g[i]
            if c:
                out[i] = c
    return out


def compose(layers, placements, n):
    """Pattern of a stacking: placements is a list of (layer index, orientation), bottom first."""
    return stack([layers[i].grid(o) for i, o in placements], n)
