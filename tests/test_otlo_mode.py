"""OTLO Stones on the device (issue 13; docs/otlo.md).

Games are played through the headless simulator in-process (scenario_lib.Player
records the script); the run_both tests replay the same script on the real
MicroPython and compare the traces byte for byte. The deck is the shipped
firmware/decks/otlo.deck when there is one, else the test deck of otlo_fixture.
"""

import json
import subprocess
import sys

import pytest

import otlo_fixture
from layerlight import persist, screens
from layerlight.otlo_deck import OtloDeck
from layerlight_tools import simcore
from mpy import run_micropython
from scenario_lib import Player, device_files, otlo_claim, otlo_game, otlo_may_solve, run_cpython
from test_micropython_scenarios import MOUNTS

FILES = device_files()
DECK = OtloDeck(simcore.MemoryStorage(FILES), "decks/otlo.deck")
STARS = {}
for _i in range(DECK.count):
    _c = DECK.challenge(_i)
    STARS[_c.id] = _c.stars
TABLE_MOUNTS = MOUNTS + otlo_fixture.mounts()


def run_both(script, players, seed=1, size=(16, 16), frames=False):
    """The trace under CPython and under the real MicroPython: byte for byte the same."""
    cpy = run_cpython(script, "otlo", players, seed, size, frames)
    args = ["otlo", str(players), str(seed), str(size[0]), str(size[1]), "1" if frames else "0", ""]
    res = run_micropython("tests/wasm/scenario_entry.py", args=args, mounts=TABLE_MOUNTS, stdin=script)
    assert res.returncode == 0, res.stderr
    mpy = res.stdout.rstrip("\n").split("\n")
    assert len(mpy) == len(cpy)
    for i, (a, b) in enumerate(zip(cpy, mpy)):
        assert a == b, "trace differs after command %d:\nCPython:     %s\nMicroPython: %s" % (i + 1, a, b)
    return [json.loads(x) for x in mpy]


def expected_scores(s):
    """Each seat's stars: its solved cards' stars plus its handicap each, never below 0 per card."""
    return [sum(max(0, STARS[c] + h) for c in solved) for solved, h in zip(s["solved"], s["handicap"])]


def check_table_state(s):
    if s["game"] != "otlo":
        return
    assert s["scores"] == expected_scores(s), s
    for card, seats in s["barred"].items():  # a barred seat never scores that card
        for seat in seats:
            assert int(card) not in s["solved"][s["seats"].index(seat)], s
    dealt = [c for pile in s["piles"] for c in pile] + [c for solved in s["solved"] for c in solved]
    assert len(dealt) == len(set(dealt)), s  # no card twice


def start(players, levels=0, handicaps=(), seed=1, storage=None):
    """A game past `levels` (B `levels` times, A) and, at a table, `handicap` (seat presses, A)."""
    p = Player("otlo", players, seed, storage=storage)
    assert p.state()["phase"] == "levels"
    for _ in range(levels):
        p.do("press B")
    p.do("press A")
    if players > 1:
        assert p.state()["phase"] == "handicap"
        for seat in handicaps:
            p.do("press P%d" % seat)
        p.do("press A")
    assert p.state()["phase"] == "play"
    return p


# --- the table game -------------------------------------------------------------

def test_whole_four_player_game_on_micropython():
    script, game, players = otlo_game()
    out = run_both(script, players, seed=5)
    assert out[0]["phase"] == "levels" and out[0]["choice"] == "1-2"  # --game otlo starts in levels; B cycles
    play = [s for s in out if s["game"] == "otlo" and s["piles"]]
    first = play[0]
    assert [len(p) for p in first["piles"]] == [4, 4, 4, 4]
    assert {STARS[c] for p in first["piles"] for c in p} <= {1, 2, 3}
    assert first["handicap"] == [0, 1, -1, 0]
    for s in out:
        check_table_state(s)
    final = [s for s in out if s["phase"] == "final"][-1]
    assert final["piles"] == [[], [], [], []]  # the end: no card left
    assert sum(len(x) for x in final["solved"]) == 16
    assert final["barred"]  # there were wrong claims
    best = max(final["scores"])
    assert final["winners"] == [seat for seat, v in zip(final["seats"], final["scores"]) if v == best]
    # P3's handicap -1 makes a 1-star card worth nothing, never less
    p3 = final["solved"][2]
    assert final["scores"][2] == sum(STARS[c] - 1 for c in p3) and min(STARS[c] for c in p3) == 1
    assert any("fanfare" in s["sound"] for s in out if s["phase"] == "final")
    assert out[-1]["game"] == "menu"


