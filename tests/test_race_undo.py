"""UNDO in the pause menu of the race games (Layers, Layers+, time attack).

Played through the headless simulator; the run_both tests play the same
script on the real MicroPython and compare the traces byte for byte.
"""

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layerlight import persist, screens
from layerlight_tools import simcore
from mpy import run_micropython
from scenario_lib import Player, device_files, run_cpython
from test_frames_every_size import play as play_watched
from test_frames_every_size import watched  # noqa: F401 (a fixture)
from test_micropython_scenarios import MOUNTS, run_both

UNDO = ["hold A 1600", "press B", "press A"]   # pause menu, B to UNDO (the second item), A
RULEBOOK_TILES = {"round_tiles": [["M", 3, "S", 1]]}
# The rulebook's example: Ryan (P1) first and right, Noah (P2) wrong, Simon (P3)
# right, Harry (P4) right and takes a point from Ryan: [M, 3, S, 1] gives 3, 0, 3, 1.
RULEBOOK = ["press A", "press B", "press A", "press P1", "press P2", "press P3", "press P4",
            "press A", "press B", "press A", "press A", "press P1"]


def script(lines):
    return "\n".join(lines) + "\n"


def trace(lines, game="layers", players=4, config=None, seed=1, frames=False):
    return [json.loads(x) for x in run_cpython(script(lines), game, players, seed, frames=frames, config=config)]


def pause_choices(states, at):
    """The items the pause menu offered: the choices shown from the state at `at` on."""
    return [s["choice"] for s in states[at:] if s["phase"] == "pause"]


# --- Layers: steals ---------------------------------------------------------

def test_rulebook_steal_taken_back_and_taken_from_another_player_on_micropython():
    lines = RULEBOOK + UNDO + ["wait 200", "press P3", "wait 2000", "press A"]
    out = run_both(script(lines), players=4, config=RULEBOOK_TILES)
    n = len(RULEBOOK)
    assert out[n - 1]["phase"] == "scores" and out[n - 1]["scores"] == [3, 0, 3, 1]
    assert [out[n]["choice"], out[n + 1]["choice"]] == ["RESUME", "UNDO"]
    undone = out[n + 2]
    # Harry's point goes back to Ryan, and Harry chooses again
    assert undone["phase"] == "steal" and undone["taker"] == 4 and undone["scores"] == [4, 0, 3, 0]
    assert "wrong" in undone["sound"]
    assert out[n + 4]["scores"] == [4, 0, 2, 1] and out[n + 4]["phase"] == "scores"
    assert out[-1]["phase"] == "round_tile" and out[-1]["round"] == 2 and out[-1]["scores"] == [4, 0, 2, 1]


def test_undo_steps_back_through_steals_then_verdicts_of_the_round():
    lines = RULEBOOK + UNDO + UNDO + UNDO + UNDO
    out = trace(lines, config=RULEBOOK_TILES)
    after = [out[len(RULEBOOK) + 3 * k + 2] for k in range(4)]
    # the steal, then Harry's verdict, then Simon's, then Noah's wrong one
    assert [(s["phase"], s["verifying"] or s["taker"], s["scores"]) for s in after] == [
        ("steal", 4, [4, 0, 3, 0]), ("verify", 4, [0, 0, 0, 0]), ("verify", 3, [0, 0, 0, 0]),
        ("verify", 2, [0, 0, 0, 0])]
    # Noah was right after all: now he has 3 and Simon the steal, which he takes from Ryan
    more = trace(lines + ["press A", "press A", "press A", "press P1"], config=RULEBOOK_TILES)
    assert more[-2]["phase"] == "steal" and more[-2]["taker"] == 3 and more[-2]["scores"] == [4, 3, 0, 0]
    assert more[-1]["scores"] == [3, 3, 1, 1]


