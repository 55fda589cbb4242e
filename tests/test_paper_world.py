"""Paper World helper (issue 12; docs/paper-world.md).

Games are played through the headless simulator in-process (scenario_lib.Player records
the script); the run_both tests replay the same script on the real MicroPython and compare
the traces byte for byte.
"""

import json

import pytest

from layerlight import config, modes, persist
from layerlight.modes import paper_world
from layerlight_tools import simcore
from mpy import run_micropython
import scenario_lib
from scenario_lib import (PAPER_END, PAPER_OBJECTIVE, PAPER_SCISSORS, coop_count, device_files,
                          paper_world_game, run_cpython)
from test_frames_every_size import SIZES, play, watched  # noqa: F401 (watched is a fixture)
from test_micropython_scenarios import MOUNTS, run_both


class Table(scenario_lib.Table):
    """A Paper World table played in-process; the script it typed replays anywhere."""

    def __init__(self, players, seed=1, config=None, storage=None):
        scenario_lib.Table.__init__(self, "paper-world", players, seed, config, storage)

    def begin(self):
        assert self.state()["phase"] == "objectives"
        return self.do("press A")

    def ids(self):
        return [o["id"] for o in self.state()["objectives"]]

    def next(self, times=1):
        for _ in range(times):
            s = self.state()
            assert s["phase"] == "turn" and s["choice"] == "next", s
            self.do("press A")
        return self.state()

    def to_seat(self, seat):
        for _ in range(8):
            if self.state()["turn_seat"] == seat:
                return
            self.next()
        raise AssertionError("seat %d never came" % seat)

    def claim(self, seat, place):
        """The seat claims the objective at `place` (0-2): B to `objective`, A, B to it, A."""
        self.to_seat(seat)
        want = str(self.ids()[place])
        s = self.do(*PAPER_OBJECTIVE)
        assert s["phase"] == "claim", s
        for _ in range(3):
            if s["choice"] == want:
                break
            s = self.do("press B")
        assert s["choice"] == want, (want, s)
        return self.do("press A")

    def scissors(self, seat):
        self.to_seat(seat)
        return self.do(*PAPER_SCISSORS)

    def trigger(self, seat):
        self.to_seat(seat)
        return self.do(*PAPER_END)

    def enter(self, stars, hand, discard):
        """One seat's final counts."""
        assert self.state()["phase"] == "final_entry"
        return self.do(*(coop_count(stars) + coop_count(hand) + coop_count(discard)))

    def pause(self, item):
        """Hold A for the pause menu, B to `item`, A."""
        self.do("hold A 1600")
        while self.state()["choice"] != item:
            self.do("press B")
        return self.do("press A")


def game_keys(s):
    """A trace state without the simulator's own keys (time, tunes): what the game says."""
    return {k: v for k, v in s.items() if k not in ("t", "sound")}


def trace(script, players, config=None, seed=1):
    return [json.loads(x) for x in run_cpython(script, "paper-world", players, seed, config=config)]


def tokens_of(state):
    """Each seat's objective tokens, worked out from the objectives' claims and the token table."""
    table = paper_world.default_tokens(state["players"])
    out = {seat: 0 for seat in state["seats"]}
    for o in state["objectives"]:
        for k, seat in enumerate(o["claimed"]):
            out[seat] += table[k]
    return out


# --- whole games, on the real MicroPython too ------------------------------------------------

