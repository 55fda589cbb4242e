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

from array import array


class FrameBuffer:
    """W x H pixels in wire order; colours are ints 0xRRGGBB."""

    def __init__(self, width, height, table=None, cap=1.0, order="RGB"):
        self.width = width
        self.height = height
        self.buf = bytearray(width * height * 3)
        self._blank = bytes(width * height * 3)
        self.table = table if table is not None else array("H", range(width * height))
        self.ro = order.index("R")
        self.go = order.index("G")
        self.bo = order.index("B")
        self.generation = 0  # bumped when the cap changes: cached screens must redraw
        self.set_cap(cap)

    def set_cap(self, cap):
        """The brightness cap (0..1), applied to every pixel written from now on."""
        self.scale = brightness_table(cap)
        self.generation += 1

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


def pixel_map(width, height, layout="serpentine", origin="top-left", rotation=0, flip_x=False, flip_y=False,
              panels=None):
    """Table: logical pixel (y * width + x) -> index on the LED strip.

    layout: 'serpentine' (every other row runs backwards) or 'progressive'.
    origin: the physical corner where the strip starts ('top-left', 'top-right',
    'bottom-left', 'bottom-right'), rows running horizontally from it.
    rotation (0/90/180/270, clockwise) and flip_x/flip_y correct a matrix that
    is mounted turned or mirrored.
    panels: None for one matrix, or a matrix tiled from panels chained one
    after the other (the config's "panels": size, across, down, chain, and
    each position's layout, origin and rotation, which default to the layout
    and origin above and 0). rotation and flips then correct the mounting of
    the whole tiled matrix.
    """
    _check(layout, origin, rotation)
    table = array("H", [0] * (width * height))
    if panels is None:
        for y in range(height):
            for x in range(width):
                px, py = mounted(x, y, width, height, rotation, flip_x, flip_y)
                if origin.startswith("bottom"):
                    py = height - 1 - py
                if origin.endswith("right"):
                    px = width - 1 - px
                if layout == "serpentine" and py % 2 == 1:
                    px = width - 1 - px
                table[y * width + x] = py * width + px
        return table
    pw, ph = panels["size"]
    across = panels["across"]
    if pw * across != width or ph * panels["down"] != height:
        raise ValueError("panels: %d x %d panels of %dx%d are not %dx%d"
                         % (across, panels["down"], pw, ph, width, height))
    count = across * panels["down"]
    layouts = per_panel(panels.get("layout", layout), count)
    origins = per_panel(panels.get("origin", origin), count)
    rotations = per_panel(panels.get("rotation", 0), count)
    chain = panels.get("chain") or list(range(count))
    # each position's own table, and where its run starts on the strip
    tables = []
    start = [0] * count
    for i in range(count):
        if rotations[i] in (90, 270) and pw != ph:
            raise ValueError("panels: only a square panel can be turned by 90 or 270")
        tables.append(pixel_map(pw, ph, layouts[i], origins[i], rotations[i]))
    for n in range(count):
        start[chain[n]] = n * pw * ph
    for y in range(height):
        for x in range(width):
            px, py = mounted(x, y, width, height, rotation, flip_x, flip_y)
            at = (py // ph) * across + px // pw
            table[y * width + x] = start[at] + tables[at][(py % ph) * pw + px % pw]
    return table


def per_panel(value, count):
    """A panel setting as one value per position: a list stays, one value is repeated."""
    return value if isinstance(value, list) else [value] * count


def _check(layout, origin, rotation):
    if layout not in ("serpentine", "progressive"):
        raise ValueError("layout must be serpentine or progressive")
    if origin not in ("top-left", "top-right", "bottom-left", "bottom-right"):
        raise ValueError("bad origin")
    if rotation not in (0, 90, 180, 270):
        raise ValueError("rotation must be 0, 90, 180 or 270")


def mounted(x, y, width, height, rotation, flip_x, flip_y):
    """Logical (x, y) -> where it is on the matrix as mounted (undoing the mirroring and rotation)."""
    if flip_x:
        x = width - 1 - x
    if flip_y:
        y = height - 1 - y
    for _ in range(rotation // 90):
        x, y = width - 1 - y, x
    return x, y


def config_map(cfg):
    """The pixel map a config describes; a bad setting is a ValueError saying so."""
    try:
        return pixel_map(cfg["width"], cfg["height"], cfg["layout"], cfg["origin"], cfg["rotation"],
                         cfg["flip_x"], cfg["flip_y"], cfg.get("panels"))
    except ValueError as e:
        raise ValueError("config: %s" % e)


def brightness_table(cap):
    """256-entry lookup scaling a channel by `cap` (0..1)."""
    cap = max(0.0, min(1.0, cap))
    return bytes(int(v * cap + 0.5) for v in range(256))
