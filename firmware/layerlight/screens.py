# Screens: what each phase looks like on the matrix.
#
# Every function draws into a display.FrameBuffer and allocates nothing: the
# layout (pattern scale, centring, the ring path) is computed once per matrix
# and pattern size in `Layout`, and colours are plain ints.
#
# Seats sit around the table: P1 at the bottom edge, P2 left, P3 top, P4
# right. Anything meant for one seat is drawn on its side and turned to face it.

from array import array

from layerlight import display, font

SEAT_COLOURS = (0xFF1010, 0x1040FF, 0x10D020, 0xFFC000)
SEAT_ROT = (0, 90, 180, 270)
WHITE = 0xFFFFFF
DIM = 0x202020
RING = 0xB040FF       # the sand: violet, unlike any seat colour
RING_LOW = 0xFFFFFF   # the last seconds blink white
BACKGROUND_LED = 0x101010  # a card's paper, dimmed: bright white would dazzle and look like a colour
ERROR = 0xFF0000


def pattern_room(width, height):
    """The largest N x N mission pattern the race screen shows on a width x height matrix:
    a 1-LED frame stays free for the sand ring and the finish markers."""
    return min(width, height) - 2


class Layout:
    """Where the pattern and the ring go on a W x H matrix for an N x N pattern."""

    def __init__(self, width, height, n, fb=None):
        self.width = width
        self.height = height
        self.n = n
        side = min(width, height)
        # a 1-pixel frame stays free for the ring and finish markers
        scale = pattern_room(width, height) // n
        if scale < 1:  # only a deck the device refused at boot (startup.check_deck) gets here
            scale = max(1, side // n)
        self.scale = scale
        self.x0 = (width - n * scale) // 2
        self.y0 = (height - n * scale) // 2
        # ring path: clockwise around the edge, starting at the top centre
        path = []
        w, h = width, height
        for x in range(w // 2, w):
            path.append((x, 0))
        for y in range(1, h):
            path.append((w - 1, y))
        for x in range(w - 2, -1, -1):
            path.append((x, h - 1))
        for y in range(h - 2, 0, -1):
            path.append((0, y))
        for x in range(1, w // 2):
            path.append((x, 0))
        self.ring = array("H", [x * 256 + y for x, y in path])
        # byte offsets of the ring pixels in the frame buffer, so the sand
        # (redrawn every frame) is written without a call per pixel
        self.ring_at = array("H", [fb.offset(x, y) if fb else 0 for x, y in path])
        # ring pixels covered by something else (finish markers): the sand skips them
        self.ring_busy = bytearray(len(path))

    def mark_busy(self, fb):
        """Note which ring pixels are already lit in fb, so the sand leaves them alone."""
        buf = fb.buf
        at = self.ring_at
        busy = self.ring_busy
        if display.native is not None:
            display.native.ring_lit(buf, at, busy, len(at))
            return
        for i in range(len(at)):
            j = at[i]
            busy[i] = 1 if buf[j] or buf[j + 1] or buf[j + 2] else 0


def side_bar(fb, seat, colour, length):
    """A bar of `length` pixels on the edge facing `seat`, centred."""
    w, h = fb.width, fb.height
    if seat == 0 or seat == 2:
        fb.rect((w - length) // 2, h - 1 if seat == 0 else 0, length, 1, colour)
    else:
        fb.rect(0 if seat == 1 else w - 1, (h - length) // 2, 1, length, colour)


def seat_point(fb, seat, along, depth, colour):
    """A pixel `depth` rows in from the seat's edge, `along` pixels from the bar's centre (in the seat's reading direction)."""
    w, h = fb.width, fb.height
    if seat == 0:
        fb.pixel(w // 2 + along, h - 1 - depth, colour)
    elif seat == 2:
        fb.pixel(w // 2 - 1 - along, depth, colour)
    elif seat == 1:
        fb.pixel(depth, h // 2 + along, colour)
    else:
        fb.pixel(w - 1 - depth, h // 2 - 1 - along, colour)


def timer_ring(fb, layout, left_ms, total_ms, now):
    """The sand timer: lit ring pixels in proportion to the time left; the last 5 s blink.

    Only lit pixels are written: the screen under it was cleared (or restored
    from a cached background) with the ring off. This is the hot loop of the
    race screen, hence the inlined writes.
    """
    ring_at = layout.ring_at
    busy = layout.ring_busy
    count = len(ring_at)
    lit = (left_ms * count + total_ms - 1) // total_ms if total_ms > 0 else 0
    # never more than the ring: a game saved under a longer timer and resumed under a shorter
    # one has more time left than the setting (the native loop reads busy[] and ring_at[] by
    # this count, unchecked, and writes at what it read)
    if lit > count:
        lit = count
    elif lit < 0:
        lit = 0
    c = RING
    if left_ms <= 5000:
        if (left_ms // 250) % 2:
            return
        c = RING_LOW
    scale = fb.scale
    r = scale[c >> 16]
    g = scale[(c >> 8) & 0xFF]
    b = scale[c & 0xFF]
    buf = fb.buf
    ro = fb.ro
    go = fb.go
    bo = fb.bo
    native = display.native
    if native is not None:
        p = fb.colour_args(1, r, g, b)
        p[0] = lit
        native.ring(buf, ring_at, busy, p)
        return
    for i in range(lit):
        if busy[i]:
            continue
        j = ring_at[i]
        buf[j + ro] = r
        buf[j + go] = g
        buf[j + bo] = b


def number_for_seat(fb, seat, value, colour, scale):
    """A score in the quadrant facing `seat`, turned to be read from there.

    A number short enough to sit between the two side bands is centred on its
    edge. A longer one would run into its neighbours' numbers in the corners,
    so it is centred on a band that leaves out the corner on the seat's right:
    a pinwheel, each seat owning one corner, and four two-digit scores fit
    on 16x16 without touching.
    """
    digits = 1
    v = value if value >= 0 else -value
    while v >= 10:
        v //= 10
        digits += 1
    if value < 0:
        digits += 1
    length = (digits * font.ADVANCE - 1) * scale
    depth = font.GLYPH_H * scale
    w, h = fb.width, fb.height
    span = w if seat % 2 == 0 else h
    if length <= span - 2 * depth or length > span - depth:
        start = (span - length) // 2          # centred on the edge (alone on a small matrix)
    else:
        start = (span - depth - length) // 2  # centred on the band towards the seat's left
    if seat == 0:
        font.draw_number(fb, value, start, h - depth, colour, 0, scale)
    elif seat == 2:
        font.draw_number(fb, value, w - start - length, 0, colour, 180, scale)
    elif seat == 1:
        font.draw_number(fb, value, 0, start, colour, 90, scale)
    else:
        font.draw_number(fb, value, w - depth, h - start - length, colour, 270, scale)


def scores(fb, seats, shown, now, highlight=-1):
    """Every seat's score in its colour; on a small matrix one seat at a time."""
    scale = 2 if fb.width >= 32 else 1
    if fb.width >= 16:
        for seat in seats:
            colour = SEAT_COLOURS[seat]
            if seat == highlight and (now // 200) % 2:
                colour = WHITE
            number_for_seat(fb, seat, shown[seat], colour, scale)
    else:
        seat = seats[(now // 1200) % len(seats)]
        number_for_seat(fb, seat, shown[seat], SEAT_COLOURS[seat], 1)
        side_bar(fb, seat, SEAT_COLOURS[seat], fb.width)


def join(fb, joined_bits, now):
    """Who has joined: their sides light up; the count in the middle; a blinking A when the game can start."""
    w, h = fb.width, fb.height
    count = 0
    for seat in range(4):
        if joined_bits & (1 << seat):
            count += 1
            side_bar(fb, seat, SEAT_COLOURS[seat], min(w, h) - 2)
        elif (now // 700) % 2:
            side_bar(fb, seat, DIM, 2)
    if count >= 2 and (now // 500) % 2:
        font.draw_char(fb, "A", (w - 3) // 2, (h - 5) // 2, WHITE)
    else:
        font.draw_number(fb, count, (w - 3) // 2, (h - 5) // 2, WHITE if count else DIM)


def seat_spotlight(fb, seat, now, blink=True):
    """The whole edge of one seat in its colour (the seat being verified, choosing, stealing...)."""
    if not blink or (now // 300) % 2 == 0:
        side_bar(fb, seat, SEAT_COLOURS[seat], min(fb.width, fb.height))


def first_player(fb, seat, now):
    seat_spotlight(fb, seat, now, False)
    font.draw_char(fb, "1", (fb.width - 3) // 2, (fb.height - 5) // 2, SEAT_COLOURS[seat], SEAT_ROT[seat])


# short codes shown on the matrix next to the error glyph
ERR_DECK = 1
ERR_MODE = 2
ERR_NO_GAME = 3
ERR_SAVED = 4      # a saved file on flash was damaged (it was ignored)
ERR_PIN = 5        # a pin setting the board cannot use (its own pin is used instead)
ERR_CRASH = 6      # the loop itself failed: the device restarts (start.py)


def error(fb, code):
    """The error glyph and a short numeric code."""
    w = fb.width
    font.draw_char(fb, "#", 0, 0, ERROR)
    font.draw_number(fb, code, w - 3 if code < 10 else w - 7, fb.height - 5 if w < 16 else 8, WHITE)


def menu(fb, text, offset, index, count, colour=WHITE):
    """A scrolling menu item, with dots below for where it sits in the list."""
    w, h = fb.width, fb.height
    scale = 2 if w >= 32 else 1
    y = (h - font.GLYPH_H * scale) // 2
    font.draw_scrolling(fb, text, y, colour, offset, scale)
    if 2 * count <= w:
        for k in range(count):
            fb.pixel((w - 2 * count) // 2 + 2 * k, h - 2, WHITE if k == index else DIM)
    else:  # too many items for a dot each: a dim line with the place lit
        at = index * w // count
        for x in range(w):
            fb.pixel(x, h - 2, WHITE if x == at else DIM)


def press_light(fb, button):
    """Feedback for a press: a white spot at the centre of the seat's edge (P1..P4),
    or in the bottom-right (A) / bottom-left (B) corner, where those buttons sit."""
    if button < 4:
        seat_point(fb, button, 0, 0, WHITE)
        seat_point(fb, button, -1, 0, WHITE)
    else:
        fb.pixel(fb.width - 1 if button == 4 else 0, fb.height - 1, WHITE)
