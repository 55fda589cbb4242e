# OTLO Stones tiles: how a tile side looks when it is turned, and what shows
# in each cell of a challenge when tiles are laid in two layers
# (docs/formats.md). The one copy of this geometry: the card tools on the
# PC import it, and the device uses it for the "hold B to see a solution"
# animation.
#
# A tile side is a tile_w x tile_h grid of colour indices, row by row from
# the top-left: 0 is a hole, 1.. a gem colour. The back's grid is the back as
# you see it when the tile lies back side up; its holes are the left-right
# mirror of the front's (the holes go through the tile).
#
# A placement is a tuple (tile index, layer, side, rot, x, y): layer 0 =
# bottom, 1 = top; side 0 = front, 1 = back; rot 0..3 = turned 0/90/180/270
# degrees clockwise; x, y = the top-left cell of the tile as laid.

OUTSIDE = 0   # a cell outside the challenge's shape
TABLE = 15    # the table shows through (a bottom hole)
HOLE = 0
BOTTOM = 0
TOP = 1
FRONT = 0
BACK = 1


def turned_size(w, h, rot):
    """(width, height) of a w x h tile turned rot quarter turns."""
    return (w, h) if rot % 2 == 0 else (h, w)


def cell(grid, w, h, rot, dx, dy):
    """The colour at (dx, dy) of a w x h grid turned rot quarter turns clockwise.

    Reads the untouched grid (no turned copy is made): (dx, dy) in the turned
    tile comes from one cell of the grid as drawn.
    """
    if rot == 0:
        x, y = dx, dy
    elif rot == 1:   # clockwise: the top row becomes the right column
        x, y = dy, h - 1 - dx
    elif rot == 2:
        x, y = w - 1 - dx, h - 1 - dy
    else:
        x, y = w - 1 - dy, dx
    return grid[y * w + x]


def oriented(grid, w, h, rot):
    """(bytes of the turned grid, its width, its height)."""
    tw, th = turned_size(w, h, rot)
    out = bytearray(tw * th)
    for dy in range(th):
        for dx in range(tw):
            out[dy * tw + dx] = cell(grid, w, h, rot, dx, dy)
    return bytes(out), tw, th


def mirrored_holes(front, back, w, h):
    """True when the back's holes are the left-right mirror of the front's."""
    for y in range(h):
        for x in range(w):
            if (front[y * w + x] == HOLE) != (back[y * w + w - 1 - x] == HOLE):
                return False
    return True


def side_of(tile, side):
    return tile.back if side == BACK else tile.front


def compose(tiles, placements, w, h, out, tile_w, tile_h, count=-1):
    """What shows in each cell of a w x h challenge grid, written into `out`
    (a bytearray of w * h): the top tile's gem, else the bottom tile's gem,
    else TABLE (a bottom hole); OUTSIDE where no bottom tile lies.

    `tiles[i]` has .front and .back; `placements` as above, any order (the
    bottom ones are laid first). Only the first `count` placements are laid
    (all when -1): the solution animation lays them one at a time.
    """
    n = len(placements) if count < 0 else min(count, len(placements))
    for i in range(w * h):
        out[i] = OUTSIDE
    for layer in (BOTTOM, TOP):
        for k in range(n):
            p = placements[k]
            if p[1] != layer:
                continue
            grid = side_of(tiles[p[0]], p[2])
            rot = p[3]
            tw, th = turned_size(tile_w, tile_h, rot)
            for dy in range(th):
                for dx in range(tw):
                    v = cell(grid, tile_w, tile_h, rot, dx, dy)
                    at = (p[5] + dy) * w + p[4] + dx
                    if v != HOLE:
                        out[at] = v
                    elif layer == BOTTOM:
                        out[at] = TABLE