def test_whole_four_player_game_on_micropython():
    """Every objective's tokens run out, the scissors change hands twice, refused claims and
    scissors, the end trigger and the final round, the final entry, a tie broken on discards."""
    script, game, players = paper_world_game()
    out = run_both(script, game, players)
    assert out[0]["phase"] == "turn" and out[0]["turn_seat"] == 1
    play_ = [s for s in out if s["game"] == "paper-world"]
    # the scissors: P1, then P3 takes it, then P4
    holders = [s["scissors"] for s in play_]
    assert [h for i, h in enumerate(holders) if i == 0 or h != holders[i - 1]] == [None, 1, 3, 4]
    # tokens: taken highest first, 5 4 3 2 with four players, until none is left
    final = play_[-1]
    assert final["phase"] == "final"
    for o in final["objectives"]:
        assert o["tokens"] == [] and sorted(o["claimed"]) == [1, 2, 3, 4]
    for a, b in zip(play_, play_[1:]):
        for oa, ob in zip(a["objectives"], b["objectives"]):
            if ob["claimed"] != oa["claimed"]:  # a claim: the highest token left went to the turn's seat
                assert ob["claimed"] == oa["claimed"] + [b["turn_seat"]] and ob["tokens"] == oa["tokens"][1:]
    # the refusals: a second scissors, an objective when none is left to claim (twice), a low buzz each
    assert sum(s["sound"].count("refused") for s in out) == 3
    # the final round: P4 ended the game; P1, P2, P3 and P4 (last) played once more
    fr = [s for s in play_ if s["final_round"] and s["phase"] == "turn"]
    assert fr[0]["turn_seat"] == 1 and fr[0]["turns_left"] == 4 and fr[0]["choice"] == "next"
    left = [s["turns_left"] for s in fr]
    assert left[0] == 4 and min(left) == 1 and all(b in (a - 1, a, a + 1) for a, b in zip(left, left[1:]))
    assert [s["turn_seat"] for s in fr if s["turns_left"] == 1][-1] == 4
    entries = [s for s in play_ if s["phase"] == "final_entry"]
    assert entries[0]["turn_seat"] == 1 and entries[0]["entry"] == {"what": "stars", "value": 0}
    assert entries[0]["turns_left"] == 0
    # the scoring: stars + tokens - hand - discard + 2 for the scissors
    assert final["breakdown"] == [
        {"stars": 20, "objectives": 12, "hand": 2, "discard": 3, "scissors": 0},
        {"stars": 21, "objectives": 12, "hand": 1, "discard": 5, "scissors": 0},
        {"stars": 15, "objectives": 9, "hand": 0, "discard": 1, "scissors": 0},
        {"stars": 18, "objectives": 9, "hand": 3, "discard": 2, "scissors": 2}]
    assert final["scores"] == [27, 27, 23, 24]
    assert final["winners"] == [1] and final["tie_break"] == "discard"  # 27 each: P1 has fewer discards
    reached = [s for s in play_ if s["phase"] == "final"][0]
    assert "fanfare" in reached["sound"] and final["turn_seat"] is None
    assert out[-1]["game"] == "menu"  # A after the final


def test_during_play_the_scores_are_the_tokens_and_the_scissors():
    script, game, players = paper_world_game()
    for s in trace(script, players):
        if s["game"] == "paper-world" and s["phase"] != "final":
            mine = tokens_of(s)
            assert s["scores"] == [mine[seat] + (2 if s["scissors"] == seat else 0) for seat in s["seats"]], s


def test_two_player_game_with_a_shared_win_on_micropython():
    t = Table(2, seed=5)
    s = t.begin()
    assert [o["tokens"] for o in s["objectives"]] == [[3, 2]] * 3  # two players: 3 and 2 on each
    t.claim(1, 0)
    t.claim(2, 1)
    t.scissors(2)
    t.claim(1, 1)
    s = t.claim(2, 0)
    assert [o["tokens"] for o in s["objectives"]] == [[], [], [3, 2]]
    s = t.trigger(1)
    assert s["final_round"] and s["turns_left"] == 2 and s["turn_seat"] == 2 and s["choice"] == "next"
    assert "end" not in t.p.dev.game.choice_items  # triggered once
    s = t.next()
    assert s["turns_left"] == 1 and s["turn_seat"] == 1  # the seat that ended the game plays last
    s = t.next()
    assert s["phase"] == "final_entry" and s["turn_seat"] == 1
    t.enter(10, 1, 2)   # 10 + 5 - 1 - 2 = 12
    s = t.enter(9, 2, 2)  # 9 + 5 + 2 - 2 - 2 = 12, as many discards
    assert s["phase"] == "final" and s["scores"] == [12, 12]
    assert s["winners"] == [1, 2] and s["tie_break"] == "shared"
    out = run_both(t.script, "paper-world", 2, seed=5)
    assert game_keys(out[-1]) == game_keys(s)


