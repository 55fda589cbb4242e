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
#   fill:  width, x0, y0, x1, y1, r, g, b, ro, go, bo, height     (x1, y1 exclusive)
#   glyph: width, height, x, y, q, s, r, g, b, ro, go, bo, base   (base: the glyph's first row
#          in `rows`, one row a byte, '0'..'7' for its 3 pixels with the left one as bit 2)
#   ring:  lit, r, g, b, ro, go, bo
#
# Native code has no bounds checks: an index past an array reads or writes
# whatever lies there, and on the chip that is the heap. So every routine here
# measures its own buffers (len() of each object it is given) and clips to them
# and to the frame, whatever numbers it is given: a rectangle or a glyph off
# the matrix, a negative size, a ring count past the ring, a colour's byte
# place outside a pixel, a table entry past the frame. Where the numbers are
# ones the Python loop takes, the bytes written are the Python loop's; where
# the Python loop would raise (an index out of range), nothing is written
# there. tests/test_emulated_native.py proves both on the emulated Pico with
# guard bytes round every buffer, for random numbers in and out of range.
# Numbers are taken as far as +-2**20 (a matrix is at most 64 wide).
#
# pyright: reportUndefinedVariable=false
# (ptr8, ptr16, ptr32 are the viper compiler's own type names, defined nowhere in Python)
import micropython
from micropython import const

_BIG = const(1 << 20)  # numbers are clamped to +-_BIG: no product below overflows a 32-bit int


@micropython.viper
def fill(buf, table, args):
    b = ptr8(buf)
    t = ptr16(table)
    p = ptr32(args)
    nb = int(len(buf)) - 2  # a pixel's bytes j..j+2 lie in buf when j < nb
    nt = int(len(table))
    width = int(p[0])
    height = int(p[11])
    x0 = int(p[1])
    y0 = int(p[2])
    x1 = int(p[3])
    y1 = int(p[4])
    r = int(p[5])
    g = int(p[6])
    bl = int(p[7])
    ro = int(p[8])
    go = int(p[9])
    bo = int(p[10])
    if ro < 0 or ro > 2 or go < 0 or go > 2 or bo < 0 or bo > 2 or width <= 0 or width > _BIG:
        return
    if x0 < 0:
        x0 = 0
    if y0 < 0:
        y0 = 0
    if x1 > width:
        x1 = width
    if y1 > height:
        y1 = height
    y = y0
    while y < y1:
        row = y * width
        x = x0
        while x < x1:
            k = row + x
            if uint(k) < uint(nt):  # unsigned: a product past 32 bits wraps, never reads outside
                j = int(t[k]) * 3
                if j < nb:
                    b[j + ro] = r
                    b[j + go] = g
                    b[j + bo] = bl
            x += 1
        y += 1


@micropython.viper
def glyph(buf, table, args, glyphs):
    b = ptr8(buf)
    t = ptr16(table)
    p = ptr32(args)
    rows = ptr8(glyphs)
    nb = int(len(buf)) - 2
    nt = int(len(table))
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
    if ro < 0 or ro > 2 or go < 0 or go > 2 or bo < 0 or bo > 2 or s <= 0 or width <= 0 or width > _BIG:
        return
    if base < 0 or base + 5 > int(len(glyphs)):
        return
    if height > _BIG:
        height = _BIG
    if s > _BIG:
        s = _BIG
    if x > _BIG:
        x = _BIG
    elif x < 0 - _BIG:
        x = 0 - _BIG
    if y > _BIG:
        y = _BIG
    elif y < 0 - _BIG:
        y = 0 - _BIG
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
                # the s x s block at (px, py), clipped to the matrix
                px = x + dx * s
                py = y + dy * s
                xa = px if px > 0 else 0
                xe = px + s if px + s < width else width
                yy = py if py > 0 else 0
                ye = py + s if py + s < height else height
                while yy < ye:
                    row = yy * width
                    xx = xa
                    while xx < xe:
                        k = row + xx
                        if uint(k) < uint(nt):
                            j = int(t[k]) * 3
                            if j < nb:
                                b[j + ro] = cr
                                b[j + go] = cg
                                b[j + bo] = cb
                        xx += 1
                    yy += 1
            c += 1
        r += 1


