# Time attack (solo): as many missions as possible before the clock runs out.
#
# A starts the clock (3:00, a setting). Pick a deck (B cycles the level and A
# reveals, or P1..P4 pick levels 2..5 directly where that deck exists). A scores
# the mission when it is made (hold B first to see the solution and check);
# a short B skips it. When the clock ends, a mission in progress does not
# count. Score = sum of the levels done; the rating comes from the Layers+
# table; the personal best of each variant is kept on flash by the device.
#
# UNDO in the pause menu takes back the last mission scored (one per UNDO, as
# far back as the first): its level comes off the score, the count of missions
# done goes down, and the mission goes back on top of its pile, so picking that
# level again shows it again. At the result a best it had made is taken back too.

from layerlight import buttons, font, mission_screens, screens
from layerlight.modes.base import MissionGame

RATINGS = ((10, "TRY HARDER!"), (20, "NOT BAD, YOU COULD DO BETTER"), (30, "THAT WAS PRETTY GOOD"),
           (40, "GREAT RESULT!"), (50, "IMPRESSIVE!"), (1 << 30, "WHAT A GENIUS!"))
LAST_SECONDS_MS = 5000
RESUME_MIN_MS = 10000
CHECKPOINT_MS = 10000  # the clock is saved this often, so a resume is fair
TALLY_STEP_MS = 150    # an undone mission's points count off one by one
UNDO_SHOW_MS = 1200    # how long the score is on show after an undo


def rating(score):
    """The Layers+ rulebook's verdict on a time-attack score."""
    for top, words in RATINGS:
        if score <= top:
            return words
    return RATINGS[-1][1]


