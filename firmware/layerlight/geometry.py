# Layer geometry: the 8 orientations of a card and how stacked cards look.
#
# This module and stacking.py are the one source of truth for orientations
# and stacking. The device uses this one to turn layers (its solution
# animation stacks them itself); the host tools (deck builder, solver, card
# renderer) import both.
#
# A grid is a bytes-like sequence of N*N colour indices, row by row, top row
# first; index 0 is a hole (or, in a pattern, the background).

FRONT = 0
BACK = 1
SIDES = ("front", "back")
ROTATIONS = (0, 90, 180, 270)
ORIENTATIONS = 8  # side * 4 + quarter turns


def orientation(side, rot):
    """Orientation index (0..7) of a side ('front'/'back' or 0/1) and a clockwise rotation in degrees."""
    if side == "front":
        side = FRONT
    elif side == "back":
        side = BACK
    if side not in (FRONT, BACK) or rot not in ROTATIONS:
        raise ValueError("bad orientation")
    return side * 4 + rot // 90


def side_of(o):
    """'front' or 'back' for an orientation index."""
    return SIDES[o >> 2]


def rot_of(o):
    """Clockwise rotation in degrees for an orientation index."""
    return (o & 3) * 90


def rotate_cw(grid, n):
    """The grid turned 90 degrees clockwise."""
    out = bytearray(n * n)
    for y in range(n):
        for x in range(n):
            # new (x, y) comes from old column y, row n-1-x
            out[y * n + x] = grid[(n - 1 - x) * n + y]
    return bytes(out)


def mirror(grid, n):
    """The grid with left and right swapped (a card turned over around its vertical axis)."""
    out = bytearray(n * n)
    for y in range(n):
        for x in range(n):
            out[y * n + x] = grid[y * n + n - 1 - x]
    return bytes(out)


def oriented(front, back, n, o):
    """The grid a card shows in orientation o, as seen from above.

    `back` is the card as seen with its back up, so the back side needs no
    mirroring here; both sides then turn clockwise by the rotation.
    """
    grid = bytes(front if o < 4 else back)
    for _ in range(o & 3):
        grid = rotate_cw(grid, n)
    return grid


class Layer:
    """A physical card: an id, and its front and back grids (colour indices, 0 = hole)."""

    def __init__(self, ident, front, back, n):
        self.id = ident
        self.n = n
        self.front = bytes(front)
        self.back = bytes(back)
        self._orient = [b""] * ORIENTATIONS  # filled on first use

    def grid(self, o):
        """The grid in orientation o (computed once, then kept)."""
        g = self._orient[o]
        if not g:
            g = oriented(self.front, self.back, self.n, o)
            self._orient[o] = g
        return g
