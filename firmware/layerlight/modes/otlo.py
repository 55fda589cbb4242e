# OTLO Stones (docs/otlo.md): the device deals the challenge piles,
# shows every top card, takes the "OTLO!" claims and keeps the stars.
#
# join -> levels -> handicap -> play <-> claim -> verify ... -> final (2-4 seats)
# join -> levels -> play (one card at a time, a clock counting up) -> final (solo)
#
# Pure game state: time and button events come in; cards are read from the
# open deck (ctx.deck, an otlo_deck.OtloDeck) one at a time, by their position
# in the file. Piles hold positions, top card first; what the trace and the
# saved game call a card is its id.

from layerlight import buttons
from layerlight.modes import otlo_screens as S
from layerlight.modes.otlo_screens import HIGHEST, LABELS, LOWEST
from layerlight.otlo_deck import Challenge  # noqa: F401 (named in a type comment; the deck module is loaded anyway)

PILE_CARDS = 4
HANDICAPS = (0, 1, -1)
CHECKPOINT_MS = 10000  # the solo clock is saved this often
LEVELS_KEY = "otlo-levels"  # in bests.json: the last level choice
PERSIST = ("phase", "seats", "joined", "choice", "handicap", "piles", "scores", "solved", "claimer", "pick",
           "skipped", "dealt", "elapsed", "best_before", "new_best")


