# Layers (2-4 players): six rounds of racing to build the mission pattern.
#
# Each round turns up a round tile: the rewards by finishing place (M = the
# mission's level in points, digits = points, S = take 1 point from another
# player). The shared flow (join, race, verification...) is in table.py.

from layerlight import buttons, font
from layerlight.screens import DIM, WHITE
from layerlight.modes.table import ROUNDS, TableGame

PLACE_DOTS = 0x505050  # the dots counting a reward's place: grey, well apart from a white press light beside them


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
        if fb.width < 16:  # the rewards take turns with the clock
            round_tile(fb, self.tile, len(self.seats), self.round, now)
            return
        # still on 16x16 and up: drawn once into the race's free background buffer, then
        # copied back (its glyphs cost about 5 ms on an RP2040 every frame); the key is
        # above every race background's (mission ids are 16-bit) and the tally's are negative
        key = (1 << 29) + self.round * 4 + fb.generation % 4
        if key != self._race_bg_key:
            round_tile(fb, self.tile, len(self.seats), self.round, now)
            self._race_bg[:] = fb.buf
            self._race_bg_key = key
        else:
            fb.buf[:] = self._race_bg


Mode.HANDLERS["round_tile"] = Mode.on_round_tile
Mode.DRAWERS["round_tile"] = Mode.draw_round_tile


def reward_glyph(r):
    if r == "M":
        return "M"
    if r == "S":
        return "<"
    return "0123456789"[r]


def round_tile(fb, tile, places, round_no, now):
    """The round number on top, the rewards by place below: 'M' = mission level, '<' = take 1 point."""
    w = fb.width
    scale = 2 if w >= 32 else 1
    if w >= 16:
        font.draw_char(fb, "R", w // 2 - 4 * scale, 1 * scale, DIM * 4, 0, scale)
        font.draw_number(fb, round_no, w // 2 + 1 * scale, 1 * scale, WHITE, 0, scale)
        width = (places * font.ADVANCE - 1) * scale
        x = (w - width) // 2
        y = fb.height - (font.GLYPH_H + 3) * scale
        for p in range(places):
            font.draw_char(fb, reward_glyph(tile[p]), x + p * font.ADVANCE * scale, y, WHITE, 0, scale)
            # place marker under each reward: p+1 dots
            for d in range(p + 1):
                fb.pixel(x + p * font.ADVANCE * scale + d, y + (font.GLYPH_H + 1) * scale, PLACE_DOTS)
    else:
        p = (now // 900) % places
        font.draw_char(fb, reward_glyph(tile[p]), 0, 1, WHITE)
        for d in range(p + 1):
            fb.pixel(d * 2, 7, PLACE_DOTS)
        font.draw_number(fb, round_no, 5, 1, DIM * 4)