def test_three_players_and_the_plain_win():
    t = Table(3, seed=2)
    t.begin()
    t.claim(2, 2)
    s = t.trigger(3)
    assert s["turns_left"] == 3 and s["turn_seat"] == 1
    t.next(3)
    t.enter(7, 0, 0)
    t.enter(3, 0, 0)   # 3 + 4
    s = t.enter(8, 1, 0)
    assert s["scores"] == [7, 7, 7] and s["winners"] == [1, 2, 3] and s["tie_break"] == "shared"
    t = Table(3, seed=2)
    t.begin()
    t.claim(2, 2)
    t.pause("END")  # the pause menu ends the game at once: straight to the final entry
    assert t.state()["phase"] == "final_entry" and not t.state()["final_round"]
    assert t.state()["turns_left"] is None
    t.enter(7, 0, 0)
    t.enter(3, 0, 0)
    s = t.enter(8, 2, 0)
    assert s["scores"] == [7, 7, 6] and s["winners"] == [1, 2] and s["tie_break"] == "shared"
    t.do("hold B 1200")  # P3's counts back: more discards for P1
    s = t.do("hold B 1200", "hold B 1200", "hold B 1200")  # back to P2's discard count
    assert s["phase"] == "final_entry" and s["turn_seat"] == 2 and s["entry"] == {"what": "discard", "value": 0}
    s = t.do("hold B 1200", "hold B 1200", "hold B 1200")  # P2's hand, stars, then P1's discard
    assert s["turn_seat"] == 1 and s["entry"] == {"what": "discard", "value": 0}
    t.do("press P2", "press A")
    t.enter(3, 0, 0)
    s = t.enter(8, 2, 0)
    assert s["scores"] == [6, 7, 6] and s["winners"] == [2] and s["tie_break"] is None


# --- the rules of a turn ----------------------------------------------------------------------------

def test_a_seat_never_claims_an_objective_twice_nor_one_with_no_token_left():
    t = Table(2)
    t.begin()
    ids = t.ids()
    t.claim(1, 0)
    s = t.do(*PAPER_OBJECTIVE)  # P1 again: only the two others are offered
    assert s["phase"] == "claim" and s["choice"] == str(ids[1])
    assert t.do("press B")["choice"] == str(ids[2]) and t.do("press B")["choice"] == str(ids[1])
    t.do("hold B 800")  # given up: back to the turn, nothing recorded
    assert t.state()["phase"] == "turn" and t.state()["actions_logged"] == 1
    t.claim(1, 1)
    t.claim(1, 2)
    s = t.do(*PAPER_OBJECTIVE)
    assert s["phase"] == "turn" and "refused" in s["sound"] and s["choice"] == "next"  # nothing left for P1
    assert s["actions_logged"] == 3
    t.next()
    t.claim(2, 0)
    t.claim(2, 1)
    s = t.claim(2, 2)
    assert [o["tokens"] for o in s["objectives"]] == [[], [], []] and s["scores"] == [9, 6]
    # every token gone: nobody can claim (a table of 2 seats has 2 tokens on each)
    t.next()
    s = t.do(*PAPER_OBJECTIVE)
    assert "refused" in s["sound"] and s["phase"] == "turn"


def test_the_scissors_move_and_a_holder_cannot_take_them_again():
    t = Table(4)
    t.begin()
    s = t.scissors(1)
    assert s["scissors"] == 1 and s["scores"] == [2, 0, 0, 0] and s["choice"] == "next"
    s = t.do(*PAPER_SCISSORS)
    assert "refused" in s["sound"] and s["scissors"] == 1 and s["actions_logged"] == 1
    s = t.scissors(3)
    assert s["scissors"] == 3 and s["scores"] == [0, 0, 2, 0]
    s = t.scissors(1)
    assert s["scissors"] == 1 and s["scores"] == [2, 0, 0, 0]


