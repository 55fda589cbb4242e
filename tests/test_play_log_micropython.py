"""The play log and HISTORY on the real MicroPython (WebAssembly): the same files, the same trace."""

import json

from mpy import run_micropython
from scenario_lib import run_cpython

from layerlight import modes, playlog

import pico_games

MOUNTS = ["firmware:/", "host_tools/layerlight_tools:/lib/layerlight_tools"]


def test_the_log_appends_rotates_and_survives_damage_on_the_micropython_filesystem():
    res = run_micropython("tests/wasm/playlog_entry.py", mounts=MOUNTS)
    assert res.returncode == 0, res.stderr
    out = dict(line.split(" ", 1) for line in res.stdout.strip().split("\n") if " " in line)
    keep = playlog.KEEP
    assert out["files"] == "['plays.log', 'plays.old']"
    # both files, of which HISTORY reads the last KEEP (the older ones are never decoded)
    assert out["kept"] == "%d 21 %d" % (keep, keep + 20)
    # the damaged second line and the torn last one are skipped; numbering goes on after the last good
    assert out["next"] == str(keep + 20)
    assert out["bad"] == "2"
    assert out["last"] == "[%d, %d, %d]" % (keep + 18, keep + 19, keep + 20)
    assert out["at"] == str(keep + 1)


def test_a_final_then_history_traces_the_same_on_micropython():
    """Time attack to its result (the record is written on MicroPython's side too), then the
    HISTORY pages: byte for byte the CPython trace, frames included."""
    walk = "press B\n" * modes.names().index("history") + "press A\n"
    script = pico_games.time_attack("time-attack") + walk + "press B\npress B\npress A\n"
    config = dict(pico_games.SHORT)
    cpy = run_cpython(script, "time-attack", 1, 1, (16, 16), True, config)
    args = ["time-attack", "1", "1", "16", "16", "1", json.dumps(config)]
    res = run_micropython("tests/wasm/scenario_entry.py", args=args, mounts=MOUNTS, stdin=script)
    assert res.returncode == 0, res.stderr
    mpy = res.stdout.rstrip("\n").split("\n")
    assert mpy == cpy
    pages = [json.loads(line) for line in mpy if '"game": "history"' in line]
    assert pages[0]["phase"] == "games" and pages[0]["mode"] == "time-attack" and pages[0]["record"] == 1
    assert pages[1]["phase"] == "wins" and pages[1]["wins"] == [1, 0, 0, 0]
