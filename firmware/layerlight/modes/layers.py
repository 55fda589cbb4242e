# Layers (2-4 players): six rounds of racing to build the mission pattern.
#
# Each round turns up a round tile: the rewards by finishing place (M = the
# mission's level in points, digits = points, S = take 1 point from another
# player). The shared flow (join, race, verification...) is in table.py.

from layerlight import buttons, mission_screens
from layerlight.modes.table import ROUNDS, TableGame


class Mode(TableGame):
    name = "layers"
    levels = (3, 4, 5)
    round_tiles = True
    HANDLERS = dict(TableGame.HANDLERS)
    DRAWERS = dict(TableGame.DRAWERS)

    def setup(self):
        """The round tiles, shuffled once per game: one per round."""
        tiles = [list(t) for t in self.ctx.cfg["round_tiles"]]
        self.rng.shuffle(tiles)
        while len(tiles) < ROUNDS:
            tiles.append(tiles[len(tiles) % len(self.ctx.cfg["round_tiles"])])
        self.tiles = tiles

    def round_started(self, now):
        self.tile = self.tiles[self.round - 1]
        self.phase = "round_tile"

    def round_tile_state(self):
        if self.tile is None or self.phase in ("join", "first_player", "final"):
            return None
        return self.tile[:len(self.seats)]

    def on_round_tile(self, kind, b, now):
        if kind == buttons.RELEASE and b == buttons.A:
            self.choose_deck(now)

    def give_rewards(self, now):
        """Correct finishers, in finishing order, take the places of the round tile.

        A wrong or unfinished player gets nothing and the next correct player
        takes the place they would have had. Rewards are given one after the
        other, so a steal can take a point won earlier in the same round.
        """
        correct = self.correct_finishers()
        self.pending = []
        for place in range(min(len(correct), len(self.seats))):
            self.pending.append([correct[place], self.tile[place]])
        self.next_reward(now)

    def draw_round_tile(self, fb, now):
        mission_screens.round_tile(fb, self.tile, len(self.seats), self.round, now)


Mode.HANDLERS["round_tile"] = Mode.on_round_tile
Mode.DRAWERS["round_tile"] = Mode.draw_round_tile