def test_the_turn_menu_and_the_seat_buttons():
    t = Table(3)
    t.begin()
    choices = [t.do("press B")["choice"] for _ in range(4)]
    assert choices == ["objective", "scissors", "end", "next"]
    s = t.do("press P2")  # not P2's turn: nothing happens
    assert s["turn_seat"] == 1 and s["actions_logged"] == 0
    s = t.do("press P1")  # P1's own button ends P1's turn
    assert s["turn_seat"] == 2 and s["actions_logged"] == 1
    t.trigger(2)
    assert [t.do("press B")["choice"] for _ in range(3)] == ["objective", "scissors", "next"]  # no second end


def test_count_entry_controls():
    t = Table(2)
    t.begin()
    t.pause("END")
    s = t.do("press P3", "press P3", "press P2", "press P1", "press P1")  # +5 +5 +1 -1 -1
    assert s["entry"] == {"what": "stars", "value": 9}
    assert t.do("press P4")["entry"]["value"] == 0
    assert t.do("press P1")["entry"]["value"] == 0  # never below zero
    s = t.do("press A")
    assert s["entry"] == {"what": "hand", "value": 0} and s["turn_seat"] == 1
    s = t.do(*["press B"] * 9)
    assert s["entry"]["value"] == 9
    assert t.do("press B")["entry"]["value"] == 0  # a hand holds at most 9: B wraps
    assert t.do("press P3", "press P3")["entry"]["value"] == 9
    s = t.do("press A", "hold B 800")  # holding B is not a click, and does not give the count up
    assert s["phase"] == "final_entry" and s["entry"] == {"what": "discard", "value": 0}


def test_end_during_the_set_up_leaves_the_game():
    t = Table(3)
    s = t.pause("END")
    assert s["game"] == "menu" and "resume" not in t.p.dev.menu_items()


def test_the_scores_page_shows_each_seats_tokens_then_goes_back():
    t = Table(2)
    t.begin()
    t.claim(1, 2)
    s = t.pause("SCORES")
    assert s["phase"] == "scores"
    s = t.do("wait 2000", "press B")
    assert s["phase"] == "turn" and s["choice"] == "next" and s["scores"] == [3, 0]


# --- undo -----------------------------------------------------------------------------------------

STATE_KEYS = ("phase", "scores", "objectives", "scissors", "final_round", "turns_left", "turn_seat",
              "actions_logged", "choice", "entry", "winners", "breakdown")


def same(a, b):
    return {k: a[k] for k in STATE_KEYS} == {k: b[k] for k in STATE_KEYS}


def test_undo_takes_back_each_kind_of_action_on_micropython():
    t = Table(3, seed=2)
    t.begin()
    empty = t.do("hold B 1200")
    assert "refused" in empty["sound"] and empty["actions_logged"] == 0  # nothing to take back
    t.scissors(1)
    t.next()
    kinds = [
        ("claim", PAPER_OBJECTIVE + ["press A"]),
        ("scissors", PAPER_SCISSORS),          # back to P1, who held it
        ("next", ["press A"]),
        ("own button", ["press P2"]),
        ("end", PAPER_END),
        ("END", ["hold A 1600", "press B", "press B", "press B", "press A"]),
    ]
    for name, lines in kinds:
        before = t.state()
        s = t.do(*lines)
        assert not same(s, before), name
        if name == "claim":
            assert s["scores"][1] == 4 and s["objectives"][0]["tokens"] == [3, 2]
        if name == "END":
            assert s["phase"] == "final_entry"
        s = t.do("hold B 1200")  # one action back per hold
        assert same(s, before), (name, s, before)
        assert "wrong" in s["sound"]
        if name == "claim":
            assert s["objectives"][0]["tokens"] == [4, 3, 2] and s["objectives"][0]["claimed"] == []
        if name == "scissors":
            assert s["scissors"] == 1
    # the final round, then the final entry: each count, each seat, the final itself
    t.trigger(2)
    t.next(3)
    steps = []
    for counts in ((6, 1, 2), (4, 0, 1), (5, 2, 0)):
        for value in counts:
            steps.append((t.state(), coop_count(value)))
            t.do(*coop_count(value))
    final = t.state()
    assert final["phase"] == "final"
    for before, lines in reversed(steps):
        s = t.do("hold B 1200")
        assert s["phase"] == "final_entry" and "wrong" in s["sound"]
        assert s["turn_seat"] == before["turn_seat"] and s["entry"]["what"] == before["entry"]["what"]
        assert s["entry"]["value"] == sum(5 if x == "press P3" else 1 if x == "press P2" else 0 for x in lines)
        assert s["actions_logged"] == before["actions_logged"]
    s = t.do("hold B 1200")  # before the final entry: the last turn of the final round
    assert s["phase"] == "turn" and s["turn_seat"] == 2 and s["turns_left"] == 1
    s = t.do("press A")
    assert s["phase"] == "final_entry" and s["entry"] == {"what": "stars", "value": 0}
    # the pause menu's UNDO does the same
    t.do(*coop_count(6))
    s = t.pause("UNDO")
    assert s["entry"] == {"what": "stars", "value": 6}
    out = run_both(t.script, "paper-world", 3, seed=2)
    assert game_keys(out[-1]) == game_keys(t.state())


