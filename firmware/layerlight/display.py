# The frame buffer that screens draw into, and its mapping onto the LED strip.
#
# Screens draw in logical coordinates (x right, y down, (0, 0) top-left as the
# P3 seat sees the far edge... i.e. as you look down at the device with P1 in
# front of you). The wiring of the physical matrix (serpentine or progressive
# rows, which corner is pixel 0, rotation, mirroring) lives only in PixelMap,
# computed once into a table; the brightness cap is a 256-entry lookup table.
# Pushing a frame to the strip is one loop over that table: no allocation.

from array import array


class FrameBuffer:
    """W x H RGB pixels; colours are ints 0xRRGGBB."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.buf = bytearray(width * height * 3)

    def clear(self):
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0

    def pixel(self, x, y, c):
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (y * self.width + x) * 3
            buf = self.buf
            buf[i] = c >> 16
            buf[i + 1] = (c >> 8) & 0xFF
            buf[i + 2] = c & 0xFF

    def get(self, x, y):
        i = (y * self.width + x) * 3
        b = self.buf
        return (b[i] << 16) | (b[i + 1] << 8) | b[i + 2]

    def rect(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.pixel(xx, yy, c)

    def hex_rows(self):
        """The frame as rows of 'RRGGBB' strings (for traces and tests; allocates)."""
        rows = []
        for y in range(self.height):
            parts = []
            for x in range(self.width):
                parts.append("%06x" % self.get(x, y))
            rows.append("".join(parts))
        return rows


def pixel_map(width, height, layout="serpentine", origin="top-left", rotation=0, flip_x=False, flip_y=False):
    """Table: logical pixel (y * width + x) -> index on the LED strip.

    layout: 'serpentine' (every other row runs backwards) or 'progressive'.
    origin: the physical corner where the strip starts ('top-left', 'top-right',
    'bottom-left', 'bottom-right'), rows running horizontally from it.
    rotation (0/90/180/270, clockwise) and flip_x/flip_y correct a matrix that
    is mounted turned or mirrored.
    """
    if layout not in ("serpentine", "progressive"):
        raise ValueError("layout must be serpentine or progressive")
    if origin not in ("top-left", "top-right", "bottom-left", "bottom-right"):
        raise ValueError("bad origin")
    if rotation not in (0, 90, 180, 270):
        raise ValueError("rotation must be 0, 90, 180 or 270")
    table = array("H", [0] * (width * height))
    for y in range(height):
        for x in range(width):
            px, py = x, y
            if flip_x:
                px = width - 1 - px
            if flip_y:
                py = height - 1 - py
            # undo the mounting rotation: logical -> physical
            for _ in range(rotation // 90):
                px, py = width - 1 - py, px
            if origin.startswith("bottom"):
                py = height - 1 - py
            if origin.endswith("right"):
                px = width - 1 - px
            if layout == "serpentine" and py % 2 == 1:
                px = width - 1 - px
            table[y * width + x] = py * width + px
    return table


def brightness_table(cap):
    """256-entry lookup scaling a channel by `cap` (0..1)."""
    cap = max(0.0, min(1.0, cap))
    return bytes(int(v * cap + 0.5) for v in range(256))


class PixelOut:
    """Copies a frame buffer onto a strip buffer in wire order with the brightness cap."""

    def __init__(self, fb, table, cap, order="GRB"):
        self.fb = fb
        self.table = table
        self.scale = brightness_table(cap)
        self.order = order
        # offsets of R, G, B within a strip pixel
        self.r_at = order.index("R")
        self.g_at = order.index("G")
        self.b_at = order.index("B")

    def set_cap(self, cap):
        self.scale = brightness_table(cap)

    def fill(self, strip):
        """Write the frame into `strip` (bytearray of 3 * pixels)."""
        src = self.fb.buf
        table = self.table
        scale = self.scale
        ro, go, bo = self.r_at, self.g_at, self.b_at
        for i in range(len(table)):
            j = table[i] * 3
            k = i * 3
            strip[j + ro] = scale[src[k]]
            strip[j + go] = scale[src[k + 1]]
            strip[j + bo] = scale[src[k + 2]]