def test_claims_wrong_verdicts_a_refused_call_and_the_end_because_nobody_may_solve():
    p = start(4, levels=0, handicaps=(2, 3, 3))  # level 1; P2 +1, P3 -1
    s = p.state()
    assert s["handicap"] == [0, 1, -1, 0]
    if not otlo_fixture.shipped():  # the test deck's ten 1-star cards, dealt round the four piles
        assert [len(x) for x in s["piles"]] == [3, 3, 2, 2]
    top = s["piles"][0][0]
    s = otlo_claim(p, 1, 1, "B")  # P1 is wrong on pile 1's card: barred from it, its colour marks the card
    assert s["barred"] == {str(top): [1]} and s["scores"] == [0, 0, 0, 0] and s["phase"] == "play"
    # P1 may no longer pick that pile: B only cycles the piles it may still solve
    p.do("press P1")
    s = p.state()
    offered = set()
    for _ in range(6):
        offered.add(s["choice"])
        s = p.do("press B")
    assert "1" not in offered and s["claimer"] == 1
    p.do("hold B 1000")  # a call made by mistake is taken back
    assert p.state()["phase"] == "play"
    s = otlo_claim(p, 2, 1, "A")  # P2 solves it: 1 star + 1
    assert s["solved"][1] == [top] and s["scores"][1] == STARS[top] + 1
    s = otlo_claim(p, 3, otlo_may_solve(s, 3)[0], "A")  # P3: a 1-star card with -1 is worth 0, not -1
    assert s["scores"][2] == 0 and len(s["solved"][2]) == 1
    # P4 is wrong on every top card, then refused with a low buzz
    while otlo_may_solve(p.state(), 4):
        otlo_claim(p, 4, otlo_may_solve(p.state(), 4)[0], "B")
    p.dev.sound.played[:] = []
    s = p.do("press P4")
    assert s["phase"] == "play" and "refused" in p.dev.sound.played and s["claimer"] is None
    # everybody wrong on every top card: nobody may solve any, the game ends
    for seat in (1, 2, 3):
        while otlo_may_solve(p.state(), seat) and p.state()["phase"] == "play":
            otlo_claim(p, seat, otlo_may_solve(p.state(), seat)[0], "B")
    s = p.state()
    assert s["phase"] == "final" and any(s["piles"])  # cards left, but nobody may solve them
    assert s["winners"] == [2]
    check_table_state(s)
    out = run_both(p.script, 4)
    assert out[-1] == json.loads(json.dumps(out[-1])) and out[-1]["phase"] == "final"
    for x in out:
        check_table_state(x)


def test_two_player_game_on_micropython():
    p = start(2, levels=1)  # levels 1-2
    s = p.state()
    assert len(s["piles"]) == 2 and [len(x) for x in s["piles"]] == [4, 4]
    assert {STARS[c] for x in s["piles"] for c in x} <= {1, 2}
    turn = 0
    while p.state()["phase"] == "play":
        seat = 1 + turn % 2
        piles = otlo_may_solve(p.state(), seat)
        otlo_claim(p, seat, piles[-1], "B" if turn == 3 else "A")
        turn += 1
    out = run_both(p.script, 2, frames=True)
    final = out[-1]
    assert final["phase"] == "final" and final["piles"] == [[], []]
    assert sum(len(x) for x in final["solved"]) == 8 and final["winners"]
    assert all(len(x["frame"]) == 16 for x in out)
    for x in out:
        check_table_state(x)


def test_a_short_deck_deals_fewer_cards():
    p = start(4, levels=4)  # only the 3-star cards
    s = p.state()
    assert sum(len(x) for x in s["piles"]) == min(16, DECK.level_count(3))
    assert all(STARS[c] == 3 for x in s["piles"] for c in x)


# --- what the table sees --------------------------------------------------------

def frame_colour(p, x, y):
    return p.dev.fb.get(x, y)


