"""`layerlight cards`: build, check, export, render and show mission decks.

Two kinds of deck stand behind the same commands: Layers mission decks and
OTLO challenge decks. Each command picks its kind once, here: by the set
file (`kind = "otlo"`) or by the deck file's magic (b"LLOT"); the Layers work
is in the layers package, the OTLO work in otlo_cmd_* below and the otlo package.
"""

import json
import os
import sys
import time

from layerlight_tools.errors import UserError


def _guard(fn, *args, **kw):
    """Run fn; a bad deck of either kind (DeckError, a DeckProblem) is one line."""
    from layerlight.deckfile import DeckError
    from layerlight_tools.layers import cards
    from layerlight_tools.otlo import cards as otlo_cards
    try:
        return fn(*args, **kw)
    except (DeckError, cards.DeckProblem, otlo_cards.DeckProblem) as e:
        raise UserError(str(e))


def _open(path):
    """The firmware's mission deck reader on a deck file; a bad deck is one line."""
    from layerlight_tools.layers import cards
    return _guard(cards.open_deck, path)


def _is_otlo_deck(path):
    from layerlight_tools.otlo import cards as otlo_cards
    return otlo_cards.is_otlo_deck(path)


def load_set(path, raw=None):
    """(kind, set) of a set file of either kind: "layers" (a LayerSet) or "otlo" (an OtloSet), read
    from `path`, or from its bytes `raw` when given (the web page's server); every mistake is
    the one-line UserError `cards build` prints."""
    from layerlight_tools.layers import sets
    from layerlight_tools.otlo import sets as otlo_sets
    if raw is None:
        if otlo_sets.is_otlo(path):
            loader, error, kind = otlo_sets.load, otlo_sets.OtloSetError, "otlo"
        else:
            loader, error, kind = sets.load, sets.SetError, "layers"
        args = (path,)
    else:
        if otlo_sets.is_otlo_text(raw):
            loader, error, kind = otlo_sets.loads, otlo_sets.OtloSetError, "otlo"
        else:
            loader, error, kind = sets.loads, sets.SetError, "layers"
        args = (raw, path)
    try:
        return kind, loader(*args)
    except error as e:
        raise UserError(str(e))


def build_options(kind, per_level, max_level):
    """The missions (challenges) per level a build makes: per_level, or the kind's default; a value
    out of range is the UserError `cards build` prints."""
    if kind == "otlo":
        from layerlight_tools.otlo import cards as otlo_cards
        per_level = otlo_cards.PER_LEVEL if per_level is None else per_level
        if not 1 <= per_level <= 200:
            raise UserError("--per-level must be from 1 to 200, not %d" % per_level)
        return per_level
    from layerlight_tools.layers import cards
    if per_level is None:
        per_level = cards.PER_LEVEL
    low, high = cards.PER_LEVEL_RANGE
    if not low <= per_level <= high:
        raise UserError("--per-level must be from %d to %d, not %d" % (low, high, per_level))
    low, high = cards.MAX_LEVEL_RANGE
    if not low <= max_level <= high:
        raise UserError("--max-level must be from %d to %d, not %d" % (low, high, max_level))
    return per_level


def build_refusal(kind, the_set, max_level, where):
    """The line `cards build` stops with before any work on a set it does not take on (Layers: more
    stackings than the builder takes on), as `where: why`, or None."""
    if kind == "otlo":
        return None
    from layerlight_tools.layers import cards
    why = cards.refusal(the_set, max_level)
    return "%s: %s" % (where, why) if why else None


def build_items(kind, the_set, per_level, max_level, progress, where, reach=None):
    """The missions (or OTLO challenges) of a deck, in deck order; progress(stage, done, total) as
    it goes; a set the builder refuses is the UserError `where: why`. reach (a dict, Layers):
    filled with the patterns of each level the set makes (cards.build)."""
    from layerlight_tools.layers import cards
    from layerlight_tools.otlo import cards as otlo_cards
    try:
        if kind == "otlo":
            return otlo_cards.build(the_set, per_level, progress)
        return cards.build(the_set, per_level, max_level, progress, reach)
    except (cards.BuildError, otlo_cards.BuildError) as e:
        raise UserError("%s: %s" % (where, e))


