"""Building, checking and exporting mission decks.

Everything here stands on the firmware's own geometry, solver and deck
modules: the device and the tools cannot disagree about what a stacking
looks like. `build` finds every mission of a set with the NumPy search of
`stackings`, grades and picks them, then solves each picked mission again
with the firmware's solver: the two independent counts must agree.
"""

import numpy as np

from layerlight import deck as deckfile
from layerlight import geometry, stacking
from layerlight.solver import Solver
from layerlight_tools.layers import deckpack, stackings

LEVELS = (2, 3, 4, 5)
PER_LEVEL = 60              # missions per level, by default
PER_LEVEL_RANGE = (1, 2000)  # --per-level
MAX_LEVEL_RANGE = (2, 5)    # --max-level: the deepest level (the default is the top)
NEAR_SHARE = 0.1            # patterns differing in at most this share of cells are "nearly the same"
MAX_STACKINGS = 30_000_000  # the most stackings of the deepest level `build` takes on


class BuildError(Exception):
    """A set the builder cannot take on; str() is one line."""


class DeckProblem(Exception):
    """A deck whose missions do not hold up (export refuses it); str() is one line."""


# --- difficulty ----------------------------------------------------------

def difficulty(level, solutions, visible):
    """The grade in [0, 1] (thousandths): more layers, fewer solutions and hidden layers are harder.

    0.6 * (level - 1) / 4 + 0.3 / sqrt(solutions) + 0.1 * (1 - visible),
    where `visible` is, for the solution whose least visible layer shows the
    most, the share of that layer's opaque cells left in view. Works on
    numbers and on NumPy arrays alike (the same arithmetic, the same result).
    """
    g = 0.6 * (np.asarray(level) - 1) / 4 + 0.3 / np.sqrt(solutions) + 0.1 * (1 - np.asarray(visible))
    return np.rint(np.clip(g, 0, 1) * 1000) / 1000


def visibility(layers, solution, n):
    """The share of its opaque cells the least visible layer of a stacking shows."""
    covered = bytearray(n * n)
    least = 1.0
    for li, o in reversed(solution):  # from the top
        g = layers[li].grid(o)
        opaque = shown = 0
        for i in range(n * n):
            if g[i]:
                opaque += 1
                if not covered[i]:
                    shown += 1
                    covered[i] = 1
        least = min(least, shown / opaque if opaque else 0.0)  # a blank layer never shows
    return least


def best_solution(layers, solutions, n):
    """(visibility, solution): the solution whose least visible layer shows the most (the first such)."""
    best = None
    for sol in solutions:
        v = visibility(layers, sol, n)
        if best is None or v > best[0]:
            best = (v, sol)
    return best


# --- nearly the same -------------------------------------------------------

def near_limit(n):
    """Two N x N patterns are nearly the same when one, turned or mirrored, differs from the other in at most this many cells."""
    return max(2, int(round(n * n * NEAR_SHARE)))


def _row(grid):
    if isinstance(grid, (bytes, bytearray)):
        return np.frombuffer(bytes(grid), np.uint8)
    return np.asarray(grid, np.uint8)


def symmetries(grid, n):
    """The 8 turns and mirror images of a grid (as NumPy rows)."""
    a = _row(grid).reshape(n, n)
    out = []
    for m in (a, a[:, ::-1]):
        for k in range(4):
            out.append(np.rot90(m, -k).reshape(-1))
    return np.array(out)


class NearCheck:
    """Patterns taken so far, for 'is this one nearly the same as one of them'."""

    def __init__(self, n):
        self.n = n
        self.limit = near_limit(n)
        self.rows = np.zeros((0, n * n), np.uint8)

    def clashes(self, grid):
        if not len(self.rows):
            return False
        return bool(((self.rows != _row(grid)).sum(axis=1) <= self.limit).any())

    def add(self, grid):
        self.rows = np.concatenate([self.rows, symmetries(grid, self.n)])


# --- building ---------------------------------------------------------------

class BuiltMission(deckfile.Mission):
    """A deck mission with every solution and its visibility, as the builder found them."""

    def __init__(self, ident, level, grade, pattern, solutions, visible, shown):
        deckfile.Mission.__init__(self, ident, level, grade, len(solutions), pattern, shown)
        self.solutions = solutions
        self.visible = visible


