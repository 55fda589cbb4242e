# The table of a frame buffer turned to face a seat (display.FrameBuffer.turned):
# the view shares the frame's pixels through it, so a screen drawn upright into
# the view, as for P1, reads upright from that seat. Loaded only by the modes
# that turn whole screens to a seat (the score keepers), not at boot.

from array import array


def turned_table(fb, seat):
    """fb's pixel table turned so that (x, y) of a seat's upright picture lands where
    that seat sees it (1 = P2 on the left, 2 = P3 at the top, 3 = P4 on the right)."""
    w, h = fb.width, fb.height
    if w != h and seat % 2:
        seat = 0  # a quarter turn would not fit: as is
    base = fb.table
    table = array("H", bytes(2 * w * h))
    for y in range(h):
        for x in range(w):
            # where (x, y) of the seat's upright picture lies on the matrix
            if seat == 1:
                bx, by = w - 1 - y, x
            elif seat == 2:
                bx, by = w - 1 - x, h - 1 - y
            elif seat == 3:
                bx, by = y, h - 1 - x
            else:
                bx, by = x, y
            table[y * w + x] = base[by * w + bx]
    return table