def test_every_top_card_is_on_show_in_its_quadrant_with_stars_and_pile_height():
    """Each pile in its quadrant, inside a dark border (the gutter between piles, where a claim's
    outline goes): its stars on the card's top row from the left, the cards under it from the
    right, its pattern between, the barred seats on its bottom row."""
    p = start(4)
    p.do("wait 1000")
    g = p.dev.game
    fb = p.dev.fb
    for pile in range(4):
        x0, y0 = (pile % 2) * 8, (pile // 2) * 8
        border = [(x0 + i, y0) for i in range(8)] + [(x0 + i, y0 + 7) for i in range(8)] + \
            [(x0, y0 + i) for i in range(8)] + [(x0 + 7, y0 + i) for i in range(8)]
        assert not any(fb.get(x, y) for x, y in border), pile
        top = g.tops[pile]
        lit = [(x, y) for y in range(y0 + 2, y0 + 6) for x in range(x0 + 1, x0 + 7) if fb.get(x, y)]
        assert len(lit) >= top.w * top.h - list(top.pattern).count(0), pile
        stars = sum(1 for x in range(x0 + 1, x0 + 4) if fb.get(x, y0 + 1) == 0xFFFFFF)
        assert stars == top.stars
        under = sum(1 for x in range(x0 + 4, x0 + 7) if fb.get(x, y0 + 1) and fb.get(x, y0 + 1) != 0xFFFFFF)
        assert under == len(g.piles[pile]) - 1
    # a wrong claim marks the card with the seat's colour on its bottom row
    otlo_claim(p, 2, 1, "B")
    p.do("wait 100")
    assert fb.get(3, 6) != 0 and fb.get(1, 6) == 0  # P2 is the second mark


def test_holding_b_in_verify_lays_the_solution_tile_by_tile_to_the_card():
    p = start(2)
    p.do("press P1")
    p.do("press A")
    g = p.dev.game
    card = g.tops[g.pick]
    seen = []
    p.do("down B")
    for _ in range(len(card.solution) + 1):
        p.do("wait 700")
        seen.append(bytes(g.screen.grid[:card.w * card.h]))
    p.do("up B")
    assert p.state()["phase"] == "verify"  # letting go does not judge
    assert card.pattern in seen  # all tiles laid: the card's picture
    assert len(card.solution) >= 2
    assert len(set(seen)) >= 2  # and the tiles came one by one (not the whole card at once)


# --- solo -------------------------------------------------------------------------

def solo_run(storage, skip=False, wait=1000, levels=0, see=False):
    p = start(1, levels=levels, storage=storage)
    s = p.state()
    assert len(s["piles"]) == 1 and s["elapsed_ms"] == 0 and s["mission"]["id"] == s["piles"][0][0]
    if see:
        p.do("hold B 2000")  # the solution, then A as usual
    if skip:
        first = s["piles"][0][0]
        s = p.do("press B")
        assert s["piles"][0][-1] == first and s["solved"] == [[]]  # under the pile
    while p.state()["phase"] == "play":
        p.do("wait %d" % wait)
        p.do("press A")
    return p


def test_solo_a_new_best_then_a_slower_run_that_does_not_beat_it():
    storage = simcore.MemoryStorage(FILES)
    p = solo_run(storage, wait=1000)
    s = p.state()
    n = min(12, DECK.level_count(1))
    assert s["phase"] == "final" and len(s["solved"][0]) == n
    assert s["scores"] == [sum(STARS[c] for c in s["solved"][0])]
    assert "fanfare" in p.dev.sound.played and p.dev.game.new_best
    best = s["elapsed_ms"]
    assert n * 1000 <= best < n * 1200
    assert persist.decode(storage.files[persist.BESTS])["otlo:1"] == best
    p.do("press A")
    q = solo_run(simcore.MemoryStorage(storage.files), wait=1500)
    s = q.state()
    assert s["elapsed_ms"] > best and not q.dev.game.new_best and s["best_ms"] == best
    assert "fanfare" not in q.dev.sound.played


def test_solo_skip_goes_under_the_pile_once_and_a_second_skip_drops_the_card():
    storage = simcore.MemoryStorage(FILES)
    p = start(1, storage=storage)
    first = p.state()["piles"][0][0]
    n = len(p.state()["piles"][0])
    p.do("press B")
    for _ in range(n - 1):
        p.do("press A")
    s = p.state()
    assert s["piles"] == [[first]] and s["mission"]["id"] == first
    s = p.do("press B")  # skipped again: it leaves the game
    assert s["phase"] == "final" and first not in s["solved"][0] and len(s["solved"][0]) == n - 1
    assert "otlo:1" not in (persist.load(storage, persist.BESTS, print) or {})  # not every card: no best


def test_solo_on_micropython():
    p = solo_run(simcore.MemoryStorage(FILES), skip=True, wait=800, see=True)
    out = run_both(p.script, 1)
    assert out[-1]["phase"] == "final" and out[-1]["elapsed_ms"] > 0


def test_solo_cards_setting():
    p = Player("otlo", 1, config={"otlo_solo_cards": 5})
    p.do("press A")
    assert len(p.state()["piles"][0]) == 5


# --- levels remembered, starting, decks ------------------------------------------------

def test_the_levels_choice_is_remembered_for_the_next_game():
    storage = simcore.MemoryStorage(FILES)
    p = Player("otlo", 2, storage=storage)
    assert p.state()["choice"] == "1"  # the first time: 1 star, as the rulebook advises
    labels = []
    for _ in range(5):
        labels.append(p.state()["choice"])
        p.do("press B")
    assert labels == ["1", "1-2", "1-3", "2-3", "3"]
    p.do("press B")
    p.do("press A")
    assert persist.decode(storage.files[persist.BESTS])["otlo-levels"] == "1-2"
    again = Player("otlo", 3, storage=simcore.MemoryStorage(storage.files))
    assert again.state()["choice"] == "1-2"


def test_join_from_the_menu_one_seat_is_the_solo_game():
    from layerlight import modes
    p = Player(None, 0)
    p.do("wait 100")
    for _ in range(modes.names().index("otlo")):
        p.do("press B")
    p.do("press A")
    assert p.state()["phase"] == "join"
    p.do("press A")
    assert p.state()["phase"] == "join"  # nobody joined yet
    p.do("press P3")
    s = p.do("press A")
    assert s["phase"] == "levels" and s["seats"] == [3]
    s = p.do("press A")
    assert s["phase"] == "play" and s["elapsed_ms"] == 0  # solo: no handicap


def test_the_cli_starts_otlo_in_levels(tmp_path):
    deck = tmp_path / "otlo.deck"
    deck.write_bytes(FILES["decks/otlo.deck"])
    r = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "sim", "--headless", "--script", "-",
                        "--game", "otlo", "--players", "3", "--deck", str(deck), "--trace"],
                       input="press B\npress A\npress A\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = [json.loads(x) for x in r.stdout.strip().split("\n")]
    assert out[0]["choice"] == "1-2" and out[1]["phase"] == "handicap" and out[2]["phase"] == "play"
    assert len(out[2]["piles"]) == 3 and out[2]["seats"] == [1, 2, 3]


