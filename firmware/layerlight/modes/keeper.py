# The score-keeper controls that CO.OP and Paper World share (docs/coop.md,
# docs/paper-world.md): seats joining, whose turn it is, the action menu, count
# entry, choices, undo, and the tallies counting up on screen.
#
# A game is its set-up (seats, first player, what was dealt or drawn) plus the
# log of the actions the table recorded. Everything else (scores, whose turn
# it is, cards left, who holds what) is worked out by replaying the log over
# the set-up. So an undo is "drop the last action and replay", and what is
# saved on flash is only the set-up and the log: after a power cut the device
# replays it and every action entered before the cut is back, in order.
#
# A mode subclasses KeeperGame, copies the phase tables
# (HANDLERS = dict(KeeperGame.HANDLERS), DRAWERS = dict(KeeperGame.DRAWERS))
# and fills in:
#   seats_ready(first, now) the seats are known: its set-up phases, then start_play(now)
#   reset_play()           the state before any action (from the set-up)
#   apply(action)          one recorded action (plain data: an int, a list) on that state
#   rescore()              self.scores (by seat, 0..3) from that state
#   over()                 True when the state is the end of the game (`final`)
#   winners()              the winning seats, at `final`
#   actions()              the turn menu, "next" first
#   act(action_name, now)  the table picked an action: record it or ask for more
#   END_ACTION             what the pause menu's END records (apply() ends the game on it)
#   setup_snapshot() / setup_restore(snap)   the set-up, as plain data
#   resume_setup(now)      a game saved during its set-up comes back: the set-up phase to show
#   keeper_state(s)        its trace keys added to the dict s
#   DRAWERS                phase -> draw function (turn, its own phases)
# and may use the hooks reached_final(now) / left_final(now) (an undo took the
# end back), animating(now) (hold the seat tallies back while it shows
# something) and tick_play(now).
#
# Buttons: a click is a RELEASE; a hold is not a click (letting go after a
# hold does nothing). Holding B gives up a choice or a count in progress, and
# in `turn` or `final` a 1 s hold of B takes back the last action.

from layerlight import buttons, font, screens

UNDO_HOLD_MS = 1000     # hold B this long in `turn` to take back the last action
UNDO_SHOW_MS = 900      # how long the undo is shown
TALLY_STEP_MS = 70      # a shown tally moves one point per step towards the real one
ENTRY_SHORTCUTS = (-1, 1, 5, 0)  # P1 -1, P2 +1, P3 +5, P4 back to 0
GREY = 0x282828         # a seat's number when it is not that seat's moment (an LED at 1/6 looks dim, not dark)


