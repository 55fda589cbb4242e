"""Building, checking, exporting and showing OTLO challenge decks.

`build` picks the challenges of each star level:
1. shapes: every shape of the level's cell count (otlo_search.shapes, in the
   box otlo_search.box_for chooses);
2. candidates: patterns shown by random solutions (a seeded generator, so
   the same set gives the same deck): CANDIDATES per level spread evenly over
   the shapes. The whole pattern space is far too big to walk (one 12-cell
   shape of the default set shows 4.5 million patterns); otlo_search.
   pattern_counts walks it for small shapes and the tests hold the two
   searches to each other;
3. each candidate is solved from scratch by otlo_search.Solver: its exact
   solution count and the nodes the search visits to find them all;
4. picks: patterns with the fewest solutions first (those with at most FEW,
   more only when a level would be short), shapes taken in turn, and within
   a shape at evenly spaced ranks of effort (so easy and hard both come);
5. difficulty: the rank of a challenge's nodes among all the deck's
   challenges (ties share their mean rank), divided by the count - 1: 0 is
   the least effort in the deck, 1 the most. The stored solution is the one
   with the fewest tiles (the first found among those).
"""

import random
import zlib

from layerlight import otlo_deck
from layerlight import otlo_tiles as T
from layerlight_tools.otlo import deckpack as otlo_deckpack, search as otlo_search

CANDIDATES = 900      # random solutions per star level
FEW = 4               # a challenge with at most this many solutions is preferred
PER_LEVEL = 24        # challenges per star level
EXPORT_SOLUTIONS = 100


class BuildError(Exception):
    """A set the builder cannot make a deck of; str() is one line."""


class DeckProblem(Exception):
    """A deck whose challenges do not hold up; str() is one line."""


class BuiltChallenge(otlo_deck.Challenge):
    """A deck challenge with the effort the search took (nodes) and its shape number."""

    def __init__(self, ident, stars, difficulty, count, w, h, pattern, solution, nodes):
        otlo_deck.Challenge.__init__(self, ident, stars, difficulty, count, w, h, pattern, solution)
        self.nodes = nodes


def seed_of(otlo_set):
    """The random seed of a set: its tiles and star sizes, so the same set gives the same deck."""
    data = bytearray(repr((otlo_set.tile, sorted(otlo_set.stars.items()))).encode())
    for t in otlo_set.tiles:
        data += t.id.encode() + bytes(t.front) + bytes(t.back)
    return zlib.crc32(bytes(data))


def random_solution(otlo_set, rng, w, h, tiling, by_size):
    """A random solution on a tiling: distinct random tiles and turns, then 0.. random top tiles inside the shape."""
    n = len(otlo_set.tiles)
    order = rng.sample(range(n), n)
    placements = []
    mask = 0
    for k, (x, y, rw, rh) in enumerate(tiling):
        o = rng.choice([o for o in by_size[(rw, rh)] if o.tile == order[k]])
        placements.append((o.tile, T.BOTTOM, o.side, o.rot, x, y))
        mask |= otlo_search.rect_mask(w, x, y, rw, rh)
    spare = order[len(tiling):]
    occupied = 0
    for tile in spare[:rng.randrange(len(spare) + 1)]:
        o = rng.choice([o for o in by_size_all(by_size) if o.tile == tile])
        spots = [(x, y) for y in range(h - o.h + 1) for x in range(w - o.w + 1)
                 if otlo_search.rect_mask(w, x, y, o.w, o.h) & ~mask == 0
                 and otlo_search.rect_mask(w, x, y, o.w, o.h) & occupied == 0]
        if spots:
            x, y = rng.choice(spots)
            occupied |= otlo_search.rect_mask(w, x, y, o.w, o.h)
            placements.append((o.tile, T.TOP, o.side, o.rot, x, y))
    return placements


def by_size_all(by_size):
    return [o for size in sorted(by_size) for o in by_size[size]]