def test_two_steals_in_a_round_undoing_the_second_keeps_the_first():
    # [M, S, S, 1]: P2 can only rob P1; P3 robs P2, then on second thought P1
    tiles = {"round_tiles": [["M", "S", "S", 1]]}
    base = ["press A", "press B", "press A", "press P1", "press P2", "press P3", "press P4",
            "press A", "press A", "press A", "press A"]
    out = trace(base + ["press P1", "press P2"], config=tiles)
    level = out[-1]["mission"]["level"]
    assert out[-1]["scores"] == [level - 1, 0, 1, 1]
    out = trace(base + ["press P1", "press P2"] + UNDO, config=tiles)
    assert out[-1]["phase"] == "steal" and out[-1]["taker"] == 3
    assert out[-1]["scores"] == [level - 1, 1, 0, 0]  # P2's steal from P1 stands
    out = trace(base + ["press P1", "press P2"] + UNDO + ["press P1"] + UNDO + UNDO, config=tiles)
    takers = [s["taker"] for s in out if s["phase"] == "steal"]
    assert out[-1]["phase"] == "steal" and out[-1]["taker"] == 2 and out[-1]["scores"] == [level, 0, 0, 0]
    assert takers[-1] == 2 and 3 in takers


def test_the_headless_command_line_shows_the_undo_in_its_trace():
    # default tiles, seed 1, 4 players: round 1's tile is [M, S, 2, 1]
    lines = ["press A", "press A", "press A", "press P1", "press P2", "press P3", "press P4",
             "press A", "press A", "press A", "press A", "press P1"] + UNDO
    r = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "sim", "--headless", "--script", "-",
                        "--game", "layers", "--players", "4", "--trace"],
                       input=script(lines), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = [json.loads(x) for x in r.stdout.strip().split("\n")]
    assert out[11]["round_tile"] == ["M", "S", 2, 1]
    level = out[11]["mission"]["level"]
    assert out[11]["scores"] == [level - 1, 1, 2, 1]  # P2 took a point from P1
    assert out[-2]["phase"] == "pause" and out[-2]["choice"] == "UNDO"
    assert out[-1]["phase"] == "steal" and out[-1]["taker"] == 2 and out[-1]["scores"] == [level, 0, 0, 0]


# --- Layers: verdicts -------------------------------------------------------

def test_a_wrong_verdict_taken_back_on_micropython():
    # round 1 both right; round 2: P2 finishes first but the table pressed B by mistake
    p = Player("layers", players=2, seed=4)
    p.play_round([1, 2], ["A", "A"])
    before = p.state()["scores"]
    for line in ["press A", "press A", "press P2", "press P1", "press B", "press A"]:
        p.do(line)
    assert p.state()["phase"] in ("scores", "steal")
    for line in UNDO:
        p.do(line)
    first_undo = len(p.lines) - 1
    for line in UNDO:
        p.do(line)
    second_undo = len(p.lines) - 1
    p.do("press A")  # P2 was right after all
    p.do("press A")
    while p.state()["phase"] == "steal":
        p.do("press P%d" % (3 - p.state()["taker"]))
    out = run_both(p.script, players=2, seed=4)
    # P1's verdict goes back first (the rewards with it), then P2's
    assert out[first_undo]["phase"] == "verify" and out[first_undo]["verifying"] == 1
    assert out[first_undo]["scores"] == before
    assert out[second_undo]["phase"] == "verify" and out[second_undo]["verifying"] == 2
    assert out[second_undo]["scores"] == before and out[second_undo]["round"] == 2
    # both right now: P2 takes the tile's first place, P1 the second
    s = out[-1]
    assert s["phase"] == "scores" and s["round"] == 2
    tile, level = s["round_tile"], s["mission"]["level"]
    gains = [a - b for a, b in zip(s["scores"], before)]
    if "S" not in tile:
        assert gains == [level if r == "M" else r for r in (tile[1], tile[0])]
    else:
        assert sum(gains) == sum(level if r == "M" else r for r in tile if r != "S")


