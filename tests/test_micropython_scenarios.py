"""The Layers scenarios on the real MicroPython: same script, same trace as CPython, byte for byte."""

import json

import pytest

from mpy import run_micropython
from scenario_lib import Player, check_invariants, four_player_game, run_cpython

MOUNTS = ["firmware:/", "host_tools/layerlight_tools:/lib/layerlight_tools"]


def run_both(script, game="layers", players=2, seed=1, size=(16, 16), frames=False, config=None):
    cpy = run_cpython(script, game, players, seed, size, frames, config)
    args = [game or "", str(players), str(seed), str(size[0]), str(size[1]), "1" if frames else "0",
            json.dumps(config) if config else ""]
    res = run_micropython("tests/wasm/scenario_entry.py", args=args, mounts=MOUNTS, stdin=script)
    assert res.returncode == 0, res.stderr
    mpy = res.stdout.rstrip("\n").split("\n")
    assert len(mpy) == len(cpy)
    for i, (a, b) in enumerate(zip(cpy, mpy)):
        assert a == b, "trace differs after command %d:\nCPython:     %s\nMicroPython: %s" % (i + 1, a, b)
    check_invariants(mpy)
    return [json.loads(x) for x in mpy]


def test_full_four_player_game():
    p = four_player_game()
    out = run_both(p.script, players=4, seed=11, frames=False)
    finals = [s for s in out if s["phase"] == "final"]
    assert finals and finals[-1]["round"] == 6
    assert out[-1]["game"] == "menu"  # A after the final returns to the menu
    # the game really was played: six different missions, scores moved
    missions = {json.dumps(s["mission"]) for s in out if s["mission"]}
    assert len(missions) == 6
    assert sum(finals[-1]["scores"]) > 0


def test_two_player_game_with_frames():
    p = Player("layers", players=2, seed=4)
    for r in range(6):
        p.play_round([1 + r % 2, 2 - r % 2], ["A", "B" if r == 2 else "A"])
    out = run_both(p.script, players=2, seed=4, frames=True)
    assert out[-1]["phase"] == "final"
    assert all(len(s["frame"]) == 16 for s in out)


def test_timer_runs_out_and_late_press_is_refused():
    script = "press A\npress A\npress P1\nwait 30100\npress P2\n"
    out = run_both(script, players=2)
    assert out[3]["phase"] == "verify" and out[4]["finish_order"] == [1]
    assert "refused" in out[4]["sound"]


def test_everybody_wrong():
    p = Player("layers", players=3, seed=5)
    p.play_round([2, 3, 1], ["B", "B", "B"])
    out = run_both(p.script, players=3, seed=5)
    assert out[-1]["scores"] == [0, 0, 0] and out[-1]["round"] == 2


def test_rulebook_example():
    script = "\n".join(["press A", "press B", "press A", "press P1", "press P2", "press P3", "press P4",
                        "press A", "press B", "press A", "press A", "press P1"]) + "\n"
    out = run_both(script, players=4, config={"round_tiles": [["M", 3, "S", 1]]})
    assert out[-2]["phase"] == "steal" and out[-2]["scores"] == [4, 0, 3, 0]
    assert out[-1]["scores"] == [3, 0, 3, 1]


def test_menu_join_and_random_first_player():
    script = "press A\npress P2\npress P4\npress P3\npress A\nwait 2000\n"
    out = run_both(script, game=None, seed=9)
    assert out[0]["phase"] == "join"
    assert out[-1]["phase"] == "round_tile" and out[-1]["players"] == 3
    assert out[-1]["first_player"] in (2, 3, 4)


@pytest.mark.parametrize("size", [(8, 8), (32, 32)])
def test_other_matrix_sizes(size):
    script = "press A\npress A\npress P1\nwait 3000\npress P2\npress A\npress A\nwait 1000\n"
    out = run_both(script, size=size, frames=True)
    assert len(out[-1]["frame"]) == size[1]


def test_compiled_mpy_firmware_plays_the_rulebook_example_identically(tmp_path):
    """The .mpy files mpy-cross makes for the RP2040 run the game on MicroPython, same trace."""
    from mpy import compile_firmware, mpy_cross
    compile_firmware(tmp_path)
    for name in ("__init__", "simcore"):
        mpy_cross("host_tools/layerlight_tools/%s.py" % name, tmp_path / (name + ".mpy"))
    script = "\n".join(["press A", "press B", "press A", "press P1", "press P2", "press P3", "press P4",
                        "press A", "press B", "press A", "press A", "press P1"]) + "\n"
    config = {"round_tiles": [["M", 3, "S", 1]]}
    cpy = run_cpython(script, "layers", 4, config=config)
    mounts = ["firmware:/", "host_tools/layerlight_tools/__init__.py:/lib/layerlight_tools/__init__.py",
              "host_tools/layerlight_tools/simcore.py:/lib/layerlight_tools/simcore.py"]
    args = ["layers", "4", "1", "16", "16", "0", json.dumps(config)]
    res = run_micropython("tests/wasm/scenario_entry.py", args=args, mounts=mounts, stdin=script, mpy_dir=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.rstrip("\n").split("\n") == cpy


def test_layers_plus_rulebook_example_on_micropython():
    script = "press A\npress P1\npress P2\npress P3\nwait 10100\npress P4\npress A\npress B\npress A\n"
    out = run_both(script, game="layers-plus", players=4)
    assert out[-1]["scores"] == [4, 0, 3, 0]
    assert out[4]["phase"] == "verify" and "refused" in out[5]["sound"]


def test_layers_plus_full_game_on_micropython():
    p = Player("layers-plus", players=3, seed=8)
    for r in range(6):
        p.play_round([1 + r % 3, 1 + (r + 1) % 3], ["A", "B" if r % 2 else "A"], level_presses=r % 4)
    p.do("press A")
    out = run_both(p.script, game="layers-plus", players=3, seed=8)
    assert out[-1]["game"] == "menu"
    assert max(s["round"] or 0 for s in out) == 6


@pytest.mark.parametrize("game", ["time-attack", "time-attack-plus"])
def test_time_attack_on_micropython(game):
    script = "press A\npress A\npress A\npress P4\nhold B 1000\npress A\npress B\npress A\npress B\nwait 179000\n"
    out = run_both(script, game=game, players=1, frames=False)
    assert out[-1]["phase"] == "result" and out[-1]["scores"][0] >= 7
    assert out[-1]["new_best"] is True


def test_menu_settings_and_every_mode_on_micropython():
    # B walks the main menu through every mode to SETTINGS (HISTORY comes after it)
    from layerlight import modes
    walk = modes.names().index("settings")
    script = "press B\n" * walk + "press A\npress A\npress B\npress A\nwait 100\n"
    out = run_both(script, game=None)
    assert [s["choice"] for s in out[:walk]] == [modes.label(n) for n in modes.names()[1:walk + 1]]
    assert out[walk]["game"] == "settings"
    assert out[walk + 1]["value"] == 45 and out[walk + 1]["item"] == "TIMER"


def test_saved_files_round_trip_on_the_micropython_filesystem():
    res = run_micropython("tests/wasm/persist_entry.py", mounts=MOUNTS)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["saved", "{'a':", "[1,", "2]}", "replaced", "3", "damaged", "None", "new-only", "7"]
