# Paper World's screens (modes/paper_world.py keeps the score): the objectives
# drawn, the first player's spin, the board of seat totals and objective
# columns, a claim, the final pages. Functions of the game, registered as its
# phases' drawers; nothing here allocates: positions are worked out in setup
# or on a change.

from layerlight import endings, font, screens
from layerlight.modes.keeper import GREY, big_number, menu_word

DRAWN = 3                   # objectives in play
FIRST_PLAYER_MS = 1800      # the first-player draw spins this long (as in Layers)
PAGE_MS = 1500              # `final`: the totals, then each part of the score, a page each
TIE_BREAK = 0x00E0E0        # the D of a tie broken on discards: no seat's colour, not white or grey
PARTS = "SOHDX"             # `final` pages: stars, objectives, hand, discard, scissors (the letter shown)
FINAL_MARK = screens.RING   # the corners in the final round: one per turn left


def setup(game, fb):
    """What the screens need, worked out once for a matrix (Mode.set_screen)."""
    w, h = fb.width, fb.height
    side = min(w, h)
    game.small = side < 16
    u = 1 if side < 32 else side // 16
    game.unit = u
    game.num_scale = 2 if side >= 32 else 1
    if game.small:
        game.col_w = 1
        game.col_x0 = (w - 5) // 2 + 1
        game.col_step = 2
        game.tok_step = 1
    else:
        game.col_w = 2 * u
        game.col_step = 3 * u
        game.col_x0 = (w - 8 * u) // 2
        game.tok_step = 2 * u
    place_numbers(game)


