"""Layers+ at the table: tokens, the 10-second countdown, verification from the top token down."""

import json

from scenario_lib import Player, run_cpython


def test_rulebook_example_alex_sam_eli_tracy():
    """Layers+ rules: Alex keeps 4; Sam is wrong and his 3 passes to Eli, whose 2 goes back
    to the box; Tracy did not finish in time and gets nothing."""
    p = Player("layers-plus", players=4)
    assert p.state()["phase"] == "choose_deck" and p.state()["round_tile"] is None
    p.do("press A")
    assert p.state()["tokens"] == [4, 3, 2, 1]
    for seat in (1, 2, 3):  # Alex, Sam, Eli
        p.do("press P%d" % seat)
    s = p.state()
    assert s["tokens"] == [1] and s["phase"] == "race"
    assert 9000 < s["timer_ms"] <= 10000  # one token left: the countdown runs
    p.do("wait 10100")
    assert p.state()["phase"] == "verify"
    p.do("press P4")  # Tracy too late
    assert p.state()["finish_order"] == [1, 2, 3]
    for v in ("A", "B", "A"):
        p.do("press " + v)
    assert p.state()["scores"] == [4, 0, 3, 0]


def test_countdown_beeps_every_second_and_the_last_press_ends_the_race():
    out = [json.loads(x) for x in run_cpython("press A\npress P2\nwait 3000\npress P1\n", "layers-plus", 2)]
    assert out[1]["tokens"] == [1] and out[1]["timer_ms"] is not None
    assert out[2]["sound"].count("beep") == 3
    assert out[3]["phase"] == "verify" and out[3]["finish_order"] == [2, 1]
    assert out[3]["timer_ms"] is None


def test_levels_two_to_five_and_six_rounds():
    p = Player("layers-plus", players=3, seed=4)
    p.do("press B")
    levels = [p.state()["level"]]
    for _ in range(4):
        p.do("press B")
        levels.append(p.state()["level"])
    assert levels[:4] == [3, 4, 5, 2]
    # finish the round already in choose_deck, then five more
    for r in range(6):
        p.play_round([3, 1, 2], ["A", "A", "B"])
    s = p.state()
    assert s["phase"] == "final"
    # each round: the first two correct finishers hold tokens 3 and 2
    assert s["scores"] == [6 * 2, 0, 6 * 3]


def test_token_table_is_a_setting():
    p = Player("layers-plus", players=2, config={"tokens": {"2": [5, 2]}})
    p.do("press A")
    assert p.state()["tokens"] == [5, 2]
    p.do("press P2"); p.do("press P1"); p.do("press A"); p.do("press A")
    assert p.state()["scores"] == [2, 5]


def test_wrong_top_token_passes_down():
    p = Player("layers-plus", players=3)
    p.play_round([1, 2, 3], ["B", "A", "A"])
    assert p.state()["scores"] == [0, 3, 2]
