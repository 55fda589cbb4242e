# The loops on a frame's way to the LEDs, as native code: a filled rectangle
# (FrameBuffer.rect), a glyph of the font at any scale and turn (font.py), the
# sand ring's pixels (screens.timer_ring, Layout.mark_busy, and the room CO.OP's
# sand leaves round the totals), and where a frame last differs from the one on
# the strip (backends/rp2_pio.py).
#
# Why: in bytecode a pixel written into the wire bytes costs an RP2040 about
# 11 us (46 us on the emulated chip), so a 32x32 score keeper's screen of
# large digits and colour bars took 15-20 ms of the emulated chip to draw, and
# a quick run of entries outran the loop. Viper code writes a pixel in well
# under a microsecond. The meaning of each loop is the Python beside its caller
# (display.FrameBuffer.rect, font._draw_glyph): those run on CPython, on the
# WebAssembly port and wherever this module cannot load, and the emulated
# Pico's tests check that both draw the same bytes.
#
# This module loads only where MicroPython compiles native code for the chip:
# the Layerlight UF2 (frozen by the port's own mpy-cross) and a board whose
# MicroPython takes the .mpy `layerlight flash` compiles. display.py imports it
# on MicroPython only; where the import fails (SyntaxError on a port without
# the native emitter, ValueError for a native .mpy of another sub-version) the
# callers use their Python.
#
# Viper functions are given at most four arguments (older MicroPython's
# limit), so the numbers come in one array("i") that the caller fills:
#   fill:  width, x0, y0, x1, y1, r, g, b, ro, go, bo     (x1, y1 exclusive, already clipped)
#   glyph: width, height, x, y, q, s, r, g, b, ro, go, bo, base   (base: the glyph's first row
#          in `rows`, one row a byte, '0'..'7' for its 3 pixels with the left one as bit 2)
#
# pyright: reportUndefinedVariable=false
# (ptr8, ptr16, ptr32 are the viper compiler's own type names, defined nowhere in Python)
import micropython


@micropython.viper
def fill(buf: ptr8, table: ptr16, p: ptr32):
    width = int(p[0])
    x0 = int(p[1])
    x1 = int(p[3])
    y1 = int(p[4])
    r = int(p[5])
    g = int(p[6])
    b = int(p[7])
    ro = int(p[8])
    go = int(p[9])
    bo = int(p[10])
    y = int(p[2])
    while y < y1:
        row = y * width
        x = x0
        while x < x1:
            j = int(table[row + x]) * 3
            buf[j + ro] = r
            buf[j + go] = g
            buf[j + bo] = b
            x += 1
        y += 1


@micropython.viper
def glyph(buf: ptr8, table: ptr16, p: ptr32, rows: ptr8):
    width = int(p[0])
    height = int(p[1])
    x = int(p[2])
    y = int(p[3])
    q = int(p[4])
    s = int(p[5])
    cr = int(p[6])
    cg = int(p[7])
    cb = int(p[8])
    ro = int(p[9])
    go = int(p[10])
    bo = int(p[11])
    base = int(p[12])
    r = 0
    while r < 5:
        bits = int(rows[base + r]) - 48
        c = 0
        while c < 3:
            if bits & (4 >> c):
                # font pixel (c, r) in the box turned q quarters clockwise (as font.py)
                if q == 0:
                    dx = c
                    dy = r
                elif q == 1:
                    dx = 4 - r
                    dy = c
                elif q == 2:
                    dx = 2 - c
                    dy = 4 - r
                else:
                    dx = r
                    dy = 2 - c
                px = x + dx * s
                py = y + dy * s
                yy = py
                while yy < py + s:
                    if yy >= 0 and yy < height:
                        row = yy * width
                        xx = px
                        while xx < px + s:
                            if xx >= 0 and xx < width:
                                j = int(table[row + xx]) * 3
                                buf[j + ro] = cr
                                buf[j + go] = cg
                                buf[j + bo] = cb
                            xx += 1
                    yy += 1
            c += 1
        r += 1


@micropython.viper
def last_difference(a: ptr8, b: ptr8, n: int) -> int:
    """How many of the first n bytes of a and b go up to their last difference (0: equal).
    (The strip's sender: a frame is sent up to the last LED that changes.)"""
    i = n
    while i > 0:
        i -= 1
        if a[i] != b[i]:
            return i + 1
    return 0


@micropython.viper
def ring(buf: ptr8, at: ptr16, busy: ptr8, p: ptr32):
    """The first p[0] ring pixels lit in (p[1], p[2], p[3]) at byte offsets (p[4], p[5], p[6]) of
    each, but the busy ones (screens.timer_ring)."""
    lit = int(p[0])
    r = int(p[1])
    g = int(p[2])
    b = int(p[3])
    ro = int(p[4])
    go = int(p[5])
    bo = int(p[6])
    i = 0
    while i < lit:
        if not busy[i]:
            j = int(at[i])
            buf[j + ro] = r
            buf[j + go] = g
            buf[j + bo] = b
        i += 1


@micropython.viper
def ring_lit(buf: ptr8, at: ptr16, busy: ptr8, n: int):
    """busy[i] = 1 where ring pixel i is lit in buf, else 0 (screens.Layout.mark_busy)."""
    i = 0
    while i < n:
        j = int(at[i])
        busy[i] = 1 if buf[j] or buf[j + 1] or buf[j + 2] else 0
        i += 1


@micropython.viper
def spread(lit: ptr8, busy: ptr8, n: int, d: int):
    """busy[k] = 1 for every k within d places round the ring of a lit one (coop_screens)."""
    k = 0
    while k < n:
        if lit[k]:
            j = k - d
            while j <= k + d:
                busy[(j + n) % n] = 1
                j += 1
        k += 1
