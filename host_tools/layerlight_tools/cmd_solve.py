"""`layerlight solve SET PATTERN_FILE`: every stacking of a set that shows a pattern typed as rows.

A Layers set lists stackings of its layers; an OTLO set (`kind = "otlo"`) every
way of laying its tiles in two layers that shows the challenge (otlo_search)."""

import sys

from layerlight_tools.errors import UserError


def solve(layer_set, pattern, level=None):
    """(fewest layers or 0, level listed, its solutions): every stacking of `level` layers
    (some may hide a layer), or of the fewest layers that make the pattern."""
    from layerlight.solver import Solver
    solver = Solver(layer_set.layers)
    top = min(5, len(layer_set.layers))
    low = solver.min_level(pattern, top)
    at = level if level is not None else low
    return low, at, (solver.solutions(pattern, at, hidden=True) if at else [])


def read_pattern(path):
    """(text, where) of a pattern file ('-': standard input); UserError if it cannot be read."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8"), path
    except OSError as e:
        raise UserError("%s: cannot read: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise UserError("%s: not a text file" % path)


def cmd_solve(args):
    from layerlight_tools.layers import sets, show
    from layerlight_tools.otlo import sets as otlo_sets
    if otlo_sets.is_otlo(args.set):
        return cmd_solve_otlo(args)
    try:
        layer_set = sets.load(args.set)
        text, where = read_pattern(args.pattern)
        pattern = sets.parse_pattern(text, layer_set, where)
    except sets.SetError as e:
        raise UserError(str(e))
    if args.level is not None and not 1 <= args.level <= min(5, len(layer_set.layers)):
        raise UserError("--level must be from 1 to %d" % min(5, len(layer_set.layers)))
    low, at, sols = solve(layer_set, pattern, args.level)
    if not low:
        print("no stacking of 1 to %d layers shows this pattern" % min(5, len(layer_set.layers)))
    else:
        print("fewest layers: %d (a mission of level %d)" % (low, low))
    if at:
        print("%d solution%s with %d layers (bottom first):" % (len(sols), "" if len(sols) == 1 else "s", at))
        for k, s in enumerate(sols):
            print("  %3d. %s" % (k + 1, show.solution_text(layer_set.layers, s)))
    return 0 if sols else 1


def cmd_solve_otlo(args):
    """Every solution of an OTLO challenge under the rules of docs/formats.md."""
    from layerlight_tools.otlo import search as otlo_search, sets as otlo_sets, show as otlo_show
    if args.level is not None:
        raise UserError("--level is for Layers sets: an OTLO solution has as many tiles as it needs")
    try:
        tile_set = otlo_sets.load(args.set)
        text, where = read_pattern(args.pattern)
        w, h, pattern = otlo_sets.parse_pattern(text, tile_set, where)
    except otlo_sets.OtloSetError as e:
        raise UserError(str(e))
    sols = otlo_search.solutions(tile_set, w, h, pattern)
    if not sols:
        print("no way of laying the tiles of %s shows this challenge" % args.set)
        return 1
    print("%d solution%s (placements bottom first, then top; x, y: the tile's top-left cell):" % (
        len(sols), "" if len(sols) == 1 else "s"))
    for k, s in enumerate(sols):
        print("  %3d. %s" % (k + 1, otlo_show.solution_text(tile_set, s)))
    return 0


def register(sub):
    s = sub.add_parser("solve", help="every stacking of a set that shows a pattern")
    s.add_argument("set", help="layer-set or OTLO tile-set TOML file")
    s.add_argument("pattern", help="file with the pattern as rows of colour characters and '.' (OTLO: '_' where the"
                                   " table shows; '-': standard input)")
    s.add_argument("--level", type=int, help="list the stackings of exactly this many layers (default: the fewest)")
    s.set_defaults(func=cmd_solve)
