# Layers+ (2-4 players): levels 2-5, no round tiles, score tokens.
#
# With N players the tokens are N, N-1, ..., 1 (the table is a setting). A
# press takes the highest token left; when one token is left a 10-second
# countdown runs, beeping every second, and the race ends when the last
# player presses or the countdown ends. Verification goes from the highest
# token down; a wrong player's token passes down the line, which comes to:
# the correct finishers, in finishing order, hold the highest tokens taken,
# and the tokens left over go back to the box.

from layerlight import mission_screens
from layerlight.modes.table import TableGame


class Mode(TableGame):
    name = "layers-plus"
    levels = (2, 3, 4, 5)
    HANDLERS = dict(TableGame.HANDLERS)
    DRAWERS = dict(TableGame.DRAWERS)

    def configure(self):
        # a resumed game needs it as much as a new one (it was set up with the round tiles'
        # kind of extras, for new games only: a resumed Layers+ crashed at its race's first press)
        self.countdown = self.ctx.cfg["countdown_s"] * 1000
        self.beep_window = self.countdown  # "a beep each second once one token is left"

    def tokens_for(self, players):
        tokens = self.ctx.cfg["tokens"].get(str(players))
        if not tokens:
            tokens = list(range(players, 0, -1))
        return sorted(tokens, reverse=True)

    def race_started(self, now):
        self.tokens_left = self.tokens_for(len(self.seats))

    def tokens_state(self):
        if self.phase in ("race", "verify") and self.mission is not None:
            return list(self.tokens_left)
        return None

    def pressed(self, seat, now):
        """The press takes the highest token left; with one left the countdown starts."""
        if self.tokens_left:
            self.tokens_left.pop(0)
        if len(self.tokens_left) == 1 and self.timer_end < 0:
            self.start_timer(now, self.countdown, self.countdown)

    def taken_tokens(self):
        all_tokens = self.tokens_for(len(self.seats))
        return all_tokens[:len(self.finish_order)]

    def give_rewards(self, now):
        """Correct finishers in finishing order hold the highest tokens taken."""
        taken = self.taken_tokens()
        correct = self.correct_finishers()
        self.pending = []
        for k in range(len(correct)):
            self.pending.append([correct[k], taken[k]])
        self.next_reward(now)

    def draw_race_marks(self, fb):
        # each finisher's dots show the token they took
        mission_screens.finish_markers(fb, self.finish_order, self.taken_tokens())