def spread(order, per_level, accept):
    """Up to per_level positions of `order` (sorted by grade) at evenly spaced ranks.

    Each pick is the rank nearest its target that `accept`s (nearly-the-same
    patterns are refused), so the picks follow the grades of all candidates.
    A refused rank stays refused: `accept` sees each candidate at most once.
    """
    k = len(order)
    if k <= per_level:
        return [i for i in order if accept(i)]
    seen = set()
    picks = []
    for j in range(per_level):
        target = min(k - 1, int((j + 0.5) * k / per_level))
        for step in range(k):
            found = None
            for r in (target + step, target - step) if step else (target,):
                if 0 <= r < k and r not in seen:
                    seen.add(r)
                    if accept(order[r]):
                        found = r
                        break
            if found is not None:
                picks.append(order[found])
                break
            if target + step >= k and target - step < 0:
                break
    return picks


def refusal(layer_set, max_level=5):
    """Why build() would refuse the set before any work, in one line, or None: more layers than
    the search takes, or more stackings than this builder takes on. The fix it names is one that
    works: the deepest level whose stackings fit, or how many layers to keep. (The web page's
    Your box says it as the set is painted.)"""
    nl = len(layer_set.layers)
    if nl > stackings.MAX_LAYERS:
        return "%d layers; the builder takes at most %d: remove %d" % (nl, stackings.MAX_LAYERS, nl - stackings.MAX_LAYERS)
    top = min(max_level, nl)
    work = stackings.stacking_count(nl, top)
    if work > MAX_STACKINGS:
        fits = [k for k in range(MAX_LEVEL_RANGE[0], top) if stackings.stacking_count(nl, k) <= MAX_STACKINGS]
        if fits:
            fix = "use --max-level %d" % fits[-1]
        else:
            fix = "keep at most %d layers" % most_layers(MAX_LEVEL_RANGE[0])
        return ("%d layers make %d stackings of %d layers, more than this builder takes on (%d); %s" % (
            nl, work, top, MAX_STACKINGS, fix))
    return None


def most_layers(level):
    """The most layers whose stackings of `level` layers this builder takes on."""
    n = level
    while n < stackings.MAX_LAYERS and stackings.stacking_count(n + 1, level) <= MAX_STACKINGS:
        n += 1
    return n


def limits():
    """Every limit `cards build` has on a Layers set, in one place (the web page gets them from here)."""
    from layerlight_tools.layers import sets
    return {"size": [sets.MIN_SIZE, sets.MAX_SIZE], "colours": sets.MAX_COLOURS, "min_layers": sets.MIN_LAYERS,
            "layers": stackings.MAX_LAYERS, "stackings": MAX_STACKINGS, "per_level": list(PER_LEVEL_RANGE),
            "per_level_default": PER_LEVEL, "max_level": list(MAX_LEVEL_RANGE),
            "max_level_default": MAX_LEVEL_RANGE[1],
            "most_layers": {str(k): most_layers(k) for k in range(MAX_LEVEL_RANGE[0], MAX_LEVEL_RANGE[1] + 1)}}


def build(layer_set, per_level=60, max_level=5, progress=None, reach=None):
    """The missions of a deck: for each level 2..max_level the set allows, up to per_level of them.

    progress(stage, done, total) is called as the work goes on (stage
    'stackings' then 'missions'). Returns BuiltMission objects in deck order.
    reach, a dict, gets {level: patterns of that level the set makes}: what a
    deck could have had before "nearly the same" and --per-level thinned it.
    """
    n = layer_set.size
    nl = len(layer_set.layers)
    top = min(max_level, nl)
    why = refusal(layer_set, max_level)
    if why:
        raise BuildError(why)
    total = sum(stackings.stacking_count(nl, k) for k in range(1, top + 1))
    done = [0]

    def tick(amount):
        done[0] += amount
        if progress:
            progress("stackings", done[0], total)

    found = stackings.missions(layer_set.layers, n, len(layer_set.colours), top, tick)
    solver = Solver(layer_set.layers)
    near = NearCheck(n)
    chosen = []
    levels = [k for k in LEVELS if k <= top]
    for level in levels:
        cands = found[level]
        if reach is not None:
            reach[level] = len(cands)
        if not len(cands):
            continue
        grades = difficulty(level, cands.counts, cands.visible)
        order = stackings.order_by(grades, cands.planes)
        grids = {}

        def accept(i):
            g = stackings.to_grids(cands.planes[i:i + 1], n * n)[0]
            if near.clashes(g):
                return False
            grids[i] = g
            near.add(g)
            return True

        for i in spread(order, per_level, accept):
            chosen.append((level, float(grades[i]), bytes(grids[i]), int(cands.counts[i]), float(cands.visible[i])))
    missions = []
    for k, (level, grade, pattern, count, visible) in enumerate(sorted(chosen, key=lambda c: (c[0], c[1], c[2]))):
        sols = solver.solutions(pattern, level)
        if len(sols) != count or solver.min_level(pattern, level) != level:
            raise AssertionError("the search and the solver disagree on a level-%d pattern" % level)
        v, shown = best_solution(layer_set.layers, sols, n)
        if v != visible:
            raise AssertionError("the search and the solver disagree on the visibility of a pattern")
        missions.append(BuiltMission(k + 1, level, grade, pattern, sols, v, shown))
        if progress:
            progress("missions", k + 1, len(chosen))
    return missions