def candidates(otlo_set, cells, rng):
    """{(w, h, pattern): shape number} from CANDIDATES random solutions over the level's shapes."""
    n = len(otlo_set.tiles)
    box = otlo_search.box_for(otlo_set.tile, cells, n)
    shapes = otlo_search.shapes(otlo_set.tile, cells, box, n)
    by_size = {}
    for o in otlo_search.orientations(otlo_set):
        by_size.setdefault((o.w, o.h), []).append(o)
    found = {}
    for k, (w, h, shape) in enumerate(shapes):
        tilings = otlo_search.tilings(otlo_set.tile, w, h, otlo_search.shape_mask(w, shape), n)
        tries = CANDIDATES // len(shapes) + (1 if k < CANDIDATES % len(shapes) else 0)
        for _ in range(tries):
            sol = random_solution(otlo_set, rng, w, h, rng.choice(tilings), by_size)
            found.setdefault((w, h, otlo_search.picture(otlo_set, w, h, sol)), k)
    return found


def pick(scored, per_level):
    """Up to per_level of [(shape, count, nodes, key)]: fewest solutions first, shapes in turn, effort spread."""
    scored = sorted(scored, key=lambda s: (s[1], s[3]))
    pool = [s for s in scored if s[1] <= FEW]
    if len(pool) < per_level:
        pool = scored[:max(per_level, len(pool))]
    by_shape = {}
    for s in pool:
        by_shape.setdefault(s[0], []).append(s)
    quota = dict.fromkeys(by_shape, 0)
    left = min(per_level, len(pool))
    while left:
        for k in sorted(by_shape):
            if left and quota[k] < len(by_shape[k]):
                quota[k] += 1
                left -= 1
    picks = []
    for k in sorted(by_shape):
        group = sorted(by_shape[k], key=lambda s: (s[2], s[3]))
        q = quota[k]
        picks += [group[int((j + 0.5) * len(group) / q)] for j in range(q)]
    return picks


def grades(nodes):
    """Difficulty of each challenge: the rank of its nodes among all (ties averaged) / (count - 1), thousandths."""
    n = len(nodes)
    if n < 2:
        return [0.0] * n
    order = sorted(range(n), key=lambda i: nodes[i])
    rank = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and nodes[order[j + 1]] == nodes[order[i]]:
            j += 1
        for k in range(i, j + 1):
            rank[order[k]] = (i + j) / 2
        i = j + 1
    return [round(r / (n - 1), 3) for r in rank]


def stored_solution(sols):
    """The solution the device shows: the fewest tiles, the first found among those."""
    return min(sols, key=len)


def build(otlo_set, per_level=PER_LEVEL, progress=None):
    """The challenges of a deck (BuiltChallenge, deck order); progress(stage, done, total) as it goes."""
    rng = random.Random(seed_of(otlo_set))
    n = len(otlo_set.tiles)
    levels = sorted(otlo_set.stars.items())
    chosen = []
    for stars, cells in levels:
        if cells // (otlo_set.tile[0] * otlo_set.tile[1]) > n:
            continue
        cands = candidates(otlo_set, cells, rng)
        scored = []
        for k, ((w, h, pattern), shape) in enumerate(sorted(cands.items())):
            count, nodes = otlo_search.count(otlo_set, w, h, pattern)
            scored.append((shape, count, nodes, (w, h, pattern)))
            if progress:
                progress("%d star%s" % (stars, "" if stars == 1 else "s"), k + 1, len(cands))
        for shape, count, nodes, key in pick(scored, per_level):
            chosen.append((stars, count, nodes, key))
    if not chosen:
        raise BuildError("no shape of %s cells can be covered by %d tiles of %d x %d" % (
            " / ".join(str(c) for _, c in levels), n, otlo_set.tile[0], otlo_set.tile[1]))
    diffs = grades([c[2] for c in chosen])
    rows = sorted(zip(chosen, diffs), key=lambda r: (r[0][0], r[1], r[0][3]))
    out = []
    for ident, ((stars, count, nodes, (w, h, pattern)), diff) in enumerate(rows, 1):
        sols = otlo_search.solutions(otlo_set, w, h, pattern, None if count <= EXPORT_SOLUTIONS else EXPORT_SOLUTIONS)
        out.append(BuiltChallenge(ident, stars, diff, count, w, h, pattern, stored_solution(sols), nodes))
    return out


