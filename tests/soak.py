"""`make soak`: the emulated Pico's power-cut tests at seeded moments, many seeds.

`make test` cuts at a fixed list of moments (tests/test_emulated_pico.py: SAVE_MOMENTS,
LOGGED_MOMENTS), the same every run. This explores: it draws SOAK_SEEDS new seeds (or takes
LAYERLIGHT_CUT_SEED=a,b,c), runs those tests once for each seed (each seed its own moments:
flash_cuts.seeded_moments) in one pytest session, and prints for every failure the line
that plays it again alone:

    LAYERLIGHT_CUT_SEED=N .venv/bin/python -m pytest tests/test_emulated_pico.py -k NAME

    .venv/bin/python tests/soak.py [--seeds N] [-k EXPR]
"""

import argparse
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TESTS = "tests/test_emulated_pico.py"
CUT_TESTS = "power_cut"
FAILED = re.compile(r"^FAILED (\S+)::(\w+)\[seed(\d+)\]")


def reproducers(output):
    """[(seed, test name)] of the failures pytest's short summary lists."""
    out = []
    for line in output.splitlines():
        m = FAILED.match(line)
        if m:
            out.append((int(m.group(3)), m.group(2)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="tests/soak.py", description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=int(os.environ.get("SOAK_SEEDS", "10")),
                   help="how many new seeds (default 10, or SOAK_SEEDS)")
    p.add_argument("-k", default=CUT_TESTS, help="which cut tests (pytest -k; default: all of them)")
    args = p.parse_args(argv)
    given = os.environ.get("LAYERLIGHT_CUT_SEED", "").strip()
    if given:
        seeds = [int(s) for s in given.split(",") if s.strip()]
    else:
        rng = random.SystemRandom()
        seeds = [rng.randrange(1 << 30) for _ in range(args.seeds)]
    print("soak: %d seeds: LAYERLIGHT_CUT_SEED=%s" % (len(seeds), ",".join(map(str, seeds))), flush=True)
    env = dict(os.environ, LAYERLIGHT_CUT_SEED=",".join(map(str, seeds)))
    cmd = [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", TESTS, "-k", args.k]
    run = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in run.stdout:
        sys.stdout.write(line)
        lines.append(line)
    code = run.wait()
    failed = reproducers("".join(lines))
    if failed:
        print("\nsoak: %d failed; each again alone:" % len(failed))
        for seed, name in failed:
            print("LAYERLIGHT_CUT_SEED=%d .venv/bin/python -m pytest %s -k %s" % (seed, TESTS, name))
    elif code == 0:
        print("soak: every seed passed")
    return code


if __name__ == "__main__":
    sys.exit(main())
