"""The `layerlight` command: thin sub-commands over importable functions.

Each sub-command lives in its own module with a `register(subparsers)`;
adding one is a new module and a line in COMMANDS.
"""

import argparse
import importlib
import sys

from layerlight_tools.errors import UserError

COMMANDS = (
    "cmd_flash",
    "cmd_doctor",
    "cmd_monitor",
    "cmd_sim",
    "cmd_cards",
    "cmd_solve",
    "cmd_power", "cmd_hardware",
)


def build_parser():
    p = argparse.ArgumentParser(prog="layerlight", description="Layerlight host tools")
    sub = p.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module("layerlight_tools." + name).register(sub)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args) or 0
    except UserError as e:
        print("layerlight: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
