# CO.OP's screens (modes/coop.py keeps the score): the board of seat totals
# and colour bars, a colour's total counting up, the player cards, the colour
# picker, the count entry. Functions of the game, registered as its phases'
# drawers; nothing here allocates: every picture is made of ints.

from layerlight import display, endings, font, screens
from layerlight.modes.keeper import GREY, big_number, count_entry, fill_edge, menu_word, number_width

# The colours as the LEDs show them. WS2812 light is linear in the value sent,
# so a channel at half value is half the light and looks far brighter than
# half to the eye: orange needs much less green than on a screen (or it reads
# yellow), and purple little red (or it reads pink). Checked at the default
# brightness as CIEDE2000 differences (tests/test_coop.py, README "CO.OP colours").
LED = (0x0040FF, 0x00FF00, 0xFFA000, 0xFF2000, 0xFF0830, 0x6000FF)
BELOW_ZERO = tuple((c >> 2) & 0x3F3F3F for c in LED)  # a colour below zero: its stub, a quarter of the light
NONE = 6                    # a loop without colour: only O and X symbols
SCORES_PAGE_MS = 1500       # the pause menu's SCORES: one colour (then the cards left) per page
PAGE_MS = 1500              # 8x8: the board shows the bars, then each seat's total, in turn


def setup(game, fb):
    """What the screens need, worked out once for a matrix (Mode.set_screen)."""
    w, h = fb.width, fb.height
    side = min(w, h)
    game.layout = screens.Layout(w, h, 1, fb)
    game.num_scale = 2 if side >= 32 else 1
    depth = font.GLYPH_H * game.num_scale
    region = side - 2 * depth if side >= 16 else 6
    game.bar_w = max(1, region // 6)
    game.bar_h = region
    game.bar_x0 = (w - 6 * game.bar_w) // 2
    game.bar_y0 = (h - region) // 2
    game.unit = max(1, side // 16)  # the colour picker's grid (0 on 8x8: its own layout)
    game.ring_lit = bytearray(len(game.layout.ring_busy))


def draw_turn(game, fb, now):
    if game.choice_index != 0:  # B moved the highlight off `next`: the action's word
        menu_word(fb, game.choice_labels[game.choice_index], game.seat_colour(), now - game.since)
    elif game.show_colour >= 0:
        draw_colour_total(game, fb, game.show_colour, LED[game.show_colour], game.shown_points[game.show_colour])
    else:
        draw_board(game, fb, now, False)


def draw_final(game, fb, now):
    """The end (endings.final_board): every seat's total facing it, the winners' blinking,
    the chequered flag where the colour bars were (their totals: SCORES in the pause menu)."""
    endings.final_board(fb, game.seats, game.shown, game.win_bits, now - game.since, now)


def draw_over(game, fb, now):
    if game.timer_left is not None and game.phase == "turn" and not game.choice_index and game.show_colour < 0:
        screens.timer_ring(fb, game.layout, game.timer_left, game.turn_total, now)


def draw_board(game, fb, now, final):
    """Each seat's total facing it (the seat to play in its colour, the others grey; at the end
    the winners in their colours), the six colour bars in the middle (drawn once, then copied)."""
    seats = game.seats
    small = game.width < 16
    page = (now // PAGE_MS) % (len(seats) + 1) if small else 0
    turn = game.turn_seat()
    if not small or page > 0:
        for i in range(len(seats)):
            seat = seats[i]
            if small and i != page - 1:
                continue
            lit = game.win_bits & (1 << seat) if final else seat == turn
            colour = screens.SEAT_COLOURS[seat] if lit else GREY
            screens.number_for_seat(fb, seat, game.shown[seat], colour, game.num_scale)
    if not small or page == 0:
        draw_bars(game, fb)
    if small and page == 0:
        for i in range(len(seats)):
            seat = seats[i]
            if (final and game.win_bits & (1 << seat)) or (not final and seat == turn):
                screens.side_bar(fb, seat, screens.SEAT_COLOURS[seat], 4)
    if not small and game.timer_left is not None:
        mark_sand_busy(game, fb)


def draw_bars(game, fb):
    """A bar per colour, blue to purple; one pixel is a point while the top colour fits, then the
    top colour fills its bar and the others are in proportion. Below zero: a stub of the
    colour at a quarter of its light (grey is what seats' totals are drawn in)."""
    top = 1
    for c in range(6):
        if game.shown_points[c] > top:
            top = game.shown_points[c]
    height = game.bar_h
    bw = game.bar_w
    bottom = game.bar_y0 + height - 1
    for c in range(6):
        v = game.shown_points[c]
        x = game.bar_x0 + c * bw
        if v < 0:
            fb.rect(x, bottom, bw, 1, BELOW_ZERO[c])
            continue
        n = v if top <= height else max(1, (v * height + top // 2) // top) if v else 0
        fb.rect(x, bottom + 1 - n, bw, n, LED[c])


def mark_sand_busy(game, fb):
    """The sand leaves the seat totals alone: the ring pixels they light, and two more on either
    side along the ring, so it never runs through a number or touches one."""
    layout = game.layout
    layout.mark_busy(fb)
    busy = layout.ring_busy
    lit = game.ring_lit
    lit[:] = busy
    n = len(busy)
    if display.native is not None:
        display.native.spread(lit, busy, n, 2)
        return
    for k in range(n):
        if lit[k]:
            for d in range(-2, 3):
                busy[(k + d) % n] = 1


def draw_colour_total(game, fb, c, colour, value):
    """One total as large as it fits, in its colour, the edge lit in that colour."""
    w, h = fb.width, fb.height
    scale = 3 if w >= 32 else 2 if w >= 16 else 1
    while scale > 1 and number_width(value, scale) > w - 2:
        scale -= 1
    if w >= 16:
        fill_edge(fb, game.layout, colour)
    else:
        fb.rect(0, h - 1, w, 1, colour)
    big_number(fb, value, (w - number_width(value, scale)) // 2, (h - font.GLYPH_H * scale) // 2, colour, scale)
    if c < 6:  # a tab from the bottom edge at the colour's place on the board
        bw = game.bar_w
        colour_place(game, fb, c, h - 1 - (bw if w >= 16 else 1), colour)


def colour_place(game, fb, c, y, colour):
    """The colour's second cue, for an eye that cannot tell it from its neighbour: a mark at its
    own place among the six, where its bar stands on the board (blue at the left, purple at the
    right), bar-wide and as tall as wide, from row y down."""
    bw = game.bar_w
    fb.rect(game.bar_x0 + c * bw, y, bw, bw, colour)


def draw_scores(game, fb, now):
    page = ((now - game.since) // SCORES_PAGE_MS) % 7
    if page < 6:
        draw_colour_total(game, fb, page, LED[page], game.points[page])
    else:
        draw_colour_total(game, fb, page, GREY, game.cards_left)


def draw_cards(game, fb, now):
    """Each seat's card: its three colours as squares along its edge, read from its seat."""
    w = game.width
    q = 1 if w < 16 else 2 if w < 32 else 4
    gap = 1 if q < 4 else 2
    total = 3 * q + 2 * gap
    for k in range(len(game.seats)):
        seat = game.seats[k]
        card = game.table[game.held[k]]
        for i in range(3):
            seat_square(fb, seat, i * (q + gap), total, q, LED[card[i]])
    if (now // 500) % 2:
        s = 2 if w >= 32 else 1
        font.draw_char(fb, "A", (w - font.GLYPH_W * s) // 2, (game.height - font.GLYPH_H * s) // 2, GREY, 0, s)


def draw_first_player(game, fb, now):
    screens.first_player(fb, game.first, now)


def draw_colour_choice(game, fb, now):
    """The colour on offer as a block (none: O X), the six (or seven) in a row below with the
    highlighted one marked, so look-alike colours are seen side by side; the seat's side lit."""
    w, h = game.width, game.height
    items = game.choice_items
    n = len(items)
    i = game.choice_index
    for_loop = game.phase == "loop_for"
    screens.side_bar(fb, 0, game.seat_colour(), min(w, h) // 2)  # drawn for P1, turned to the seat
    u = game.unit if w >= 16 else 0
    if u:
        if i < 6:
            fb.rect(4 * u, 2 * u, 8 * u, 7 * u, LED[i])
        if i == NONE or for_loop:
            # the O and X of a loop without colour (on the block when its colour is chosen)
            font.draw_text(fb, "OX", (w - 7 * u) // 2, 3 * u, screens.WHITE, 0, u)
        x0 = (w - 2 * u * n) // 2
        for k in range(n):
            fb.rect(x0 + 2 * u * k, 11 * u, 2 * u, 2 * u, LED[k] if k < 6 else GREY)
        fb.rect(x0 + 2 * u * i, 13 * u, 2 * u, u, screens.WHITE)
    else:  # 8x8: a dark row between the six and the seat's edge, whose colour may be one of them
        fb.rect(2, 1, 4, 3, LED[i] if i < 6 else GREY)
        x0 = (w - n) // 2
        for k in range(n):
            if k != i or (now // 300) % 2:
                fb.rect(x0 + k, 5, 1, 1, LED[k] if k < 6 else GREY)
        fb.rect(x0 + i, 4, 1, 1, screens.WHITE)  # the highlighted one marked by place, not only blinking


def draw_entry(game, fb, now):
    c = game.loop_colour
    count_entry(fb, game.entry_value, game.entry_what, game.seat_colour(), now, LED[c])
    colour_place(game, fb, c, 0, LED[c])  # the loop's colour at its place, along the top


def seat_square(fb, seat, along, total, q, colour):
    """A q x q square on the edge of `seat`, `along` pixels from the left end (as the seat sees
    it) of a run `total` pixels long centred on that edge."""
    w, h = fb.width, fb.height
    span = w if seat % 2 == 0 else h
    u = (span - total) // 2 + along
    if seat == 0:
        fb.rect(u, h - q, q, q, colour)
    elif seat == 2:
        fb.rect(w - u - q, 0, q, q, colour)
    elif seat == 1:
        fb.rect(0, u, q, q, colour)
    else:
        fb.rect(w - q, h - u - q, q, q, colour)