def test_an_undone_entry_comes_back_with_its_counts():
    t = Table(2)
    t.begin()
    t.pause("END")
    t.enter(12, 3, 4)
    s = t.do("hold B 1200")
    assert s["turn_seat"] == 1 and s["entry"] == {"what": "discard", "value": 4}
    s = t.do("hold B 1200")
    assert s["entry"] == {"what": "hand", "value": 3}
    s = t.do("press A", "press A")  # the same counts again
    assert s["turn_seat"] == 2 and s["entry"] == {"what": "stars", "value": 0}
    s = t.enter(1, 0, 0)
    assert s["breakdown"][0] == {"stars": 12, "objectives": 0, "hand": 3, "discard": 4, "scissors": 0}


def test_undo_goes_back_to_the_start_of_the_game():
    t = Table(2)
    start = t.begin()
    t.claim(1, 0)
    t.scissors(2)
    t.claim(2, 0)
    t.trigger(1)
    n = t.state()["actions_logged"]
    for _ in range(n):
        t.do("hold B 1200")
    s = t.state()
    assert same(s, start)
    assert "refused" in t.do("hold B 1200")["sound"]


# --- the first player, the objectives, saving ----------------------------------------------

def menu_to_paper(storage, seats, seed=3):
    dev = simcore.make_device(None, 16, 16, seed, None, 0, storage=storage)
    sim = simcore.Simulator(dev)
    lines = ["press B"] * modes.names().index("paper-world") + ["press A"] + ["press P%d" % s for s in seats]
    lines.append("press A")
    for i, line in enumerate(lines):
        sim.run_line(line, i + 1)
    return dev, sim


def test_from_the_menu_the_first_player_is_drawn_then_the_objectives():
    firsts = set()
    for seed in range(1, 12):
        dev, sim = menu_to_paper(simcore.MemoryStorage(device_files()), [1, 2, 4], seed)
        s = dev.state()
        assert s["phase"] == "first_player" and s["first_player"] in (1, 2, 4) and s["players"] == 3
        firsts.add(s["first_player"])
        sim.run_line("wait 1000", 1)
        assert dev.state()["phase"] == "first_player"  # the draw spins, then lands
        sim.run_line("wait 1000", 2)
        s = dev.state()
        assert s["phase"] == "objectives" and s["objectives"] and s["turn_seat"] is None
        sim.run_line("press A", 3)
        assert dev.state()["turn_seat"] == s["first_player"]
    assert firsts == {1, 2, 4}


def test_one_seat_cannot_start():
    dev, sim = menu_to_paper(simcore.MemoryStorage(device_files()), [3])
    s = dev.state()
    assert s["phase"] == "join" and s["game"] == "paper-world"
    assert "refused" in dev.sound.played