class Mode:
    name = "otlo"

    def __init__(self, ctx, seats=None, first_player=None, saved=None):
        self.ctx = ctx
        self.deck = ctx.deck
        self.rng = ctx.rng
        self.sound = ctx.sound
        self.done = False
        self.dirty = False
        self.outbox = []
        self.phase = "join"
        self.seats = []
        self.joined = 0
        last = ctx.bests.get(LEVELS_KEY)
        self.choice = LABELS.index(last) if last in LABELS else 0
        self.handicap = [0, 0, 0, 0]
        self.piles = []             # card positions, top first
        self.scores = [0, 0, 0, 0]
        self.solved = [[], [], [], []]  # card ids
        self.bars = {}              # card id -> bit mask of the seats barred from it
        self.claimer = -1
        self.pick = -1              # the pile being claimed or verified
        self.skipped = []           # solo: positions skipped once (a second skip drops the card)
        self.dealt = 0
        self.elapsed = 0            # solo clock, ms
        self.clock_from = 0         # solo: game time when the clock read 0 (may be negative after a resume)
        self.best_before = 0
        self.new_best = False
        self.ids = {}               # position -> card id, for the cards dealt
        # each pile's top card (None: an empty pile; only piles with cards are ever read)
        self.tops = [None, None, None, None]  # type: list[Challenge | None]
        self.version = 0            # bumped on every change: the screen cache redraws
        self.solution_from = -1     # game time B was held to see the solution (-1: not shown)
        self.anim_pile = -1         # a pile whose next card is coming up
        self.final_since = 0        # when the game ended
        self.anim_from = 0
        self.scores_then = None     # the phase the pause menu's SCORES goes back to
        self.screen = S.Screen(self.deck)
        if saved is not None:
            self.restore(saved)
        elif seats is not None:
            self.seats = sorted(seats)
            for s in self.seats:
                self.joined |= 1 << s
            self.phase = "levels"

    # --- saving -----------------------------------------------------------

    def snapshot(self):
        snap = {}
        for key in PERSIST:
            snap[key] = getattr(self, key)
        snap["bars"] = [[k, self.bars[k]] for k in self.bars]
        return snap

    def restore(self, snap):
        for key in PERSIST:
            if key in snap:
                setattr(self, key, snap[key])
        self.bars = {}
        for k, mask in snap.get("bars", []):
            self.bars[k] = mask
        for pile in self.piles:
            for pos in pile:
                self.ids[pos] = self.deck.challenge(pos).id
        self.load_tops()

    def resumed(self, now):
        if self.phase == "play" and self.solo():
            self.clock_from = now - self.elapsed

    def changed(self):
        self.dirty = True
        self.version += 1

    # --- the protocol -------------------------------------------------------

    def solo(self):
        return len(self.seats) == 1

    def result_detail(self):
        """The play log's breakdown: handicaps, the cards each seat solved, the levels played."""
        seats = self.seats
        return {"handicap": [self.handicap[s] for s in seats], "cards": [list(self.solved[s]) for s in seats],
                "levels": LABELS[self.choice], "elapsed_ms": self.elapsed if self.solo() else None}

    def rounds_played(self):
        return self.dealt

    def state(self):
        seats = self.seats
        barred = {}
        for k in self.bars:
            barred[str(k)] = [s + 1 for s in range(4) if self.bars[k] & (1 << s)]
        card = self.mission()
        return {
            "game": self.name, "phase": self.phase, "round": None, "players": len(seats),
            "seats": [s + 1 for s in seats], "first_player": None,
            "scores": [self.scores[s] for s in seats], "finish_order": [], "round_tile": None, "tokens": None,
            "timer_ms": None,
            "mission": None if card is None else {"id": card.id, "level": card.stars},
            "choice": self.choice_label(),
            "winners": [s + 1 for s in self.winners()] if self.phase == "final" and not self.solo() else None,
            "piles": [[self.ids[p] for p in pile] for pile in self.piles],
            "claimer": self.claimer + 1 if self.claimer >= 0 else None,
            "barred": barred,
            "handicap": [self.handicap[s] for s in seats],
            "solved": [list(self.solved[s]) for s in seats],
            "elapsed_ms": self.elapsed if self.solo() and self.phase in ("play", "final") else None,
            "best_ms": self.best_before or None if self.solo() else None,
        }

    def choice_label(self):
        if self.phase == "levels":
            return LABELS[self.choice]
        if self.phase == "claim":
            return str(self.pick + 1)
        return None

    def mission(self):
        """The card being claimed, verified, or solved solo."""
        if self.phase in ("claim", "verify"):
            return self.tops[self.pick]
        if self.phase == "play" and self.solo():
            return self.tops[0]
        return None

    def handle(self, ev, now):
        kind = buttons.kind_of(ev)
        b = buttons.button_of(ev)
        if kind == buttons.PRESS:
            if b < 4:
                self.seat_pressed(b, now)
            else:
                self.sound.play("tick", now)
            return
        if b == buttons.B and kind == buttons.HOLD and self.phase in ("verify", "play"):
            self.solution_from = now  # in solo play and in verify: hold B to see a solution
            self.screen.solution_step = -1
            return
        if b == buttons.B and kind == buttons.HELD_UP:
            self.solution_from = -1
            return
        if kind == buttons.RELEASE and (b == buttons.A or b == buttons.B):
            HANDLERS[self.phase](self, b == buttons.A, now)
        elif kind == buttons.HOLD and b == buttons.B and self.phase == "claim":
            self.phase = "play"  # a claim called by mistake is taken back
            self.claimer = -1
            self.sound.play("tick", now)
            self.changed()

    def tick(self, now):
        if self.solution_from >= 0:
            card = self.mission()
            if card is not None:
                self.screen.solution_tick(card, now - self.solution_from)
        if self.phase == "play" and self.solo():  # the clock was set by the deal or the resume
            elapsed = now - self.clock_from
            if elapsed // CHECKPOINT_MS != self.elapsed // CHECKPOINT_MS:
                self.dirty = True
            self.elapsed = elapsed

    def draw(self, fb, now):
        DRAWERS[self.phase](self.screen, self, fb, now)

    def set_screen(self, fb):
        self.screen.set_screen(fb)
        self.final_texts()

    def final_texts(self):
        """Solo: the time and the best as text, made once for the final screen."""
        if self.phase == "final" and self.solo():
            best = self.elapsed if self.new_best else self.best_before
            self.screen.texts[0] = S.clock_text(self.elapsed)
            self.screen.texts[1] = S.clock_text(best)

    # --- set-up -------------------------------------------------------------

    def seat_pressed(self, seat, now):
        bit = 1 << seat
        if self.phase == "join":
            self.joined ^= bit
            self.seats = [s for s in range(4) if self.joined & (1 << s)]
            self.sound.play("join" if self.joined & bit else "tick", now)
            self.changed()
        elif not self.joined & bit:
            self.sound.play("tick", now)
        elif self.phase == "handicap":
            self.handicap[seat] = HANDICAPS[(HANDICAPS.index(self.handicap[seat]) + 1) % 3]
            self.sound.play("tick", now)
            self.changed()
        elif self.phase == "play" and not self.solo():
            self.call_otlo(seat, now)
        else:
            self.sound.play("tick", now)

    def on_join(self, a, now):
        if a and self.seats:
            self.phase = "levels"
            self.changed()
        elif a:
            self.sound.play("refused", now)

    def cards_in(self, choice):
        n = 0
        for stars in range(LOWEST[choice], HIGHEST[choice] + 1):
            n += self.deck.level_count(stars)
        return n

    def on_levels(self, a, now):
        if not a:
            self.choice = (self.choice + 1) % len(LABELS)
            self.changed()
            return
        if not self.cards_in(self.choice):
            self.sound.play("refused", now)  # the deck has no card of those levels
            return
        label = LABELS[self.choice]
        if self.ctx.bests.get(LEVELS_KEY) != label:
            self.ctx.bests[LEVELS_KEY] = label
            self.outbox.append(("bests.json", self.ctx.bests))
        if self.solo():
            self.deal(now)
        else:
            self.phase = "handicap"
            self.changed()

    def on_handicap(self, a, now):
        if a:
            self.deal(now)

    def deal(self, now):
        """Shuffle the chosen levels' cards; as many piles as seats, PILE_CARDS each
        (dealt round the piles, so a short deck gives shorter piles); solo: one pile."""
        cards = []
        first = 0
        for stars in range(4):
            count = self.deck.level_count(stars)
            if LOWEST[self.choice] <= stars <= HIGHEST[self.choice]:
                cards.extend(range(first, first + count))
            first += count
        self.rng.shuffle(cards)
        n = len(self.seats)
        if n == 1:
            del cards[self.ctx.cfg["otlo_solo_cards"]:]
            self.piles = [cards]
            self.best_before = self.ctx.bests.get(self.best_key(), 0)
        else:
            del cards[PILE_CARDS * n:]
            self.piles = [cards[p::n] for p in range(n)]
        self.dealt = len(cards)
        for pos in cards:
            self.ids[pos] = self.deck.challenge(pos).id
        self.load_tops()
        self.phase = "play"
        self.clock_from = now
        self.elapsed = 0
        self.sound.play("reveal", now)
        self.changed()

    def load_tops(self):
        for p in range(4):
            pile = self.piles[p] if p < len(self.piles) else None
            self.tops[p] = self.deck.challenge(pile[0]) if pile else None

    def best_key(self):
        return "otlo:" + LABELS[self.choice]

    # --- the table game -------------------------------------------------------

    def may_solve(self, seat, p):
        top = self.tops[p]
        return top is not None and not self.bars.get(top.id, 0) & (1 << seat)

    def call_otlo(self, seat, now):
        for p in range(len(self.piles)):
            if self.may_solve(seat, p):
                self.claimer = seat
                self.pick = p
                self.phase = "claim"
                self.solution_from = -1
                self.sound.play("finish", now)  # the table stops
                self.changed()
                return
        self.sound.play("refused", now)  # barred from every top card

    def on_claim(self, a, now):
        if a:
            self.phase = "verify"
            self.changed()
            return
        n = len(self.piles)
        for k in range(1, n + 1):  # the next pile this seat may still solve
            p = (self.pick + k) % n
            if self.may_solve(self.claimer, p):
                self.pick = p
                break
        self.changed()

    def on_verify(self, a, now):
        seat = self.claimer
        card = self.tops[self.pick]
        assert card is not None  # a claim is only ever on a pile with a card
        if a:
            self.scores[seat] += max(0, card.stars + self.handicap[seat])
            self.solved[seat].append(card.id)
            del self.piles[self.pick][0]
            self.load_tops()
            self.anim_pile = self.pick
            self.anim_from = now
            self.sound.play("ok", now)
        else:
            self.bars[card.id] = self.bars.get(card.id, 0) | (1 << seat)
            self.sound.play("wrong", now)
        self.claimer = -1
        self.solution_from = -1
        self.phase = "play"
        if not self.anybody_may_solve():
            self.finish(now)
        self.changed()

    def anybody_may_solve(self):
        for seat in self.seats:
            for p in range(len(self.piles)):
                if self.may_solve(seat, p):
                    return True
        return False

    def winners(self):
        best = self.best_score()
        return [s for s in self.seats if self.scores[s] == best]

    def best_score(self):
        best = 0
        for s in self.seats:  # a loop, not max(): the final screen calls this every frame
            if self.scores[s] > best:
                best = self.scores[s]
        return best

    def finish(self, now):
        self.phase = "final"
        self.final_since = now  # the final's blink and pages run from here
        self.pick = -1
        self.claimer = -1
        if self.solo():
            # a run counts for the best only when every card dealt was solved
            if len(self.solved[self.seats[0]]) == self.dealt and (
                    not self.best_before or self.elapsed < self.best_before):
                self.new_best = True
                self.ctx.bests[self.best_key()] = self.elapsed
                self.outbox.append(("bests.json", self.ctx.bests))
                self.sound.play("fanfare", now)
            else:
                self.sound.play("timeout", now)
            self.final_texts()
        else:
            self.sound.play("fanfare", now)

    # --- solo -----------------------------------------------------------------

    def on_play(self, a, now):
        if not self.solo():
            return
        pile = self.piles[0]
        pos = pile.pop(0)
        if a:
            card = self.tops[0]
            assert card is not None  # solo play shows a card while the pile has one
            self.scores[self.seats[0]] += card.stars
            self.solved[self.seats[0]].append(card.id)
            self.sound.play("ok", now)
        elif pos not in self.skipped:
            self.skipped.append(pos)
            pile.append(pos)  # under the pile, once
            self.sound.play("wrong", now)
        else:
            self.sound.play("wrong", now)  # skipped twice: it leaves the game unsolved
        self.solution_from = -1
        self.load_tops()
        self.anim_pile = 0
        self.anim_from = now
        if not pile:
            self.elapsed = now - self.clock_from
            self.finish(now)
        self.changed()

    def on_final(self, a, now):
        if a:
            self.done = True

    def show_scores(self, now):
        """The pause menu's SCORES (a table game): each seat's stars, facing it, until A or B.
        Solo has its clock running and nothing to compare: the pause menu just goes back."""
        if not self.solo() and self.phase in ("play", "claim", "verify"):
            self.scores_then = self.phase
            self.phase = "scores"
            self.version += 1  # a new screen, nothing new to save

    def on_scores(self, a, now):
        self.phase = self.scores_then or "play"  # (a game saved while on show comes back to play)
        self.scores_then = None
        self.version += 1


HANDLERS = {"join": Mode.on_join, "levels": Mode.on_levels, "handicap": Mode.on_handicap, "play": Mode.on_play,
            "claim": Mode.on_claim, "verify": Mode.on_verify, "final": Mode.on_final, "scores": Mode.on_scores}
DRAWERS = S.DRAWERS