def pack_deck(kind, the_set, items):
    """The deck file's bytes."""
    from layerlight_tools.layers import deckpack
    from layerlight_tools.otlo import deckpack as otlo_deckpack
    return (otlo_deckpack if kind == "otlo" else deckpack).pack(the_set, items)


def level_counts(kind, items):
    """{level or stars: how many} of a deck's missions or challenges."""
    counts = {}
    for m in items:
        level = m.stars if kind == "otlo" else m.level
        counts[level] = counts.get(level, 0) + 1
    return counts


def build_summary(kind, items):
    """'240 missions (level 2: 60, ...)' or '72 challenges (1 star: 24, ...)'."""
    counts = level_counts(kind, items)
    if kind == "otlo":
        levels = ", ".join("%d star%s: %d" % (k, "" if k == 1 else "s", v) for k, v in sorted(counts.items()))
        return "%d challenges (%s)" % (len(items), levels)
    levels = ", ".join("level %d: %d" % kv for kv in sorted(counts.items())) or "no missions"
    return "%d mission%s (%s)" % (len(items), "" if len(items) == 1 else "s", levels)


def deck_plays(kind, the_set, items, reach, max_level):
    """Which modes can play the deck built (playable.plays): the levels each deals, or why not."""
    from layerlight_tools.layers import playable
    if kind == "otlo":
        return playable.plays("otlo", level_counts(kind, items))
    return playable.plays("layers", level_counts(kind, items), reach, len(the_set.layers), the_set.size, max_level)


def pattern_too_big(n, width, height):
    """One line when an n x n mission pattern cannot show on a width x height matrix, else None:
    the race screen (screens.Layout) gives each cell whole LEDs inside a 1-LED frame kept for
    the sand ring. `sim --deck` and the web page's Your box say it."""
    from layerlight.screens import pattern_room
    room = pattern_room(width, height)
    if n > room:
        return ("size %d: a %dx%d pattern is too big for the %dx%d matrix (at most %d cells a side leave the "
                "sand ring its frame)" % (n, n, n, width, height, room))
    return None


def cmd_cards_build(args):
    from layerlight_tools import progress
    kind, the_set = load_set(args.set)
    per_level = build_options(kind, args.per_level, args.max_level)
    t0 = time.monotonic()
    reach = {}
    with progress.Bars(None if not args.quiet else False) as bars:
        items = build_items(kind, the_set, per_level, args.max_level, bars, args.set, reach)
    try:
        data = pack_deck(kind, the_set, items)
        with open(args.output, "wb") as f:
            f.write(data)
    except (OSError, ValueError) as e:
        raise UserError("%s: cannot write: %s" % (args.output, getattr(e, "strerror", None) or e))
    print("%s: %s, %d bytes, %.1f s" % (args.output, build_summary(kind, items), len(data), time.monotonic() - t0))
    from layerlight_tools.layers import playable
    for line in playable.summary_lines(deck_plays(kind, the_set, items, reach, args.max_level)):
        print(line)
    return 0


def cmd_cards_check(args):
    if _is_otlo_deck(args.deck):
        return otlo_cmd_check(args)
    from layerlight_tools import progress
    from layerlight_tools.layers import cards
    with progress.Bars(None) as bars:
        problems = _guard(cards.check, args.deck, bars)
    for p in problems:
        print("%s: %s" % (args.deck, p))
    if problems:
        return 1
    d = _open(args.deck)
    print("%s: all %d missions checked from scratch (levels, solution counts, difficulty, nothing nearly the same)" % (
        args.deck, d.count))
    return 0


