"""`make bench`: runs every tests/bench/bench_*.py and prints its figures.

Benchmarks print; they never fail on a slow machine.
"""

import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # tests/: mpy.py, scenario_lib.py


def main():
    names = sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("bench_") and f.endswith(".py"))
    if len(sys.argv) > 1:
        names = [n for n in names if any(a in n for a in sys.argv[1:])]
    for name in names:
        print("== %s" % name)
        importlib.import_module(name).main()
        print()


if __name__ == "__main__":
    main()
