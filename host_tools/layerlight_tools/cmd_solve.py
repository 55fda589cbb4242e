"""`layerlight solve SET PATTERN_FILE`: every stacking of a set that shows a pattern typed as rows."""

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


def cmd_solve(args):
    from layerlight_tools import sets, show
    try:
        layer_set = sets.load(args.set)
        if args.pattern == "-":
            text, where = sys.stdin.read(), "<stdin>"
        else:
            try:
                with open(args.pattern, "rb") as f:
                    raw = f.read()
                text = raw.decode("utf-8")
            except OSError as e:
                raise sets.SetError("%s: cannot read: %s" % (args.pattern, e.strerror or e))
            except UnicodeDecodeError:
                raise sets.SetError("%s: not a text file" % args.pattern)
            where = args.pattern
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


def register(sub):
    s = sub.add_parser("solve", help="every stacking of a set that shows a pattern")
    s.add_argument("set", help="layer-set TOML file")
    s.add_argument("pattern", help="file with the pattern as rows of colour characters and '.' ('-': standard input)")
    s.add_argument("--level", type=int, help="list the stackings of exactly this many layers (default: the fewest)")
    s.set_defaults(func=cmd_solve)
