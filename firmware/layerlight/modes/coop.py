# CO.OP score keeper (docs/coop.md),
# 1 to 4 players: the device is the game's scoring app.
#
# join -> cards (a player card each, dealt at random; a seat's own button
# takes the next card of the set) -> first_player (the last winner on this
# device, else P1; B cycles, A confirms) -> turns -> final. Solo: no card (all
# six colours count) and no first player to choose: play starts at once.
#
# In `turn` the menu is next / loop / skip. A loop is its colour (or none,
# then the colour its points go to), then the counts of dots (not for none),
# O and X. It scores dots + O - X to its colour, and its length dots + O + X
# counts for the tie-breaks. A colour may go below zero: the rulebook makes
# every X -1 point, and a loop of X alone can be given to any colour. Each
# `next` places a card: 72 to place, the game ends at 0 (or at the pause
# menu's END). The final ties go to the longest loop, then the most loops
# closed, then the tied seats share the win; the winner is remembered on
# flash (bests.json, "coop": the winning seats) as the next game's first player.
#
# The log (keeper.py) holds one small int per action: NEXT, SKIP, END, or
# LOOP + the loop packed in bits, so a whole game stays a few hundred bytes of
# RAM and of flash.

from layerlight import buttons, endings, persist
from layerlight.coop_cards import COLOURS
from layerlight.modes import coop_screens as S
from layerlight.modes.coop_screens import LED, NONE, PAGE_MS, SCORES_PAGE_MS  # noqa: F401 (LED: tests, tools)
from layerlight.modes.keeper import TALLY_STEP_MS, KeeperGame
from layerlight.runtime import forget_modules

# Only the colour names are kept: the box's card tables are read when the cards
# are dealt (deal) and let go again, so a game's heap does not carry them.
forget_modules(("layerlight.coop_cards",))
ALL_COLOURS = [0, 1, 2, 3, 4, 5]  # solo: every colour scores
LOOP_CHOICES = COLOURS + ("none",)
ACTIONS = ("next", "loop", "skip")
CARDS = 72                  # builder cards to place after the starting card
MAX_COUNT = 20              # the most dots, O or X one loop can be given
SHOW_LOOP_MS = 1000         # a loop's colour stays on show this long once its total has counted up
LAST_SECONDS_MS = 5000      # the turn timer beeps every second at the end

# actions in the log
NEXT = 0
SKIP = 1
END = 2
LOOP = 8


def loop_action(colour, none, dots, o, x):
    """A loop as one int: colour (0-5) the points go to, none (1: a loop without colour), the counts (0-31)."""
    return LOOP + ((colour << 16) | (none << 15) | (dots << 10) | (o << 5) | x)