def test_undo_is_offered_only_while_the_round_has_something_to_take_back():
    lines = ["press A", "press A", "press A", "press P1"] + UNDO[:2] + ["press A"]  # race: nothing yet
    lines += ["press P2"] + UNDO[:2] + ["press A"]                                  # verify, no verdict
    lines += ["press A"] + UNDO[:2] + ["press A"]                                   # one verdict: UNDO
    out = trace(lines, players=2)
    offered = [s["choice"] for s in out if s["phase"] == "pause"]
    assert offered == ["RESUME", "SCORES", "RESUME", "SCORES", "RESUME", "UNDO"]
    assert out[-1]["phase"] == "verify" and out[-1]["verifying"] == 1
    # once A has left the scores, the round is settled
    p = Player("layers", players=2, seed=2)
    p.play_round([1, 2], ["A", "A"])
    assert p.state()["phase"] == "round_tile" and p.state()["round"] == 2
    for line in UNDO[:2]:
        p.do(line)
    assert p.state()["choice"] == "SCORES"
    assert not p.dev.game.can_undo()


def test_the_tally_counts_back_on_the_matrix_after_an_undo(monkeypatch):
    """What each seat's number shows, frame after frame, as an undone steal is worked out again."""
    shown = []
    real_number = screens.number_for_seat

    def number_for_seat(fb, seat, value, *args):
        shown.append((seat, value))
        real_number(fb, seat, value, *args)
    monkeypatch.setattr(screens, "number_for_seat", number_for_seat)
    frames = []
    real_show = simcore.SimHardware.show

    def show(self, fb):
        frames.append(dict(shown))
        del shown[:]
        real_show(self, fb)
    monkeypatch.setattr(simcore.SimHardware, "show", show)
    p = Player("layers", players=4, config=RULEBOOK_TILES)
    for line in RULEBOOK + ["wait 2000"]:
        p.do(line)
    # a picture that does not change is drawn once and copied back (draw_tally): the numbers
    # on the matrix are those of the last frame that drew them
    before = len(frames)
    for line in UNDO + ["wait 1000"]:
        p.do(line)
    seen = [f for f in frames[:before] if f][-1:] + [f for f in frames[before:] if f]
    # P1 (seat 0) counts back up from 3 to 4, P4 (seat 3) down from 1 to 0
    assert seen[0][0] == 3 and seen[0][3] == 1
    assert seen[-1][0] == 4 and seen[-1][3] == 0
    assert [f[0] for f in seen] == sorted(f[0] for f in seen)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 9), min_size=1, max_size=30), st.sampled_from(["layers", "layers-plus"]))
def test_any_mix_of_decisions_and_undos_equals_playing_only_what_was_kept(choices, game):
    """Verdicts, steals and UNDOs in any order: the round ends up exactly as if the
    table had only made the decisions that were not taken back."""
    tiles = {"round_tiles": [["M", "S", "S", 1]]}
    prelude = ["press A"] * (2 if game == "layers" else 1) + ["press P2", "press P1", "press P4", "press P3"]
    p = Player(game, players=4, config=tiles)
    for line in prelude:
        p.do(line)
    kept = []
    for c in choices:
        s = p.state()
        if c >= 7 and p.dev.game.can_undo():
            for line in UNDO:
                p.do(line)
            kept.pop()
        elif s["phase"] == "verify":
            line = "press " + ("A" if c % 3 else "B")
            p.do(line)
            kept.append(line)
        elif s["phase"] == "steal":
            targets = [seat for seat, v in zip(s["seats"], s["scores"]) if v >= 1 and seat != s["taker"]]
            line = "press P%d" % targets[c % len(targets)]
            p.do(line)
            kept.append(line)
    fresh = Player(game, players=4, config=tiles)
    for line in prelude + kept:
        fresh.do(line)
    a, b = p.state(), fresh.state()
    for key in ("phase", "scores", "taker", "verifying", "finish_order", "tokens", "mission"):
        assert a[key] == b[key], (key, kept, a, b)
    assert p.dev.game.verdicts == fresh.dev.game.verdicts and p.dev.game.steals == fresh.dev.game.steals


# --- Layers+ ------------------------------------------------------------------

