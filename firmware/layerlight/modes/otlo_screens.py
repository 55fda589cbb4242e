# OTLO Stones screens. Each phase's still picture is drawn once into a cached
# copy of the frame (keyed by the game's version, the solution step, the card
# on show) and copied back with one slice; only what moves (blinks, the clock,
# a card coming up) is drawn on top every frame. Nothing here allocates.
#
# A card: its pattern (gems in the deck's colours as LED light, `_` table
# cells dim, cells outside the shape dark), its stars as white dots top left,
# the cards under it in its pile as grey dots top right, and the colour of each
# seat barred from it on its bottom row. 16x16 and larger: a quadrant per pile
# (pile 1 top left, 2 top right, 3 bottom left, 4 bottom right); 8x8: one pile
# at a time, its number first. A card keeps a 1-pixel border of its quadrant
# dark: a gutter of two between neighbouring piles, so they never read as one
# picture, and the place where the claim's outline goes, outside the card.

from layerlight import endings, font, led_light, otlo_tiles, screens
from layerlight.screens import DIM, SEAT_COLOURS, WHITE, Layout

CYCLE_MS = 1500   # 8x8: each pile's top card in turn
ANIM_MS = 600     # a pile's next card comes up
STEP_MS = 700     # the solution: one tile more each step
GREY = 0x606060
LABELS = ("1", "1-2", "1-3", "2-3", "3")   # the star levels a game can be dealt from
LOWEST = (1, 1, 1, 2, 3)
HIGHEST = (1, 2, 3, 3, 3)
BEST = 0xFFC000
BAR_AT_6 = (0, 2, 3, 5)  # where each seat's barred mark goes on a card 6 pixels wide
NUMBER_MS = 500   # 8x8: each pile's number, before its card