def cmd_cards_export(args):
    from layerlight_tools import progress
    from layerlight_tools.layers import cards
    if not args.json:
        raise UserError("say which format: --json")
    if _is_otlo_deck(args.deck):
        from layerlight_tools.otlo import cards as otlo_cards
        with progress.Bars(None) as bars:
            data = _guard(otlo_cards.export, args.deck, bars)
        return _write_json(args, data, "challenges")
    with progress.Bars(None) as bars:
        data = _guard(cards.export, args.deck, bars)
    return _write_json(args, data, "missions")


def _write_json(args, data, items):
    text = json.dumps(data, indent=1) + "\n"
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w") as f:
                f.write(text)
        except OSError as e:
            raise UserError("%s: cannot write: %s" % (args.output, e.strerror or e))
        print("%s: %d %s" % (args.output, len(data[items]), items))
    return 0


def deck_pages(path, sets=4):
    """(the deck, its printable pages): mission cards and layers, or OTLO challenge cards and
    `sets` players' tiles; `cards render` and the web page's "Print your box" both use it."""
    from layerlight_tools.layers import render
    if _is_otlo_deck(path):
        try:
            from layerlight_tools.otlo import render as otlo_render
        except ImportError:
            raise UserError("%s: OTLO rendering not available" % path)
        d = _otlo_open(path)
        return d, otlo_render.pages(d, sets)
    d = _open(path)
    return d, render.pages(d)


def pdf_note(d, pages):
    """'3 pages (12 cards, 4 layers, fronts and backs)'."""
    return "%d pages (%d cards, %d %s, fronts and backs)" % (
        len(pages), d.count, len(d.tiles) if d.kind == "otlo" else len(d.layers),
        "tiles" if d.kind == "otlo" else "layers")


def cmd_cards_render(args):
    from layerlight_tools.layers import render
    if not args.output and not args.png:
        raise UserError("say where to: -o cards.pdf and/or --png DIR")
    d, pages = deck_pages(args.deck, args.sets)
    if args.output:
        try:
            render.write_pdf(pages, args.output)
        except OSError as e:
            raise UserError("%s: cannot write: %s" % (args.output, e.strerror or e))
        print("%s: %s" % (args.output, pdf_note(d, pages)))
    if args.png:
        try:
            os.makedirs(args.png, exist_ok=True)
            names = render.write_png(pages, args.png, args.dpi)
        except OSError as e:
            raise UserError("%s: cannot write: %s" % (args.png, e.strerror or e))
        print("%s: %d PNG pages at %d dpi" % (args.png, len(names), args.dpi))
    return 0


def cmd_cards_show(args):
    if _is_otlo_deck(args.deck):
        return otlo_cmd_show(args)
    from layerlight.solver import Solver
    from layerlight_tools.layers import show
    d = _open(args.deck)
    found = None
    for i in range(d.count):
        m = d.mission(i)
        if m.id == args.mission:
            found = m
            break
    if found is None:
        raise UserError("%s: no mission %d (the deck has ids %d to %d)" % (
            args.deck, args.mission, d.mission(0).id if d.count else 0, d.mission(d.count - 1).id if d.count else 0))
    m = found
    colour = show.use_colour() if args.color == "auto" else args.color == "always"
    chars = ["."] + d.colour_chars
    sols = Solver(d.layers).solutions(m.pattern, m.level)
    n = d.size
    print("mission %d of %s: level %d, difficulty %.3f, %d solution%s" % (
        m.id, d.name or args.deck, m.level, m.difficulty, len(sols), "" if len(sols) == 1 else "s"))
    for line in show.grid_lines(m.pattern, n, chars, d.colours, colour):
        print("  " + line)
    print()
    print("shown on the device (bottom first):")
    for line in show.solution_lines(d.layers, m.solution, n, chars, d.colours, colour):
        print("  " + line)
    print()
    print("every solution (bottom first):")
    for k, s in enumerate(sols[:args.limit] if args.limit else sols):
        print("  %3d. %s" % (k + 1, show.solution_text(d.layers, s)))
    if args.limit and len(sols) > args.limit:
        print("  ... and %d more (--limit 0 lists them all)" % (len(sols) - args.limit))
    if len(sols) != m.solution_count:
        print("warning: the deck says %d solutions" % m.solution_count)
        return 1
    return 0


