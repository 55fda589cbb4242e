"""Layers games played through the headless simulator (CPython side).

The same scripts run under the real MicroPython in test_micropython_scenarios.py.
"""

import json

import pytest

from scenario_lib import Player, check_invariants, run_cpython


def states(lines):
    return [json.loads(x) for x in lines]


def reward_value(r, level):
    return level if r == "M" else r


def test_two_player_full_game_scores_follow_the_round_tiles():
    p = Player("layers", players=2, seed=7)
    expected = [0, 0]
    for rnd in range(1, 7):
        s = p.state()
        assert s["round"] == rnd and s["phase"] == "round_tile"
        tile = s["round_tile"]
        assert len(tile) == 2
        # P2 first, P1 second; both right
        before = list(s["scores"])
        p.do("press A"); p.do("press A")
        level = p.state()["mission"]["level"]
        p.do("press P2"); p.do("press P1")
        assert p.state()["phase"] == "verify"
        p.do("press A"); p.do("press A")
        gains = {2: tile[0], 1: tile[1]}
        while p.state()["phase"] == "steal":
            st = p.state()
            victim = [x for x in (1, 2) if x != st["taker"]][0]
            p.do("press P%d" % victim)
        for seat in (2, 1):
            r = gains[seat]
            if r == "S":
                other = 3 - seat
                if expected[other - 1] >= 1:
                    expected[other - 1] -= 1
                    expected[seat - 1] += 1
            else:
                expected[seat - 1] += reward_value(r, level)
        assert p.state()["scores"] == expected, (rnd, tile, before)
        p.do("wait 2000"); p.do("press A")
    final = p.state()
    assert final["phase"] == "final" and final["round"] == 6
    assert final["scores"] == expected
    p.do("press A")
    assert p.state()["game"] == "menu"


def test_first_player_moves_to_the_next_seat_each_round():
    p = Player("layers", players=3, seed=3)
    firsts = []
    for _ in range(6):
        firsts.append(p.state()["first_player"])
        p.play_round([1, 2, 3], ["A", "A", "A"])
    assert firsts == [1, 2, 3, 1, 2, 3]
    assert p.state()["phase"] == "final"


def test_four_player_game_runs_six_rounds_and_shares_ties():
    p = Player("layers", players=4, seed=11)
    orders = [[1, 2, 3, 4], [4, 3, 2, 1], [2, 4, 1, 3], [3, 1], [1, 2, 3, 4], [4, 1, 2, 3]]
    verdicts = [["A", "B", "A", "A"], ["A", "A", "A", "A"], ["B", "A", "A", "B"], ["A", "A"], ["A"] * 4, ["A", "B", "A", "A"]]
    for o, v in zip(orders, verdicts):
        p.play_round(o, v)
    s = p.state()
    assert s["phase"] == "final" and s["round"] == 6
    assert sum(s["scores"]) > 0
    check_invariants([json.dumps(s)])


def test_timer_runs_out_and_late_presses_are_refused():
    script = "press A\npress A\npress P1\nwait 29000\nwait 1100\npress P2\n"
    out = states(run_cpython(script, "layers", 2))
    race = out[2]
    assert race["phase"] == "race" and race["finish_order"] == [1]
    assert 29900 <= race["timer_ms"] <= 30000
    assert out[3]["timer_ms"] <= 1000 and out[3]["phase"] == "race"
    assert "beep" in out[3]["sound"]  # the last seconds beep
    assert out[4]["phase"] == "verify" and out[4]["timer_ms"] is None
    assert "timeout" in out[4]["sound"]
    late = out[5]
    assert late["finish_order"] == [1]  # P2's press came too late
    assert "refused" in late["sound"]


def test_a_seat_finishes_once_and_unjoined_seats_are_ignored():
    script = "press A\npress A\npress P1\npress P1\npress P3\n"
    out = states(run_cpython(script, "layers", 2))
    assert out[-1]["finish_order"] == [1]
    assert out[-1]["phase"] == "race"


def test_everybody_wrong_scores_nothing():
    p = Player("layers", players=3, seed=5)
    p.play_round([2, 3, 1], ["B", "B", "B"])
    assert p.state()["scores"] == [0, 0, 0]
    assert p.state()["round"] == 2


def test_rulebook_example_ryan_noah_simon_harry():
    """Layers rules, 'Verifying the pattern and score': tile M,3,S,1 and a level-4 mission."""
    p = Player("layers", players=4, seed=1, config={"round_tiles": [["M", 3, "S", 1]]})
    # Ryan = P1, Noah = P2, Simon = P3, Harry = P4
    p.do("press A")
    assert p.state()["round_tile"] == ["M", 3, "S", 1]
    p.do("press B")  # level 3 -> 4
    p.do("press A")
    assert p.state()["mission"]["level"] == 4
    for seat in (1, 2, 3, 4):
        p.do("press P%d" % seat)
    assert p.state()["phase"] == "verify"
    p.do("press A")  # Ryan right
    p.do("press B")  # Noah wrong
    p.do("press A")  # Simon right
    p.do("press A")  # Harry right
    s = p.state()
    assert s["phase"] == "steal" and s["taker"] == 4
    assert s["scores"] == [4, 0, 3, 0]
    p.do("press P2")  # Noah has no point: refused
    assert p.state()["phase"] == "steal" and "refused" in p.dev.sound.played
    p.do("press P1")  # Harry takes 1 from Ryan
    assert p.state()["scores"] == [3, 0, 3, 1]
    assert p.state()["phase"] == "scores"


