"""The mission games draw every screen of a whole game without allocating, on
the real MicroPython (the score keepers and OTLO check their own in their test
files). A frame that allocates makes the collector run mid-game: a stutter the
table sees, and on a tight heap a MemoryError.

Found this way: the deck choice built its list of levels every frame, through a
list comprehension that closed over a local (MicroPython keeps a closed-over
variable in a heap cell, made at every call)."""

import pytest

import scenario_lib
from mpy import run_micropython
from test_micropython_scenarios import MOUNTS


@pytest.mark.parametrize("make", [scenario_lib.layers_game, scenario_lib.layers_plus_game,
                                  scenario_lib.time_attack_game])
@pytest.mark.parametrize("size", ["8", "16", "32"])
def test_no_screen_of_a_whole_game_allocates(make, size):
    script, game, players = make()
    seed = scenario_lib.WHOLE_GAME_SEEDS.get(game, 1)  # the shuffles the script was written for
    res = run_micropython("tests/wasm/keeper_draw_entry.py", args=[game, str(players), size, size, "", str(seed)],
                          mounts=MOUNTS, stdin=script)
    assert res.returncode == 0, res.stderr
    out = res.stdout.split("\n")
    assert "probe caught" in out  # the check has teeth
    assert not [line for line in out if line.startswith("alloc")], (game, size, out[:10])
    assert int([line for line in out if line.startswith("done")][0].split()[1]) > 20
    # a whole game: the script played out to the final (with another seed it stops short of it)
    phases = [line for line in out if line.startswith("phases ")][0].split()[1:]
    assert phases[-1] == ("result" if game == "time-attack" else "final"), (game, size, phases)
    assert {"choose_deck", "race", "verify", "scores"} <= set(phases) or game == "time-attack", (game, phases)
