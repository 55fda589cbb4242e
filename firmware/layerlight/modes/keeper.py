# The score-keeper controls that CO.OP and Paper World share (games.md,
# "Score keepers"): seats joining, whose turn it is, the action menu, count
# entry, choices, undo, and the tallies counting up on screen.
#
# A game is its set-up (seats, first player, what was dealt or drawn) plus the
# log of the actions the table recorded. Everything else (scores, whose turn
# it is, cards left, who holds what) is worked out by replaying the log over
# the set-up. So an undo is "drop the last action and replay", and what is
# saved on flash is only the set-up and the log: after a power cut the device
# replays it and every action entered before the cut is back, in order.
#
# A mode subclasses KeeperGame and fills in:
#   begin_play(now)        the set-up is done: the first phase of play
#   reset_play()           the state before any action (from the set-up)
#   apply(action)          one recorded action (a list of plain values) on that state
#   rescore()              self.scores (by seat, 0..3) from that state
#   winners()              the winning seats, at `final`
#   actions()              the turn menu, "next" first
#   act(action_name, now)  the table picked an action: record it or ask for more
#   setup_snapshot() / setup_restore(snap)   the set-up, as plain data
#   keeper_state(s)        its trace keys added to the dict s
#   DRAWERS                phase -> draw function (turn, its own phases)

from layerlight import buttons, font, screens

UNDO_HOLD_MS = 1000     # hold B this long in `turn` to take back the last action
UNDO_SHOW_MS = 900      # how long the undo is shown
TALLY_STEP_MS = 70      # a shown tally moves one point per step towards the real one
ENTRY_SHORTCUTS = (-1, 1, 5, 0)  # P1 -1, P2 +1, P3 +5, P4 back to 0


class KeeperGame:
    name = "keeper"
    min_seats = 1
    HANDLERS = {}
    DRAWERS = {}

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
        self.log = []              # the recorded actions, oldest first
        self.phase = "join"
        self.since = 0
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
        self.layout = None
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
        self.log = []
        self.replay()
        self.shown = list(self.scores)
        self.begin_play(now)
        self.changed()

    def begin_play(self, now):
        self.to_turn()

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

    def undo(self, now):
        """Take back the last recorded action (one per hold of B)."""
        if not self.log:
            self.sound.play("refused", now)
            return
        self.log.pop()
        self.replay()
        self.undo_at = now
        self.sound.play("wrong", now)
        self.after_change(now)
        self.changed()

    def after_change(self, now):
        """After an action or an undo: the phase the state now calls for."""
        self.to_turn()

    def changed(self):
        self.dirty = True

    # --- phases the modes share ---------------------------------------------

    def to_turn(self):
        self.phase = "turn"
        self.set_items(self.actions())
        self.then = None

    def set_items(self, items, start=0):
        self.choice_items = items
        self.choice_labels = [self.choice_label(i) for i in items]
        self.choice_index = start

    def ask_choice(self, phase, items, then, start=0):
        """B cycles `items`, A picks: then(self, item, now). `then` is a plain
        function (Mode.some_method), so nothing is bound while waiting."""
        self.phase = phase
        self.set_items(items, start)
        self.then = then

    def ask_count(self, phase, what, maximum, then, value=0):
        """A count: B +1 (wrapping after `maximum`), seat shortcuts, A confirms: then(self, value, now)."""
        self.phase = phase
        self.entry_what = what
        self.entry_value = value
        self.entry_max = maximum
        self.then = then
        self.choice_items = ()
        self.choice_labels = ()

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
            if self.b_used:
                return  # that hold was an undo
        if kind == buttons.HOLD and b == buttons.B and self.then is not None:
            # hold B during a choice or a count: give the action up
            self.sound.play("wrong", now)
            self.to_turn()
            return
        if kind not in (buttons.RELEASE, buttons.HELD_UP):
            return
        handler = self.HANDLERS.get(self.phase)
        if handler is not None:
            handler(self, b, now)
        elif self.in_entry():
            self.on_entry(b, now)
        elif self.choice_items:
            self.on_choice(b, now)

    def undo_allowed(self):
        return self.phase in ("turn", "final")

    def tick(self, now):
        if self.b_down_at >= 0 and not self.b_used and now - self.b_down_at >= UNDO_HOLD_MS:
            self.b_used = True
            if self.undo_allowed():
                self.undo(now)
        if now - self.last_tally >= TALLY_STEP_MS:
            moved = False
            for s in self.seats:
                want = self.scores[s]
                if self.shown[s] != want:
                    self.shown[s] += 1 if want > self.shown[s] else -1
                    moved = True
            if moved:
                self.last_tally = now
        self.tick_play(now)

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
        elif b == buttons.A:
            self.act(self.choice_items[self.choice_index], now)

    def on_choice(self, b, now):
        if b == buttons.B:
            self.choice_index = (self.choice_index + 1) % len(self.choice_items)
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
        fb.clear()
        drawer = self.DRAWERS.get(self.phase)
        if drawer is not None:
            drawer(self, fb, now)
        elif self.in_entry():
            self.draw_entry(fb, now)
        else:
            self.draw_choice(fb, now)
        if self.undo_at >= 0 and now - self.undo_at < UNDO_SHOW_MS:
            undo_mark(fb, now - self.undo_at)

    def set_screen(self, fb):
        self.width = fb.width
        self.height = fb.height

    # --- saving ---------------------------------------------------------------

    def snapshot(self):
        if self.phase == "join":
            return None  # nothing entered yet
        return {"seats": self.seats, "first": self.first, "log": self.log, "setup": self.setup_snapshot()}

    def restore(self, snap):
        self.seats = snap["seats"]
        self.joined = 0
        for s in self.seats:
            self.joined |= 1 << s
        self.first = snap["first"]
        self.log = snap["log"]
        self.setup_restore(snap["setup"])
        self.replay()
        self.shown = list(self.scores)
        self.after_change(0)

    def resumed(self, now):
        self.since = now

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
            "turn_seat": self.turn_seat() + 1 if self.seats and self.phase not in ("join",) else None,
            "winners": [x + 1 for x in self.winners()] if self.phase == "final" else None,
            "actions_logged": len(self.log),
        }
        self.keeper_state(s)
        return s

    # --- screens the modes share -------------------------------------------------

    def draw_join(self, fb, now):
        screens.join(fb, self.joined, now)

    def draw_entry(self, fb, now):
        """The count being entered, large, facing the player whose turn it is."""
        count_entry(fb, self.entry_value, self.entry_what, self.turn_seat(), now)

    def draw_choice(self, fb, now):
        """The highlighted item of a choice (the mode draws its own where it has one)."""
        if self.choice_labels:
            menu_word(fb, self.choice_labels[self.choice_index], self.turn_seat(), now - self.since)

    def choice_label(self, item):
        return str(item).upper()


