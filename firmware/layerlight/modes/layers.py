# Layers (2-4 players): six rounds of racing to build the mission pattern.
#
# Phases: join -> first_player -> (round_tile -> choose_deck -> race -> verify
# -> [steal] -> scores) x 6 -> final. Pure game state: time and button events
# come in as arguments; nothing here touches hardware or reads a clock.

from layerlight import buttons, screens
from layerlight.screens import Layout

ROUNDS = 6
LEVELS = (3, 4, 5)
FIRST_PLAYER_MS = 1800
TALLY_STEP_MS = 150
SOLUTION_STEP_MS = 800
LAST_SECONDS_MS = 5000

P_SEATS = (buttons.P1, buttons.P2, buttons.P3, buttons.P4)


class Mode:
    name = "layers"
    levels = LEVELS
    HANDLERS = {}  # phase -> handler, filled in below the class
    DRAWERS = {}   # phase -> screen

    def __init__(self, ctx, seats=None, first_player=None):
        self.ctx = ctx
        self.deck = ctx.deck
        self.rng = ctx.rng
        self.sound = ctx.sound
        self.timer_total = ctx.cfg["timer_s"] * 1000
        self.done = False
        self.phase = "join"
        self.round = 0
        self.seats = []
        self.joined = 0
        self.first = -1             # seat of this round's first player (-1: not drawn yet)
        self.scores = [0, 0, 0, 0]
        self.shown = [0, 0, 0, 0]   # scores as the tally animation shows them
        self.mission = None
        self.finish_order = []
        self.verdicts = []
        self.timer_end = None
        self.timer_left = None
        self.level = 0
        self.since = 0
        self.tile = None
        self.solution_from = -1     # when B was held to show the solution (-1: not shown)
        self.pending = []           # rewards still to give: (seat, reward)
        self.taker = -1             # the seat taking a point in the steal phase
        self.last_beep = 0
        self.colours = [screens.BACKGROUND_LED] + [(r << 16) | (g << 8) | b for r, g, b in self.deck.colours[1:]]
        self.layout = None
        self._stack = bytearray(self.deck.size * self.deck.size)
        self._stack_step = -1
        self._race_bg = None        # the race screen without the sand: drawn once per mission
        self._race_bg_key = -1
        self._shuffle_decks()
        self._setup()
        if seats is not None:
            self.seats = sorted(seats)
            for s in self.seats:
                self.joined |= 1 << s
            if first_player is not None and first_player >= 0:
                self.first = first_player
                self._start_round(0)
            else:
                self._draw_first(0)

    # --- set-up -------------------------------------------------------

    def _setup(self):
        """Per-game extras: the round tiles."""
        tiles = [list(t) for t in self.ctx.cfg["round_tiles"]]
        self.rng.shuffle(tiles)
        while len(tiles) < ROUNDS:
            tiles.append(tiles[len(tiles) % len(self.ctx.cfg["round_tiles"])])
        self.tiles = tiles

    def _shuffle_decks(self):
        self.piles = {}
        for level in self.levels:
            order = list(range(self.deck.level_count(level)))
            self.rng.shuffle(order)
            self.piles[level] = order

    def available_levels(self):
        return [lv for lv in self.levels if self.deck.level_count(lv) > 0]

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
            "tokens": None,
            "timer_ms": self.timer_left,
            "level": self.level if self.phase == "choose_deck" else None,
            "taker": self.taker + 1 if self.phase == "steal" else None,
            "verifying": self.finish_order[len(self.verdicts)] + 1 if self.phase == "verify" else None,
        }

    def round_tile_state(self):
        if self.tile is None or self.phase in ("join", "first_player", "final"):
            return None
        return self.tile[:len(self.seats)]

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
            self._start_round(now)
        elif self.phase == "race":
            self._race_clock(now)
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

    def on_first_player(self, kind, b, now):
        pass

    # --- a round --------------------------------------------------------

    def _start_round(self, now):
        self.round += 1
        if self.round > 1:
            i = self.seats.index(self.first)
            self.first = self.seats[(i + 1) % len(self.seats)]
        self.mission = None
        self.finish_order = []
        self.verdicts = []
        self.timer_end = None
        self.timer_left = None
        self.tile = self.tiles[self.round - 1]
        self.phase = "round_tile"
        self.since = now

    def on_round_tile(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A:
            self._choose_deck(now)

    def _choose_deck(self, now):
        self.phase = "choose_deck"
        levels = self.available_levels()
        if not levels:
            self.ctx.log("deck has no missions for " + self.name)
            self.sound.play("error", now)
            self.done = True
            return
        if self.level not in levels:
            self.level = levels[0]

    def on_choose_deck(self, kind, b, now):
        if kind != buttons.RELEASE:
            return
        levels = self.available_levels()
        if b == buttons.B:
            self.level = levels[(levels.index(self.level) + 1) % len(levels)]
        elif b == buttons.A:
            self.reveal(now)

    def reveal(self, now):
        pile = self.piles[self.level]
        if not pile:  # a small deck ran out: shuffle that level again
            pile.extend(range(self.deck.level_count(self.level)))
            self.rng.shuffle(pile)
        self.mission = self.deck.level_mission(self.level, pile.pop())
        self.phase = "race"
        self.since = now
        self.sound.play("reveal", now)

    def race_press(self, seat, now):
        if seat not in self.seats or seat in self.finish_order:
            self.sound.play("tick", now)
            return
        self.finish_order.append(seat)
        self.sound.play("finish", now)
        if self.timer_end is None:
            self.timer_end = now + self.timer_total
            self.timer_left = self.timer_total
            self.last_beep = self.timer_end - LAST_SECONDS_MS
        if len(self.finish_order) == len(self.seats):
            self.end_race(now)

    def _race_clock(self, now):
        if self.timer_end is None:
            return
        self.timer_left = max(0, self.timer_end - now)
        if self.timer_left == 0:
            self.sound.play("timeout", now)
            self.end_race(now)
        elif now >= self.last_beep:
            self.sound.play("beep", now)
            self.last_beep += 1000

    def on_race(self, kind, b, now):
        # Nobody can make it and nobody has pressed: hold B to give the mission up.
        if kind == buttons.HOLD and b == buttons.B and not self.finish_order:
            self.sound.play("wrong", now)
            self.end_race(now)

    def end_race(self, now):
        self.timer_end = None
        self.timer_left = None
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

    # --- rewards --------------------------------------------------------

    def give_rewards(self, now):
        """Correct finishers, in finishing order, take the places of the round tile."""
        correct = [s for s, ok in zip(self.finish_order, self.verdicts) if ok]
        self.pending = []
        for place in range(min(len(correct), len(self.seats))):
            self.pending.append((correct[place], self.tile[place]))
        self._next_reward(now)

    def _next_reward(self, now):
        while self.pending:
            seat, reward = self.pending.pop(0)
            if reward == "M":
                self.scores[seat] += self.mission.level
            elif reward == "S":
                if self.steal_targets(seat):
                    self.taker = seat
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
            self.scores[seat] -= 1
            self.scores[self.taker] += 1
            self.sound.play("steal", now)
            self._next_reward(now)
        else:
            self.sound.play("refused", now)

    def on_steal(self, kind, b, now):
        pass

    def on_scores(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A:
            self.shown = list(self.scores)
            if self.round >= ROUNDS:
                self.phase = "final"
                self.mission = None
                self.tile = None
                self.sound.play("fanfare", now)
            else:
                self._start_round(now)

    def winners(self):
        best = max(self.scores[s] for s in self.seats)
        return [s for s in self.seats if self.scores[s] == best]

    def on_final(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A:
            self.done = True

    # --- screens ----------------------------------------------------------

    def set_screen(self, fb):
        """The frame buffer this mode will draw into; layouts are computed for it."""
        self.layout = Layout(fb.width, fb.height, self.deck.size, fb)
        self._race_bg = bytearray(len(fb.buf))
        self._race_bg_key = -1

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

    def draw_round_tile(self, fb, now):
        screens.round_tile(fb, self.tile, len(self.seats), self.round, now)

    def draw_choose_deck(self, fb, now):
        screens.choose_deck(fb, self.level, self.available_levels(), self.first, now)

    def draw_race(self, fb, now):
        # The pattern and finish markers change only on a press: keep them in a
        # background copy and restore it with one slice copy; only the sand is
        # drawn every frame.
        key = (self.mission.id * 8 + len(self.finish_order)) * 1024 + fb.generation % 1024
        if key != self._race_bg_key:
            fb.clear()
            screens.pattern(fb, self.layout, self.mission.pattern, self.colours)
            screens.finish_markers(fb, self.finish_order)
            self.layout.mark_busy(fb)
            self._race_bg[:] = fb.buf
            self._race_bg_key = key
        else:
            fb.buf[:] = self._race_bg
        if self.timer_left is not None:
            screens.timer_ring(fb, self.layout, self.timer_left, self.timer_total, now)

    def draw_verify(self, fb, now):
        if self.solution_from >= 0:
            self.draw_solution(fb, now)
            return
        screens.pattern(fb, self.layout, self.mission.pattern, self.colours)
        seat = self.finish_order[len(self.verdicts)]
        screens.seat_spotlight(fb, seat, now)

    def draw_solution(self, fb, now):
        """The solution stacking up one layer at a time, bottom first, then the whole for a beat."""
        sol = self.mission.solution
        step = ((now - self.solution_from) // SOLUTION_STEP_MS) % (len(sol) + 1)
        if step != self._stack_step:
            self._stack_step = step
            out = self._stack
            for i in range(len(out)):
                out[i] = 0
            for li, o in sol[:step + 1]:
                g = self.deck.layers[li].grid(o)
                for i in range(len(out)):
                    if g[i]:
                        out[i] = g[i]
        screens.pattern(fb, self.layout, self._stack, self.colours)
        for k in range(step + 1):
            fb.pixel(1 + 2 * k, 0, screens.WHITE)

    def draw_steal(self, fb, now):
        screens.scores(fb, self.seats, self.scores, now, self.taker)
        screens.seat_spotlight(fb, self.taker, now)
        for s in self.steal_targets(self.taker):
            screens.side_bar(fb, s, screens.SEAT_COLOURS[s] if (now // 150) % 2 else 0, 2)

    def draw_scores(self, fb, now):
        screens.scores(fb, self.seats, self.shown, now)

    def draw_final(self, fb, now):
        screens.scores(fb, self.seats, self.scores, now)
        for s in self.winners():
            screens.seat_spotlight(fb, s, now)


# Phase -> handler and phase -> screen, looked up without allocating.
Mode.HANDLERS.update({
    "join": Mode.on_join, "first_player": Mode.on_first_player, "round_tile": Mode.on_round_tile,
    "choose_deck": Mode.on_choose_deck, "race": Mode.on_race, "verify": Mode.on_verify,
    "steal": Mode.on_steal, "scores": Mode.on_scores, "final": Mode.on_final,
})
Mode.DRAWERS.update({
    "join": Mode.draw_join, "first_player": Mode.draw_first_player, "round_tile": Mode.draw_round_tile,
    "choose_deck": Mode.draw_choose_deck, "race": Mode.draw_race, "verify": Mode.draw_verify,
    "steal": Mode.draw_steal, "scores": Mode.draw_scores, "final": Mode.draw_final,
})