def write(otlo_set, challenges, path):
    """Write a deck file; returns its size in bytes."""
    data = otlo_deckpack.pack(otlo_set, challenges)
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


# --- reading, checking, exporting ---------------------------------------------------

class HostStorage:
    """Plain files on the PC, for the firmware's deck reader."""

    def open_read(self, name):
        return open(name, "rb")


class DeckSet:
    """The tile set stored in an open deck, as the search wants it."""

    def __init__(self, deck):
        self.tile = (deck.tile_w, deck.tile_h)
        self.tiles = deck.tiles
        self.name = deck.name


def open_deck(path):
    """The firmware's OtloDeck reader on a file of the PC (DeckError if it is not a good deck)."""
    return otlo_deck.OtloDeck(HostStorage(), path)


def is_otlo_deck(path):
    """True when a file starts with the OTLO deck magic."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == otlo_deck.MAGIC
    except OSError:
        return False


def challenges_of(deck):
    return [deck.challenge(i) for i in range(deck.count)]


def rule_problem(deck_set, c):
    """Why a challenge's stored solution breaks the rules or does not show its pattern (None: it is good)."""
    n = len(deck_set.tiles)
    tw, th = deck_set.tile
    mask = 0
    for i, v in enumerate(c.pattern):
        if v != T.OUTSIDE:
            mask |= 1 << i
    used = set()
    layers = {T.BOTTOM: 0, T.TOP: 0}
    seen_top = False
    for tile, layer, side, rot, x, y in c.solution:
        if tile >= n or rot > 3:
            return "its stored solution names no such tile or turn"
        if tile in used:
            return "its stored solution lays tile %s twice" % deck_set.tiles[tile].id
        used.add(tile)
        if layer == T.TOP:
            seen_top = True
        elif seen_top:
            return "its stored solution lists a bottom tile after a top one"
        w, h = T.turned_size(tw, th, rot)
        if x + w > c.w or y + h > c.h:
            return "its stored solution lays tile %s outside the pattern" % deck_set.tiles[tile].id
        m = otlo_search.rect_mask(c.w, x, y, w, h)
        if m & ~mask:
            return "its stored solution lays tile %s outside the shape" % deck_set.tiles[tile].id
        if layers[layer] & m:
            return "its stored solution overlaps two tiles of one layer"
        layers[layer] |= m
    if layers[T.BOTTOM] != mask:
        return "the bottom layer of its stored solution does not cover the shape"
    if otlo_search.picture(deck_set, c.w, c.h, c.solution) != bytes(c.pattern):
        return "its stored solution does not show its pattern"
    return None


