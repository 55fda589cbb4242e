# The frame buffer that screens draw into, kept ready for the wire.
#
# Screens draw in logical coordinates: x to the right, y down, as you look
# down at the device with P1's edge nearest you. Each pixel written goes
# straight to its place on the LED strip (serpentine or progressive rows,
# which corner is pixel 0, rotation, mirroring: one table computed once), in
# the strip's colour order and with the brightness cap applied (a 256-entry
# table). So a frame costs only the pixels drawn: there is no per-frame pass
# over all LEDs, which pure Python on an RP2040 could not do in time. Static
# parts of a screen are drawn once and copied back with a slice (a memcpy).
# The table itself is made by strip_map.py, at boot.

import sys
from array import array

# the pixel loops as native code, where this MicroPython compiles it (native_draw.py says
# where); None: the Python loops below (CPython always). Tests set it to None to compare.
native = None
if sys.implementation.name == "micropython":
    try:
        from layerlight import native_draw as native
    except (ImportError, SyntaxError, ValueError):
        native = None


class FrameBuffer:
    """W x H pixels in wire order; colours are ints 0xRRGGBB."""

    def __init__(self, width, height, table=None, cap=1.0, order="RGB", like=None):
        self.width = width
        self.height = height
        if like is not None:  # a view turned to face a seat (turned): like's pixels and cap, another table
            self.buf = like.buf
            self._blank = like._blank
            self.table = table
            self.ro, self.go, self.bo = like.ro, like.go, like.bo
            self.scale = like.scale
            self.generation = like.generation
            self.views = like.views
            self.args = like.args
            return
        self.buf = bytearray(width * height * 3)
        self._blank = bytes(width * height * 3)
        self.table = table if table is not None else array("H", range(width * height))
        self.ro = order.index("R")
        self.go = order.index("G")
        self.bo = order.index("B")
        self.generation = 0  # bumped when the cap changes: cached screens must redraw
        self.views = [self, None, None, None]  # turned(seat), made when first asked for
        self.args = array("i", bytes(4 * 13))  # the numbers a native loop is given (native_draw.py)
        self.set_cap(cap)

    def set_cap(self, cap):
        """The brightness cap (0..1), applied to every pixel written from now on."""
        self.scale = brightness_table(cap)
        self.generation += 1
        for view in self.views:
            if view is not None:
                view.scale = self.scale
                view.generation = self.generation

    def turned(self, seat):
        """This frame buffer as seen from `seat` (0 = P1, as is; 1 = P2 on the left, 2 = P3 at
        the top, 3 = P4 on the right): whatever is drawn upright into it, as for P1, reads upright
        from that seat's edge, and P1's bottom edge lands on that seat's edge. It shares the
        pixels and the cap; each view costs one table of W*H entries, made on first use (not
        while drawing). A matrix that is not square turns only half round (P3)."""
        view = self.views[seat]
        if view is None:
            from layerlight.turned_view import turned_table  # only the modes that turn screens load it
            view = self.views[seat] = FrameBuffer(self.width, self.height, turned_table(self, seat), like=self)
        return view

    def clear(self):
        self.buf[:] = self._blank

    def offset(self, x, y):
        """Byte offset of pixel (x, y) in buf (no clipping)."""
        return self.table[y * self.width + x] * 3

    def pixel(self, x, y, c):
        if 0 <= x < self.width and 0 <= y < self.height:
            i = self.table[y * self.width + x] * 3
            buf = self.buf
            scale = self.scale
            buf[i + self.ro] = scale[c >> 16]
            buf[i + self.go] = scale[(c >> 8) & 0xFF]
            buf[i + self.bo] = scale[c & 0xFF]

    def get(self, x, y):
        """The colour at (x, y) as stored (after the cap)."""
        i = self.table[y * self.width + x] * 3
        b = self.buf
        return (b[i + self.ro] << 16) | (b[i + self.go] << 8) | b[i + self.bo]

    def rect(self, x, y, w, h, c):
        """A filled rectangle, clipped; the colour is worked out once and the bytes written
        straight into the wire buffer (a fraction of a pixel() call each)."""
        x1 = min(self.width, x + w)
        y1 = min(self.height, y + h)
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        scale = self.scale
        r = scale[c >> 16]
        g = scale[(c >> 8) & 0xFF]
        b = scale[c & 0xFF]
        buf = self.buf
        table = self.table
        ro = self.ro
        go = self.go
        bo = self.bo
        width = self.width
        if native is not None:
            if x >= x1 or y >= y1:
                return
            p = self.colour_args(5, r, g, b)
            p[0] = width
            p[1] = x
            p[2] = y
            p[3] = x1
            p[4] = y1
            p[11] = self.height
            native.fill(buf, table, p)
            return
        for yy in range(y, y1):
            row = yy * width
            for xx in range(x, x1):
                j = table[row + xx] * 3
                buf[j + ro] = r
                buf[j + go] = g
                buf[j + bo] = b

    def colour_args(self, at, r, g, b):
        """self.args, the numbers a native loop is given, with a colour's three bytes and their
        places in a pixel (ro, go, bo) from args[at] on; the caller fills in the rest."""
        p = self.args
        p[at] = r
        p[at + 1] = g
        p[at + 2] = b
        p[at + 3] = self.ro
        p[at + 4] = self.go
        p[at + 5] = self.bo
        return p

    def hex_rows(self):
        """The frame as rows of 'RRGGBB' strings (for traces and tests; allocates)."""
        rows = []
        for y in range(self.height):
            parts = []
            for x in range(self.width):
                parts.append("%06x" % self.get(x, y))
            rows.append("".join(parts))
        return rows


def brightness_table(cap):
    """256-entry lookup scaling a channel by `cap` (0..1)."""
    cap = max(0.0, min(1.0, cap))
    return bytes(int(v * cap + 0.5) for v in range(256))
