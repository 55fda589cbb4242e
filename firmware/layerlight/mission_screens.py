# What only the mission games draw (Layers, Layers+, time attack): a mission's
# pattern, its solution stacking up, the deck choice and the finish markers.
# Kept out of screens.py, which is loaded at boot and stays: the score keepers
# and OTLO never pay for these in their heap. (The round tile, Layers' alone,
# is in modes/layers.py.)

from layerlight import font
from layerlight.screens import DIM, SEAT_COLOURS, SEAT_ROT, WHITE, seat_point, side_bar


def pattern(fb, layout, grid, colours):
    """A mission or stack picture: grid of colour indices, colours[i] the LED colour of index i.

    Drawn after every press of a race (the background is cached in between),
    so the writes of small cells are inlined: one colour lookup per cell, three byte
    stores per LED.
    """
    n = layout.n
    s = layout.scale
    x0 = layout.x0
    y0 = layout.y0
    buf = fb.buf
    table = fb.table
    scale = fb.scale
    width = fb.width
    ro = fb.ro
    go = fb.go
    bo = fb.bo
    i = 0
    for cy in range(n):
        for cx in range(n):
            c = colours[grid[i]]
            i += 1
            r = scale[c >> 16]
            g = scale[(c >> 8) & 0xFF]
            b = scale[c & 0xFF]
            row = (y0 + cy * s) * width + x0 + cx * s
            if s == 2:  # the reference 16x16: a cell's four LEDs written out, no block loops
                j = table[row] * 3
                buf[j + ro] = r
                buf[j + go] = g
                buf[j + bo] = b
                j = table[row + 1] * 3
                buf[j + ro] = r
                buf[j + go] = g
                buf[j + bo] = b
                j = table[row + width] * 3
                buf[j + ro] = r
                buf[j + go] = g
                buf[j + bo] = b
                j = table[row + width + 1] * 3
                buf[j + ro] = r
                buf[j + go] = g
                buf[j + bo] = b
                continue
            if s == 1:
                j = table[row] * 3
                buf[j + ro] = r
                buf[j + go] = g
                buf[j + bo] = b
                continue
            # larger cells (32x32): one rectangle each, a native loop on the chip, where
            # the 900-odd LEDs one by one in bytecode held a race's loop for 40 ms
            fb.rect(x0 + cx * s, y0 + cy * s, s, s, c)


class SolutionShow:
    """The solution of a mission stacking up one layer at a time, bottom first,
    then the whole for a beat, again and again (while B is held)."""

    STEP_MS = 800

    def __init__(self, deck):
        self.layers = deck.layers
        self.picture = bytearray(deck.size * deck.size)
        self.shown = -1  # how many layers the picture holds

    def draw(self, fb, layout, solution, colours, elapsed):
        count = min((elapsed // self.STEP_MS) % (len(solution) + 1) + 1, len(solution))
        if count != self.shown:
            self.shown = count
            out = self.picture
            for i in range(len(out)):
                out[i] = 0
            for k in range(count):
                li, o = solution[k]
                g = self.layers[li].grid(o)
                for i in range(len(out)):
                    if g[i]:
                        out[i] = g[i]
        pattern(fb, layout, self.picture, colours)
        for k in range(count):  # a dot per layer on the top row
            fb.pixel(1 + 2 * k, 0, WHITE)


def finish_markers(fb, finish_order, dots=None):
    """Each finished seat's colour on its side, with its place as white dots (1 dot = 1st),
    or with dots[place] dots (Layers+: the token taken)."""
    length = max(3, min(fb.width, fb.height) // 3)
    inner = fb.width >= 16  # room for the dots just inside the edge
    for place in range(len(finish_order)):
        seat = finish_order[place]
        side_bar(fb, seat, SEAT_COLOURS[seat], length)
        count = place + 1 if dots is None else dots[place]
        for d in range(count):
            if inner:
                seat_point(fb, seat, d * 2 - count + 1, 1, WHITE)
            else:
                seat_point(fb, seat, d - length // 2, 0, WHITE)


def choose_deck(fb, level, available, chooser, now):
    """The level about to be revealed, large, and a dot per level still available between it and
    the chooser's edge, which blinks: all of it turned to read from the chooser's seat."""
    w, h = fb.width, fb.height
    scale = 2 if w >= 16 else 1
    if w >= 32:
        scale = 4
    gw = font.GLYPH_W * scale
    gh = font.GLYPH_H * scale
    # where P1's digit sits, then the same place as the chooser sees it (exactly, odd sizes too)
    x, y = (w - gw) // 2, (h - gh) // 2
    if chooser == 1:
        x, y = w - gh - y, x
    elif chooser == 2:
        x, y = w - gw - x, h - gh - y
    elif chooser == 3:
        x, y = y, h - gw - x
    font.draw_char(fb, 48 + level, x, y, WHITE, SEAT_ROT[chooser], scale)
    side_bar(fb, chooser, SEAT_COLOURS[chooser] if (now // 400) % 2 else DIM, min(w, h) // 2)
    depth = 1 if w < 16 else 2
    for k in range(len(available)):
        lv = available[k]
        seat_point(fb, chooser, 2 * k - len(available), depth, WHITE if lv == level else DIM)