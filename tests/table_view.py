"""A frame as the table sees it: turned to a seat, colours as the LEDs show them.

Tests read frames (rows of RRGGBB, top row first, as the simulator traces
them) the way a person at the table would:
- `turned(rows, seat)`: the frame as seen from a seat, its own edge at the
  bottom (P1 bottom, P2 left, P3 top, P4 right), so a number drawn to face P3
  reads upright in `turned(rows, 2)`;
- `touching_clashes(rows)`: neighbouring LEDs of different colours that the
  eye can hardly tell apart (layerlight_tools.led_colour: CIEDE2000 of the
  light the LEDs give, the eye adapted to the matrix's white);
- `record_frames(...)`: every frame a whole game pushes to the LEDs.
"""

from layerlight_tools import led_colour, simcore

import scenario_lib

MIN_TOUCHING = 20  # CIEDE2000 between touching things that mean different things


def grid(rows):
    """Rows of RRGGBB hex -> a list of rows of ints."""
    return [[int(row[i:i + 6], 16) for i in range(0, len(row), 6)] for row in rows]


def turned(rows, seat):
    """The frame seen from `seat` (0 = P1 .. 3 = P4): that seat's edge becomes the bottom row."""
    g = grid(rows) if rows and isinstance(rows[0], str) else [list(r) for r in rows]
    for _ in range(seat):
        # a quarter turn anticlockwise brings the left edge (P2's) to the bottom
        h, w = len(g), len(g[0])
        g = [[g[c][w - 1 - r] for c in range(h)] for r in range(w)]
    return g


def lit_mask(g, colours=None):
    """1 where a pixel is lit (or, given `colours`, lit in one of them), else 0."""
    return [[1 if (v and (colours is None or v in colours)) else 0 for v in row] for row in g]


def touching_clashes(rows, cap=led_colour.DEFAULT_CAP, minimum=MIN_TOUCHING, cvd=None, cache=None):
    """Pairs of 4-neighbour lit pixels of different values less than `minimum` apart, as
    [(delta_e, (x, y), (x2, y2), a, b)]."""
    g = grid(rows)
    cache = {} if cache is None else cache
    out = []
    h, w = len(g), len(g[0])
    for y in range(h):
        for x in range(w):
            a = g[y][x]
            if not a:
                continue
            for dx, dy in ((1, 0), (0, 1)):
                x2, y2 = x + dx, y + dy
                if x2 >= w or y2 >= h:
                    continue
                b = g[y2][x2]
                if not b or b == a:
                    continue
                key = (min(a, b), max(a, b))
                d = cache.get(key)
                if d is None:
                    d = cache[key] = led_colour.delta_e(a, b, cap, cvd)
                if d < minimum:
                    out.append((d, (x, y), (x2, y2), a, b))
    return out


def record_frames(script, game, players, size=(16, 16), seed=None, config=None):
    """Every distinct frame a game shows, with the script line that showed it and the state as
    it was drawn: [(line number, line, state, rows)]. The seed is the one the whole game's script was written
    for (scenario_lib.WHOLE_GAME_SEEDS) unless given."""
    if seed is None:
        seed = scenario_lib.WHOLE_GAME_SEEDS.get(game, 1)
    dev = simcore.make_device(scenario_lib.device_files(config), size[0], size[1], seed, game, players)
    sim = simcore.Simulator(dev)
    hw = dev.hw
    out = []
    last = [None]
    real_show = hw.show

    def show(fb):
        real_show(fb)
        rows = fb.hex_rows()
        if rows != last[0]:
            last[0] = rows
            out.append([no[0], line[0], dev.state(), rows])  # the state the frame shows

    hw.show = show
    no = [0]
    line = [""]
    for text in script.split("\n"):
        no[0] += 1
        line[0] = text.strip()
        sim.run_line(text, no[0])
    return out