# --- OTLO challenge decks ---------------------------------------------------

def _otlo_open(path):
    from layerlight_tools.otlo import cards as otlo_cards
    return _guard(otlo_cards.open_deck, path)


def otlo_cmd_check(args):
    from layerlight_tools import progress
    from layerlight_tools.otlo import cards as otlo_cards
    with progress.Bars(None) as bars:
        problems = _guard(otlo_cards.check, args.deck, bars)
    for p in problems:
        print("%s: %s" % (args.deck, p))
    if problems:
        return 1
    d = _otlo_open(args.deck)
    print("%s: all %d challenges solved again from scratch (solution counts, stored solutions, difficulty)" % (
        args.deck, d.count))
    return 0


def otlo_cmd_show(args):
    from layerlight_tools.layers import show
    from layerlight_tools.otlo import cards as otlo_cards, show as otlo_show
    d = _otlo_open(args.deck)
    found = [c for c in otlo_cards.challenges_of(d) if c.id == args.mission]
    if not found:
        raise UserError("%s: no challenge %d (the deck has %d challenges)" % (args.deck, args.mission, d.count))
    colour = show.use_colour() if args.color == "auto" else args.color == "always"
    lines, ok = otlo_show.challenge_lines(d, found[0], colour, args.limit)
    for line in lines:
        print(line)
    return 0 if ok else 1


def register(sub):
    c = sub.add_parser("cards", help="mission decks: build, check, export, render, show; read-photo").add_subparsers(
        dest="cards_command", required=True)
    b = c.add_parser("build", help="build a deck from a layer-set file (every stacking of 1-5 layers)")
    b.add_argument("set", help="layer-set or OTLO tile-set TOML file (docs/formats.md, docs/otlo-tiles.md)")
    b.add_argument("-o", "--output", required=True, help="deck file to write")
    b.add_argument("--per-level", type=int, help="missions per level (default 60; OTLO: challenges per star level, 24)")
    b.add_argument("--max-level", type=int, default=5, help="deepest level, 2-5 (default 5)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=cmd_cards_build)
    k = c.add_parser("check", help="re-verify every mission of a deck from scratch")
    k.add_argument("deck")
    k.set_defaults(func=cmd_cards_check)
    e = c.add_parser("export", help="the deck as JSON with every solution")
    e.add_argument("deck")
    e.add_argument("--json", action="store_true", help="JSON as in docs/formats.md")
    e.add_argument("-o", "--output", help="file to write (default: standard output)")
    e.set_defaults(func=cmd_cards_export)
    r = c.add_parser("render", help="printable mission cards and layers (PDF and/or PNG pages)")
    r.add_argument("deck")
    r.add_argument("-o", "--output", help="PDF file to write")
    r.add_argument("--png", metavar="DIR", help="write the pages as PNG files into DIR")
    r.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150)")
    r.add_argument("--sets", type=int, default=4,
                   help="OTLO: tile sets to print, one a player, each on its own tint: cream, blue, pink, "
                   "green (1-4, default 4)")
    r.set_defaults(func=cmd_cards_render)
    s = c.add_parser("show", help="one mission in colour in the terminal, with its solutions")
    s.add_argument("deck")
    s.add_argument("mission", type=int, help="mission (or OTLO challenge) id")
    s.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    s.add_argument("--limit", type=int, default=40, help="list at most this many solutions (0: all)")
    s.set_defaults(func=cmd_cards_show)
    from layerlight_tools import cmd_read_photo
    cmd_read_photo.register(c)