def test_three_of_the_ten_objectives_are_drawn_and_b_draws_again():
    t = Table(4, seed=7)
    seen = []
    for _ in range(30):
        s = t.state()
        ids = [o["id"] for o in s["objectives"]]
        assert len(set(ids)) == 3 and ids == sorted(ids) and all(1 <= i <= 10 for i in ids)
        assert s["choice"] == " ".join(map(str, ids))
        assert all(o["tokens"] == [5, 4, 3, 2] and o["claimed"] == [] for o in s["objectives"])
        if seen:
            assert ids != seen[-1]  # a new draw is never the same three again
        seen.append(ids)
        t.do("press B")
    assert len({i for ids in seen for i in ids}) == 10
    shown = [o["id"] for o in t.state()["objectives"]]
    s = t.do("press A")  # the three on show are the ones played
    assert s["phase"] == "turn" and [o["id"] for o in s["objectives"]] == shown


def test_a_game_saved_during_the_set_up_comes_back_to_the_same_objectives():
    storage = simcore.MemoryStorage(device_files())
    dev, sim = menu_to_paper(storage, [1, 3])
    first = dev.state()["first_player"]
    sim.run_line("wait 2000", 1)
    sim.run_line("press B", 2)
    ids = [o["id"] for o in dev.state()["objectives"]]
    dev = simcore.make_device(None, 16, 16, 9, None, 0, storage=storage)  # the power went
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)  # RESUME
    s = dev.state()
    assert s["phase"] == "objectives" and [o["id"] for o in s["objectives"]] == ids and s["first_player"] == first


def test_a_cut_during_the_first_player_draw_resumes_at_the_objectives():
    storage = simcore.MemoryStorage(device_files())
    dev, sim = menu_to_paper(storage, [2, 3, 4])
    first = dev.state()["first_player"]
    dev = simcore.make_device(None, 16, 16, 9, None, 0, storage=storage)
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)
    s = dev.state()
    assert s["phase"] == "objectives" and s["first_player"] == first and s["players"] == 3


# --- settings, no deck --------------------------------------------------------------------------------

def test_the_token_table_setting_is_played():
    table = {"2": [4, 1], "3": [6, 3, 1], "4": [2, 3, 5]}
    t = Table(3, config={"paper_tokens": table})
    s = t.begin()
    assert [o["tokens"] for o in s["objectives"]] == [[6, 3, 1]] * 3
    t.claim(1, 0)
    s = t.claim(2, 0)
    assert s["scores"] == [6, 3, 0]
    t = Table(4, config={"paper_tokens": table})
    assert t.state()["objectives"][0]["tokens"] == [5, 3, 2]  # typed in any order: highest first
    t.begin()
    t.claim(1, 0)
    t.claim(2, 0)
    s = t.claim(3, 0)
    assert s["objectives"][0]["tokens"] == []  # three tokens for four seats: the last seat gets none
    t.next()
    ids = t.ids()
    offered = [t.do(*PAPER_OBJECTIVE)["choice"], t.do("press B")["choice"], t.do("press B")["choice"]]
    assert offered == [str(ids[1]), str(ids[2]), str(ids[1])]  # no token left on the first
    # a player count the table leaves out: the default
    t = Table(2, config={"paper_tokens": {"3": [6, 3, 1]}})
    assert t.state()["objectives"][0]["tokens"] == [3, 2]


BAD_TOKENS = [
    ({"5": [6, 5, 4, 3, 2]}, "'5' is not a player count (2, 3 or 4)"),
    ({"2": [3, 2, 1]}, "2 players: a list of 1 to 2 token values"),
    ({"3": []}, "3 players: a list of 1 to 3 token values"),
    ({"4": [5, 4, "3", 2]}, "4 players: token '3' is not a whole number 0-20"),
    ({"4": [5, 4, 30, 2]}, "4 players: token 30 is not a whole number 0-20"),
    ([5, 4, 3, 2], "expected an object like"),
]


@pytest.mark.parametrize("value,words", BAD_TOKENS)
def test_a_wrong_token_table_is_one_line_and_the_default_is_used(value, words):
    logs = []
    cfg = config.load(simcore.MemoryStorage({config.CONFIG_FILE: json.dumps({"paper_tokens": value}).encode()}),
                      logs.append)
    assert cfg["paper_tokens"] == {}
    said = [line for line in logs if "paper_tokens" in line]
    assert len(said) == 1 and words in said[0] and "\n" not in said[0], logs
    s = trace("press A\n", 4, config={"paper_tokens": value})[-1]
    assert s["objectives"][0]["tokens"] == [5, 4, 3, 2]


