"""`make soak` (tests/soak.py) and the emulated power cuts' moments: fixed in `make test`, seeded
under LAYERLIGHT_CUT_SEED, named moments that strike the write they name."""

import os
import subprocess
import sys

import pytest

import flash_cuts
import soak

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUT_TESTS = ("test_a_power_cut_during_a_save_loses_no_saved_score",
             "test_a_power_cut_while_a_game_is_logged_loses_nothing_and_logs_it_once")


def collected(seed_env):
    env = {k: v for k, v in os.environ.items() if k != "LAYERLIGHT_CUT_SEED"}
    if seed_env is not None:
        env["LAYERLIGHT_CUT_SEED"] = seed_env
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                        "tests/test_emulated_pico.py", "-k", "power_cut"], cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return sorted(line.split("::")[1] for line in r.stdout.splitlines() if "::" in line)


def test_make_test_cuts_at_the_fixed_moments_and_a_seed_list_explores():
    assert collected(None) == sorted("%s[fixed]" % t for t in CUT_TESTS)
    assert collected("12,345") == sorted("%s[seed%d]" % (t, s) for t in CUT_TESTS for s in (12, 345))


def test_a_failure_in_a_soak_prints_the_line_that_plays_it_again():
    out = ("........F\n"
           "FAILED tests/test_emulated_pico.py::test_a_power_cut_during_a_save_loses_no_saved_score[seed1013965366]"
           " - AssertionError: after the cut erase seeded at (412, 20115): ...\n"
           "1 failed, 3 passed in 900.00s\n")
    assert soak.reproducers(out) == [(1013965366, "test_a_power_cut_during_a_save_loses_no_saved_score")]


# a clean run's flash writes as pico.mjs reports them: {n: {"us", "kind", "busy_us"}}
OPS = {10: {"us": 1000, "kind": "program", "busy_us": 400}, 11: {"us": 1600, "kind": "erase", "busy_us": 45000},
       12: {"us": 47000, "kind": "program", "busy_us": 400}, 13: {"us": 47500, "kind": "program", "busy_us": 400}}


def test_a_named_moment_is_that_write_of_that_kind_that_far_in():
    writes = [10, 11, 12, 13]
    assert flash_cuts.moment(writes, OPS, "erase", 0, "mid") == (11, 22500)
    assert flash_cuts.moment(writes, OPS, "program", 0, "mid") == (10, 200)
    assert flash_cuts.moment(writes, OPS, "program", -1, "mid") == (13, 200)
    # between writes: after the write's own time, before the next began
    n, after = flash_cuts.moment(writes, OPS, "program", 0, "gap")
    assert n == 10 and 400 < after < 600
    n, after = flash_cuts.moment(writes, OPS, "write", 1, "gap")
    assert n == 11 and 45000 < after < 45400
    with pytest.raises(AssertionError):
        flash_cuts.moment([10, 12, 13], OPS, "erase", 0, "mid")  # a save with no erase has no such moment