@micropython.viper
def last_difference(a, b, n: int) -> int:
    """How many of the first n bytes of a and b go up to their last difference (0: equal).
    (The strip's sender: a frame is sent up to the last LED that changes.)"""
    pa = ptr8(a)
    pb = ptr8(b)
    i = int(len(a))
    if int(len(b)) < i:
        i = int(len(b))
    if n < i:
        i = n
    while i > 0:
        i -= 1
        if pa[i] != pb[i]:
            return i + 1
    return 0


@micropython.viper
def interleave(out, frame, spread, args):
    """out[2 + i] = byte i of the four lanes of frame (lane k: its k-th quarter, args[0] bytes
    each) with lane k's bits in bit k of each nibble (spread: a byte's bits four apart), for i
    below args[1], the lanes in mask args[2] only (backends/rp2_pio.interleave, LaneSender)."""
    o = ptr32(out)
    f = ptr8(frame)
    s = ptr32(spread)
    p = ptr32(args)
    lane = int(p[0])
    n = int(p[1])
    mask = int(p[2])
    if lane < 0 or 4 * lane > int(len(frame)) or int(len(spread)) < 256:
        return
    if n > lane:
        n = lane
    if n > int(len(out)) - 2:
        n = int(len(out)) - 2
    f1 = lane
    f2 = 2 * lane
    f3 = 3 * lane
    i = 0
    while i < n:
        w = 0
        if mask & 1:
            w = int(s[f[i]])
        if mask & 2:
            w |= int(s[f[f1 + i]]) << 1
        if mask & 4:
            w |= int(s[f[f2 + i]]) << 2
        if mask & 8:
            w |= int(s[f[f3 + i]]) << 3
        o[2 + i] = w
        i += 1


@micropython.viper
def ring(buf, ring_at, ring_busy, args):
    """The first args[0] ring pixels lit in (args[1], args[2], args[3]) at byte offsets
    (args[4], args[5], args[6]) of each, but the busy ones (screens.timer_ring)."""
    b = ptr8(buf)
    at = ptr16(ring_at)
    busy = ptr8(ring_busy)
    p = ptr32(args)
    nb = int(len(buf)) - 2
    lit = int(p[0])
    if lit > int(len(ring_at)):
        lit = int(len(ring_at))
    if lit > int(len(ring_busy)):
        lit = int(len(ring_busy))
    r = int(p[1])
    g = int(p[2])
    bl = int(p[3])
    ro = int(p[4])
    go = int(p[5])
    bo = int(p[6])
    if ro < 0 or ro > 2 or go < 0 or go > 2 or bo < 0 or bo > 2:
        return
    i = 0
    while i < lit:
        if not busy[i]:
            j = int(at[i])
            if j < nb:
                b[j + ro] = r
                b[j + go] = g
                b[j + bo] = bl
        i += 1


@micropython.viper
def ring_lit(buf, ring_at, ring_busy, n: int):
    """busy[i] = 1 where ring pixel i is lit in buf, else 0 (screens.Layout.mark_busy), for the
    first n (at most the ring's)."""
    b = ptr8(buf)
    at = ptr16(ring_at)
    busy = ptr8(ring_busy)
    nb = int(len(buf)) - 2
    if n > int(len(ring_at)):
        n = int(len(ring_at))
    if n > int(len(ring_busy)):
        n = int(len(ring_busy))
    i = 0
    while i < n:
        j = int(at[i])
        busy[i] = 1 if j < nb and (b[j] or b[j + 1] or b[j + 2]) else 0
        i += 1


@micropython.viper
def spread(ring_lit, ring_busy, n: int, d: int):
    """busy[k] = 1 for every k within d places round the ring of a lit one (coop_screens), for
    the first n (at most the ring's)."""
    lit = ptr8(ring_lit)
    busy = ptr8(ring_busy)
    if n > int(len(ring_lit)):
        n = int(len(ring_lit))
    if n > int(len(ring_busy)):
        n = int(len(ring_busy))
    if d > n:
        d = n  # every place round the ring already: (j + n) % n stays in 0..n-1
    k = 0
    while k < n:
        if lit[k]:
            j = k - d
            while j <= k + d:
                busy[(j + n) % n] = 1
                j += 1
        k += 1