class Mode(MissionGame):
    name = "time-attack"
    levels = (3, 4, 5)
    first_phase = "ready"
    HANDLERS = {}
    DRAWERS = {}
    PERSIST = ("phase", "score", "done_count", "level", "mission_ref", "piles", "best_before", "scored")

    def __init__(self, ctx, seats=None, first_player=None, saved=None):
        MissionGame.__init__(self, ctx)
        self.clock_total = ctx.cfg["attack_s"] * 1000
        self.score = 0
        self.done_count = 0
        levels = self.available_levels()
        self.level = levels[0] if levels else 0
        self.clock_end = -1
        self.clock_left = None
        self.best_before = ctx.bests.get(self.name, 0)
        self.new_best = False
        self.scored = []            # [level, position] of each mission scored, oldest first (for undo)
        self.shown_score = 0        # the score as shown (counts down after an undo)
        self.tally_at = 0
        self.undo_at = -1           # game time of the last undo (-1: none)
        if saved is not None:
            self.restore(saved)
            return
        self.shuffle_decks()

    # --- saving -----------------------------------------------------------

    def snapshot(self):
        snap = MissionGame.snapshot(self)
        snap["clock_left"] = self.clock_left
        snap["clock_total"] = self.clock_total  # the attack's own length: ATTACK may change before a resume
        return snap

    def restore(self, snap):
        """Back to a snapshot; the clock goes on with what was left at the last save."""
        MissionGame.restore(self, snap)
        self.shown_score = self.score
        left = snap.get("clock_left")
        # the attack goes on as it began, whatever ATTACK says now (a save from before
        # clock_total was kept: long enough for what was left)
        self.clock_total = snap.get("clock_total") or max(self.clock_total, left or 0)
        if left is not None:
            left = min(left, self.clock_total)
        self.resume_left = None if left is None else max(left, min(RESUME_MIN_MS, self.clock_total))

    def resumed(self, now):
        if self.resume_left is not None and self.phase in ("choose_deck", "solve"):
            self._start_clock(now, self.resume_left)

    # --- the protocol -------------------------------------------------------

    def result_detail(self):
        """The play log's breakdown: missions solved, the rating, a new best."""
        return {"missions": self.done_count, "rating": rating(self.score), "new_best": self.new_best,
                "levels": [ref[0] for ref in self.scored]}

    def rounds_played(self):
        return self.done_count

    def state(self):
        return {
            "game": self.name, "phase": self.phase, "round": None, "players": 1, "seats": [1],
            "first_player": None, "scores": [self.score],
            "mission": None if self.mission is None else {"id": self.mission.id, "level": self.mission.level},
            "finish_order": [], "round_tile": None, "tokens": None, "timer_ms": self.clock_left,
            "level": self.level if self.phase == "choose_deck" else None,
            "missions_done": self.done_count,
            "rating": rating(self.score) if self.phase == "result" else None,
            "best": max(self.best_before, self.score) if self.phase == "result" else self.best_before,
            "new_best": self.new_best,
        }

    def handle(self, ev, now):
        kind = buttons.kind_of(ev)
        b = buttons.button_of(ev)
        if kind == buttons.PRESS:
            if b == buttons.A or b == buttons.B:
                self.sound.play("tick", now)
            elif self.phase == "choose_deck":
                self.pick_level(2 + b, now)  # P1..P4 pick levels 2..5 directly
            else:
                self.sound.play("tick", now)
            return
        self.HANDLERS[self.phase](self, kind, b, now)

    def tick(self, now):
        if self.shown_score != self.score and now - self.tally_at >= TALLY_STEP_MS:
            self.shown_score += 1 if self.score > self.shown_score else -1
            self.tally_at = now
            self.sound.play("tick", now)
        if self.clock_end < 0:
            return
        left = max(0, self.clock_end - now)
        if left // CHECKPOINT_MS != self.clock_left // CHECKPOINT_MS:
            self.dirty = True
        self.clock_left = left
        if left == 0:
            self.time_up(now)
        elif now >= self.last_beep:
            self.sound.play("beep", now)
            self.last_beep += 1000

    def draw(self, fb, now):
        fb.clear()
        self.DRAWERS[self.phase](self, fb, now)

    # --- play -------------------------------------------------------------

    def _start_clock(self, now, left):
        self.clock_end = now + left
        self.clock_left = left
        self.last_beep = self.clock_end - LAST_SECONDS_MS
        while self.last_beep < now:
            self.last_beep += 1000

    def on_ready(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A and self.available_levels():
            self._start_clock(now, self.clock_total)
            self.phase = "choose_deck"
            self.sound.play("reveal", now)
            self.dirty = True

    def pick_level(self, level, now):
        if level in self.available_levels():
            self.level = level
            self.reveal(now)
        else:
            self.sound.play("refused", now)

    def reveal(self, now):
        self.draw_mission(self.level)
        self.phase = "solve"
        self.solution_from = -1
        self.sound.play("reveal", now)
        self.dirty = True

    def on_solve(self, kind, b, now):
        if b == buttons.B and kind == buttons.HOLD:
            self.solution_from = now
        elif b == buttons.B and kind == buttons.HELD_UP:
            self.solution_from = -1
        elif kind == buttons.RELEASE and b == buttons.A:
            self.score += self.mission.level
            self.shown_score = self.score
            self.done_count += 1
            self.scored.append(self.mission_ref)
            self.sound.play("ok", now)
            self._next(now)
        elif kind == buttons.RELEASE and b == buttons.B:
            self.sound.play("wrong", now)  # skipped: no points
            self._next(now)

    def _next(self, now):
        self.mission = None
        self.mission_ref = None
        self.phase = "choose_deck"
        levels = self.available_levels()
        if self.level not in levels:  # that level's pile ran out
            self.level = levels[0]
        self.dirty = True

    def time_up(self, now):
        """The clock ran out: a mission in progress does not count."""
        self.clock_end = -1
        self.clock_left = 0
        self.mission = None
        self.mission_ref = None
        self.phase = "result"
        self.since = now
        if self.score > self.best_before:
            self.new_best = True
            self.ctx.bests[self.name] = self.score
            self.outbox.append(("bests.json", self.ctx.bests))
            self.sound.play("fanfare", now)
        else:
            self.sound.play("timeout", now)
        self.dirty = True

    # --- undo (the pause menu) ----------------------------------------------

    def can_undo(self):
        """True when a scored mission can be taken back (while the clock runs, or at the result)."""
        return bool(self.scored) and self.phase in ("choose_deck", "solve", "result")

    def undo(self, now):
        """Take back the last mission scored; the score counts back on the matrix."""
        if not self.can_undo():
            self.sound.play("refused", now)
            return
        level, position = self.scored.pop()
        self.score -= level
        self.done_count -= 1
        pile = self.piles[str(level)]
        if position in pile:  # the piles were shuffled again since: no mission twice
            pile.remove(position)
        pile.append(position)  # the top of the pile: drawn next from that level
        if self.phase == "choose_deck":
            self.level = level  # A shows it again
        elif self.phase == "result" and self.new_best:
            self.new_best = self.score > self.best_before
            if self.new_best:
                self.ctx.bests[self.name] = self.score
            elif self.best_before:
                self.ctx.bests[self.name] = self.best_before
            else:
                self.ctx.bests.pop(self.name, None)
            self.outbox.append(("bests.json", self.ctx.bests))
        self.undo_at = now
        self.tally_at = now
        self.sound.play("wrong", now)
        self.dirty = True

    def on_result(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A:
            self.done = True

    # --- screens ------------------------------------------------------------

    def draw_clock(self, fb, now):
        if self.clock_left is not None:
            screens.timer_ring(fb, self.layout, self.clock_left, self.clock_total, now)

    def draw_ready(self, fb, now):
        w, h = fb.width, fb.height
        font.draw_text(fb, "GO", (w - font.text_width("GO")) // 2, 2, screens.WHITE if (now // 500) % 2 else screens.DIM)
        if self.best_before:
            font.draw_number(fb, self.best_before, 1, h - 6, screens.RING)

    def draw_undone(self, fb, now):
        """Just after an undo: the score, counting back, instead of the play screen."""
        if self.undo_at < 0 or (self.shown_score == self.score and now - self.undo_at >= UNDO_SHOW_MS):
            return False
        font.draw_number(fb, self.shown_score, 1, 1, screens.WHITE, 0, 2 if fb.width >= 16 else 1)
        self.draw_clock(fb, now)
        return True

    def draw_choose_deck(self, fb, now):
        if self.draw_undone(fb, now):
            return
        mission_screens.choose_deck(fb, self.level, self.available_levels(), 0, now)
        self.draw_clock(fb, now)

    def draw_solve(self, fb, now):
        if self.draw_undone(fb, now):
            return
        if self.solution_from >= 0:
            self.draw_solution(fb, now)
        else:
            mission_screens.pattern(fb, self.layout, self.mission.pattern, self.colours)
        self.draw_clock(fb, now)

    def draw_result(self, fb, now):
        w, h = fb.width, fb.height
        colour = screens.SEAT_COLOURS[3] if self.new_best and (now // 300) % 2 else screens.WHITE
        font.draw_number(fb, self.shown_score, 1, 1, colour, 0, 2 if w >= 16 else 1)
        words = rating(self.score)
        span = font.text_width(words) + w
        font.draw_scrolling(fb, words, h - 6, screens.RING, ((now - self.since) // 90) % span - w)


Mode.HANDLERS.update({"ready": Mode.on_ready, "choose_deck": Mode.on_choose_deck, "solve": Mode.on_solve,
                      "result": Mode.on_result})
Mode.DRAWERS.update({"ready": Mode.draw_ready, "choose_deck": Mode.draw_choose_deck, "solve": Mode.draw_solve,
                     "result": Mode.draw_result})
