"""`layerlight hardware`: regenerate hardware/ from the pin map, the BOM and the power model."""

import sys

from layerlight_tools.errors import UserError


def cmd_hardware(args):
    from layerlight_tools import hwdocs, wiring

    try:
        if args.check:
            old = hwdocs.stale()
            for rel in old:
                print("out of date: hardware/%s (run make hardware)" % rel, file=sys.stderr)
            return 1 if old else 0
        for rel in hwdocs.write():
            print("wrote hardware/%s" % rel)
    except (wiring.PinMapError, hwdocs.BomError, KeyError) as e:
        raise UserError(str(e))
    return 0


def register(sub):
    s = sub.add_parser("hardware", help="regenerate the wiring diagrams, pin tables, Wokwi diagram and README tables")
    s.add_argument("--check", action="store_true", help="only report generated files that are out of date")
    s.set_defaults(func=cmd_hardware)