def test_the_default_tokens():
    assert [paper_world.default_tokens(n) for n in (2, 3, 4)] == [[3, 2], [4, 3, 2], [5, 4, 3, 2]]
    assert config.paper_tokens_problem({"2": [3, 2], "3": [4, 3, 2], "4": [5, 4, 3, 2]}) is None


@pytest.mark.parametrize("deck", [None, b"this is not a deck"], ids=["no deck", "broken deck"])
def test_paper_world_is_offered_and_played_without_a_usable_deck(deck):
    files = device_files()
    del files["decks/default.deck"]
    if deck is not None:
        files["decks/default.deck"] = deck
    storage = simcore.MemoryStorage(files)
    dev = simcore.make_device(None, 16, 16, 1, None, 0, storage=storage)
    sim = simcore.Simulator(dev)
    assert dev.state()["phase"] == "error" and dev.state()["error"] == 1  # shown at boot
    sim.run_line("wait 5000", 1)
    lines = (["press B"] * modes.names().index("paper-world") + ["press A", "press P1", "press P3", "press A",
                                                                   "wait 2000", "press A"] + PAPER_SCISSORS)
    for i, line in enumerate(lines):
        sim.run_line(line, i + 2)
        assert dev.where != "error", line
    s = dev.state()
    assert s["game"] == "paper-world" and s["phase"] == "turn" and s["scissors"] == s["first_player"]
    assert storage.files[persist.ERRORS].count(b" E1 ") == 1  # the deck error, once


def test_a_damaged_saved_game_is_reported_and_the_device_goes_on():
    storage = simcore.MemoryStorage(device_files())
    dev = simcore.make_device(None, 16, 16, 1, "paper-world", 2, storage=storage)
    simcore.Simulator(dev).run_line("press A", 1)  # play begins
    saved = persist.decode(storage.files[persist.GAME])
    assert saved["snap"]["playing"]
    saved["snap"]["log"] = [paper_world.CLAIM + 7]  # no such objective
    storage.files[persist.GAME] = persist.encode(saved)
    dev = simcore.make_device(None, 16, 16, 1, None, 0, storage=storage)
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)  # RESUME
    s = dev.state()
    assert s["game"] == "menu" and s["phase"] == "error"
    assert any("paper-world could not start" in line for line in dev.hw.logs)
    sim.run_line("wait 5000", 2)
    assert dev.state()["phase"] == "menu"


# --- the screens -------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
def test_every_frame_through_the_menu_is_readable(watched, size):  # noqa: F811 (the fixture)
    lines = ["press B"] * modes.names().index("paper-world") + ["press A", "press P1", "press P2", "press P3",
                                                                 "press P4", "press A", "wait 2000"]
    lines += ["press B", "wait 1000"] * 6 + ["press A"]
    lines += PAPER_OBJECTIVE + ["wait 700", "press B", "wait 700", "press B", "wait 700", "press A"]
    lines += ["press B", "wait 2000", "press B", "wait 2000", "press B", "wait 2000", "press B"]
    lines += PAPER_SCISSORS + ["hold A 1600", "press B", "press B", "press A", "wait 1000", "press A"]
    lines += PAPER_END + ["press A", "wait 500", "press A", "press A", "press A"]
    for counts in ((23, 9, 14), (5, 0, 0), (0, 0, 31), (12, 3, 2)):
        lines += coop_count(counts[0]) + ["wait 2000"] + coop_count(counts[1]) + coop_count(counts[2])
    lines += ["hold B 1200", "wait 500", "press A", "wait 12000"]
    dev = play("\n".join(lines) + "\n", None, 0, size, seed=6)
    s = dev.state()
    assert s["phase"] == "final" and s["game"] == "paper-world", s
    assert watched.frames > 200
    assert not watched.problems, "\n".join(watched.problems[:10])


