"""An OTLO challenge as terminal text: the pattern, the stored solution layer by layer, every solution."""

from layerlight import otlo_tiles as T
from layerlight_tools.otlo import cards as otlo_cards, search as otlo_search


def grid_lines(grid, w, h, chars, rgbs, colour):
    """Rows of a w x h pattern: two spaces a cell on its colour (outside: plain), or its character twice."""
    lines = []
    for y in range(h):
        cells = []
        for x in range(w):
            c = grid[y * w + x]
            if not colour:
                cells.append(chars[c] * 2)
            elif c == T.OUTSIDE:
                cells.append("\x1b[0m  ")
            else:
                cells.append("\x1b[48;2;%d;%d;%dm  " % rgbs(c))
        lines.append("".join(cells) + ("\x1b[0m" if colour else ""))
    return lines


def placement_text(deck, p):
    """'t1 bottom front 90 at 0,0'."""
    j = otlo_cards.placement_json(deck, p)
    return "%s %s %s %d at %d,%d" % (j["tile"], j["layer"], j["side"], j["rot"], j["x"], j["y"])


def solution_text(deck, sol):
    return "; ".join(placement_text(deck, p) for p in sol)


def challenge_lines(deck, c, colour, limit=40):
    """(lines, counts agree): the pattern, the stored solution's bottom, top and what shows, every solution."""
    ds = otlo_cards.DeckSet(deck)
    chars = otlo_cards.chars_of(deck)

    def rgbs(v):
        return deck.colours[0] if v == T.TABLE else deck.colours[v]

    solver = otlo_search.Solver(ds, c.w, c.h, c.pattern)
    count = solver.count()
    sols = solver.solutions(limit or None)
    out = ["challenge %d of %s: %d star%s, %d x %d, difficulty %.3f, %d solution%s" % (
        c.id, deck.name, c.stars, "" if c.stars == 1 else "s", c.w, c.h, c.difficulty, count,
        "" if count == 1 else "s")]
    out += ["  " + line for line in grid_lines(c.pattern, c.w, c.h, chars, rgbs, colour)]
    out.append("")
    out.append("shown on the device:")
    bottom = [p for p in c.solution if p[1] == T.BOTTOM]
    blocks = [otlo_search.picture(ds, c.w, c.h, bottom), otlo_search.picture(ds, c.w, c.h, c.solution)]
    titles = ["bottom", "+ top = seen"]
    width = 2 * c.w
    out.append("  " + "   ".join(t.ljust(width) for t in titles).rstrip())
    cols = [grid_lines(b, c.w, c.h, chars, rgbs, colour) for b in blocks]
    for y in range(c.h):
        out.append("  " + "   ".join(col[y] for col in cols))
    for p in c.solution:
        out.append("  " + placement_text(deck, p))
    out.append("")
    out.append("every solution (bottom first):")
    for k, s in enumerate(sols):
        out.append("  %3d. %s" % (k + 1, solution_text(deck, s)))
    if len(sols) < count:
        out.append("  ... and %d more (--limit 0 lists them all)" % (count - len(sols)))
    if count != c.solution_count:
        out.append("warning: the deck says %d solutions" % c.solution_count)
    return out, count == c.solution_count
