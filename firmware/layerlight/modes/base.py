# What every mission game shares (Layers, Layers+, time attack): the context
# it runs in, the shuffled piles of each deck level, the mission on show, the
# solution animation, and saving to / restoring from a snapshot.

from layerlight import buttons, mission_screens, screens
from layerlight.deck import Mission  # noqa: F401 (named in a type comment; the deck module is loaded anyway)
from layerlight.screens import Layout


class MissionGame:
    levels = (3, 4, 5)
    first_phase = "ready"
    PERSIST = ()  # attribute names a saved game holds; a subclass lists its own

    def __init__(self, ctx):
        self.ctx = ctx
        self.deck = ctx.deck
        self.rng = ctx.rng
        self.sound = ctx.sound
        self.done = False
        self.dirty = False          # something worth saving changed (the device saves)
        self.outbox = []            # other files to save: (name, object)
        self.phase = self.first_phase
        self.level = 0
        self.mission = None  # type: Mission | None
        self.mission_ref = None     # [level, position in that level] of the mission on show
        self.piles = {}
        self.offered = []           # available_levels(), kept for the screens
        self.offered_mask = 0
        self.since = 0
        self.solution_from = -1     # when B was held to show the solution (-1: not shown)
        self.resume_left = None     # time left on a timer when a saved game comes back
        self.last_beep = 0
        self.colours = [screens.BACKGROUND_LED] + [(r << 16) | (g << 8) | b for r, g, b in self.deck.colours[1:]]
        self.layout = None
        self.solution_show = mission_screens.SolutionShow(self.deck)

    def shuffle_decks(self):
        """A shuffled pile of mission positions for each level."""
        for level in self.levels:
            order = list(range(self.deck.level_count(level)))
            self.rng.shuffle(order)
            self.piles[str(level)] = order  # str keys: the snapshot goes through JSON

    def available_levels(self):
        """The levels that still have missions to reveal (before the shuffle: those in the deck).

        The deck choice draws this every frame, and drawing must not allocate:
        the list is made again only when the set of levels left changes."""
        mask = 0
        if self.piles:
            for key in self.piles:
                if self.piles[key]:
                    mask |= 1 << int(key)
        else:
            for lv in self.levels:
                if self.deck.level_count(lv) > 0:
                    mask |= 1 << lv
        if mask != self.offered_mask:
            # a loop, not a comprehension: one would close over `mask`, and
            # MicroPython puts a closed-over variable in a heap cell at every call
            self.offered_mask = mask
            self.offered = []
            for lv in self.levels:
                if (mask >> lv) & 1:
                    self.offered.append(lv)
        return self.offered

    def draw_mission(self, level):
        """The next mission of a level's pile. A level whose pile runs out is no longer
        offered; when every pile has run out (a small deck), they are all shuffled again."""
        pile = self.piles[str(level)]
        self.mission_ref = [level, pile.pop()]
        self.mission = self.deck.level_mission(level, self.mission_ref[1])
        if not self.available_levels():
            self.shuffle_decks()

    def on_choose_deck(self, kind, b, now):
        """B cycles the levels with missions left, A reveals one (the subclass's reveal)."""
        if kind != buttons.RELEASE:
            return
        levels = self.available_levels()
        if b == buttons.B:
            self.level = levels[(levels.index(self.level) + 1) % len(levels)]
        elif b == buttons.A:
            self.reveal(now)

    def reveal(self, now):
        raise NotImplementedError

    def changed(self):
        self.dirty = True

    def snapshot(self):
        """What a saved game holds (plain data for JSON)."""
        snap = {}
        for key in self.PERSIST:
            snap[key] = getattr(self, key)
        return snap

    def restore(self, snap):
        for key in self.PERSIST:
            if key in snap:  # a key added since the game was saved keeps its starting value
                setattr(self, key, snap[key])
        if self.mission_ref is not None:
            self.mission = self.deck.level_mission(self.mission_ref[0], self.mission_ref[1])

    def set_screen(self, fb):
        """The frame buffer this mode will draw into; layouts are computed for it."""
        self.layout = Layout(fb.width, fb.height, self.deck.size, fb)

    def draw_solution(self, fb, now):
        self.solution_show.draw(fb, self.layout, self.mission.solution, self.colours, now - self.solution_from)
