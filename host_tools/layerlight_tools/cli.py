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
    "cmd_emulate",
    "cmd_cards",
    "cmd_solve",
    "cmd_power", "cmd_hardware",
    "cmd_history",
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
        code = args.func(args) or 0
        sys.stdout.flush()  # here, so a reader that went away is caught below, not at exit
        return code
    except UserError as e:
        print("layerlight: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`layerlight cards show DECK 14 | head -2`): end
        # quietly, as a Unix command killed by SIGPIPE would. Python would otherwise complain
        # again when it flushes stdout at exit, so stdout goes to devnull first (the Python
        # docs' advice on SIGPIPE).
        import os
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
