"""Which of the device's modes can play a deck, and, for each that cannot, why and what would fix it.

`layerlight cards build` prints it under its summary and the web page's Your
box shows it beside a built deck (its Play starts a mode that can play it).
The levels a mode deals are the firmware's own (`levels` of the modes'
classes, read from `layerlight.modes`): there is no second copy here.
"""

from layerlight import modes
from layerlight_tools.layers import cards


NOTHING = ("these layers make no pattern that needs 2 of them (a blank layer, or one that another covers "
           "in every stacking, never shows): paint more cells, or layers that differ")


def mode_levels(kind="layers"):
    """[(name, menu label, levels it deals)] of the modes that play a kind of deck, in menu order
    (OTLO: the star levels 1-3, any of which the mode plays)."""
    out = []
    for name, label, deck_kind, _, _ in modes.REGISTRY:
        if deck_kind == kind:
            levels = getattr(modes.mode_class(name), "levels", None) if kind == "layers" else None
            out.append((name, label, tuple(levels) if levels else (1, 2, 3)))
    return out


def span(levels):
    """'levels 3-5' or 'level 2'."""
    levels = sorted(levels)
    if len(levels) == 1:
        return "level %d" % levels[0]
    if levels == list(range(levels[0], levels[-1] + 1)):
        return "levels %d-%d" % (levels[0], levels[-1])
    return "levels " + ", ".join(str(k) for k in levels)


def plays(kind, counts, reach=None, layers=0, size=0, max_level=5):
    """For each mode of the deck's kind: {"mode", "label", "levels": the deck's levels it deals,
    "why": None, or (no level to deal) one line saying why and what would give it some}.

    counts: {level: missions in the deck}; reach: {level: patterns the set makes} (the
    builder's, cards.build(reach=...)); layers, size, max_level: the set's and the build's."""
    out = []
    for name, label, levels in mode_levels(kind):
        have = [k for k in levels if counts.get(k)]
        why = None
        if not have:
            why = (why_not(label, levels, counts, reach or {}, layers, size, max_level) if kind == "layers"
                   else "%s: the deck has no challenges" % label)
        out.append({"mode": name, "label": label, "levels": have, "why": why})
    return out


def why_not(label, levels, counts, reach, layers, size, max_level):
    """One line: why a Layers deck has no mission of the levels a mode deals, and the fix."""
    deals = "%s deals %s" % (label, span(levels))
    if not any(counts.values()) and not any(reach.values()):
        return "%s, and %s" % (deals, NOTHING)
    low = min(levels)
    if max_level < low:
        return "%s: the deepest level is %d; build with --max-level %d or more" % (deals, max_level, low)
    if layers < low:
        return "%s, which stack at least %d layers; the set has %d: add %d" % (deals, low, layers, low - layers)
    reached = [k for k in levels if reach.get(k) and k <= max_level]
    if reached:
        k = reached[0]
        limit = cards.near_limit(size)
        return ("%s: the set makes %d level-%d pattern%s, but each is nearly the same as a mission of a lower "
                "level already in the deck (on %dx%d, two patterns that differ in at most %d of %d cells, turned "
                "or mirrored); a bigger grid or more layers give it room" % (
                    deals, reach[k], k, "" if reach[k] == 1 else "s", size, size, limit, size * size))
    return ("%s, but no stack of %d of these layers shows every layer in it: add layers, or paint them so "
            "that each covers cells the others leave open" % (deals, low))


def summary_lines(plays_list):
    """The lines `cards build` prints under its summary: who plays it, then each mode that cannot
    and why (once, when the reason is that the set makes no pattern at all)."""
    ok = ["%s (%s)" % (p["label"], span(p["levels"])) for p in plays_list if p["levels"]]
    if ok:
        return ["plays in: " + ", ".join(ok)] + ["  " + p["why"] for p in plays_list if p["why"]]
    if all(p["why"] and p["why"].endswith(NOTHING) for p in plays_list):
        return ["no mode can play this deck: " + NOTHING]
    return ["no mode can play this deck"] + ["  " + p["why"] for p in plays_list if p["why"]]