def test_layers_plus_tokens_are_worked_out_again_after_an_undo():
    # the Layers+ rulebook example: P1 4, P2 wrong, P3 3, P4 too late
    lines = ["press A", "press P1", "press P2", "press P3", "wait 10100", "press P4",
             "press A", "press B", "press A"]
    out = trace(lines, game="layers-plus")
    assert out[-1]["scores"] == [4, 0, 3, 0]
    # take back P3's verdict and P2's: P2 was right, so P2 holds the 3 and P3 the 2
    out = trace(lines + UNDO + UNDO + ["press A", "press A"], game="layers-plus")
    assert out[len(lines) + 2]["phase"] == "verify" and out[len(lines) + 2]["verifying"] == 3
    assert out[len(lines) + 2]["tokens"] == [1]  # the token left over is shown again in verify
    assert out[len(lines) + 5]["verifying"] == 2 and out[len(lines) + 5]["scores"] == [0, 0, 0, 0]
    assert out[-1]["phase"] == "scores" and out[-1]["scores"] == [4, 3, 2, 0]


# --- time attack --------------------------------------------------------------

def test_time_attack_last_mission_taken_back_and_shown_again_on_micropython():
    lines = ["press A", "press P4", "press A", "press P2", "press A"] + UNDO + ["wait 1500", "press A"]
    out = run_both(script(lines), game="time-attack", players=1)
    level5, level3 = out[1]["mission"], out[3]["mission"]
    assert level5["level"] == 5 and level3["level"] == 3
    assert out[4]["scores"] == [8] and out[4]["missions_done"] == 2
    assert out[6]["choice"] == "UNDO"
    undone = out[7]
    assert undone["phase"] == "choose_deck" and undone["scores"] == [5] and undone["missions_done"] == 1
    assert undone["level"] == 3  # A shows the mission taken back again
    assert out[-1]["phase"] == "solve" and out[-1]["mission"] == level3


def test_time_attack_score_counts_back_on_the_matrix(monkeypatch):
    """After an undo the score is on show, counting down by the level taken back, then play goes on."""
    from layerlight import font
    drawn = []
    real_number = font.draw_number

    def draw_number(fb, value, *args):
        drawn.append(value)
        real_number(fb, value, *args)
    monkeypatch.setattr(font, "draw_number", draw_number)
    p = Player("time-attack", players=1)
    for line in ["press A", "press P4", "press A", "press P2", "press A"] + UNDO:
        p.do(line)
    del drawn[:]
    for _ in range(30):
        p.do("wait 50")
    shown = [v for k, v in enumerate(drawn) if k == 0 or drawn[k - 1] != v]
    assert shown == [8, 7, 6, 5]  # then the deck choice again, no number
    assert p.state()["phase"] == "choose_deck" and p.dev.game.draw_undone(p.dev.fb, p.dev.game_time()) is False


def test_time_attack_undo_in_the_middle_of_a_mission_keeps_it_on_show():
    lines = ["press A", "press P1", "press A", "press P2"] + UNDO  # level 2 scored, a level 3 on show
    out = trace(lines, game="time-attack-plus", players=1)
    on_show = out[3]["mission"]
    assert out[-1]["phase"] == "solve" and out[-1]["mission"] == on_show
    assert out[-1]["scores"] == [0] and out[-1]["missions_done"] == 0
    # the level-2 mission is back on top of its pile
    again = trace(lines + ["press A", "press P1"], game="time-attack-plus", players=1)
    assert again[-1]["mission"] == out[1]["mission"]
    # nothing more to take back: the pause menu has no UNDO
    again = trace(lines + UNDO[:2], game="time-attack-plus", players=1)
    assert again[-1]["choice"] == "SCORES"


