# HISTORY: the games the play log kept, one page at a time.
#
# B shows the next page, A goes back to the menu. First the games, newest
# first: the mode's letter in the middle (a "+" takes turns with it for the
# "+" modes), each seat's score facing it, a winner's in its colour and the
# others grey. Then, per mode played, the wins of each seat position, facing
# that seat. The log is read a record at a time: opening it notes where each
# of the last KEEP records starts (2.5 KB) and counts the wins; a page's
# record is read when B turns to it, so drawing allocates nothing.

from array import array

from layerlight import buttons, font, playlog, screens
from layerlight.endings import LOSER
from layerlight.screens import SEAT_COLOURS, WHITE

MODES = ("layers", "layers-plus", "time-attack", "time-attack-plus", "otlo", "coop", "paper-world")
KIND = {MODES[i]: i for i in range(len(MODES))}  # opening reads every record: a lookup, not a search
SEAT_BIT = {1: 1, 2: 2, 3: 4, 4: 8}
LETTERS = "LLTTOCP"
PLUS = (False, True, False, True, False, False, False)
SMALL_PAGE_MS = 1200  # 8x8: the mode's letter, then each seat's number in turn
PLUS_MS = 600         # a "+" mode's letter and the "+" take turns


class Mode:
    name = "history"

    def __init__(self, ctx, seats=None, first_player=None, saved=None):
        self.ctx = ctx
        self.sound = ctx.sound
        self.done = False
        self.dirty = False
        self.outbox = []
        self.plays = None if ctx.storage is None else playlog.PlayLog(ctx.storage, ctx.log)
        # each good record, oldest first (the two files hold up to 2 KEEP - 1 of them)
        self.offsets = array("I")   # where it starts
        self.in_old = bytearray()   # 1 where it is in the older file
        self.kinds = bytearray()    # its mode (an index of MODES; 255: unknown)
        self.won = bytearray()      # its winners (bits)
        self.skipped = self.plays.scan(self._note) if self.plays is not None else 0
        if self.skipped:
            ctx.log("play log: %d damaged record(s) skipped" % self.skipped)
        self.wins = {}              # mode index -> [plays, wins of P1..P4], over the games kept
        for k in range(len(self.offsets) - self.games(), len(self.offsets)):
            mode = self.kinds[k]
            if mode == 255:
                continue
            tally = self.wins.get(mode)
            if tally is None:
                tally = self.wins[mode] = [0, 0, 0, 0, 0]
            tally[0] += 1
            for s in range(4):
                if self.won[k] & (1 << s):
                    tally[s + 1] += 1
        self.modes = [m for m in range(len(MODES)) if m in self.wins]
        self.page = 0
        self.since = 0
        # the page on show, as plain ints for the drawing
        self.mode = -1
        self.seats = 0              # bits of the seats shown
        self.values = [0, 0, 0, 0]  # each seat's number (a score, or wins)
        self.winners = 0            # bits
        self.number = 0             # the record's n (0 on a wins page)
        self.turn_to(0)

    def _note(self, n, mode, winners, name, at):
        self.offsets.append(at)
        self.in_old.append(1 if name == playlog.OLD else 0)
        self.kinds.append(KIND.get(mode, 255))
        bits = 0
        for seat in winners:
            if seat in SEAT_BIT:
                bits |= SEAT_BIT[seat]
        self.won.append(bits)

    def games(self):
        return min(len(self.offsets), playlog.KEEP)

    def pages(self):
        return self.games() + len(self.modes)

    def turn_to(self, page):
        """Read what page `page` shows (a record from flash, or a mode's wins)."""
        self.page = page
        games = self.games()
        self.values = [0, 0, 0, 0]
        self.seats = self.winners = self.number = 0
        self.mode = -1
        if page < games:
            k = len(self.offsets) - 1 - page  # newest first
            name = playlog.OLD if self.in_old[k] else playlog.LOG
            rec = self.plays.read_at(name, self.offsets[k])
            if rec is None:
                return
            self.number = rec["n"]
            self.mode = MODES.index(rec["mode"]) if rec.get("mode") in MODES else -1
            seats, scores = rec.get("seats") or [], rec.get("scores") or []
            for i in range(min(len(seats), len(scores))):
                s = seats[i] - 1
                if 0 <= s < 4:
                    self.seats |= 1 << s
                    self.values[s] = scores[i]
            for seat in rec.get("winners") or ():
                if isinstance(seat, int) and 1 <= seat <= 4:
                    self.winners |= 1 << (seat - 1)
        elif page < self.pages():
            self.mode = self.modes[page - games]
            tally = self.wins[self.mode]
            self.seats = 15  # every seat position's wins, facing it
            for s in range(4):
                self.values[s] = tally[s + 1]
            best = max(tally[1:])
            for s in range(4):
                if best and tally[s + 1] == best:
                    self.winners |= 1 << s

    # --- the protocol -------------------------------------------------------

    def snapshot(self):
        return None  # nothing to resume

    def resumed(self, now):
        pass

    def set_screen(self, fb):
        # a page changes only on B, a "+" letter's turn or an 8x8 page's turn: drawn
        # once, then copied back (a copy costs far less than four numbers)
        self.cache = bytearray(len(fb.buf))
        self.cache_key = -1
        self.cache_generation = -1

    def state(self):
        games = self.games()
        phase = "empty" if not self.pages() else ("games" if self.page < games else "wins")
        seats = [s + 1 for s in range(4) if self.seats & (1 << s)]
        return {
            "game": self.name, "phase": phase, "round": None, "players": 0, "first_player": None,
            "scores": [self.values[s - 1] for s in seats] if phase == "games" else [],
            "mission": None, "finish_order": [], "round_tile": None, "tokens": None, "timer_ms": None,
            "page": self.page, "games": games, "skipped": self.skipped,
            "mode": MODES[self.mode] if self.mode >= 0 else None,
            "record": self.number or None, "seats": seats,
            "winners": [s + 1 for s in range(4) if self.winners & (1 << s)] if phase == "games" else None,
            "wins": [self.values[s] for s in range(4)] if phase == "wins" else None,
        }

    def handle(self, ev, now):
        kind = buttons.kind_of(ev)
        b = buttons.button_of(ev)
        if kind == buttons.PRESS:
            self.sound.play("tick", now)
            return
        if kind != buttons.RELEASE:
            return
        if b == buttons.A:
            self.done = True
        elif b == buttons.B and self.pages():
            self.turn_to((self.page + 1) % self.pages())
            self.since = now

    def tick(self, now):
        pass

    # --- the screen ---------------------------------------------------------

    def draw(self, fb, now):
        w, h = fb.width, fb.height
        shown = 0
        for s in range(4):
            if self.seats & (1 << s):
                shown += 1
        k = ((now - self.since) // SMALL_PAGE_MS) % (shown + 1) if w < 16 else 0
        key = (self.page * 8 + k) * 2 + (now // PLUS_MS) % 2
        if key == self.cache_key and fb.generation == self.cache_generation:
            fb.buf[:] = self.cache
            return
        self.draw_page(fb, now, k)
        self.cache[:] = fb.buf
        self.cache_key = key
        self.cache_generation = fb.generation

    def draw_page(self, fb, now, k):
        fb.clear()
        w, h = fb.width, fb.height
        if not self.pages():
            font.draw_char(fb, "-", (w - 3) // 2, (h - 5) // 2, WHITE)
            return
        wins = self.page >= self.games()
        if w < 16:  # 8x8: the letter, then each seat's number in turn
            if k == 0:
                self.draw_letter(fb, now, 1, wins)
                return
            for s in range(4):
                if self.seats & (1 << s):
                    k -= 1
                    if k == 0:
                        # turned to face its seat, which says whose it is: no bar (it would
                        # sit on the digits' bottom row)
                        screens.number_for_seat(fb, s, self.values[s], self.colour(s), 1)
            return
        scale = 2 if w >= 32 else 1
        for s in range(4):
            if self.seats & (1 << s):
                screens.number_for_seat(fb, s, self.values[s], self.colour(s), scale)
        self.draw_letter(fb, now, scale, wins)

    def colour(self, seat):
        return SEAT_COLOURS[seat] if self.winners & (1 << seat) else LOSER

    def draw_letter(self, fb, now, scale, wins):
        """The mode's letter in the middle: white for a game, violet for its wins page;
        a "+" mode's letter takes turns with a "+"."""
        if self.mode < 0:
            return
        ch = LETTERS[self.mode]
        if PLUS[self.mode] and (now // PLUS_MS) % 2:
            ch = "+"
        x = (fb.width - 3 * scale) // 2
        y = (fb.height - 5 * scale) // 2
        font.draw_char(fb, ch, x, y, screens.RING if wins else WHITE, 0, scale)