def count_entry(fb, value, what, seat, now):
    """A count as large as the matrix allows, with the seat's side lit and what is counted as a letter."""
    w, h = fb.width, fb.height
    scale = 3 if w >= 32 else 2 if w >= 16 else 1
    digits = 2 if value >= 10 else 1
    width = (digits * font.ADVANCE - 1) * scale
    x = (w - width) // 2
    y = (h - font.GLYPH_H * scale) // 2
    font.draw_number(fb, value, x, y, screens.WHITE, 0, scale)
    if seat >= 0:
        screens.side_bar(fb, seat, screens.SEAT_COLOURS[seat], min(w, h) // 2)
    if w >= 16 and what:
        font.draw_char(fb, what[0].upper(), 1, 1, screens.DIM * 5)


def menu_word(fb, text, seat, elapsed):
    """A word of the turn menu in the middle (scrolling if it is wide), the seat's side lit."""
    w, h = fb.width, fb.height
    scale = 2 if w >= 32 else 1
    width = font.text_width(text, scale)
    if width <= w:
        offset = -((w - width) // 2)
    else:
        offset = (elapsed // 80) % (width + w) - w // 2
    font.draw_scrolling(fb, text, (h - font.GLYPH_H * scale) // 2, screens.WHITE, offset, scale)
    if seat >= 0:
        screens.seat_spotlight(fb, seat, 0, False)


def undo_mark(fb, elapsed):
    """An arrow sweeping right to left across the top row: something was taken back."""
    w = fb.width
    x = w - 1 - (elapsed * w) // UNDO_SHOW_MS
    for k in range(3):
        fb.pixel(x + k, 0, screens.WHITE)
    fb.pixel(x + 1, 1, screens.WHITE)


KeeperGame.HANDLERS.update({"join": KeeperGame.on_join, "turn": KeeperGame.on_turn, "final": KeeperGame.on_final})
KeeperGame.DRAWERS.update({"join": KeeperGame.draw_join})
