# A frame buffer turned to face a seat (display.FrameBuffer.turned): it shares
# another's pixels through a turned table, so a screen drawn upright into it,
# as for P1, reads upright from that seat. Loaded only by the modes that turn
# whole screens to a seat (the score keepers), not at boot.

from array import array

from layerlight.display import FrameBuffer


class TurnedView(FrameBuffer):
    """A FrameBuffer sharing another's pixels through a table turned to face a seat."""

    def __init__(self, fb, seat):
        w, h = fb.width, fb.height
        if w != h and seat % 2:
            seat = 0  # a quarter turn would not fit: as is
        self.width = w
        self.height = h
        self.buf = fb.buf
        self._blank = fb._blank
        self.ro = fb.ro
        self.go = fb.go
        self.bo = fb.bo
        self.scale = fb.scale
        self.generation = fb.generation
        self.views = fb.views
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
        self.table = table