class Screen:
    def __init__(self, deck):
        self.deck = deck
        colours = [0] * 16
        for i in range(1, len(deck.colours)):
            r, g, b = deck.colours[i]
            colours[i] = led_light.led_value(r, g, b)  # a set's colours are screen colours
        colours[otlo_tiles.TABLE] = DIM
        self.colours = colours
        self.grid = bytearray(64)  # the solution as laid so far
        self.solution_step = -1
        self.keys = [-1, -1]
        self.bgs = None
        self.newer = 0
        self.texts = ["", ""]   # solo final: the time and the best, as M:SS (made once, not per frame)

    def set_screen(self, fb):
        # two pictures kept: a screen that blinks between two is drawn twice, then only copied
        self.bgs = (bytearray(len(fb.buf)), bytearray(len(fb.buf)))
        self.keys = [-1, -1]
        self.layout = Layout(fb.width, fb.height, 8, fb)  # its ring: the solo clock
        self.q = min(fb.width, fb.height) // 2 if fb.width >= 16 else fb.width

    def scrolls(self):
        """Solo final: True when a line scrolls (8x8 always: its pages), so it is drawn every frame."""
        w = self.layout.width
        if w < 16:
            return True
        scale = 2 if w >= 32 else 1
        return font.text_width(self.texts[0], scale) > w or font.text_width(self.texts[1], scale) > w

    def solution_tick(self, card, elapsed):
        """Lay the solution's tiles up to this moment (called from tick: compose allocates)."""
        n = len(card.solution)
        step = min((elapsed // STEP_MS) % (n + 1) + 1, n)
        if step != self.solution_step:
            self.solution_step = step
            otlo_tiles.compose(self.deck.tiles, card.solution, card.w, card.h, self.grid,
                               self.deck.tile_w, self.deck.tile_h, step)

    def cached(self, fb, key):
        """True (and the frame restored) if the still picture for `key` is in the cache;
        else the frame is cleared to be drawn, and `done(fb)` keeps it."""
        key = key * 256 + fb.generation % 256
        for i in (0, 1):
            if key == self.keys[i]:
                fb.buf[:] = self.bgs[i]
                return True
        self.newer = 1 - self.newer  # the older picture makes way
        self.keys[self.newer] = key
        fb.clear()
        return False

    def done(self, fb):
        self.bgs[self.newer][:] = fb.buf

    # --- drawing helpers ---------------------------------------------------

    def grid_at(self, fb, grid, w, h, x0, y0, s):
        """A pattern's cells as s x s blocks from (x0, y0); cells outside the shape stay dark.
        The writes are inlined (one colour lookup per cell), as in screens.pattern."""
        colours = self.colours
        buf = fb.buf
        table = fb.table
        scale = fb.scale
        width = fb.width
        ro = fb.ro
        go = fb.go
        bo = fb.bo
        i = 0
        for cy in range(h):
            for cx in range(w):
                c = colours[grid[i]]
                i += 1
                if not c:
                    continue
                r = scale[c >> 16]
                g = scale[(c >> 8) & 0xFF]
                b = scale[c & 0xFF]
                row = (y0 + cy * s) * width + x0 + cx * s
                for dy in range(s):
                    for dx in range(s):
                        j = table[row + dx] * 3
                        buf[j + ro] = r
                        buf[j + go] = g
                        buf[j + bo] = b
                    row += width

    def big(self, fb, grid, w, h):
        """A pattern as large as the matrix allows, a 1-pixel frame left free."""
        s = min((fb.width - 2) // w, (fb.height - 2) // h)
        if s < 1:
            s = 1
        self.grid_at(fb, grid, w, h, (fb.width - w * s) // 2, (fb.height - h * s) // 2, s)

    def card(self, fb, card, x0, y0, under, bars):
        """A card in the quadrant at (x0, y0), inside its dark border: the stars and the cards
        `under` it on the top row, the barred seats on the bottom row, the pattern as large as
        the rows between allow."""
        q = self.q
        u = q - 2          # the card's square, inside the border
        cx = x0 + 1
        cy = y0 + 1
        w, h = card.w, card.h
        s = min(u // w, (u - 2) // h)
        if s >= 1:
            y = cy + 1 + (u - 2 - h * s) // 2
        else:  # no room for the dots' rows: they go on top of the pattern
            s = 1
            y = cy + (u - h) // 2
        self.grid_at(fb, card.pattern, w, h, cx + (u - w * s) // 2, y, s)
        gap = 2 if q >= 16 else 1
        for i in range(card.stars):
            fb.pixel(cx + i * gap, cy, WHITE)
        for i in range(under):
            fb.pixel(cx + u - 1 - i * gap, cy, GREY)
        for seat in range(4):
            if bars & (1 << seat):
                fb.pixel(cx + (seat * 2 if u >= 8 else BAR_AT_6[seat]), cy + u - 1, SEAT_COLOURS[seat])

    def place_x(self, p):
        """Left edge of pile p's place (0 on 8x8: one pile at a time)."""
        return 0 if self.q * 2 > self.layout.width else (p % 2) * self.q

    def place_y(self, p):
        return 0 if self.q * 2 > self.layout.width else (p // 2) * self.q

    def shown_pile(self, game, now):
        """8x8: the pile on show (in a claim, the one chosen); larger: -1 (all of them)."""
        if self.q * 2 <= self.layout.width:
            return -1
        if game.phase == "claim":
            return game.pick
        n = len(game.piles)
        for k in range(n):  # cycle through the piles that still have a card
            p = (now // CYCLE_MS + k) % n
            if game.piles[p]:
                return p
        return 0

    def piles(self, game, fb, now):
        """Every pile's top card (8x8: one, its number first), cached; a pile's next card comes up
        with a wipe."""
        shown = self.shown_pile(game, now)
        number = shown >= 0 and game.phase == "play" and now % CYCLE_MS < NUMBER_MS
        if not self.cached(fb, (game.version % 4096) * 16 + (shown + 1) * 2 + number):
            if number:  # 8x8: which pile this is, before its card
                font.draw_number(fb, shown + 1, (fb.width - font.GLYPH_W) // 2, (fb.height - font.GLYPH_H) // 2,
                                 WHITE)
            else:
                for p in range(len(game.piles)):
                    top = game.tops[p]
                    if top is not None and (shown < 0 or shown == p):
                        self.card(fb, top, self.place_x(p), self.place_y(p), len(game.piles[p]) - 1,
                                  game.bars.get(top.id, 0))
            self.done(fb)
        t = now - game.anim_from
        p = game.anim_pile
        if p >= 0 and t < ANIM_MS and (shown < 0 or shown == p) and not number:
            q = self.q
            fb.rect(self.place_x(p), self.place_y(p) + t * q // ANIM_MS, q, q - t * q // ANIM_MS, 0)


# --- the phases ---------------------------------------------------------------

def still(sc, game, fb, now, period):
    """True if this still screen (it changes only with the game or every `period` ms: blinks,
    pages) is in the cache and restored; else it is to be drawn (then cached by draw())."""
    return sc.cached(fb, (game.version % 4096) * 64 + (now // period) % 64)


def draw_join(sc, game, fb, now):
    if not still(sc, game, fb, now, 350):
        screens.join(fb, game.joined, now)
        sc.done(fb)


def draw_levels(sc, game, fb, now):
    if still(sc, game, fb, now, 1 << 20):
        return
    draw_levels_now(sc, game, fb)
    sc.done(fb)


def draw_levels_now(sc, game, fb):
    w, h = fb.width, fb.height
    i = game.choice
    colour = WHITE if game.cards_in(i) else DIM
    lo = LOWEST[i]
    hi = HIGHEST[i]
    scale = 2 if w >= 32 else 1
    y = (h - font.GLYPH_H * scale) // 2
    if w < 16:  # "1-3" is 11 pixels: two digits and a short dash
        if lo == hi:
            font.draw_number(fb, lo, 2, y, colour)
        else:
            font.draw_number(fb, lo, 0, y, colour)
            fb.pixel(3, y + 2, colour)
            fb.pixel(4, y + 2, colour)
            font.draw_number(fb, hi, 5, y, colour)
    else:
        n = 1 if lo == hi else 3
        x = (w - (n * font.ADVANCE - 1) * scale) // 2
        font.draw_number(fb, lo, x, y, colour, 0, scale)
        if n == 3:
            font.draw_char(fb, "-", x + font.ADVANCE * scale, y, colour, 0, scale)
            font.draw_number(fb, hi, x + 2 * font.ADVANCE * scale, y, colour, 0, scale)
    gap = 2 if w >= 16 else 1
    for k in range(5):  # where this choice sits among the five
        fb.pixel((w - 4 * gap - 1) // 2 + gap * k, h - 2, WHITE if k == i else DIM)


def draw_handicap(sc, game, fb, now):
    if still(sc, game, fb, now, 1200):  # 8x8: a seat at a time
        return
    screens.scores(fb, game.seats, game.handicap, now)
    if fb.width >= 16:
        font.draw_char(fb, "+", (fb.width - 3) // 2, (fb.height - 5) // 2, DIM * 4)
    sc.done(fb)


def draw_play(sc, game, fb, now):
    if game.solo():
        draw_solo(sc, game, fb, now)
    else:
        sc.piles(game, fb, now)


def draw_solo(sc, game, fb, now):
    card = game.tops[0]
    showing = game.solution_from >= 0 and sc.solution_step >= 0
    if not sc.cached(fb, (game.version % 4096) * 64 + (sc.solution_step + 2 if showing else 0)):
        if showing:
            sc.big(fb, sc.grid, card.w, card.h)
        else:
            sc.big(fb, card.pattern, card.w, card.h)
        for i in range(card.stars):
            fb.pixel(fb.width // 2 - 2 + 2 * i, fb.height - 1, WHITE)
        sc.done(fb)
    # the clock: the ring fills once a minute, like a second hand
    ring = sc.layout.ring_at
    lit = (game.elapsed % 60000) * len(ring) // 60000
    buf = fb.buf
    scale = fb.scale
    r = scale[screens.RING >> 16]
    g = scale[(screens.RING >> 8) & 0xFF]
    b = scale[screens.RING & 0xFF]
    for k in range(lit):
        j = ring[k]
        buf[j + fb.ro] = r
        buf[j + fb.go] = g
        buf[j + fb.bo] = b


def draw_claim(sc, game, fb, now):
    sc.piles(game, fb, now)
    if (now // 250) % 2:
        colour = SEAT_COLOURS[game.claimer]
        x = sc.place_x(game.pick)
        y = sc.place_y(game.pick)
        q = sc.q
        fb.rect(x, y, q, 1, colour)
        fb.rect(x, y + q - 1, q, 1, colour)
        fb.rect(x, y, 1, q, colour)
        fb.rect(x + q - 1, y, 1, q, colour)


def draw_verify(sc, game, fb, now):
    card = game.tops[game.pick]
    showing = game.solution_from >= 0 and sc.solution_step >= 0
    if not sc.cached(fb, (game.version % 4096) * 64 + (sc.solution_step + 2 if showing else 0)):
        sc.big(fb, sc.grid if showing else card.pattern, card.w, card.h)
        if showing:
            for k in range(sc.solution_step):  # a dot per tile laid
                fb.pixel(1 + 2 * k, 0, WHITE)
        sc.done(fb)
    if not showing:
        screens.seat_spotlight(fb, game.claimer, now)


def draw_final(sc, game, fb, now):
    if not game.solo():
        # still but for the winners' blink and, on 8x8, the pages and the marching edges
        t = now - game.final_since
        page = (t // endings.FINAL_PAGE_MS) % (len(game.seats) + 1) if fb.width < 16 else 0
        key = (game.version % 4096) * 64 + page * 4 + (
            (now // 250) % 4 if page == len(game.seats) else endings.final_blink(t))
        if not sc.cached(fb, key):
            draw_final_now(sc, game, fb, now)
            sc.done(fb)
    elif not sc.scrolls():
        if still(sc, game, fb, now, 300):  # the new best's blink
            return
        draw_final_now(sc, game, fb, now)
        sc.done(fb)
    else:
        fb.clear()
        draw_final_now(sc, game, fb, now)


def draw_final_now(sc, game, fb, now):
    if not game.solo():
        best = game.best_score()
        wins = 0
        for s in game.seats:  # the winners (ties share), as bits: no list while drawing
            if game.scores[s] == best:
                wins |= 1 << s
        endings.final_board(fb, game.seats, game.scores, wins, now - game.final_since, now)
        return
    w = fb.width
    seat = game.seats[0]
    solved = len(game.solved[seat])
    best = BEST if game.new_best and (now // 300) % 2 else screens.RING
    if w < 16:  # a page at a time: cards solved, the time, the best
        page = (now // CYCLE_MS) % 3
        if page == 0:
            font.draw_number(fb, solved, 0, 1, WHITE)
        else:
            text = sc.texts[page - 1]
            span = font.text_width(text) + w
            font.draw_scrolling(fb, text, 2, WHITE if page == 1 else best, (now // 90) % span - w)
        return
    scale = 2 if w >= 32 else 1
    step = (font.GLYPH_H + 1) * scale
    font.draw_number(fb, solved, 0, 0, WHITE, 0, scale)
    for k in range(2):
        text = sc.texts[k]
        width = font.text_width(text, scale)
        colour = WHITE if k == 0 else best
        if width <= w:
            font.draw_text(fb, text, (w - width) // 2, step * (k + 1), colour, 0, scale)
        else:
            span = width + w
            font.draw_scrolling(fb, text, step * (k + 1), colour, (now // 90) % span - w, scale)


def clock_text(ms):
    if not ms:
        return "-"
    s = ms // 1000
    return "%d:%02d" % (s // 60, s % 60)


def draw_scores(sc, game, fb, now):
    """The pause menu's SCORES: every seat's stars facing it (8x8: a seat at a time)."""
    if not still(sc, game, fb, now, 1200):
        screens.scores(fb, game.seats, game.scores, now)
        sc.done(fb)


DRAWERS = {"join": draw_join, "levels": draw_levels, "handicap": draw_handicap, "play": draw_play,
           "claim": draw_claim, "verify": draw_verify, "final": draw_final,
           "scores": draw_scores}