class Mode(KeeperGame):
    name = "coop"
    min_seats = 1
    END_ACTION = END
    HANDLERS = dict(KeeperGame.HANDLERS)
    DRAWERS = dict(KeeperGame.DRAWERS)
    SEAT_PHASES = ("loop_colour", "loop_for")

    def __init__(self, ctx, seats=None, first_player=None, saved=None):
        cfg = ctx.cfg
        self.table = []             # the player cards in play, as colour indices ([] solo)
        self.held = []              # by position in seats: which card of the table the seat holds
        self.seat_colours = [[], [], [], []]  # by seat: the colours it scores
        self.offer = None           # the first player to offer (given by the simulator's --game)
        self.before = None          # the remembered winners when this game began (an undo of the end puts them back)
        self.points = [0, 0, 0, 0, 0, 0]
        self.shown_points = [0, 0, 0, 0, 0, 0]
        self.longest = [0, 0, 0, 0]  # by seat: its longest loop
        self.closed = [0, 0, 0, 0]   # by seat: loops it closed
        self.cards_left = CARDS
        self.turns = 0
        self.ended = False
        self.win_bits = 0
        self.tie_break = None
        self.loop_colour = 0        # the loop being entered
        self.loop_none = 0
        self.loop_dots = 0
        self.loop_o = 0
        self.show_colour = -1       # the colour whose total is counting on screen (-1: none)
        self.show_done = -1
        self.show_step = 0
        self.turn_total = cfg.get("coop_turn_s", 0) * 1000
        self.turn_started = 0
        self.timer_turns = -1
        self.timer_left = None
        self.next_beep = 0
        self.layout = None
        self.ring_lit = None
        KeeperGame.__init__(self, ctx, seats, first_player, saved)

    # --- set-up -------------------------------------------------------------

    def seats_ready(self, first_player, now):
        self.offer = first_player
        self.before = self.remembered()
        if len(self.seats) == 1:
            self.table = []
            self.held = []
            self.set_colours()
            self.first = self.seats[0]
            self.start_play(now)
            return
        self.deal()
        self.to_cards(now)

    def deal(self):
        """A card each, at random, from the set for this many players (2: white, 3-4: black)."""
        key = "coop_white" if len(self.seats) == 2 else "coop_black"
        cards = self.ctx.cfg.get(key)
        n = len(self.seats)
        # the cards themselves were checked at boot (config.cards_problem); how many a
        # table needs depends on its players
        if not isinstance(cards, list) or len(cards) < n:
            self.ctx.log("coop: %s for %d players: %d card(s), at least %d needed, the box's cards are used"
                         % (key, n, len(cards or ()), n))
            from layerlight import coop_cards
            cards = coop_cards.default(key)
            forget_modules(("layerlight.coop_cards",))
        self.table = [[COLOURS.index(c) for c in card] for card in cards]
        order = list(range(len(self.table)))
        self.rng.shuffle(order)
        self.held = order[:len(self.seats)]
        self.set_colours()

    def set_colours(self):
        for k in range(len(self.seats)):
            self.seat_colours[self.seats[k]] = self.table[self.held[k]] if self.table else ALL_COLOURS

    def remembered(self):
        """The winners of the last CO.OP game on this device (seats), or None."""
        w = self.ctx.bests.get("coop")
        if isinstance(w, list) and all(isinstance(s, int) and 0 <= s < 4 for s in w):
            return list(w)
        return None

    def to_cards(self, now):
        self.phase = "cards"
        self.set_items(())
        self.then = None
        self.since = now

    def seat_button(self, seat, now):
        if self.phase == "cards" and seat in self.seats:
            # the next card of the set; whoever held it takes this seat's card
            k = self.seats.index(seat)
            want = (self.held[k] + 1) % len(self.table)
            for j in range(len(self.held)):
                if self.held[j] == want:
                    self.held[j] = self.held[k]
            self.held[k] = want
            self.set_colours()
            self.sound.play("join", now)
            self.changed()
        else:
            self.sound.play("tick", now)

    def on_cards(self, b, now):
        if b == buttons.A:
            self.to_first_player(now)

    def default_first(self):
        if self.offer is not None and self.offer in self.seats:
            return self.offer
        for s in self.before or ():
            if s in self.seats:
                return s
        return self.seats[0]  # P1 when P1 plays (the scorekeeper's seat)

    def to_first_player(self, now):
        self.first = self.default_first()
        self.ask_choice("first_player", [s + 1 for s in self.seats], None, self.seats.index(self.first), now)

    def on_first_player(self, b, now):
        if b == buttons.B:
            self.choice_index = (self.choice_index + 1) % len(self.seats)
            self.first = self.seats[self.choice_index]
        elif b == buttons.A:
            self.then = None
            self.sound.play("reveal", now)
            self.start_play(now)

    def begin_play(self, now):
        KeeperGame.begin_play(self, now)
        self.start_turn_timer(now)

    def resume_setup(self, now):
        self.to_cards(now)

    def setup_snapshot(self):
        return {"table": self.table, "held": self.held, "offer": self.offer, "before": self.before}

    def setup_restore(self, snap):
        self.table = snap["table"]
        self.held = snap["held"]
        self.offer = snap.get("offer")
        self.before = snap.get("before")
        self.set_colours()

    # --- play: the state worked out from the log ------------------------------

    def reset_play(self):
        for c in range(6):
            self.points[c] = 0
        for s in range(4):
            self.longest[s] = 0
            self.closed[s] = 0
        self.cards_left = CARDS
        self.turns = 0
        self.ended = False
        self.turn_index = self.seats.index(self.first) if self.first in self.seats else 0

    def apply(self, action):
        if action == NEXT:
            if self.cards_left > 0:
                self.cards_left -= 1
            self.next_turn()
            self.turns += 1
        elif action == SKIP:
            self.next_turn()
            self.turns += 1
        elif action == END:
            self.ended = True
        elif action >= LOOP:
            a = action - LOOP
            x = a & 31
            o = (a >> 5) & 31
            dots = (a >> 10) & 31
            seat = self.turn_seat()
            self.points[a >> 16] += dots + o - x
            self.longest[seat] = max(self.longest[seat], dots + o + x)
            self.closed[seat] += 1

    def rescore(self):
        for s in self.seats:
            total = 0
            for c in self.seat_colours[s]:
                total += self.points[c]
            self.scores[s] = total

    def over(self):
        return self.ended or self.cards_left <= 0

    def ranking(self, seat):
        return (self.scores[seat], self.longest[seat], self.closed[seat])

    def winners(self):
        if not self.seats:
            return []
        best = max(self.ranking(s) for s in self.seats)
        return [s for s in self.seats if self.ranking(s) == best]

    def decided_by(self):
        """Which rule settled the win: None (the points alone), "longest", "loops" or "shared"."""
        if len(self.seats) < 2:
            return None
        top = max(self.scores[s] for s in self.seats)
        tied = [s for s in self.seats if self.scores[s] == top]
        if len(tied) == 1:
            return None
        longest = max(self.longest[s] for s in tied)
        tied = [s for s in tied if self.longest[s] == longest]
        if len(tied) == 1:
            return "longest"
        most = max(self.closed[s] for s in tied)
        tied = [s for s in tied if self.closed[s] == most]
        return "loops" if len(tied) == 1 else "shared"

    def after_change(self, now):
        KeeperGame.after_change(self, now)
        if self.turns != self.timer_turns:
            self.start_turn_timer(now)
        for c in range(6):
            if self.shown_points[c] != self.points[c]:
                if self.show_colour != c:  # the loop's points count onto its colour (or off it, for an undo)
                    self.show_colour = c
                    self.show_step = now
                self.show_done = -1
                break
        self.final_marks()

    def final_marks(self):
        self.win_bits = 0
        self.tie_break = None
        if self.phase == "final":
            for s in self.winners():
                self.win_bits |= 1 << s
            self.tie_break = self.decided_by()

    def restore(self, snap):
        KeeperGame.restore(self, snap)
        for c in range(6):
            self.shown_points[c] = self.points[c]
        self.show_colour = -1
        self.final_marks()

    def resumed(self, now):
        KeeperGame.resumed(self, now)
        self.start_turn_timer(now)

    def reached_final(self, now):
        self.sound.play("fanfare", now)
        if len(self.seats) > 1:  # a solo game beats nobody: the last table's winner stays
            self.ctx.bests["coop"] = self.winners()
            self.outbox.append((persist.BESTS, self.ctx.bests))

    def left_final(self, now):
        if len(self.seats) > 1:
            if self.before is None:
                self.ctx.bests.pop("coop", None)
            else:
                self.ctx.bests["coop"] = self.before
            self.outbox.append((persist.BESTS, self.ctx.bests))

    # --- the turn menu and a loop ----------------------------------------------

    def actions(self):
        return ACTIONS

    def act(self, action, now):
        if action == "next":
            self.record(NEXT, now)
        elif action == "skip":
            self.record(SKIP, now)
        else:
            self.ask_choice("loop_colour", LOOP_CHOICES, Mode.colour_chosen, 0, now)

    def colour_chosen(self, item, now):
        c = LOOP_CHOICES.index(item)
        self.loop_dots = 0
        if c == NONE:
            self.loop_none = 1
            self.ask_choice("loop_for", COLOURS, Mode.for_chosen, 0, now)
        else:
            self.loop_none = 0
            self.loop_colour = c
            self.ask_count("loop_dots", "dots", MAX_COUNT, Mode.dots_entered, 0, now)

    def for_chosen(self, item, now):
        self.loop_colour = COLOURS.index(item)
        self.ask_count("loop_o", "o", MAX_COUNT, Mode.o_entered, 0, now)

    def dots_entered(self, value, now):
        self.loop_dots = value
        self.ask_count("loop_o", "o", MAX_COUNT, Mode.o_entered, 0, now)

    def o_entered(self, value, now):
        self.loop_o = value
        self.ask_count("loop_x", "x", MAX_COUNT, Mode.x_entered, 0, now)

    def x_entered(self, value, now):
        if self.loop_dots + self.loop_o + value == 0:
            self.sound.play("refused", now)  # a loop has symbols: count them (or hold B to give it up)
            self.ask_count("loop_x", "x", MAX_COUNT, Mode.x_entered, 0, now)
            return
        self.sound.play("ok", now)
        self.record(loop_action(self.loop_colour, self.loop_none, self.loop_dots, self.loop_o, value), now)

    def show_scores(self, now):
        """The pause menu's SCORES: each colour's total, then the cards left, until A or B."""
        if self.phase == "turn":
            self.phase = "scores"
            self.set_items(())
            self.since = now

    def on_scores(self, b, now):
        if b == buttons.A or b == buttons.B:
            self.to_turn(now)

    # --- time ---------------------------------------------------------------------

    def start_turn_timer(self, now):
        self.timer_turns = self.turns
        self.turn_started = now
        self.next_beep = now + self.turn_total - LAST_SECONDS_MS

    def animating(self, now):
        # the seat totals wait while a colour counts, then take their new values at once:
        # the count is on the colour, and the board is redrawn once, not at every point
        return True

    def tick_play(self, now):
        c = self.show_colour
        if c >= 0:
            if self.shown_points[c] != self.points[c]:
                if now - self.show_step >= TALLY_STEP_MS:
                    self.shown_points[c] += 1 if self.points[c] > self.shown_points[c] else -1
                    self.show_step = now
                    self.look += 1
                    self.sound.play("tick", now)
            elif self.show_done < 0:
                self.show_done = now
            elif now - self.show_done >= SHOW_LOOP_MS:
                self.show_colour = -1
        if self.show_colour < 0 and (self.shown != self.scores or self.shown_points != self.points):
            for k in range(6):
                self.shown_points[k] = self.points[k]
            for k in range(4):
                self.shown[k] = self.scores[k]
            self.look += 1
        if self.turn_total <= 0 or not self.playing or self.phase == "final":
            self.timer_left = None
            return
        left = self.turn_total - (now - self.turn_started)
        if left < 0:
            left = 0
        if self.timer_left is not None and self.timer_left > 0 and left == 0:
            self.sound.play("timeout", now)  # time is up: the turn goes on until the player ends it
        elif left > 0 and now >= self.next_beep:
            self.sound.play("beep", now)
            self.next_beep += 1000
        self.timer_left = left

    # --- the trace ---------------------------------------------------------------

    def result_detail(self):
        """The play log's breakdown: each colour's total."""
        colours = {}
        for c in range(6):
            colours[COLOURS[c]] = self.points[c]
        return {"colours": colours}

    def rounds_played(self):
        return self.turns

    def keeper_state(self, s):
        dealt = self.phase not in ("join",)
        s["cards"] = [[COLOURS[c] for c in self.seat_colours[seat]] for seat in self.seats] if dealt else []
        colours = {}
        for c in range(6):
            colours[COLOURS[c]] = self.points[c]
        s["colours"] = colours
        s["loops"] = self.loops_state()
        s["cards_left"] = self.cards_left
        s["timer_ms"] = self.timer_left
        s["tie_break"] = self.tie_break if self.phase == "final" else None

    def loops_state(self):
        out = []
        if not self.playing:
            return out
        ti = self.seats.index(self.first) if self.first in self.seats else 0
        for a in self.log:
            if a == NEXT or a == SKIP:
                ti = (ti + 1) % len(self.seats)
            elif a >= LOOP:
                v = a - LOOP
                loop = {"seat": self.seats[ti] + 1, "colour": COLOURS[v >> 16], "dots": (v >> 10) & 31,
                        "o": (v >> 5) & 31, "x": v & 31}
                if (v >> 15) & 1:
                    loop["none"] = True
                out.append(loop)
        return out

    # --- screens (coop_screens.py) -----------------------------------------------

    def set_screen(self, fb):
        KeeperGame.set_screen(self, fb)
        S.setup(self, fb)

    def motion(self, now):
        phase = self.phase
        if phase == "cards":
            return (now // 500) % 2  # the blinking A
        if phase == "scores":
            return ((now - self.since) // SCORES_PAGE_MS) % 7
        if self.width >= 16:
            return endings.final_blink(now - self.since) if phase == "final" else 0
        if phase == "turn" and self.choice_index:
            return 1 + ((now - self.since) // 80) % 250  # the action's word scrolls
        if phase == "final":
            t = now - self.since
            page = (t // endings.FINAL_PAGE_MS) % (len(self.seats) + 1)
            return page * 2 + endings.final_blink(t) if page < len(self.seats) else \
                64 + (now // 250) % 4  # the totals' blink; the winners' marching edges
        if phase == "turn":
            return (now // PAGE_MS) % (len(self.seats) + 1)  # the board's pages
        if phase == "loop_colour" or phase == "loop_for":
            return (now // 300) % 2  # the highlighted colour blinks
        return KeeperGame.motion(self, now)

    def draw_over(self, fb, now):
        S.draw_over(self, fb, now)

    def draw_entry(self, fb, now):
        S.draw_entry(self, fb, now)


Mode.HANDLERS.update({"cards": Mode.on_cards, "first_player": Mode.on_first_player, "scores": Mode.on_scores})
Mode.DRAWERS.update({"turn": S.draw_turn, "final": S.draw_final, "cards": S.draw_cards,
                     "first_player": S.draw_first_player, "loop_colour": S.draw_colour_choice,
                     "loop_for": S.draw_colour_choice, "scores": S.draw_scores})