def check(path, progress=None):
    """Re-solve every challenge of a deck from scratch; a list of problems (empty = good)."""
    d = open_deck(path)
    ds = DeckSet(d)
    problems = []
    cs = challenges_of(d)
    nodes = []
    ids = set()
    sizes = {}
    for i, c in enumerate(cs):
        where = "challenge %d" % c.id
        if c.id in ids:
            problems.append("%s: id used twice" % where)
        ids.add(c.id)
        if c.w > otlo_search.MAX_BOX or c.h > otlo_search.MAX_BOX:
            problems.append("%s: %d x %d, more than the device shows (%d x %d)" % (
                where, c.w, c.h, otlo_search.MAX_BOX, otlo_search.MAX_BOX))
        cells = sum(1 for v in c.pattern if v != T.OUTSIDE)
        if not 1 <= c.stars <= 3:
            problems.append("%s: %d stars (1 to 3)" % (where, c.stars))
        if sizes.setdefault(c.stars, cells) != cells:
            problems.append("%s: %d cells, other %d-star challenges have %d" % (where, cells, c.stars, sizes[c.stars]))
        bad = rule_problem(ds, c)
        if bad:
            problems.append("%s: %s" % (where, bad))
        count, n = otlo_search.count(ds, c.w, c.h, c.pattern)
        nodes.append(n)
        if count != c.solution_count:
            problems.append("%s: %d solutions, the deck says %d" % (where, count, c.solution_count))
        if cells % (ds.tile[0] * ds.tile[1]):
            problems.append("%s: a shape of %d cells no tiles can cover" % (where, cells))
        if progress:
            progress("check", i + 1, len(cs))
    for c, g in zip(cs, grades(nodes)):
        if round(g * 1000) != round(c.difficulty * 1000):
            problems.append("challenge %d: difficulty %.3f, the deck says %.3f" % (c.id, g, c.difficulty))
    for stars in range(otlo_deck.STAR_SLOTS):
        for k in range(d.level_count(stars)):
            if d.level_challenge(stars, k).stars != stars:
                problems.append("level table: %d stars lists a challenge of another level" % stars)
                break
    return problems


def rows_of(chars, grid, w, h):
    return ["".join(chars[grid[y * w + x]] for x in range(w)) for y in range(h)]


def chars_of(deck):
    """Character of every pattern value of a deck: '.' outside, '_' table, the colours."""
    out = ["."] * 16
    out[T.TABLE] = "_"
    for i, ch in enumerate(deck.colour_chars):
        out[i + 1] = ch
    return out


def placement_json(deck, p):
    tile, layer, side, rot, x, y = p
    return {"tile": deck.tiles[tile].id, "layer": "top" if layer == T.TOP else "bottom",
            "side": "back" if side == T.BACK else "front", "rot": rot * 90, "x": x, "y": y}


def export(path, progress=None):
    """The deck as the JSON object of docs/formats.md; solutions solved again here."""
    from layerlight_tools.layers.sets import rgb_hex
    d = open_deck(path)
    ds = DeckSet(d)
    chars = chars_of(d)
    tw, th = ds.tile
    tile_chars = ["."] + d.colour_chars
    out = {
        "format": "layerlight.otlo-deck", "version": 1, "file_version": otlo_deck.VERSION,
        "set": {
            "name": d.name, "tile": [tw, th], "table": rgb_hex(d.colours[0]),
            "colors": {ch: rgb_hex(rgb) for ch, rgb in zip(d.colour_chars, d.colours[1:])},
            "tiles": [{"id": t.id, "front": rows_of(tile_chars, t.front, tw, th),
                       "back": rows_of(tile_chars, t.back, tw, th)} for t in d.tiles],
        },
        "challenges": [],
    }
    cs = challenges_of(d)
    for i, c in enumerate(cs):
        solver = otlo_search.Solver(ds, c.w, c.h, c.pattern)
        count = solver.count()
        if count != c.solution_count or not count:
            raise DeckProblem("%s: challenge %d has %d solutions, the deck says %d (run `layerlight cards check`)" % (
                path, c.id, count, c.solution_count))
        sols = solver.solutions(None if count <= EXPORT_SOLUTIONS else EXPORT_SOLUTIONS)
        out["challenges"].append({
            "id": c.id, "stars": c.stars, "pattern": rows_of(chars, c.pattern, c.w, c.h),
            "solution_count": count,
            "solutions": [[placement_json(d, p) for p in s] for s in sols],
            "difficulty": round(c.difficulty, 3),
            "shown_solution": [placement_json(d, p) for p in c.solution],
        })
        if progress:
            progress("export", i + 1, len(cs))
    return out
