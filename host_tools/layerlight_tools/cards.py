"""Building, checking and reading mission decks.

Everything here uses the firmware's own geometry, solver and deck modules:
the device and the tools cannot disagree about what a stacking looks like.
"""

import math

from layerlight import deck as deckfile
from layerlight import geometry
from layerlight.rng import Rng
from layerlight.solver import Solver

LEVELS = (2, 3, 4, 5)


class Candidate:
    def __init__(self, level, pattern, solutions, difficulty):
        self.level = level
        self.pattern = pattern
        self.solutions = solutions
        self.difficulty = difficulty


def difficulty(layer_set, pattern, solutions):
    """A grade in [0, 1] within a level: fewer solutions and more hidden card area are harder.

    - uniqueness: 1 / sqrt(number of solutions) (one way to make it is hardest);
    - concealment: for the first solution, the share of each card's opaque cells
      covered by cards above it, averaged; a card that barely peeks out is hard to spot.
    """
    n2 = layer_set.size * layer_set.size
    uniq = 1 / math.sqrt(len(solutions))
    sol = solutions[0]
    covered = bytearray(n2)
    hidden = []
    for li, o in reversed(sol):  # top first
        g = layer_set.layers[li].grid(o)
        opaque = sum(1 for c in g if c)
        under = sum(1 for i in range(n2) if g[i] and covered[i])
        hidden.append(under / opaque if opaque else 0)
        for i in range(n2):
            if g[i]:
                covered[i] = 1
    conceal = sum(hidden) / len(hidden)
    return round(0.6 * uniq + 0.4 * conceal, 3)


def random_stacking(rng, nlayers, level):
    picks = list(range(nlayers))
    rng.shuffle(picks)
    return [(li, rng.below(8)) for li in picks[:level]]


def build(layer_set, per_level=60, seed=1, tries_per_mission=200, progress=None):
    """Missions for levels 2-5 (those the set has layers for), each reachable with exactly its level.

    Candidates come from random stackings; each is solved from scratch, kept
    only if no fewer layers make it, and the kept ones are spread over difficulty.
    """
    rng = Rng(seed)
    solver = Solver(layer_set.layers)
    n = layer_set.size
    missions = []
    next_id = 1
    for level in LEVELS:
        if level > len(layer_set.layers):
            continue
        seen = set()
        found = []
        want = per_level * 3
        for attempt in range(per_level * tries_per_mission):
            if len(found) >= want:
                break
            placements = random_stacking(rng, len(layer_set.layers), level)
            pattern = bytes(geometry.compose(layer_set.layers, placements, n))
            if pattern in seen:
                continue
            seen.add(pattern)
            if solver.min_level(pattern, level) != level:
                continue
            sols = solver.solutions(pattern, level)
            found.append(Candidate(level, pattern, sols, difficulty(layer_set, pattern, sols)))
            if progress:
                progress(level, len(found), want)
        found.sort(key=lambda c: (c.difficulty, c.pattern))
        chosen = spread(found, per_level)
        for c in chosen:
            missions.append(deckfile.Mission(next_id, level, c.difficulty, len(c.solutions), c.pattern, c.solutions[0]))
            next_id += 1
    return missions


def spread(sorted_items, count):
    """`count` items evenly spaced through a list sorted by difficulty."""
    if len(sorted_items) <= count:
        return list(sorted_items)
    step = len(sorted_items) / count
    return [sorted_items[int(i * step)] for i in range(count)]


def write(layer_set, missions, path):
    data = deckfile.pack(layer_set.size, layer_set.background, layer_set.colours, layer_set.layers, missions)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


class HostStorage:
    """Plain files on the PC, for opening decks with the firmware's reader."""

    def open_read(self, name):
        return open(name, "rb")


def open_deck(path):
    return deckfile.Deck(HostStorage(), path)


def check(path):
    """Re-verify every mission of a deck from scratch; returns a list of problems (empty = good)."""
    d = open_deck(path)
    solver = Solver(d.layers)
    problems = []
    for i in range(d.count):
        m = d.mission(i)
        shown = bytes(geometry.compose(d.layers, m.solution, d.size))
        if shown != m.pattern:
            problems.append("mission %d: its stored solution does not make its pattern" % m.id)
        low = solver.min_level(m.pattern, m.level)
        if low != m.level:
            problems.append("mission %d: level %d but %s" % (m.id, m.level, "made with %d layers" % low if low else "cannot be made"))
        count = len(solver.solutions(m.pattern, m.level))
        if count != m.solution_count:
            problems.append("mission %d: %d solutions, deck says %d" % (m.id, count, m.solution_count))
    return problems