@pytest.mark.parametrize("deck", [None, b"LLOT broken", b"not a deck at all"], ids=["no deck", "broken", "garbage"])
def test_without_a_usable_otlo_deck_otlo_shows_the_deck_error_and_the_other_modes_run(deck):
    from layerlight import modes
    files = dict(FILES)
    del files["decks/otlo.deck"]
    if deck is not None:
        files["decks/otlo.deck"] = deck
    storage = simcore.MemoryStorage(files)
    dev = simcore.make_device(None, 16, 16, 1, None, 0, storage=storage)
    sim = simcore.Simulator(dev)
    assert dev.where == "menu"  # the OTLO deck is not the boot's business
    lines = ["press B"] * modes.names().index("otlo") + ["press A"]
    for i, line in enumerate(lines):
        sim.run_line(line, i + 1)
    assert dev.state()["phase"] == "error" and dev.state()["error"] == 1
    assert b"E1" in storage.files[persist.ERRORS]
    sim.run_line("wait 5000", 99)
    assert dev.where == "menu"
    while dev.state()["choice"] != "LAYERS":
        sim.run_line("press B", 100)
    sim.run_line("press A", 100)  # LAYERS still starts
    assert dev.state()["game"] == "layers" and dev.state()["phase"] == "join"


# --- drawing allocates nothing, on the real MicroPython ---------------------------------------

def test_no_screen_of_a_whole_game_allocates_on_micropython():
    whole, _, _ = otlo_game()
    solo = solo_run(simcore.MemoryStorage(FILES), skip=True, wait=700, see=True)
    for script, players in ((whole, 4), (solo.script, 1)):
        for size in ("8", "16", "32"):
            res = run_micropython("tests/wasm/keeper_draw_entry.py", args=["otlo", str(players), size, size, ""],
                                  mounts=TABLE_MOUNTS, stdin=script)
            assert res.returncode == 0, res.stderr
            out = res.stdout.split("\n")
            assert "probe caught" in out
            assert not [line for line in out if line.startswith("alloc")], (size, out[:10])
            assert int([line for line in out if line.startswith("done")][0].split()[1]) > 40


def test_the_pause_menus_scores_show_each_seats_stars_and_go_back():
    """SCORES in the pause menu (docs/device.md: as in every mode): the stars facing each seat, then
    back to where the table was (play, or a claim in progress); solo just goes back."""
    p = start(3)
    p.do("press P2")
    p.do("press A")
    p.do("press A")  # P2's claim of pile 1 is right: it has stars now
    stars = p.state()["scores"]
    assert stars[1] > 0 and p.state()["phase"] == "play"
    p.do("press P3")  # P3 calls OTLO...
    assert p.state()["phase"] == "claim"
    for line in ("hold A 1600", "press B"):  # ...and the table looks at the scores first
        p.do(line)
    assert p.state()["choice"] == "SCORES"
    p.do("press A")
    s = p.state()
    assert s["phase"] == "scores" and s["scores"] == stars and s["claimer"] == 3
    fb = p.dev.fb
    assert any(fb.get(x, y) == screens.SEAT_COLOURS[1] for x in range(16) for y in range(16))  # P2's number
    p.do("press P1")  # a seat button does nothing here
    assert p.state()["phase"] == "scores"
    p.do("press A")
    assert p.state()["phase"] == "claim" and p.state()["claimer"] == 3
    solo = start(1)
    for line in ("hold A 1600", "press B", "press A"):
        solo.do(line)
    assert solo.state()["phase"] == "play"