def test_time_attack_a_new_best_made_by_a_wrong_score_is_taken_back():
    files = device_files({"attack_s": 30})
    files[persist.BESTS] = persist.encode({"time-attack": 7})
    storage = simcore.MemoryStorage(files)
    dev = simcore.make_device(None, 16, 16, 1, "time-attack", 1, storage=storage)
    sim = simcore.Simulator(dev)
    lines = ["press A", "press P4", "press A", "press P4", "press A", "wait 31000"]
    for i, line in enumerate(lines + UNDO):
        sim.run_line(line, i + 1)
        if i == len(lines) - 1:
            s = dev.state()
            assert s["phase"] == "result" and s["scores"] == [10] and s["new_best"] is True
            assert persist.decode(storage.files[persist.BESTS]) == {"time-attack": 10}
    s = dev.state()
    assert s["phase"] == "result" and s["scores"] == [5] and s["new_best"] is False and s["best"] == 7
    assert s["rating"] == "TRY HARDER!"
    assert persist.decode(storage.files[persist.BESTS]) == {"time-attack": 7}


# --- the undo screens: readable at every size, drawn without allocating -------

# default tiles, seed 1: round 1's tile is [M, S, 2, 1]; P2 robs P1, then the
# steal and P4's verdict are taken back
STEAL_ROUND = ["press A", "press A", "press A", "press P1", "press P2", "press P3", "press P4",
               "press A", "press A", "press A", "press A", "press P1"]
UNDO_GAMES = [
    ("layers", 4, STEAL_ROUND + UNDO + ["wait 300"] + UNDO + ["wait 300", "wait 1000"]),
    ("time-attack", 1, ["press A", "press P4", "press A", "press P4", "press A"] + UNDO + ["wait 300", "wait 1500",
                                                                                      "press P3"] + UNDO
     + ["wait 300", "wait 1500"]),
]


@pytest.mark.parametrize("size", [(8, 8), (16, 16), (32, 32)], ids=["8x8", "16x16", "32x32"])
@pytest.mark.parametrize("game,players,lines", UNDO_GAMES, ids=[g[0] for g in UNDO_GAMES])
def test_undo_screens_are_readable_on_every_matrix(watched, game, players, lines, size):
    """The frame checks of test_frames_every_size on the screens an undo shows."""
    dev = play_watched(script(lines), game, players, size)
    assert watched.frames > 20
    assert not watched.problems, "\n".join(watched.problems[:10])
    assert dev.state()["phase"] == ("verify" if game == "layers" else "solve")


DRAW_ENTRY = """\
import micropython
from layerlight_tools import simcore
import os

game, players, config_json = ARGV
files = {}
for name in os.listdir("/decks"):
    with open("/decks/" + name, "rb") as f:
        files["decks/" + name] = f.read()
if config_json:
    files["layerlight.json"] = config_json.encode()
dev = simcore.make_device(files, 16, 16, 1, game, int(players))
sim = simcore.Simulator(dev)
lines = STDIN.strip().split("\\n")
for i in range(len(lines)):
    sim.run_line(lines[i], i + 1)
g = dev.game
now = dev.game_time()
fb = dev.fb
g.draw(fb, now)
allocates = "no"
micropython.heap_lock()
try:
    for k in range(40):
        g.draw(fb, now + 37 * k)
except MemoryError:
    allocates = "yes"
micropython.heap_unlock()
print(dev.state()["phase"], allocates)
"""


@pytest.mark.parametrize("game,players,lines,config,phase", [
    ("layers", 4, RULEBOOK + UNDO, RULEBOOK_TILES, "steal"),
    ("layers", 4, RULEBOOK + UNDO + UNDO, RULEBOOK_TILES, "verify"),
    ("time-attack", 1, ["press A", "press P4", "press A"] + UNDO, None, "choose_deck"),
    ("time-attack", 1, ["press A", "press P4", "press A", "press P3"] + UNDO, None, "solve"),
], ids=["steal", "verify", "choose_deck", "solve"])
def test_screens_after_an_undo_draw_without_allocating_on_micropython(tmp_path, game, players, lines, config, phase):
    entry = tmp_path / "undo_draw_entry.py"
    entry.write_text(DRAW_ENTRY)
    res = run_micropython(str(entry), args=[game, str(players), json.dumps(config) if config else ""],
                          mounts=MOUNTS, stdin=script(lines))
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == [phase, "no"]
