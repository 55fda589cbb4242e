# Paper World helper (docs/paper-world.md),
# 2 to 4 players: the device keeps the turns, the objectives, the scissors,
# the end of the game, and does the final scoring.
#
# join -> first_player (drawn at random, as in Layers) -> objectives (3 of
# the 10 objective cards drawn; B draws again, A accepts) -> turns ->
# final_entry (each seat in seat order: stars, hand, discard) -> final.
#
# In `turn` the menu is next / objective / scissors / end. A claim takes the
# highest token left on the objective (a seat claims an objective once);
# the scissors token moves to the player whose turn it is; `end` ends the
# turn and starts the final round: every seat plays once more, the one that
# triggered it last. The pause menu's END goes straight to the final entry.
# Score = stars + objective tokens - hand - discard + 2 for the scissors;
# a tie goes to the fewest cards in the discard pile, then it is shared.
#
# The log (keeper.py) holds one small int per action, the final entry of a
# seat included, so a power cut during the final entry resumes at the seat
# being entered, and an undo reaches every action, down to the counts.

from layerlight import buttons
from layerlight.modes import paper_world_screens as S
from layerlight.modes.keeper import KeeperGame
from layerlight.modes.paper_world_screens import DRAWN, FIRST_PLAYER_MS, PAGE_MS, PARTS

OBJECTIVE_CARDS = 10        # the objective cards in the box, numbered 1-10
ACTIONS = ("next", "objective", "scissors", "end")
FINAL_ROUND_ACTIONS = ("next", "objective", "scissors")  # the end is triggered once
COUNTS = ("stars", "hand", "discard")
MAXIMA = (99, 9, 60)        # the most each count can be (hand: 9 cards, the rulebook's limit); a
                            # total stays within 3 characters, so it fits facing its seat on 16x16
SCISSORS_POINTS = 2

# actions in the log
NEXT = 0
TRIGGER = 1                 # `end`: the final round begins
SCISSORS = 2
FINISH = 3                  # the pause menu's END: the final entry begins
CLAIM = 10                  # + the objective's place (0-2)
ENTRY = 1000000             # + stars * 1000 + hand * 100 + discard: one seat's final entry


def entry_action(stars, hand, discard):
    """One seat's final counts as one int."""
    return ENTRY + stars * 1000 + hand * 100 + discard


def default_tokens(players):
    """The score tokens on each objective with this many players: N tokens worth N+1, N, ..., 2."""
    return list(range(players + 1, 1, -1))


