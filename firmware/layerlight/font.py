# A 3x5 pixel font for the LED matrix, drawable in the four seat rotations.
#
# Glyphs are stored as octal digits, one per row, top row first, 5 per glyph,
# in one bytes constant: a row value 0..7 is the 3 pixels of that row with the
# left pixel as bit 2. Reading a row is one index into bytes (an int), so the
# drawing functions below allocate nothing: no lists, tuples, strings or
# bound methods are made per call, and loops only use range().
#
# Row legend:  0 ...   1 ..#   2 .#.   3 .##   4 #..   5 #.#   6 ##.   7 ###
#
# Rotations follow display.py's logical coordinates (x right, y down, P1 at
# the bottom edge) and are clockwise: rot=0 reads upright for the bottom edge,
# 90 for the left edge, 180 for the top edge, 270 for the right edge.

from layerlight import display  # its native loops (display.native), where the port has them

GLYPH_W = 3
GLYPH_H = 5
ADVANCE = 4  # glyph width plus one blank column

# The characters, in table order. Digits come first so that a digit's glyph
# index is its value (draw_number relies on this).
CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -!?:.+><^*#~/"

_GLYPHS = (
    b"75557"  # 0  box (O is the rounded one)
    b"26227"  # 1  with a foot, unlike I
    b"71747"  # 2  (Z has a diagonal)
    b"71317"  # 3  short middle bar, unlike E/8
    b"55711"  # 4
    b"74717"  # 5  square corners (S is rounded)
    b"74757"  # 6
    b"71111"  # 7
    b"75757"  # 8
    b"75717"  # 9
    b"25755"  # A
    b"65656"  # B  open right corners, unlike 8
    b"34443"  # C
    b"65556"  # D
    b"74647"  # E  short middle bar, unlike 8/6
    b"74644"  # F
    b"34553"  # G  (6 has a closed top-right loop)
    b"55755"  # H
    b"72227"  # I
    b"11152"  # J
    b"55655"  # K
    b"44447"  # L
    b"57755"  # M  the two lit middle rows read as the peaks
    b"65555"  # N  an arch: with 3 columns a diagonal N collides with M
    b"25552"  # O  rounded, so it differs from 0
    b"65644"  # P
    b"25563"  # Q  O with a tail at the bottom right
    b"65655"  # R
    b"34216"  # S
    b"72222"  # T
    b"55557"  # U
    b"55552"  # V
    b"55775"  # W  M upside down
    b"55255"  # X
    b"55222"  # Y
    b"71247"  # Z
    b"00000"  # space
    b"00700"  # -
    b"22202"  # !
    b"71202"  # ?
    b"02020"  # :
    b"00002"  # .
    b"02720"  # +
    b"46764"  # >  solid triangle pointing right ("take 1 point")
    b"13731"  # <  solid triangle pointing left
    b"27222"  # ^  arrow up: head and shaft (a 3-wide triangle is only 2 rows)
    b"52725"  # *  sparkle: 8 rays, distinct from + and the cross
    b"55575"  # #  error: a lit box with a dark "!" cut out of it
    b"01520"  # ~  check mark: short left arm, longer right arm
    b"05250"  # /  cross for "wrong": smaller than the letter X
)

_QMARK = CHARS.find("?")
_MINUS = CHARS.find("-")


def _build_map():
    # ASCII code -> glyph index, built once at import so that a lookup on the
    # render path is a single bytes index instead of a string search.
    m = bytearray(128)
    for i in range(128):
        m[i] = _QMARK
    for i in range(len(CHARS)):
        m[ord(CHARS[i])] = i
    # Callers are meant to uppercase, but a stray lowercase letter costs
    # nothing to show correctly and is friendlier than '?'.
    for i in range(26):
        m[97 + i] = m[65 + i]
    return bytes(m)


_MAP = _build_map()


def glyph_rows(ch):
    """Index of the glyph for character ch (a 1-char str or a char code); '?' if not in the font."""
    # An int is accepted so that bytes text (whose items are ints) works too.
    c = ch if isinstance(ch, int) else ord(ch)
    if 0 <= c < 128:
        return _MAP[c]
    return _QMARK


def glyph_bit(index, col, row):
    """1 if pixel (col, row) of glyph `index` is lit, else 0 (0 outside the 3x5 box)."""
    if 0 <= col < GLYPH_W and 0 <= row < GLYPH_H:
        return ((_GLYPHS[index * GLYPH_H + row] - 48) >> (2 - col)) & 1
    return 0


