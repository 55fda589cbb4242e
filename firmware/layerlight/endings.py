# Endings: what every mode's final shares (loaded with a game, not at boot).
#
# A player to move has a steady edge in their colour, or their total in it;
# a winner's total blinks between its colour and white, and the chequered
# flag (the sign of a finished race) sits in the middle: no final can be
# taken for a turn. Nothing here allocates.

from layerlight import screens
from layerlight.screens import DIM, SEAT_COLOURS, WHITE


def winner_edges(fb, winners, now):
    """The edge of each winning seat (bit s of `winners` for seat s) as marching dashes."""
    w, h = fb.width, fb.height
    phase = (now // 250) % 4
    for seat in range(4):
        if not winners & (1 << seat):
            continue
        colour = SEAT_COLOURS[seat]
        n = w if seat % 2 == 0 else h
        for k in range(n):
            c = WHITE if (k + phase) % 4 == 0 else colour
            if seat == 0:
                fb.pixel(k, h - 1, c)
            elif seat == 2:
                fb.pixel(w - 1 - k, 0, c)
            elif seat == 1:
                fb.pixel(0, k, c)
            else:
                fb.pixel(w - 1, h - 1 - k, c)


def end_flag(fb, x, y, cell):
    """A chequered flag, 4 x 4 squares of `cell` pixels, top-left at (x, y): the game is over.
    On every final's first frame: drawn as nine rectangles (the dim flag, then its white
    squares), each one native loop on the chip, where 64 pixels one by one in bytecode took
    4.6 ms of the emulated chip at 32x32 (on the way to the light of the entry that ends a game)."""
    size = 4 * cell
    fb.rect(x, y, size, size, DIM)
    for sy in range(4):
        for sx in range(sy % 2, 4, 2):
            fb.rect(x + sx * cell, y + sy * cell, cell, cell, WHITE)


FINAL_BLINK_MS = 400   # a winner's total: its colour, then white
FINAL_PAGE_MS = 1500   # 8x8: each seat's total in turn, then the flag


def final_blink(t):
    """0 or 1: which of the final's two pictures shows, `t` ms after the game ended."""
    return (t // FINAL_BLINK_MS) % 2


def final_board(fb, seats, shown, winners, t, now):
    """The end of a game, `t` ms after it ended: each seat's total facing it, a winner's
    (bit s of `winners`) blinking between its colour and white, the others grey, and the
    chequered flag in the middle. A seat to play or to verify is never shown so: its edge
    lights, its number does not blink. 8x8: each seat's total in turn, totals first, then
    the flag with the winners' edges marching."""
    w, h = fb.width, fb.height
    blink = final_blink(t)
    if w < 16:
        page = (t // FINAL_PAGE_MS) % (len(seats) + 1)
        if page == len(seats):
            end_flag(fb, (w - 4) // 2, (h - 4) // 2, 1)
            winner_edges(fb, winners, now)
            return
        seat = seats[page]
        screens.number_for_seat(fb, seat, shown[seat], final_colour(seat, winners, blink), 1)
        return
    scale = 2 if w >= 32 else 1
    for seat in seats:
        screens.number_for_seat(fb, seat, shown[seat], final_colour(seat, winners, blink), scale)
    end_flag(fb, (w - 4 * scale) // 2, (h - 4 * scale) // 2, scale)


def final_colour(seat, winners, blink):
    if not winners & (1 << seat):
        return LOSER
    return WHITE if blink else SEAT_COLOURS[seat]


LOSER = 0x282828  # a total that did not win: grey (an LED at 1/6 looks dim, not dark)