def test_no_screen_of_a_whole_game_allocates_on_micropython():
    """Every screen of the whole game, drawn under micropython.heap_lock after every script line,
    at every matrix size (the claim choice, the final round and the final pages included)."""
    script, game, players = paper_world_game()
    lines = script.split("\n")
    lines[1:1] = ["hold A 1600", "press B", "press A", "wait 1000", "press A"]  # the SCORES page
    at = lines.index("wait 2000")
    lines[at:at] = ["wait 1500"] * 6  # every page of the final
    script = "\n".join(lines)
    for size in ("8", "16", "32"):
        res = run_micropython("tests/wasm/keeper_draw_entry.py", args=["paper-world", str(players), size, size, ""],
                              mounts=MOUNTS, stdin=script)
        assert res.returncode == 0, res.stderr
        out = res.stdout.split("\n")
        assert "probe caught" in out  # the check has teeth
        assert not [line for line in out if line.startswith("alloc")], (size, out[:10])
        assert int([line for line in out if line.startswith("done")][0].split()[1]) > 100


def test_the_board_shows_whose_turn_the_tokens_the_scissors_and_the_turns_left():
    """On 16x16: the seat to play lights its edge; the tokens are white until taken, then in the
    taker's colour; the scissors are an X on the holder's edge; a corner per turn left."""
    t = Table(4)
    t.begin()
    t.claim(1, 1)
    t.scissors(1)
    t.next()
    t.claim(2, 1)
    t.scissors(2)
    t.trigger(2)
    dev = t.p.dev
    t.do("wait 300")
    dev.render()
    fb = dev.fb
    game = dev.game
    from layerlight.modes.paper_world_screens import column_x
    white = fb.get(column_x(game, 0), 4)
    assert white and fb.get(column_x(game, 0), 10) == white  # objective 1: four tokens left
    col = column_x(game, 1)
    top, second = fb.get(col, 4), fb.get(col, 6)
    assert top != white and second != white and top != second  # objective 2: P1's and P2's colours
    assert fb.get(col, 8) == white and fb.get(col, 10) == white
    # P3 plays (green edge across the top); the scissors X on P2's (left) edge
    assert fb.get(8, 0) == fb.get(3, 0) != 0 and fb.get(0, 3) == 0
    x_pixels = [fb.get(x, y) for x, y in ((0, 6), (2, 6), (1, 7), (0, 8), (2, 8))]
    assert x_pixels == [white] * 5 and fb.get(0, 7) == 0 and fb.get(1, 6) == 0
    corners = [fb.get(0, 15), fb.get(0, 0), fb.get(15, 0), fb.get(15, 15)]
    assert corners[0] == corners[1] == corners[2] == corners[3] != 0  # four turns left
    t.next()
    t.do("wait 300")
    dev.render()
    assert fb.get(15, 15) != corners[0] and fb.get(15, 0) == corners[0]  # three


def frame(t, wait=0):
    if wait:
        t.do("wait %d" % wait)
    t.p.dev.render()
    return t.p.dev.fb.hex_rows()


def test_what_moves_with_time_is_redrawn():
    """Screens are cached (keeper.py) until the state or the time-dependent part changes: the claim
    marker blinks, the final pages turn, the first player's light spins; a still board stays still."""
    t = Table(3)
    t.begin()
    board = frame(t, 300)
    assert frame(t, 1000) == board
    t.do(*PAPER_OBJECTIVE)
    a = frame(t, 100)
    b = frame(t, 300)
    assert a != b and frame(t, 300) == a  # the marker under the number blinks
    t.do("hold B 800")
    t.pause("END")
    for counts in ((9, 1, 2), (4, 0, 0), (7, 2, 3)):
        t.enter(*counts)
    pages = {json.dumps(frame(t, 750)) for _ in range(20)}
    assert len(pages) >= 7  # the totals (blinking) and the five parts of the score
    dev, sim = menu_to_paper(simcore.MemoryStorage(device_files()), [1, 2, 3, 4])
    spins = set()
    for k in range(6):
        sim.run_line("wait 150", k + 1)
        dev.render()
        spins.add(json.dumps(dev.fb.hex_rows()))
    assert len(spins) >= 3
