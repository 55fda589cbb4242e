# The flow shared by the racing games at the table (Layers, Layers+):
# join -> first_player -> rounds of [round_tile] -> choose_deck -> race ->
# verify -> [steal] -> scores, then final. A game module subclasses TableGame
# and fills in what differs: levels, what a press takes, how rewards are given.
#
# Pure game state: time and button events come in as arguments; nothing here
# touches hardware, files or a clock. What must survive a power cut is listed
# in PERSIST; the device saves snapshot() whenever `dirty` is set.
#
# Undo (the pause menu's UNDO): a round's rewards are a pure function of the
# scores when it began, the finish order, the verdicts, the tile or tokens and
# the steals chosen. So the round keeps its starting scores and its steals,
# and taking back the last verdict or steal is "drop it and work the rewards
# out again". Once A leaves the round's scores, the round is settled.

from layerlight import buttons, endings, mission_screens, screens
from layerlight.modes.base import MissionGame

ROUNDS = 6
FIRST_PLAYER_MS = 1800
TALLY_STEP_MS = 150
LAST_SECONDS_MS = 5000
RESUME_MIN_MS = 10000  # a race resumed after a power cut gets at least this much time


class TableGame(MissionGame):
    name = "table"
    levels = (3, 4, 5)
    first_phase = "join"
    round_tiles = False
    beep_window = LAST_SECONDS_MS  # the timer beeps every second in its last part
    HANDLERS = {}  # phase -> handler, filled in below the class
    DRAWERS = {}   # phase -> screen
    # what a saved game holds (plus the time left on a running timer)
    PERSIST = ("phase", "round", "seats", "joined", "first", "scores", "finish_order", "verdicts",
               "level", "mission_ref", "piles", "pending", "taker", "tiles", "tokens_left",
               "scores_before", "steals")

    def __init__(self, ctx, seats=None, first_player=None, saved=None):
        MissionGame.__init__(self, ctx)
        self.timer_total = ctx.cfg["timer_s"] * 1000
        self.round = 0
        self.seats = []
        self.joined = 0
        self.first = -1             # seat of this round's first player (-1: not drawn yet)
        self.scores = [0, 0, 0, 0]
        self.shown = [0, 0, 0, 0]   # scores as the tally animation shows them
        self.finish_order = []
        self.verdicts = []
        self.timer_end = -1         # game time when the running timer ends (-1: none)
        self.timer_left = None
        self.timer_length = 0
        self.tiles = []
        self.tile = None
        self.tokens_left = []
        self.pending = []           # rewards still to give: [seat, reward]
        self.taker = -1             # the seat taking a point in the steal phase
        self.scores_before = [0, 0, 0, 0]  # the scores when this round began ([]: unknown)
        self.steals = []            # the seats stolen from this round, in order
        self.steals_to_replay = []  # while rewards are worked out again: the steals already chosen
        self._pattern_bg = None     # the mission alone: drawn once per mission
        self._pattern_bg_key = -1
        self._race_bg = None        # the mission and finish markers: redrawn after each press
        self._race_bg_key = -1
        self._final_generation = -1
        self.final_since = 0        # when the game ended (the final's blink and pages run from it)
        self.configure()
        if saved is not None:
            self.restore(saved)
            return
        self.shuffle_decks()
        self.setup()
        if seats is not None:
            self.seats = sorted(seats)
            for s in self.seats:
                self.joined |= 1 << s
            if first_player is not None and first_player >= 0:
                self.first = first_player
                self.start_round(0)
            else:
                self._draw_first(0)

    # --- set-up and saving ----------------------------------------------

    def configure(self):
        """What a game takes from the settings, a new one and a resumed one alike (Layers+'s
        countdown): a subclass fills this in."""

    def setup(self):
        """Per-game extras drawn once for a new game (round tiles...; a resumed game has them
        from its save): a subclass fills this in."""

    def snapshot(self):
        snap = MissionGame.snapshot(self)
        snap["timer_left"] = self.timer_left
        snap["timer_length"] = self.timer_length
        return snap

    def restore(self, snap):
        """Back to a snapshot. A race is saved at its reveal and at its end only, so a
        race cut short comes back from its reveal: same mission, no presses, no sand.
        A game saved mid-race by an older firmware (with its sand's checkpoint) gets the
        time that was left, never less than RESUME_MIN_MS."""
        MissionGame.restore(self, snap)
        if "scores_before" not in snap:  # saved by a firmware without undo: this round cannot be undone
            self.scores_before = []
        self.shown = list(self.scores)
        if self.round_tiles and self.round >= 1 and self.phase not in ("join", "first_player", "final"):
            self.tile = self.tiles[self.round - 1]
        left = snap.get("timer_left")
        # the race's own length, whatever TIMER says now (a save without it: long enough)
        self.timer_length = snap.get("timer_length") or max(self.timer_total, left or 0)
        if left is not None:
            left = min(left, self.timer_length)
            self.resume_left = max(left, min(RESUME_MIN_MS, self.timer_length))
        else:
            self.resume_left = None
        self.timer_left = None
        self.timer_end = -1

    def resumed(self, now):
        """Called once when a restored game starts running again at game time `now`."""
        if self.resume_left is not None:
            self.start_timer(now, self.resume_left, self.timer_length)
        self.since = now

    # --- the protocol ---------------------------------------------------

    def state(self):
        return {
            "game": self.name,
            "phase": self.phase,
            "round": self.round or None,
            "players": len(self.seats),
            "seats": [s + 1 for s in self.seats],
            "first_player": None if self.first < 0 else self.first + 1,
            "scores": [self.scores[s] for s in self.seats],
            "mission": None if self.mission is None else {"id": self.mission.id, "level": self.mission.level},
            "finish_order": [s + 1 for s in self.finish_order],
            "round_tile": self.round_tile_state(),
            "tokens": self.tokens_state(),
            "timer_ms": self.timer_left,
            "level": self.level if self.phase == "choose_deck" else None,
            "taker": self.taker + 1 if self.phase == "steal" else None,
            "verifying": self.finish_order[len(self.verdicts)] + 1 if self.phase == "verify" else None,
        }

    def round_tile_state(self):
        return None

    def tokens_state(self):
        return None

    def handle(self, ev, now):
        kind = buttons.kind_of(ev)
        b = buttons.button_of(ev)
        if kind == buttons.PRESS and b != buttons.A and b != buttons.B:
            self.seat_pressed(b, now)
            return
        if kind == buttons.PRESS:
            self.sound.play("tick", now)  # every press answers at once
            return
        self.HANDLERS[self.phase](self, kind, b, now)

    def tick(self, now):
        if self.phase == "first_player" and now - self.since >= FIRST_PLAYER_MS:
            self.start_round(now)
        elif self.phase == "race":
            self.race_clock(now)
        for s in range(4):
            if self.shown[s] != self.scores[s] and now - self.since >= TALLY_STEP_MS:
                self.shown[s] += 1 if self.scores[s] > self.shown[s] else -1
                self.since = now
                self.sound.play("tick", now)

    def draw(self, fb, now):
        if self.phase != "race":
            fb.clear()
        # a dict of plain functions: no bound method or name string is made per frame
        self.DRAWERS[self.phase](self, fb, now)

    def show_scores(self, now):
        """The pause menu's SCORES: the tally screen until A."""
        if self.phase in ("round_tile", "choose_deck"):
            self.scores_then = self.phase
            self.phase = "scores"

    # --- seats and buttons ----------------------------------------------

    def seat_pressed(self, seat, now):
        if self.phase == "join":
            self.joined ^= 1 << seat
            self.seats = [s for s in range(4) if self.joined & (1 << s)]
            self.sound.play("join" if self.joined & (1 << seat) else "tick", now)
        elif self.phase == "race":
            self.race_press(seat, now)
        elif self.phase == "steal":
            self.steal_from(seat, now)
        elif self.phase == "verify" and seat in self.seats and seat not in self.finish_order:
            self.sound.play("refused", now)  # too late: the race is over
        else:
            self.sound.play("tick", now)

    def on_join(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A:
            if len(self.seats) >= 2:
                self._draw_first(now)
            else:
                self.sound.play("refused", now)

    def _draw_first(self, now):
        self.first = self.seats[self.rng.below(len(self.seats))]
        self.phase = "first_player"
        self.since = now
        self.sound.play("reveal", now)

    def on_nothing(self, kind, b, now):
        pass

    # --- a round --------------------------------------------------------

    def start_round(self, now):
        self.round += 1
        if self.round > 1:
            i = self.seats.index(self.first)
            self.first = self.seats[(i + 1) % len(self.seats)]
        self.mission = None
        self.mission_ref = None
        self.finish_order = []
        self.verdicts = []
        self.scores_before = list(self.scores)
        self.steals = []
        self.stop_timer()
        self.since = now
        self.round_started(now)
        self.changed()

    def round_started(self, now):
        """What a round shows first: a subclass with round tiles shows the tile."""
        self.choose_deck(now)

    def choose_deck(self, now):
        self.phase = "choose_deck"
        levels = self.available_levels()
        if not levels:
            self.ctx.log("deck has no missions for " + self.name)
            self.sound.play("error", now)
            self.done = True
            return
        if self.level not in levels:
            self.level = levels[0]

    def reveal(self, now):
        self.draw_mission(self.level)
        self.phase = "race"
        self.since = now
        self.race_started(now)
        self.sound.play("reveal", now)
        self.changed()

    def race_started(self, now):
        """Set-up at the start of a race (tokens...)."""

    def start_timer(self, now, left, length):
        self.timer_end = now + left
        self.timer_left = left
        self.timer_length = length
        self.last_beep = self.timer_end - self.beep_window
        while self.last_beep < now:
            self.last_beep += 1000

    def stop_timer(self):
        self.timer_end = -1
        self.timer_left = None

    def race_press(self, seat, now):
        if seat not in self.seats or seat in self.finish_order:
            self.sound.play("tick", now)
            return
        self.finish_order.append(seat)
        self.sound.play("finish", now)
        self.pressed(seat, now)
        # No save while the race runs (a flash write stops the chip; docs/device.md,
        # "Power cuts"): the presses are saved once the race ends, and a
        # power cut before that resumes the race from its reveal's save.
        if len(self.finish_order) == len(self.seats):
            self.end_race(now)
            self.changed()

    def pressed(self, seat, now):
        """A seat finished; Layers starts the sand on the first press."""
        if self.timer_end < 0:
            self.start_timer(now, self.timer_total, self.timer_total)

    def race_clock(self, now):
        if self.timer_end < 0:
            return
        left = max(0, self.timer_end - now)
        self.timer_left = left  # in RAM only: the race is saved when it ends
        if left == 0:
            self.sound.play("timeout", now)
            self.end_race(now)
            self.changed()
        elif now >= self.last_beep:
            self.sound.play("beep", now)
            self.last_beep += 1000

    def on_race(self, kind, b, now):
        # Nobody can make it and nobody has pressed: hold B to give the mission up.
        if kind == buttons.HOLD and b == buttons.B and not self.finish_order:
            self.sound.play("wrong", now)
            self.end_race(now)
            self.changed()

    def end_race(self, now):
        self.stop_timer()
        self.solution_from = -1
        if self.finish_order:
            self.phase = "verify"
        else:
            self.give_rewards(now)

    def on_verify(self, kind, b, now):
        if b == buttons.B and kind == buttons.HOLD:
            self.solution_from = now
            return
        if b == buttons.B and kind == buttons.HELD_UP:
            self.solution_from = -1
            return
        if kind != buttons.RELEASE or b not in (buttons.A, buttons.B):
            return
        ok = b == buttons.A
        self.verdicts.append(ok)
        self.sound.play("ok" if ok else "wrong", now)
        if len(self.verdicts) == len(self.finish_order):
            self.give_rewards(now)
        self.changed()

    # --- rewards --------------------------------------------------------

    def correct_finishers(self):
        return [s for s, ok in zip(self.finish_order, self.verdicts) if ok]

    def give_rewards(self, now):
        """Rewards for the correct finishers: a subclass says what they are."""
        self.pending = []
        self.next_reward(now)

    def next_reward(self, now):
        while self.pending:
            seat, reward = self.pending.pop(0)
            if reward == "M":
                self.scores[seat] += self.mission.level
            elif reward == "S":
                if self.steal_targets(seat):
                    self.taker = seat
                    if self.steals_to_replay:  # chosen before an undo: taken again
                        self.steal(self.steals_to_replay.pop(0))
                        continue
                    self.phase = "steal"
                    return
                self.ctx.log("P%d: nobody has a point to take" % (seat + 1))
            else:
                self.scores[seat] += reward
        self.taker = -1
        self.phase = "scores"
        self.since = now

    def steal_targets(self, taker):
        return [s for s in self.seats if s != taker and self.scores[s] >= 1]

    def steal_from(self, seat, now):
        if seat in self.steal_targets(self.taker):
            self.steal(seat)
            self.sound.play("steal", now)
            self.next_reward(now)
            self.changed()
        else:
            self.sound.play("refused", now)

    def steal(self, victim):
        self.scores[victim] -= 1
        self.scores[self.taker] += 1
        self.steals.append(victim)

    # --- undo (the pause menu) --------------------------------------------

    def can_undo(self):
        """True while this round has a verdict or a steal to take back."""
        return (bool(self.scores_before and (self.verdicts or self.steals))
                and self.phase in ("verify", "steal", "scores"))

    def undo(self, now):
        """Take back the last verdict or steal of this round; the rewards are worked
        out again from the round's starting scores and the tally counts back."""
        if not self.can_undo():
            return
        self.scores = list(self.scores_before)
        if self.steals:
            # the steals before it are taken again (all of them: the replay stops
            # at the undone one), and that taker chooses anew
            self.steals_to_replay = self.steals[:-1]
            self.steals = []
            self.give_rewards(now)
        else:
            # the verdict goes back: that finisher is verified again, nobody has a reward yet
            self.verdicts.pop()
            self.pending = []
            self.end_race(now)
        self.since = now
        self.sound.play("wrong", now)
        self.changed()

    def on_scores(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A:
            self.shown = list(self.scores)
            back = getattr(self, "scores_then", None)
            if back:  # only looking at the scores from the pause menu
                self.scores_then = None
                self.phase = back
            elif self.round >= ROUNDS:
                self.phase = "final"
                self.final_since = now
                self.mission = None
                self.mission_ref = None
                self.tile = None
                self.sound.play("fanfare", now)
                self.changed()
            else:
                self.start_round(now)

    def winners(self):
        best = max(self.scores[s] for s in self.seats)
        return [s for s in self.seats if self.scores[s] == best]

    def on_final(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A:
            self.done = True

    # --- screens ----------------------------------------------------------

    def set_screen(self, fb):
        MissionGame.set_screen(self, fb)
        self._pattern_bg = bytearray(len(fb.buf))
        self._pattern_bg_key = -1
        self._race_bg = bytearray(len(fb.buf))
        self._race_bg_key = -1      # below 0: the buffer holds the tally (draw_tally) or a round tile

    def draw_join(self, fb, now):
        screens.join(fb, self.joined, now)

    def draw_first_player(self, fb, now):
        # spin around the seats, slowing down, and land on the drawn one
        t = now - self.since
        if t < FIRST_PLAYER_MS - 600:
            k = self.seats.index(self.first) + (t * t) // 90000
            screens.seat_spotlight(fb, self.seats[k % len(self.seats)], now, False)
        else:
            screens.first_player(fb, self.first, now)

    def draw_choose_deck(self, fb, now):
        mission_screens.choose_deck(fb, self.level, self.available_levels(), self.first, now)

    def draw_race(self, fb, now):
        # Two cached backgrounds, restored with one slice copy (a memcpy): the
        # mission (drawn once when it is revealed) and the mission with the
        # finish markers (redrawn on a press). Only the sand is drawn every frame.
        key = self.mission.id * 1024 + fb.generation % 1024
        if key != self._pattern_bg_key:
            fb.clear()
            mission_screens.pattern(fb, self.layout, self.mission.pattern, self.colours)
            self._pattern_bg[:] = fb.buf
            self._pattern_bg_key = key
        key = key * 8 + len(self.finish_order)
        if key != self._race_bg_key:
            fb.buf[:] = self._pattern_bg
            self.draw_race_marks(fb)
            self.layout.mark_busy(fb)
            self._race_bg[:] = fb.buf
            self._race_bg_key = key
        else:
            fb.buf[:] = self._race_bg
        if self.timer_left is not None:
            screens.timer_ring(fb, self.layout, self.timer_left, self.timer_length, now)

    def draw_race_marks(self, fb):
        mission_screens.finish_markers(fb, self.finish_order)

    def draw_verify(self, fb, now):
        if self.solution_from >= 0:
            self.draw_solution(fb, now)
            return
        if self.shown != self.scores:  # only after an undo: the rewards count back first
            screens.scores(fb, self.seats, self.shown, now)
            screens.seat_spotlight(fb, self.finish_order[len(self.verdicts)], now)
            return
        mission_screens.pattern(fb, self.layout, self.mission.pattern, self.colours)
        seat = self.finish_order[len(self.verdicts)]
        screens.seat_spotlight(fb, seat, now)

    def draw_tally(self, fb, now):
        """Every seat's score as the tally shows it (screens.scores). Outside the race its
        marker background is free: the picture is kept in that buffer and copied back until
        a score changes (four turned numbers cost about 4.5 ms on an RP2040 each frame)."""
        shown = self.shown
        if fb.width < 16:  # one seat at a time, turning with the clock: nothing to keep
            screens.scores(fb, self.seats, shown, now)
            return
        # a small int (race scores stay below 100), below 0 and -1: never a race background's key
        key = -2 - ((((shown[0] * 100 + shown[1]) * 100 + shown[2]) * 100 + shown[3]) * 4 + fb.generation % 4)
        if key != self._race_bg_key:
            screens.scores(fb, self.seats, shown, now)
            self._race_bg[:] = fb.buf
            self._race_bg_key = key
        else:
            fb.buf[:] = self._race_bg

    def draw_steal(self, fb, now):
        # the shown tally: the rewards before this steal (or an undone steal) count up or back
        if fb.width < 16:
            screens.scores(fb, self.seats, self.shown, now, self.taker)
        else:
            self.draw_tally(fb, now)  # the taker is told by its blinking edge, its number kept still
        screens.seat_spotlight(fb, self.taker, now)
        for s in self.seats:  # the seats steal_targets() names, without making its list per frame
            if s != self.taker and self.scores[s] >= 1:
                screens.side_bar(fb, s, screens.SEAT_COLOURS[s] if (now // 150) % 2 else 0, 2)

    def draw_scores(self, fb, now):
        self.draw_tally(fb, now)

    def draw_final(self, fb, now):
        """The end (endings.final_board): each seat's score facing it, the winners' blinking
        between their colour and white, the chequered flag in the middle. On 16x16 and up its
        two pictures are drawn once each into the race's free backgrounds and copied back."""
        if self.shown != self.scores:  # the last rewards are still counting up: the real scores
            screens.scores(fb, self.seats, self.scores, now)
            return
        wins = self.win_bits()
        t = now - self.final_since
        if fb.width < 16:
            endings.final_board(fb, self.seats, self.shown, wins, t, now)
            return
        blink = endings.final_blink(t)
        buf = self._race_bg if blink else self._pattern_bg
        # a key no race background or tally ever has (theirs are ints); a new cap redraws
        key = "final on" if blink else "final off"
        if fb.generation != self._final_generation:
            self._final_generation = fb.generation
            self._race_bg_key = self._pattern_bg_key = -1
        if (self._race_bg_key if blink else self._pattern_bg_key) != key:
            endings.final_board(fb, self.seats, self.shown, wins, t, now)
            buf[:] = fb.buf
            if blink:
                self._race_bg_key = key
            else:
                self._pattern_bg_key = key
        else:
            fb.buf[:] = buf

    def win_bits(self):
        """The winners as bits (seat s: bit s), worked out without a list: drawing allocates nothing."""
        best = self.scores[self.seats[0]]
        for s in self.seats:
            best = max(best, self.scores[s])
        bits = 0
        for s in self.seats:
            if self.scores[s] == best:
                bits |= 1 << s
        return bits


# Phase -> handler and phase -> screen, looked up without allocating.
TableGame.HANDLERS.update({
    "join": TableGame.on_join, "first_player": TableGame.on_nothing, "choose_deck": TableGame.on_choose_deck,
    "race": TableGame.on_race, "verify": TableGame.on_verify, "steal": TableGame.on_nothing,
    "scores": TableGame.on_scores, "final": TableGame.on_final,
})
TableGame.DRAWERS.update({
    "join": TableGame.draw_join, "first_player": TableGame.draw_first_player,
    "choose_deck": TableGame.draw_choose_deck, "race": TableGame.draw_race, "verify": TableGame.draw_verify,
    "steal": TableGame.draw_steal, "scores": TableGame.draw_scores, "final": TableGame.draw_final,
})