class Mode(KeeperGame):
    name = "paper-world"
    min_seats = 2
    END_ACTION = FINISH
    HANDLERS = dict(KeeperGame.HANDLERS)
    DRAWERS = dict(KeeperGame.DRAWERS)
    SEAT_PHASES = ("claim",)

    def __init__(self, ctx, seats=None, first_player=None, saved=None):
        self.objectives = []        # the three objective cards drawn (1-10), lowest first
        self.tokens = []            # the token values on each objective, highest first
        self.claimed = [[], [], []]  # by objective: the seats that claimed it, in order (they took the tokens in order)
        self.scissors = -1          # the seat holding the scissors token
        self.final_round = False
        self.turns_left = 0         # in the final round: turns still to play, this one included
        self.finishing = False      # the final entry has begun
        self.entries = []           # the final counts (stars, hand, discard), by position in seats
        self.entry_step = 0         # the count of the seat being entered: 0 stars, 1 hand, 2 discard
        self.pending = [0, 0, 0]    # that seat's counts so far (not saved: a cut resumes at its stars)
        self.win_bits = 0
        self.tie_break = None
        self.num_x = [0, 0, 0]      # the objectives screen: where each number starts
        self.num_w = [0, 0, 0]
        self.final_text = ["", "", "", ""]
        self.small = False          # an 8x8 matrix (paper_world_screens.setup says)
        KeeperGame.__init__(self, ctx, seats, first_player, saved)

    # --- set-up -------------------------------------------------------------

    def seats_ready(self, first_player, now):
        self.tokens = self.tokens_for(len(self.seats))
        if first_player is not None and first_player in self.seats:
            self.first = first_player
            self.to_objectives(now)
            return
        self.first = self.seats[self.rng.below(len(self.seats))]
        self.phase = "first_player"
        self.set_items(())
        self.since = now
        self.sound.play("reveal", now)

    def tokens_for(self, players):
        """The token values on each objective for this many players, highest first. The setting
        was checked when the config was read (config.paper_tokens_problem): a bad one is {} by now."""
        values = self.ctx.cfg.get("paper_tokens", {}).get(str(players))
        if not values:
            return default_tokens(players)
        return sorted(values, reverse=True)

    def to_objectives(self, now):
        if not self.objectives:
            self.draw_objectives()
        self.phase = "objectives"
        self.set_items((" ".join([str(o) for o in self.objectives]),))  # `choice`: the numbers drawn
        self.then = None
        self.since = now
        self.changed()

    def draw_objectives(self):
        """Three of the ten objective cards, at random; never the three on show again."""
        before = self.objectives
        while True:
            cards = list(range(1, OBJECTIVE_CARDS + 1))
            self.rng.shuffle(cards)
            drawn = sorted(cards[:DRAWN])
            if drawn != before:
                break
        self.objectives = drawn
        S.place_numbers(self)

    def on_objectives(self, b, now):
        if b == buttons.B:
            self.draw_objectives()
            self.sound.play("reveal", now)
            self.to_objectives(now)
        elif b == buttons.A:
            self.sound.play("ok", now)
            self.start_play(now)

    def tick_play(self, now):
        if self.phase == "first_player" and now - self.since >= FIRST_PLAYER_MS:
            self.to_objectives(now)

    def resume_setup(self, now):
        self.to_objectives(now)  # the first player is known; the objectives on show (or drawn now)

    def setup_snapshot(self):
        return {"objectives": self.objectives, "tokens": self.tokens}

    def setup_restore(self, snap):
        self.objectives = snap["objectives"]
        self.tokens = snap["tokens"]
        S.place_numbers(self)

    # --- play: the state worked out from the log ------------------------------

    def reset_play(self):
        self.turn_index = self.seats.index(self.first) if self.first in self.seats else 0
        self.claimed = [[], [], []]
        self.scissors = -1
        self.final_round = False
        self.turns_left = 0
        self.finishing = False
        self.entries = []

    def apply(self, action):
        if action == NEXT:
            if self.final_round:
                self.turns_left -= 1
                if self.turns_left <= 0:
                    self.finishing = True  # everybody has had a last turn
                    return
            self.next_turn()
        elif action == TRIGGER:
            self.final_round = True
            self.turns_left = len(self.seats)  # the next seats, the triggering one last
            self.next_turn()
        elif action == SCISSORS:
            self.scissors = self.turn_seat()
        elif action == FINISH:
            self.finishing = True
        elif action >= ENTRY:
            a = action - ENTRY
            self.entries.append((a // 1000, (a // 100) % 10, a % 100))
        elif action >= CLAIM:
            self.claimed[action - CLAIM].append(self.turn_seat())

    def turn_seat(self):
        if self.finishing and self.seats:
            return self.seats[min(len(self.entries), len(self.seats) - 1)]  # the seat being entered
        return KeeperGame.turn_seat(self)

    def token_points(self, seat):
        total = 0
        for i in range(len(self.claimed)):
            c = self.claimed[i]
            for k in range(len(c)):
                if c[k] == seat:
                    total += self.tokens[k]
        return total

    def rescore(self):
        over = self.over()
        for k in range(len(self.seats)):
            s = self.seats[k]
            total = self.token_points(s) + (SCISSORS_POINTS if self.scissors == s else 0)
            if over:
                stars, hand, discard = self.entries[k]
                total += stars - hand - discard
            self.scores[s] = total

    def over(self):
        return self.finishing and len(self.entries) >= len(self.seats)

    def discards(self, seat):
        return self.entries[self.seats.index(seat)][2]

    def winners(self):
        if not self.over():
            return []
        top = max(self.scores[s] for s in self.seats)
        tied = [s for s in self.seats if self.scores[s] == top]
        fewest = min(self.discards(s) for s in tied)
        return [s for s in tied if self.discards(s) == fewest]

    def decided_by(self):
        """How the win was settled: None (the score alone), "discard" (the fewest discards) or "shared"."""
        top = max(self.scores[s] for s in self.seats)
        if len([s for s in self.seats if self.scores[s] == top]) == 1:
            return None
        return "shared" if len(self.winners()) > 1 else "discard"

    def claimable(self, seat):
        """The places (0-2) of the objectives `seat` may claim: not claimed by it yet, a token left."""
        out = []
        for i in range(len(self.claimed)):
            c = self.claimed[i]
            if seat not in c and len(c) < len(self.tokens):
                out.append(i)
        return out

    # --- the phases after an action or an undo ----------------------------------

    def after_change(self, now):
        if self.finishing and not self.over():
            was_final = self.phase == "final"
            self.to_entry(now)
            self.look += 1
            if was_final:
                self.left_final(now)
        else:
            KeeperGame.after_change(self, now)
        self.final_marks()

    def final_marks(self):
        self.win_bits = 0
        self.tie_break = None
        if self.over():
            for s in self.winners():
                self.win_bits |= 1 << s
            self.tie_break = self.decided_by()
            for k in range(len(self.seats)):  # 8x8: a total too long to face its seat scrolls by
                self.final_text[k] = str(self.scores[self.seats[k]])

    def reached_final(self, now):
        self.sound.play("fanfare", now)

    def restore(self, snap):
        KeeperGame.restore(self, snap)
        if self.playing and self.finishing and not self.over():
            self.to_entry(0)  # a cut during the final entry: back at the seat being entered
        self.final_marks()

    def end_game(self, now):
        if self.playing and self.finishing:
            return  # the final entry is under way (or done)
        KeeperGame.end_game(self, now)

    # --- the turn menu -------------------------------------------------------

    def actions(self):
        return FINAL_ROUND_ACTIONS if self.final_round else ACTIONS

    def act(self, action, now):
        seat = self.turn_seat()
        if action == "next":
            self.record(NEXT, now)
        elif action == "objective":
            places = self.claimable(seat)
            if not places:
                self.refuse(now)  # claimed them all, or no token left on the others
                return
            self.ask_choice("claim", [self.objectives[i] for i in places], Mode.claim_chosen, 0, now)
        elif action == "scissors":
            if self.scissors == seat:
                self.refuse(now)  # already holds it
                return
            self.sound.play("steal", now)
            self.record(SCISSORS, now)
        elif action == "end":
            self.sound.play("beep", now)
            self.record(TRIGGER, now)

    def refuse(self, now):
        """A low buzz, and the highlight back on `next` (as after an action)."""
        self.sound.play("refused", now)
        self.to_turn(now)

    def claim_chosen(self, item, now):
        self.sound.play("ok", now)
        self.record(CLAIM + self.objectives.index(item), now)

    def show_scores(self, now):
        """The pause menu's SCORES: each seat's tokens and scissors, facing it, until A or B."""
        if self.phase == "turn":
            self.phase = "scores"
            self.set_items(())
            self.since = now

    def on_scores(self, b, now):
        if b == buttons.A or b == buttons.B:
            self.to_turn(now)

    # --- the final entry -------------------------------------------------------

    def to_entry(self, now):
        step = self.entry_step
        self.ask_count("final_entry", COUNTS[step], MAXIMA[step], Mode.count_entered, self.pending[step], now)

    def count_entered(self, value, now):
        self.pending[self.entry_step] = value
        if self.entry_step < 2:
            self.entry_step += 1
            self.to_entry(now)
            return
        stars, hand, discard = self.pending
        self.entry_step = 0
        self.pending[0] = self.pending[1] = self.pending[2] = 0
        self.sound.play("ok", now)
        self.record(entry_action(stars, hand, discard), now)

    def handle(self, ev, now):
        if self.phase == "final_entry" and buttons.kind_of(ev) == buttons.HOLD:
            return  # a count cannot be given up: holding B 1 s takes back a step (undo)
        KeeperGame.handle(self, ev, now)

    def undo_allowed(self):
        return self.playing and self.phase in ("turn", "final", "final_entry")

    def can_undo(self):
        if not self.playing:
            return False
        if self.phase == "final_entry":
            return self.entry_step > 0 or bool(self.log)
        return bool(self.log) and self.phase in ("turn", "final")

    def undo(self, now):
        """Take back the last thing entered: a count of the seat being entered, else the last action
        (a seat's final entry comes back at its discard count, with its counts as they were)."""
        if self.phase == "final_entry" and self.entry_step > 0:
            self.pending[self.entry_step] = self.entry_value
            self.entry_step -= 1
            self.undo_at = now
            self.sound.play("wrong", now)
            self.to_entry(now)
            self.look += 1
            return
        if not self.can_undo():
            self.sound.play("refused", now)
            return
        last = self.log[-1]
        if last >= ENTRY:
            a = last - ENTRY
            self.pending[0] = a // 1000
            self.pending[1] = (a // 100) % 10
            self.pending[2] = a % 100
            self.entry_step = 2
        else:
            self.entry_step = 0
            self.pending[0] = self.pending[1] = self.pending[2] = 0
        KeeperGame.undo(self, now)

    # --- the trace ---------------------------------------------------------------

    def result_detail(self):
        """The play log's breakdown: stars, objectives, hand, discard and scissors per seat."""
        return {"breakdown": self.breakdown()}

    def keeper_state(self, s):
        objs = []
        for i in range(len(self.objectives)):
            c = self.claimed[i] if self.playing else []
            objs.append({"id": self.objectives[i], "tokens": self.tokens[len(c):], "claimed": [x + 1 for x in c]})
        s["objectives"] = objs
        s["scissors"] = self.scissors + 1 if self.playing and self.scissors >= 0 else None
        s["final_round"] = self.playing and self.final_round
        s["turns_left"] = (0 if self.finishing else self.turns_left) if self.playing and self.final_round else None
        s["breakdown"] = self.breakdown() if self.phase == "final" else None
        s["tie_break"] = self.tie_break if self.phase == "final" else None
        if self.phase == "final" or not self.playing:
            s["turn_seat"] = None

    def breakdown(self):
        out = []
        for k in range(len(self.seats)):
            seat = self.seats[k]
            stars, hand, discard = self.entries[k]
            out.append({"stars": stars, "objectives": self.token_points(seat), "hand": hand, "discard": discard,
                        "scissors": SCISSORS_POINTS if self.scissors == seat else 0})
        return out

    def part(self, k, p):
        """Part p of PARTS of the score of the k-th seat (`final` pages)."""
        seat = self.seats[k]
        if p == 1:
            return self.token_points(seat)
        if p == 4:
            return SCISSORS_POINTS if self.scissors == seat else 0
        return self.entries[k][0 if p == 0 else p - 1]  # stars, hand, discard

    # --- screens (paper_world_screens.py) ------------------------------------------

    def set_screen(self, fb):
        KeeperGame.set_screen(self, fb)
        S.setup(self, fb)

    def motion(self, now):
        """What a screen shows that moves with time alone (keeper.py redraws a cached screen when it changes)."""
        phase = self.phase
        if phase == "first_player":
            t = now - self.since
            return 0 if t >= FIRST_PLAYER_MS - 600 else 1 + (t * t // 90000) % 200
        if phase == "claim":
            return (now // 300) % 2
        if phase == "objectives":
            return (now // 900) % DRAWN if self.small else 0
        if phase == "scores":
            return (now // 1200) % 4 if self.small else 0
        if phase == "final":
            t = now - self.since
            blink = (t // 400) % 2
            if not self.small:
                return (t // PAGE_MS) % (len(PARTS) + 3) * 4 + (t // 800) % 2 * 2 + blink
            k = (t // (2 * PAGE_MS)) % (len(self.seats) + 1)
            if k == len(self.seats):
                return 128 + (now // 250) % 4 * 2 + blink  # the flag, the winners' marching edges
            return (k * 2 + blink) * 12 + (t // 80) % 12
        return KeeperGame.motion(self, now)


Mode.HANDLERS.update({"objectives": Mode.on_objectives, "scores": Mode.on_scores})
Mode.DRAWERS.update({"first_player": S.draw_first_player, "objectives": S.draw_objectives_screen,
                     "turn": S.draw_turn, "claim": S.draw_claim, "scores": S.draw_scores, "final": S.draw_final})