def place_numbers(game):
    """Where the objectives screen puts the three numbers: side by side, spread out."""
    s = 2 if game.width >= 32 else 1
    total = 0
    for i in range(len(game.objectives)):
        game.num_w[i] = (len(str(game.objectives[i])) * font.ADVANCE - 1) * s
        total += game.num_w[i]
    gap = max(s, min(3 * s, (game.width - total) // 3))
    x = (game.width - total - 2 * gap) // 2
    for i in range(len(game.objectives)):
        game.num_x[i] = x
        x += game.num_w[i] + gap


def column_x(game, i):
    return game.col_x0 + i * game.col_step


def draw_objectives_screen(game, fb, now):
    """The numbers of the objective cards drawn, lowest first (lay the cards out that way), each
    underlined; the first player's edge lit (P2's or P4's below the numbers, which reach the
    sides). 8x8: one number at a time, its place in the row below."""
    w, h = game.width, game.height
    first = game.first
    colour = screens.SEAT_COLOURS[first]
    if game.small:
        i = (now // 900) % DRAWN
        v = game.objectives[i]
        font.draw_number(fb, v, (w - (7 if v >= 10 else 3)) // 2, 1, screens.WHITE)
        for k in range(DRAWN):
            fb.pixel(column_x(game, k), h - 2, screens.WHITE if k == i else GREY)
        if first % 2 == 0:
            screens.side_bar(fb, first, colour, w)
        return
    s = game.num_scale
    y = (h - font.GLYPH_H * s) // 2 - 2 * s
    below = y + (font.GLYPH_H + 2) * s
    for i in range(DRAWN):
        font.draw_number(fb, game.objectives[i], game.num_x[i], y, screens.WHITE, 0, s)
        fb.rect(game.num_x[i], below, game.num_w[i], s, GREY)
    if first % 2 == 0:
        screens.seat_spotlight(fb, first, now, False)
    else:
        fb.rect(0 if first == 1 else w - 1, below + 2 * s, 1, h - below - 2 * s, colour)


def draw_first_player(game, fb, now):
    # spin around the seats, slowing down, and land on the drawn one (as Layers does)
    t = now - game.since
    if t < FIRST_PLAYER_MS - 600:
        k = game.seats.index(game.first) + (t * t) // 90000
        screens.seat_spotlight(fb, game.seats[k % len(game.seats)], now, False)
    else:
        screens.first_player(fb, game.first, now)


def draw_turn(game, fb, now):
    if game.choice_index != 0:  # B moved the highlight off `next`: the action's word
        menu_word(fb, game.choice_labels[game.choice_index], game.seat_colour(), now - game.since)
        return
    draw_board(game, fb)


def draw_board(game, fb):
    """Whose turn (that seat's edge), the three objectives as columns of tokens (white: still
    there, highest on top; a seat's colour: taken by that seat), the scissors as an X on its
    holder's edge, and in the final round a corner lit for each turn left."""
    seat = game.turn_seat()
    screens.side_bar(fb, seat, screens.SEAT_COLOURS[seat], min(game.width, game.height))
    if game.final_round:
        draw_turns_left(game, fb, game.turns_left)
    draw_columns(game, fb)
    if game.scissors >= 0:
        draw_scissors(game, fb, game.scissors)


def draw_turns_left(game, fb, left):
    """The final round: one corner of the matrix per turn left (clockwise from P1's left)."""
    w, h = game.width, game.height
    u = game.unit
    for k in range(left):
        x = 0 if k == 0 or k == 1 else w - u
        y = 0 if k == 1 or k == 2 else h - u
        fb.rect(x, y, u, u, FINAL_MARK)


def draw_columns(game, fb):
    """The objectives' tokens, highest on top: white while there, the taker's colour once taken."""
    n = len(game.tokens)
    step = game.tok_step
    u = game.unit
    y0 = (game.height - (n - 1) * step - u) // 2
    for i in range(len(game.claimed)):
        x = column_x(game, i)
        c = game.claimed[i]
        for k in range(n):
            fb.rect(x, y0 + k * step, game.col_w, u, screens.SEAT_COLOURS[c[k]] if k < len(c) else screens.WHITE)


def draw_scissors(game, fb, seat):
    """An X on the holder's edge, in the middle (8x8: two white pixels there)."""
    if game.small:
        screens.seat_point(fb, seat, 0, 0, screens.WHITE)
        screens.seat_point(fb, seat, -1, 0, screens.WHITE)
        return
    w, h = game.width, game.height
    u = game.unit
    size = 3 * u
    if seat == 0:
        x, y = (w - size) // 2, h - size
    elif seat == 2:
        x, y = (w - size) // 2, 0
    elif seat == 1:
        x, y = 0, (h - size) // 2
    else:
        x, y = w - size, (h - size) // 2
    for k in range(3):
        fb.rect(x + k * u, y + k * u, u, u, screens.WHITE)
        fb.rect(x + (2 - k) * u, y + k * u, u, u, screens.WHITE)


def draw_claim(game, fb, now):
    """The objective on offer, its number large; below, the three objectives' places with it
    marked (the others this seat may claim grey); the claiming seat's side lit."""
    w, h = game.width, game.height
    edge = game.seat_colour()  # drawn for P1, turned to the seat
    item = game.choice_items[game.choice_index]
    place = 0
    for i in range(DRAWN):
        if game.objectives[i] == item:
            place = i
    s = 1 if game.small else 2 * game.unit
    width = (7 if item >= 10 else 3) * s
    if item >= 10 and width > w - 2:
        s = 1
        width = 7
    if game.small:
        screens.side_bar(fb, 0, edge, 4)
        font.draw_number(fb, item, (w - width) // 2, 1, screens.WHITE)
        y = h - 2
    else:
        screens.side_bar(fb, 0, edge, min(w, h))
        big_number(fb, item, (w - width) // 2, 2 * game.unit, screens.WHITE, s)
        y = h - 3 * game.unit
    for i in range(DRAWN):
        colour = 0
        if i == place:
            colour = screens.WHITE if (now // 300) % 2 == 0 else GREY
        else:
            for j in range(len(game.choice_items)):
                if game.choice_items[j] == game.objectives[i]:
                    colour = GREY
        if colour:
            fb.rect(column_x(game, i), y, game.col_w, 1 if game.small else game.unit, colour)


def draw_scores(game, fb, now):
    screens.scores(fb, game.seats, game.scores, now)


def draw_final(game, fb, now):
    """From the moment the game ends: the totals first and longest, each seat's facing it
    (winners blinking between their colour and white, a seat to play is steady; the others
    grey) with the chequered flag in the middle, or, when the fewest discards broke a tie, a
    D in TIE_BREAK taking turns with it. Then a page per part of the score: its letter in the
    middle (S stars, O objectives, H hand, D discard, X scissors) and each seat's count facing
    it. 8x8: each seat's total in turn, then the flag with the winners' edges."""
    seats = game.seats
    n = len(seats)
    t = now - game.since
    blink = (t // 400) % 2
    if game.small:
        k = (t // (2 * PAGE_MS)) % (n + 1)
        if k == n:
            endings.end_flag(fb, 2, 2, 1)
            endings.winner_edges(fb, game.win_bits, now)
            if game.tie_break == "discard" and blink:
                font.draw_char(fb, "D", 3, 2, TIE_BREAK)  # over the flag, every other blink
            return
        seat = seats[k]
        lit = game.win_bits & (1 << seat)
        colour = (screens.WHITE if blink else screens.SEAT_COLOURS[seat]) if lit else GREY
        v = game.shown[seat]
        if -10 < v < 100:
            screens.number_for_seat(fb, seat, v, colour, 1)
            return
        text = game.final_text[k]  # three characters do not fit: they scroll by
        span = font.text_width(text) + game.width
        font.draw_scrolling(fb, text, 1, colour, (t // 80) % span - game.width)
        return
    page = (t // PAGE_MS) % (len(PARTS) + 3)
    page = 0 if page < 3 else page - 2  # the totals stay up three times as long
    s = game.num_scale
    for k in range(n):
        seat = seats[k]
        if page == 0:
            lit = game.win_bits & (1 << seat)
            colour = (screens.WHITE if blink else screens.SEAT_COLOURS[seat]) if lit else GREY
            screens.number_for_seat(fb, seat, game.shown[seat], colour, s)
        else:
            screens.number_for_seat(fb, seat, game.part(k, page - 1), screens.SEAT_COLOURS[seat], s)
    cx = (game.width - font.GLYPH_W * s) // 2
    cy = (game.height - font.GLYPH_H * s) // 2
    if page > 0:
        font.draw_char(fb, PARTS[page - 1], cx, cy, screens.WHITE, 0, s)
    elif game.tie_break == "discard" and (t // 800) % 2:
        font.draw_char(fb, "D", cx, cy, TIE_BREAK, 0, s)
    else:
        endings.end_flag(fb, (game.width - 4 * s) // 2, (game.height - 4 * s) // 2, s)