class KeeperGame:
    name = "keeper"
    min_seats = 1
    END_ACTION = None
    HANDLERS = {}
    DRAWERS = {}
    SEAT_PHASES = ()  # a mode's phases where the turn seat chooses (drawn facing it)
    GROWN = ("log",)  # the log only grows, or loses its last action to an undo (modes/__init__.py)
    tie_break = None  # which rule settled a tied final: a mode that breaks ties sets it

    def __init__(self, ctx, seats=None, first_player=None, saved=None):
        self.ctx = ctx
        self.rng = ctx.rng
        self.sound = ctx.sound
        self.done = False
        self.dirty = False
        self.outbox = []
        self.seats = []
        self.joined = 0
        self.first = -1
        self.playing = False       # the set-up is done: turns are being played
        self.log = []              # the recorded actions, oldest first
        self.phase = "join"
        self.since = 0             # when the phase (or the highlighted item) last changed
        self.choice_items = ()     # the items B cycles through (choices and the turn menu)
        self.choice_labels = ()    # and their words on the matrix (made once, not per frame)
        self.choice_index = 0
        self.then = None           # what to do with a picked choice or a confirmed count
        self.entry_what = None     # the count being entered: "dots", "o", "x", "stars"...
        self.entry_value = 0
        self.entry_max = 0
        self.b_down_at = -1        # when B went down in `turn` (for the undo hold)
        self.b_used = False        # this hold of B already undid something
        self.undo_at = -1          # when the last undo happened (shown for a moment)
        self.turn_index = 0        # index into seats of the seat whose turn it is
        self.scores = [0, 0, 0, 0]  # each seat's total, by seat (kept by rescore())
        self.shown = [0, 0, 0, 0]  # the totals as shown (counting towards the real ones)
        self.last_tally = 0
        self.look = 0              # bumped whenever what a screen shows may have changed (cached screens)
        self.width = 16
        self.height = 16
        self.screen = None         # the last screen drawn (ScreenCache), made for the frame buffer
        if saved is not None:
            self.restore(saved)
            return
        if seats is not None:
            self.seats = sorted(seats)
            for s in self.seats:
                self.joined |= 1 << s
            self.seats_ready(first_player, 0)

    # --- set-up ------------------------------------------------------------

    def seats_ready(self, first_player, now):
        """Seats have joined (or were given): the mode's set-up phases start."""
        raise NotImplementedError

    def start_play(self, now):
        """The set-up is done: play starts from an empty log."""
        self.playing = True
        self.log = []
        self.replay()
        self.shown = list(self.scores)
        self.begin_play(now)
        self.changed()

    def begin_play(self, now):
        self.to_turn(now)

    def resume_setup(self, now):
        """A game saved during its set-up came back (the mode shows its set-up phase again)."""
        raise NotImplementedError

    # --- the log -------------------------------------------------------------

    def record(self, action, now):
        """A new action: into the log and onto the state; saved by the device."""
        self.log.append(action)
        self.apply(action)
        self.rescore()
        self.after_change(now)
        self.changed()

    def replay(self):
        """The state worked out again from the set-up and the whole log."""
        self.reset_play()
        for action in self.log:
            self.apply(action)
        self.rescore()

    def can_undo(self):
        """Something recorded can be taken back (the pause menu offers UNDO)."""
        return self.playing and bool(self.log) and self.phase in ("turn", "final")

    def undo(self, now):
        """Take back the last recorded action (one per hold of B)."""
        if not self.can_undo():
            self.sound.play("refused", now)
            return
        self.log.pop()
        self.replay()
        self.undo_at = now
        self.sound.play("wrong", now)
        self.after_change(now)
        self.changed()

    # --- what a mode fills in (see the top of this file) -----------------------

    def reset_play(self):
        raise NotImplementedError

    def apply(self, action):
        raise NotImplementedError

    def rescore(self):
        raise NotImplementedError

    def over(self):
        return False

    def winners(self):
        return []

    def actions(self):
        return ("next",)

    def act(self, action, now):
        raise NotImplementedError

    def setup_snapshot(self):
        return {}

    def setup_restore(self, snap):
        pass

    def keeper_state(self, s):
        pass

    def after_change(self, now):
        """After an action or an undo: `final` if the game is over, else `turn`."""
        was_final = self.phase == "final"
        if self.over():
            self.phase = "final"
            self.set_items(())
            self.then = None
            self.entry_what = None
            self.since = now
            if not was_final:
                self.reached_final(now)
        else:
            self.to_turn(now)
            if was_final:
                self.left_final(now)
        self.look += 1

    def reached_final(self, now):
        """The game has just ended (the mode may remember a winner)."""

    def left_final(self, now):
        """An undo took the end of the game back."""

    def end_game(self, now):
        """The pause menu's END: the end is recorded (so an undo takes it back) and
        the final scoring follows. During the set-up there is nothing to score: the game is left."""
        if not self.playing:
            self.done = True
            return
        if self.phase == "final":
            return
        self.then = None
        self.entry_what = None
        self.record(self.END_ACTION, now)

    def changed(self):
        self.dirty = True

    # --- phases the modes share ---------------------------------------------

    def to_turn(self, now=0):
        self.phase = "turn"
        self.set_items(self.actions())
        self.then = None
        self.entry_what = None
        self.since = now

    def set_items(self, items, start=0):
        self.choice_items = items
        self.choice_labels = [self.choice_label(i) for i in items]
        self.choice_index = start

    def ask_choice(self, phase, items, then, start=0, now=0):
        """B cycles `items`, A picks: then(self, item, now). `then` is a plain
        function (Mode.some_method), so nothing is bound while waiting."""
        self.phase = phase
        self.set_items(items, start)
        self.then = then
        self.entry_what = None
        self.since = now

    def ask_count(self, phase, what, maximum, then, value=0, now=0):
        """A count: B +1 (wrapping after `maximum`), seat shortcuts, A confirms: then(self, value, now)."""
        self.phase = phase
        self.entry_what = what
        self.entry_value = value
        self.entry_max = maximum
        self.then = then
        self.choice_items = ()
        self.choice_labels = ()
        self.since = now

    def in_entry(self):
        return self.entry_what is not None and self.then is not None and not self.choice_items

    def choice(self):
        if self.phase in ("join", "final") or self.in_entry() or not self.choice_items:
            return None
        return str(self.choice_items[self.choice_index])

    def turn_seat(self):
        return self.seats[self.turn_index] if self.seats else -1

    def next_turn(self):
        self.turn_index = (self.turn_index + 1) % len(self.seats)

    # --- the protocol ---------------------------------------------------------

    def handle(self, ev, now):
        kind = buttons.kind_of(ev)
        b = buttons.button_of(ev)
        self.look += 1
        if kind == buttons.PRESS:
            if b == buttons.B and self.undo_allowed():
                self.b_down_at = now
                self.b_used = False
            if b < 4:
                self.seat_pressed(b, now)
            else:
                self.sound.play("tick", now)
            return
        if b == buttons.B and kind in (buttons.RELEASE, buttons.HELD_UP):
            self.b_down_at = -1
        if kind == buttons.HOLD and b == buttons.B and self.then is not None and self.playing:
            # hold B during a choice or a count of play: give the action up
            self.sound.play("wrong", now)
            self.to_turn(now)
            return
        if kind != buttons.RELEASE:
            return  # a hold is not a click: letting go after one does nothing
        handler = self.HANDLERS.get(self.phase)
        if handler is not None:
            handler(self, b, now)
        elif self.in_entry():
            self.on_entry(b, now)
        elif self.choice_items:
            self.on_choice(b, now)

    def undo_allowed(self):
        return self.playing and self.phase in ("turn", "final")

    def tick(self, now):
        if self.b_down_at >= 0 and not self.b_used and now - self.b_down_at >= UNDO_HOLD_MS:
            self.b_used = True
            if self.undo_allowed():
                self.undo(now)
        if now - self.last_tally >= TALLY_STEP_MS and not self.animating(now):
            moved = False
            for s in self.seats:
                want = self.scores[s]
                if self.shown[s] != want:
                    self.shown[s] += 1 if want > self.shown[s] else -1
                    moved = True
            if moved:
                self.last_tally = now
                self.look += 1
        self.tick_play(now)

    def animating(self, now):
        """True while the mode shows something the seat tallies should wait for."""
        return False

    def tick_play(self, now):
        """Time passing in the mode's own phases (a subclass may use it)."""

    def seat_pressed(self, seat, now):
        if self.phase == "join":
            self.joined ^= 1 << seat
            self.seats = [s for s in range(4) if self.joined & (1 << s)]
            self.sound.play("join" if self.joined & (1 << seat) else "tick", now)
        elif self.in_entry():
            step = ENTRY_SHORTCUTS[seat]
            v = 0 if step == 0 else self.entry_value + step
            self.entry_value = max(0, min(self.entry_max, v))
            self.sound.play("tick", now)
        elif self.phase == "turn" and seat == self.turn_seat():
            self.act("next", now)  # the current player's own button ends the turn
        else:
            self.seat_button(seat, now)

    def seat_button(self, seat, now):
        """A seat button in a phase of the mode's own (default: a tick)."""
        self.sound.play("tick", now)

    def on_join(self, b, now):
        if b != buttons.A:
            return
        if len(self.seats) >= self.min_seats:
            self.seats_ready(None, now)
            self.changed()
        else:
            self.sound.play("refused", now)

    def on_turn(self, b, now):
        if b == buttons.B:
            self.choice_index = (self.choice_index + 1) % len(self.choice_items)
            self.since = now
        elif b == buttons.A:
            self.act(self.choice_items[self.choice_index], now)

    def on_choice(self, b, now):
        if b == buttons.B:
            self.choice_index = (self.choice_index + 1) % len(self.choice_items)
            self.since = now
        elif b == buttons.A:
            then = self.then
            self.then = None
            then(self, self.choice_items[self.choice_index], now)

    def on_entry(self, b, now):
        if b == buttons.B:
            self.entry_value = 0 if self.entry_value >= self.entry_max else self.entry_value + 1
        elif b == buttons.A:
            then = self.then
            value = self.entry_value
            self.then = None
            self.entry_what = None
            then(self, value, now)

    def on_final(self, b, now):
        if b == buttons.A:
            self.done = True

    def draw(self, fb, now):
        # Every screen is drawn once and copied back (a memcpy) until something on it
        # changes: the state (self.look) or what moves with time (motion()). What
        # moves every frame is drawn over it (draw_over()).
        #
        # A screen that is one seat's (a count it enters, a word of its menu, a choice it
        # makes) is drawn as for P1, upright with the seat's edge at the bottom, into the frame
        # buffer turned to face that seat: so every seat reads its own screen the same way.
        key = self.look * 256 + self.motion(now)
        cache = self.screen
        if cache is None or not cache.restore(fb, key):
            fb.clear()
            seat = self.facing()
            view = fb.turned(seat) if seat > 0 else fb
            drawer = self.DRAWERS.get(self.phase)
            if drawer is not None:
                drawer(self, view, now)
            elif self.in_entry():
                self.draw_entry(view, now)
            else:
                self.draw_choice(view, now)
            if cache is not None:
                cache.keep(fb, key)
        self.draw_over(fb, now)
        if self.undo_at >= 0 and now - self.undo_at < UNDO_SHOW_MS:
            undo_mark(fb, now - self.undo_at)

    def facing(self):
        """The seat whose screen this is (drawn turned to face it), or -1 for a board all share."""
        if self.in_entry() or self.phase in self.SEAT_PHASES or (self.phase == "turn" and self.choice_index):
            return self.turn_seat()
        return -1

    def seat_colour(self):
        """The colour of the seat a one-seat screen is for (its edge, at the bottom of the view)."""
        seat = self.turn_seat()
        return screens.SEAT_COLOURS[seat] if seat >= 0 else 0

    def motion(self, now):
        """0..255: changes when a screen changes with time alone (a blink, a page, a scroll)."""
        if self.in_entry():
            return 1 if self.width < 16 and (now // 400) % 5 == 0 else 0  # count_entry's letter on 8x8
        if self.choice_labels and font.text_width(self.choice_labels[self.choice_index]) > self.width:
            return ((now - self.since) // 80) % 256  # a scrolling word
        return 0

    def draw_over(self, fb, now):
        """What changes every frame, drawn over the cached screen (a mode's timer)."""

    def set_screen(self, fb):
        self.width = fb.width
        self.height = fb.height
        self.screen = ScreenCache(fb)
        for seat in range(1, 4):
            fb.turned(seat)  # made now, not while drawing

    # --- saving ---------------------------------------------------------------

    def snapshot(self):
        if self.phase == "join":
            return None  # nothing entered yet
        return {"seats": self.seats, "first": self.first, "log": self.log, "playing": self.playing,
                "setup": self.setup_snapshot()}

    def restore(self, snap):
        self.seats = snap["seats"]
        self.joined = 0
        for s in self.seats:
            self.joined |= 1 << s
        self.first = snap["first"]
        self.log = snap["log"]
        self.playing = snap.get("playing", True)
        self.setup_restore(snap["setup"])
        if not self.playing:
            self.resume_setup(0)
            return
        self.replay()
        self.shown = list(self.scores)
        # the phase the state calls for, without the hooks: the end was already celebrated
        if self.over():
            self.phase = "final"
            self.set_items(())
        else:
            self.to_turn(0)

    def resumed(self, now):
        self.since = now

    def rounds_played(self):
        """For the play log: the actions recorded (a turn each, the end of the game one more)."""
        return len(self.log)

    # --- the state for the trace ------------------------------------------------

    def state(self):
        s = {
            "game": self.name, "phase": self.phase, "round": None,
            "players": len(self.seats), "seats": [x + 1 for x in self.seats],
            "first_player": None if self.first < 0 else self.first + 1,
            "scores": [self.scores[x] for x in self.seats],
            "mission": None, "finish_order": [], "round_tile": None, "tokens": None, "timer_ms": None,
            "choice": self.choice(),
            "entry": {"what": self.entry_what, "value": self.entry_value} if self.in_entry() else None,
            "turn_seat": self.turn_seat() + 1 if self.playing and self.seats else None,
            "winners": [x + 1 for x in self.winners()] if self.phase == "final" else None,
            "actions_logged": len(self.log),
        }
        self.keeper_state(s)
        return s

    def result_state(self):
        """The part of state() a play log record keeps (layerlight/play_record.py), without
        the lists of every action the trace gives."""
        final = self.phase == "final"
        return {"seats": [x + 1 for x in self.seats], "scores": [self.scores[x] for x in self.seats],
                "winners": [x + 1 for x in self.winners()] if final else None,
                "tie_break": self.tie_break if final else None,
                "mission": None, "round": None}

    # --- screens the modes share -------------------------------------------------

    def draw_join(self, fb, now):
        screens.join(fb, self.joined, now)

    def draw_entry(self, fb, now):
        """The count being entered, large, facing the player whose turn it is."""
        count_entry(fb, self.entry_value, self.entry_what, self.seat_colour(), now)

    def draw_choice(self, fb, now):
        """The highlighted item of a choice (the mode draws its own where it has one)."""
        if self.choice_labels:
            menu_word(fb, self.choice_labels[self.choice_index], self.seat_colour(), now - self.since)

    def choice_label(self, item):
        return str(item).upper()


class ScreenCache:
    """The unchanging part of a screen, drawn once and copied back each frame (a memcpy).

    Two pictures are kept, so a screen that blinks between two (a winner's total, a highlighted
    colour) is drawn twice and then only copied."""

    def __init__(self, fb):
        self.bufs = (bytearray(len(fb.buf)), bytearray(len(fb.buf)))
        self.keys = [-1, -1]
        self.generation = -1
        self.newer = 0

    def restore(self, fb, key):
        """True (and fb holds the picture) when the picture for `key` is cached; else draw it and keep()."""
        if fb.generation != self.generation:
            return False
        for i in (0, 1):
            if self.keys[i] == key:
                fb.buf[:] = self.bufs[i]
                return True
        return False

    def keep(self, fb, key):
        if fb.generation != self.generation:
            self.keys[0] = self.keys[1] = -1
        i = 1 - self.newer  # the older picture makes way
        self.bufs[i][:] = fb.buf
        self.keys[i] = key
        self.newer = i
        self.generation = fb.generation


def fill_edge(fb, layout, colour):
    """The whole edge of the matrix in one colour (the ring path of a screens.Layout), inlined like the sand."""
    scale = fb.scale
    r = scale[colour >> 16]
    g = scale[(colour >> 8) & 0xFF]
    b = scale[colour & 0xFF]
    buf = fb.buf
    ro = fb.ro
    go = fb.go
    bo = fb.bo
    at = layout.ring_at
    for i in range(len(at)):
        j = at[i]
        buf[j + ro] = r
        buf[j + go] = g
        buf[j + bo] = b


def _glyph_rows():
    # the font's digits and minus as bit rows (bit 2 = left column), read once:
    # big numbers are drawn from these without a call per pixel
    rows = bytearray(11 * font.GLYPH_H)
    for g in range(11):
        index = g if g < 10 else font.glyph_rows("-")
        for r in range(font.GLYPH_H):
            for c in range(font.GLYPH_W):
                rows[g * font.GLYPH_H + r] |= font.glyph_bit(index, c, r) << (2 - c)
    return rows


_ROWS = _glyph_rows()


def number_width(value, scale):
    """Width in pixels of an int drawn upright at `scale` (as font.draw_number would)."""
    digits = 2 if value < 0 else 1
    v = value if value >= 0 else -value
    while v >= 10:
        v //= 10
        digits += 1
    return (digits * font.ADVANCE - 1) * scale


def big_number(fb, value, x, y, colour, scale):
    """An int drawn upright at `scale`, the pixels font.draw_number would light, each font pixel a
    block written straight into the wire buffer: a large count costs a fraction of a call per pixel."""
    sc = fb.scale
    r = sc[colour >> 16]
    g = sc[(colour >> 8) & 0xFF]
    b = sc[colour & 0xFF]
    buf = fb.buf
    table = fb.table
    ro = fb.ro
    go = fb.go
    bo = fb.bo
    width = fb.width
    height = fb.height
    neg = value < 0
    v = -value if neg else value
    p = 1
    n = 1
    while v // p >= 10:
        p *= 10
        n += 1
    if neg:
        n += 1
    for i in range(n):
        if neg and i == 0:
            d = 10
        else:
            d = (v // p) % 10
            p //= 10
        gx = x + i * font.ADVANCE * scale
        for row in range(font.GLYPH_H):
            bits = _ROWS[d * font.GLYPH_H + row]
            if not bits:
                continue
            py = y + row * scale
            for col in range(font.GLYPH_W):
                if not bits & (4 >> col):
                    continue
                px = gx + col * scale
                for yy in range(py, py + scale):
                    if yy < 0 or yy >= height:
                        continue
                    at = yy * width
                    for xx in range(px, px + scale):
                        if 0 <= xx < width:
                            j = table[at + xx] * 3
                            buf[j + ro] = r
                            buf[j + go] = g
                            buf[j + bo] = b


def count_entry(fb, value, what, edge, now, colour=screens.WHITE):
    """A count as large as the matrix allows, upright for P1 (draw it into fb.turned(seat) for
    another seat), the bottom edge lit in `edge` (the seat's colour; 0: none), what is counted
    as a letter (in `colour`) above it; on 8x8 the letter takes the number's place for a moment
    every 2 s."""
    w, h = fb.width, fb.height
    digits = 1
    v = value
    while v >= 10:
        v //= 10
        digits += 1
    small = w < 16
    letter_scale = 2 if w >= 32 else 1
    scale = 3 if w >= 32 else 2 if w >= 16 else 1
    while scale > 1 and (digits * font.ADVANCE - 1) * scale > w:
        scale -= 1
    width = (digits * font.ADVANCE - 1) * scale
    top = 0 if small else font.GLYPH_H * letter_scale
    x = (w - width) // 2
    y = top + (h - top - font.GLYPH_H * scale) // 2
    if edge:
        screens.side_bar(fb, 0, edge, min(w, h) // 2)
    if small:
        if what and (now // 400) % 5 == 0:
            font.draw_char(fb, what[0], (w - font.GLYPH_W) // 2, y, colour)
            return
    elif what:
        font.draw_char(fb, what[0], 0, 0, colour, 0, letter_scale)
    big_number(fb, value, x, y, screens.WHITE, scale)


def menu_word(fb, text, edge, elapsed):
    """A word of the turn menu in the middle (scrolling if it is wide), upright for P1 (draw it
    into fb.turned(seat) for another seat), the bottom edge lit in `edge` (the seat's colour)."""
    w, h = fb.width, fb.height
    scale = 2 if w >= 32 else 1
    width = font.text_width(text, scale)
    if width <= w:
        offset = -((w - width) // 2)
    else:
        offset = (elapsed // 80) % (width + w) - w // 2
    y = (h - font.GLYPH_H * scale) // 2
    font.draw_scrolling(fb, text, y, screens.WHITE, offset, scale)
    if edge:
        fb.rect(0, h - 1, w, 1, edge)


def undo_mark(fb, elapsed):
    """An arrow sweeping right to left across the top row: something was taken back."""
    w = fb.width
    x = w - 3 - (elapsed * (w - 2)) // UNDO_SHOW_MS
    if x < 0:
        x = 0
    for k in range(3):
        fb.pixel(x + k, 0, screens.WHITE)
    fb.pixel(x, 1, screens.WHITE)  # the arrow's head points left


KeeperGame.HANDLERS.update({"join": KeeperGame.on_join, "turn": KeeperGame.on_turn, "final": KeeperGame.on_final})
KeeperGame.DRAWERS.update({"join": KeeperGame.draw_join})
