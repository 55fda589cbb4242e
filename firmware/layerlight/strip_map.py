# Where each logical pixel is on the LED strip: serpentine or progressive
# rows, the corner pixel 0 is in, the matrix mounted turned or mirrored, and a
# matrix tiled from chained panels. Worked out once, at boot, into a table the
# frame buffer writes through (display.py); then this module is let go (its
# bytecode is heap on a device running .mpy files). doctor and the wiring
# pictures use the same functions.

from array import array


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