def _quarter(rot):
    # Degrees -> quarter turns 0..3. Arithmetic rather than `rot in (...)`
    # so that the check never builds a tuple; -90 is accepted as 270.
    if rot % 90:
        raise ValueError("rot must be a multiple of 90")
    return (rot // 90) & 3


def _draw_glyph(fb, g, x, y, color, q, s):
    # Draw glyph index g with its (rotated) box's top-left at (x, y), q quarter
    # turns clockwise, each font pixel an s x s block. The pixels are written
    # straight into the frame buffer's wire bytes (its colour worked out once),
    # as FrameBuffer.rect does: a glyph costs a fraction of a pixel() call per
    # pixel, which is most of a score screen's first frame on an RP2040.
    # Pixels off the matrix are left out (scrolling text slides in and out).
    sc = fb.scale
    cr = sc[color >> 16]
    cg = sc[(color >> 8) & 0xFF]
    cb = sc[color & 0xFF]
    buf = fb.buf
    table = fb.table
    width = fb.width
    height = fb.height
    ro = fb.ro
    go = fb.go
    bo = fb.bo
    base = g * GLYPH_H
    native = display.native
    if native is not None:
        p = fb.colour_args(6, cr, cg, cb)
        p[0] = width
        p[1] = height
        p[2] = x
        p[3] = y
        p[4] = q
        p[5] = s
        p[12] = base
        native.glyph(buf, table, p, _GLYPHS)
        return
    bw = GLYPH_H if q & 1 else GLYPH_W
    if s == 1 and x >= 0 and y >= 0 and x + bw <= width and y + (GLYPH_W + GLYPH_H - bw) <= height:
        # Wholly on the matrix at one LED a font pixel (most text): font pixel (c, r)
        # is LED index start + c * step_c + r * step_r, with no clipping to check.
        # Below, the rest: larger text, and glyphs partly off the matrix (scrolling).
        if q == 0:
            start, step_c, step_r = y * width + x, 1, width
        elif q == 1:
            start, step_c, step_r = y * width + x + GLYPH_H - 1, width, -1
        elif q == 2:
            start, step_c, step_r = (y + GLYPH_H - 1) * width + x + GLYPH_W - 1, -1, -width
        else:
            start, step_c, step_r = (y + GLYPH_W - 1) * width + x, -width, 1
        for r in range(GLYPH_H):
            bits = _GLYPHS[base + r] - 48
            if not bits:
                continue
            at = start + r * step_r
            for c in range(GLYPH_W):
                if bits & (4 >> c):
                    j = table[at + c * step_c] * 3
                    buf[j + ro] = cr
                    buf[j + go] = cg
                    buf[j + bo] = cb
        return
    for r in range(GLYPH_H):
        bits = _GLYPHS[base + r] - 48
        if not bits:
            continue
        for c in range(GLYPH_W):
            if not bits & (4 >> c):
                continue
            # Font pixel (c, r) -> offset in the rotated box. Turning clockwise
            # moves the glyph's top row to the right edge (q=1), the bottom
            # (q=2) or the left edge (q=3).
            if q == 0:
                dx = c
                dy = r
            elif q == 1:
                dx = GLYPH_H - 1 - r
                dy = c
            elif q == 2:
                dx = GLYPH_W - 1 - c
                dy = GLYPH_H - 1 - r
            else:
                dx = r
                dy = GLYPH_W - 1 - c
            px = x + dx * s
            py = y + dy * s
            for yy in range(py, py + s):
                if 0 <= yy < height:
                    row = yy * width
                    for xx in range(px, px + s):
                        if 0 <= xx < width:
                            j = table[row + xx] * 3
                            buf[j + ro] = cr
                            buf[j + go] = cg
                            buf[j + bo] = cb


def _draw_nth(fb, g, i, n, x, y, color, q, s):
    # Draw glyph g as character i of an n-character string whose rotated
    # bounding box has its top-left at (x, y). draw_text and draw_number share
    # this so that a number lands exactly where its digits as text would.
    # The text runs in the rotated reader's "rightwards" direction: +x (q=0),
    # +y (q=1), -x (q=2), -y (q=3); u is the character's offset along the
    # unrotated line, mirrored for the two rotations that run backwards.
    u = i * ADVANCE * s
    if q >= 2:
        u = (n * ADVANCE - 1) * s - u - GLYPH_W * s
    if q & 1:
        cx = x
        cy = y + u
        w = GLYPH_H * s
        h = GLYPH_W * s
    else:
        cx = x + u
        cy = y
        w = GLYPH_W * s
        h = GLYPH_H * s
    # Skip characters wholly off the matrix: long scrolling menu lines would
    # otherwise spend most of their time on pixels that fb.pixel discards.
    if cx + w <= 0 or cy + h <= 0 or cx >= fb.width or cy >= fb.height:
        return
    _draw_glyph(fb, g, cx, cy, color, q, s)


def draw_char(fb, ch, x, y, color, rot=0, scale=1):
    """Draw character ch with its rotated bounding box's top-left at (x, y).

    rot (0/90/180/270, clockwise) turns the glyph to read upright from the
    bottom/left/top/right edge; at 90/270 the box is 5*scale wide, 3*scale tall.
    """
    _draw_glyph(fb, glyph_rows(ch), x, y, color, _quarter(rot), scale)


def draw_text(fb, text, x, y, color, rot=0, scale=1):
    """Draw a string (str or bytes) with its rotated bounding box's top-left at (x, y).

    The text reads left to right for the reader at the side given by rot.
    """
    q = _quarter(rot)
    n = len(text)
    for i in range(n):
        # text[i] of an ASCII str is an interned 1-char string on MicroPython
        # (no new object after the first time); of bytes it is an int.
        _draw_nth(fb, glyph_rows(text[i]), i, n, x, y, color, q, scale)


def text_width(text, scale=1):
    """Width in pixels of the unrotated text (0 for empty text)."""
    n = len(text)
    if n == 0:
        return 0
    return (n * ADVANCE - 1) * scale


def draw_scrolling(fb, text, y, color, offset, scale=1):
    """Draw unrotated text at x = -offset (for scrolling lines); fb.pixel clips."""
    draw_text(fb, text, -offset, y, color, 0, scale)


def draw_number(fb, value, x, y, color, rot=0, scale=1):
    """Draw an int exactly as draw_text would draw str(value), without making the string."""
    q = _quarter(rot)
    neg = 1 if value < 0 else 0
    v = -value if neg else value
    # p = the power of ten of the leading digit. Dividing v (rather than
    # multiplying p up past v) keeps every intermediate no bigger than v.
    p = 1
    digits = 1
    while v // p >= 10:
        p *= 10
        digits += 1
    n = digits + neg
    if neg:
        _draw_nth(fb, _MINUS, 0, n, x, y, color, q, scale)
    for i in range(neg, n):
        _draw_nth(fb, (v // p) % 10, i, n, x, y, color, q, scale)
        p //= 10