def test_steal_with_nobody_to_take_from_is_lost():
    p = Player("layers", players=2, seed=1, config={"round_tiles": [["S", "M", 0, 0]]})
    p.play_round([1, 2], ["A", "A"])
    s = p.state()
    # P1 had S but nobody had a point yet: lost; P2 got the mission level
    assert s["scores"][0] == 0 and s["scores"][1] >= 3


def test_hold_b_in_verify_shows_the_solution_without_judging():
    p = Player("layers", players=2, seed=2)
    p.do("press A"); p.do("press A"); p.do("press P1"); p.do("press P2")
    before = p.state()
    p.do("down B")
    p.do("wait 1000")
    assert p.dev.game.solution_from >= 0
    p.do("up B")
    after = p.state()
    assert after["phase"] == "verify" and after["verifying"] == before["verifying"]
    assert p.dev.game.verdicts == []


def test_same_seed_same_trace_and_other_seed_differs():
    script = "press A\npress A\npress P2\npress P1\npress A\npress A\nwait 3000\npress A\n"
    a = run_cpython(script, "layers", 3, seed=42, frames=True)
    b = run_cpython(script, "layers", 3, seed=42, frames=True)
    c = run_cpython(script, "layers", 3, seed=43, frames=True)
    assert a == b
    assert a != c


def pattern_place(width, height, n):
    """Where the race screen puts an n x n mission pattern, worked out here from what the screen
    promises, not from the firmware's drawing code (screens.Layout): every cell the same whole
    number of LEDs, as many as fit with a 1-LED frame left free all round for the sand ring, and
    the pattern centred (an odd LED left over goes to the right and bottom). (scale, x0, y0)."""
    side = min(width, height)
    fits = [s for s in range(1, side) if n * s + 2 <= side]
    scale = fits[-1] if fits else 1
    x0 = (width - n * scale) // 2
    y0 = (height - n * scale) // 2
    # centred: the margins on either side differ by at most one LED
    assert 0 <= (width - n * scale - x0) - x0 <= 1 and 0 <= (height - n * scale - y0) - y0 <= 1
    return scale, x0, y0


def test_pattern_place_on_the_shipped_sizes():
    """The default deck's 6x6 patterns, by hand: 8x8 one LED a cell from (1, 1); 16x16 two LEDs
    a cell (12 of 16) from (2, 2); 32x32 five (30 of 32) from (1, 1)."""
    assert pattern_place(8, 8, 6) == (1, 1, 1)
    assert pattern_place(16, 16, 6) == (2, 2, 2)
    assert pattern_place(32, 32, 6) == (5, 1, 1)
    assert pattern_place(32, 16, 6) == (2, 10, 2)


@pytest.mark.parametrize("size", [(8, 8), (16, 16), (32, 32)])
def test_race_screen_shows_the_mission_pattern_on_every_size(size):
    from layerlight_tools.layers.cards import open_deck
    from layerlight_tools.firmware_files import DEFAULT_DECK
    out = states(run_cpython("press A\npress A\n", "layers", 2, size=size, frames=True))
    s = out[-1]
    assert s["phase"] == "race"
    frame = s["frame"]
    assert len(frame) == size[1] and all(len(r) == 6 * size[0] for r in frame)
    deck = open_deck(DEFAULT_DECK)
    m = [deck.mission(i) for i in range(deck.count) if deck.mission(i).id == s["mission"]["id"]][0]
    scale, x0, y0 = pattern_place(size[0], size[1], deck.size)
    for cy in range(deck.size):
        for cx in range(deck.size):
            c = m.pattern[cy * deck.size + cx]
            want = "101010" if c == 0 else "%02x%02x%02x" % deck.colours[c]
            for dy in range(scale):  # every LED of the cell
                for dx in range(scale):
                    x = x0 + cx * scale + dx
                    y = y0 + cy * scale + dy
                    assert frame[y][6 * x:6 * x + 6] == want, (cx, cy, dx, dy)


def test_a_level_whose_missions_ran_out_is_no_longer_offered(tmp_path):
    """docs/layers.md: B cycles only levels with missions left; a used-up deck comes back reshuffled."""
    from layerlight_tools.layers import cards, sets
    from layerlight_tools.firmware_files import DEFAULT_SET
    small = tmp_path / "small.deck"
    layer_set = sets.load(DEFAULT_SET)
    cards.write(layer_set, cards.build(layer_set, 1, progress=None), str(small))
    files = {"decks/default.deck": small.read_bytes()}
    from layerlight_tools import simcore
    dev = simcore.make_device(files, 16, 16, 1, "layers", 2)
    sim = simcore.Simulator(dev)
    n = [0]

    def do(line):
        n[0] += 1
        sim.run_line(line, n[0])
        return dev.state()

    def levels_offered():
        seen = [dev.state()["level"]]
        for _ in range(3):
            seen.append(do("press B")["level"])
        return sorted(set(seen))

    offered, revealed = [], []
    for rnd in range(4):
        do("press A")  # round tile -> choose deck
        offered.append(levels_offered())
        revealed.append(do("press A")["mission"]["level"])
        do("press P1"); do("press P2"); do("press A"); do("press A")
        while dev.state()["phase"] == "steal":
            st = dev.state()
            do("press P%d" % [x for x in (1, 2) if x != st["taker"]][0])
        do("press A")
    assert offered[0] == [3, 4, 5]
    assert offered[1] == sorted({3, 4, 5} - {revealed[0]})
    assert offered[2] == sorted({3, 4, 5} - {revealed[0], revealed[1]})
    assert sorted(revealed[:3]) == [3, 4, 5]
    assert offered[3] == [3, 4, 5]  # every pile ran out: all shuffled again