def write(layer_set, missions, path):
    """Write a deck file; returns its size in bytes."""
    data = deckpack.pack(layer_set, missions)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


# --- reading, checking, exporting --------------------------------------------

class HostStorage:
    """Plain files on the PC, for opening decks with the firmware's reader."""

    def open_read(self, name):
        return open(name, "rb")


def open_deck(path):
    """The firmware's Deck reader on a file of the PC (DeckError if it is not a good deck)."""
    return deckfile.Deck(HostStorage(), path)


def missions_of(deck):
    """Every mission of an open deck, in file order."""
    return [deck.mission(i) for i in range(deck.count)]


def check(path, progress=None):
    """Re-verify every mission of a deck from scratch; returns a list of problems (empty = good)."""
    d = open_deck(path)
    n = d.size
    solver = Solver(d.layers)
    problems = []
    near = NearCheck(n)
    ids = set()
    for i in range(d.count):
        m = d.mission(i)
        where = "mission %d" % m.id
        if m.id in ids:
            problems.append("%s: id used twice" % where)
        ids.add(m.id)
        if len(m.solution) != m.level or any(li >= len(d.layers) or o >= 8 for li, o in m.solution) \
                or len(set(li for li, _ in m.solution)) != m.level:
            problems.append("%s: its stored solution is not %d distinct layers" % (where, m.level))
        elif bytes(stacking.compose(d.layers, m.solution, n)) != m.pattern:
            problems.append("%s: its stored solution does not make its pattern" % where)
        low = solver.min_level(m.pattern, m.level)
        if low != m.level:
            problems.append("%s: level %d but %s" % (where, m.level, "made with %d layers" % low if low else "cannot be made"))
            continue
        sols = solver.solutions(m.pattern, m.level)
        if len(sols) != m.solution_count:
            problems.append("%s: %d solutions, the deck says %d" % (where, len(sols), m.solution_count))
        v, _ = best_solution(d.layers, sols, n)
        grade = float(difficulty(m.level, len(sols), v))
        if round(grade * 1000) != round(m.difficulty * 1000):
            problems.append("%s: difficulty %.3f, the deck says %.3f" % (where, grade, m.difficulty))
        if near.clashes(m.pattern):
            problems.append("%s: nearly the same as an earlier mission" % where)
        near.add(m.pattern)
        if progress:
            progress("check", i + 1, d.count)
    for level in range(deckfile.LEVEL_SLOTS):
        first, count = d.levels[level]
        for k in range(count):
            if d.mission(first + k).level != level:
                problems.append("level table: level %d lists a mission of another level" % level)
                break
    return problems


def placement(deck, li, o):
    return {"layer": deck.layers[li].id, "side": geometry.side_of(o), "rot": geometry.rot_of(o)}


def rows_of(deck, grid):
    n = deck.size
    chars = ["."] + deck.colour_chars
    return ["".join(chars[grid[y * n + x]] for x in range(n)) for y in range(n)]


def export(path, progress=None):
    """The deck as the JSON object of docs/formats.md, with every solution (solved again here)."""
    from layerlight_tools.layers.sets import rgb_hex
    d = open_deck(path)
    solver = Solver(d.layers)
    out = {
        "format": "layerlight.deck", "version": 1, "file_version": deckfile.VERSION,
        "set": {
            "name": d.name, "size": d.size, "background": rgb_hex(d.background),
            "colors": {ch: rgb_hex(rgb) for ch, rgb in zip(d.colour_chars, d.colours[1:])},
            "layers": [{"id": l.id, "front": rows_of(d, l.front), "back": rows_of(d, l.back)} for l in d.layers],
        },
        "missions": [],
    }
    for i in range(d.count):
        m = d.mission(i)
        sols = solver.solutions(m.pattern, m.level)
        if len(sols) != m.solution_count or not sols:
            raise DeckProblem("%s: mission %d has %d solutions, the deck says %d (run `layerlight cards check`)" % (
                path, m.id, len(sols), m.solution_count))
        out["missions"].append({
            "id": m.id, "level": m.level, "pattern": rows_of(d, m.pattern),
            "solutions": [[placement(d, li, o) for li, o in s] for s in sols],
            "difficulty": round(m.difficulty, 3),
            "shown_solution": [placement(d, li, o) for li, o in m.solution],
        })
        if progress:
            progress("export", i + 1, d.count)
    return out
