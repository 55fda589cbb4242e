"""CO.OP score keeper (issue 11; docs/coop.md).

Games are played through the headless simulator in-process (tests/scenario_lib.Player
records the script); the run_both tests replay the same script on the real
MicroPython and compare the traces byte for byte.

`python tests/test_coop.py` redraws the pictures in docs/ (coop-colours.png, coop-board.png).
"""

import json
import os
import sys

import pytest

from layerlight import config, coop_cards, persist
from layerlight.display import FrameBuffer
from layerlight.modes import coop
from layerlight_tools import led_colour, led_picture, simcore
from mpy import run_micropython
import scenario_lib
from scenario_lib import coop_game, coop_loop, device_files, run_cpython
from test_micropython_scenarios import MOUNTS, run_both

COLOURS = coop_cards.COLOURS
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")


# --- playing a table ----------------------------------------------------------

class Table(scenario_lib.Table):
    """A CO.OP table played in-process; the script it typed replays anywhere."""

    def __init__(self, players, seed=1, config=None, storage=None, game="coop"):
        scenario_lib.Table.__init__(self, game, players, seed, config, storage)

    def begin(self, first=1):
        """A on the cards, then the first player (B until `first` is offered), A."""
        assert self.state()["phase"] == "cards"
        self.do("press A")
        while self.state()["choice"] != str(first):
            self.do("press B")
        return self.do("press A")

    def next(self, times=1):
        for _ in range(times):
            assert self.state()["phase"] == "turn" and self.state()["choice"] == "next"
            self.do("press A")
        return self.state()

    def to_seat(self, seat):
        while self.state()["turn_seat"] != seat:
            self.next()

    def loop(self, seat, colour, dots, o, x, to=None):
        self.to_seat(seat)
        before = len(self.state()["loops"])
        s = self.do(*coop_loop(colour, dots, o, x, to))
        assert len(s["loops"]) == before + 1 and s["phase"] == "turn", s
        return s

    def finish(self):
        """Next until the 72 cards are placed."""
        while self.state()["phase"] == "turn":
            self.next()
        assert self.state()["phase"] == "final" and self.state()["cards_left"] == 0
        return self.state()

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
    return [json.loads(x) for x in run_cpython(script, "coop", players, seed, config=config)]


def cards_of(state):
    return dict(zip(state["seats"], state["cards"]))


def totals(state):
    """Each seat's total worked out from the colours and its card: what `scores` must say."""
    return [sum(state["colours"][c] for c in card) for card in state["cards"]]


def shared_pair(state):
    """Two seats whose cards share a colour, and that colour."""
    cards = cards_of(state)
    seats = state["seats"]
    for i in seats:
        for j in seats:
            common = set(cards[i]) & set(cards[j])
            if i < j and common:
                return i, j, sorted(common)[0]
    raise AssertionError("no shared colour: %s" % cards)


# --- whole games, on the real MicroPython too ----------------------------------------

def test_whole_four_player_game_on_micropython():
    script, game, players = coop_game()
    out = run_both(script, game, players)
    first = out[0]
    assert first["phase"] == "cards" and len(first["cards"]) == 4
    # the four black cards, one each: every colour on exactly two cards (shared colours)
    final_cards = [s for s in out if s["phase"] == "final"][0]["cards"]
    assert sorted(map(sorted, final_cards)) == sorted(map(sorted, coop_cards.BLACK))
    for c in COLOURS:
        assert sum(c in card for card in final_cards) == 2
    final = [s for s in out if s["phase"] == "final"][0]
    assert final["cards_left"] == 0
    assert final["scores"] == totals(final)  # a colour's points count for both seats holding it
    assert sum(final["colours"].values()) == sum(l["dots"] + l["o"] - l["x"] for l in final["loops"])
    assert any(l.get("none") for l in final["loops"]) and all(l["dots"] == 0 for l in final["loops"] if l.get("none"))
    best = max(final["scores"])
    assert final["winners"] == [final["seats"][i] for i, v in enumerate(final["scores"]) if v == best]
    assert final["tie_break"] is None and "fanfare" in final["sound"]
    # 72 cards placed, one per `next`; the skips placed none
    play = [s for s in out if s["game"] == "coop"]
    nexts = [i for i in range(1, len(play)) if play[i]["cards_left"] == play[i - 1]["cards_left"] - 1]
    assert len(nexts) == 72
    assert out[-1]["game"] == "menu"  # A after the final


def test_the_whole_game_undoes_one_loop_and_keeps_the_other():
    script, game, players = coop_game()
    lines = script.strip().split("\n")
    out = trace(script, players)
    at = lines.index("hold B 1200")
    before, undone, after = out[at - 1], out[at], out[-3]
    assert undone["actions_logged"] == before["actions_logged"] - 1
    assert undone["loops"] == before["loops"][:-1] and "wrong" in undone["sound"]
    taken = before["loops"][-1]
    assert undone["colours"][taken["colour"]] == before["colours"][taken["colour"]] - (taken["dots"] + taken["o"] - taken["x"])
    assert after["loops"][len(undone["loops"])] == dict(seat=taken["seat"], colour="pink", dots=4, o=0, x=0)


@pytest.mark.parametrize("rule", ["longest", "loops", "shared"])
def test_every_tie_break_on_micropython(rule):
    """Two seats share a colour and tie on points: the longest loop, then the most loops, then both win."""
    t = Table(4, seed=3)
    s = t.begin()
    x, y, c = shared_pair(s)
    if rule == "longest":
        t.loop(x, c, 6, 0, 0)       # length 6
        t.loop(y, c, 2, 1, 1)       # +2, length 4
    elif rule == "loops":
        t.loop(x, c, 4, 0, 0)
        t.loop(y, c, 4, 0, 0)
        t.loop(x, c, 0, 1, 1)       # nothing scored, one more loop closed
    else:
        t.loop(x, c, 3, 1, 0)
        t.loop(y, c, 4, 0, 0)
    if rule == "loops":
        t.pause("END")  # the pause menu ends the game early
        assert t.state()["phase"] == "final" and t.state()["cards_left"] > 0
    else:
        t.finish()
    out = run_both(t.script, "coop", 4, seed=3)
    final = out[-1]
    scores = dict(zip(final["seats"], final["scores"]))
    assert scores[x] == scores[y] == 8 and max(scores.values()) == 8
    assert final["tie_break"] == rule
    assert final["winners"] == ([x, y] if rule == "shared" else [x])


def test_two_player_game_with_the_white_cards_on_micropython():
    t = Table(2, seed=5)
    s = t.state()
    assert sorted(map(sorted, s["cards"])) == sorted(map(sorted, coop_cards.WHITE))
    swapped = t.do("press P1")  # P1 takes the other white card: P2 gets P1's
    assert swapped["cards"] == [s["cards"][1], s["cards"][0]]
    t.begin(first=2)
    assert t.state()["turn_seat"] == 2 and t.state()["first_player"] == 2
    cards = cards_of(t.state())
    t.loop(2, cards[1][0], 5, 1, 0)   # P2 scores for P1 (white cards share nothing)
    t.loop(1, cards[2][1], 3, 0, 2)
    t.loop(2, cards[2][2], 2, 2, 0)
    t.do("press B", "press B", "press A")  # skip
    final = t.finish()
    out = run_both(t.script, "coop", 2, seed=5)
    assert game_keys(out[-1]) == game_keys(final)
    assert final["scores"] == [6, 5] and final["winners"] == [1] and final["scores"] == totals(final)


def test_solo_game_scores_every_colour_on_micropython():
    t = Table(1)
    s = t.state()
    assert s["phase"] == "turn" and s["cards"] == [list(COLOURS)] and s["turn_seat"] == 1  # no cards, no first player
    t.loop(1, "blue", 4, 1, 0)
    t.loop(1, "purple", 2, 0, 1)
    t.loop(1, "none", 0, 3, 0, to="orange")
    t.next(10)
    t.do("press P1")  # the player's own button ends the turn too
    final = t.finish()
    out = run_both(t.script, "coop", 1)
    assert game_keys(out[-1]) == game_keys(final)
    assert final["scores"] == [5 + 1 + 3] and final["winners"] == [1] and final["tie_break"] is None


# --- loops, counts, undo ---------------------------------------------------------------

def test_a_colourless_loop_asks_where_its_points_go_and_no_dots():
    t = Table(3)
    t.begin()
    phases = []
    for line in coop_loop("none", 0, 1, 3, to="yellow"):
        s = t.do(line)
        phases.append(s["phase"])
    assert "loop_dots" not in phases
    assert [p for i, p in enumerate(phases) if i == 0 or p != phases[i - 1]] == \
        ["turn", "loop_colour", "loop_for", "loop_o", "loop_x", "turn"]
    assert s["loops"] == [{"seat": 1, "colour": "yellow", "dots": 0, "o": 1, "x": 3, "none": True}]
    # X is -1 point: a loop of more X than O takes points away, even below zero (rulebook: "X: -1 point")
    assert s["colours"]["yellow"] == -2
    assert s["scores"] == totals(s)
    out = run_both(t.script, "coop", 3)
    assert out[-1]["colours"]["yellow"] == -2


def test_count_entry_controls():
    t = Table(2)
    t.begin()
    t.do("press B", "press A", "press A")  # loop, blue
    assert t.state()["entry"] == {"what": "dots", "value": 0}
    for _ in range(20):
        t.do("press B")
    assert t.state()["entry"]["value"] == 20
    assert t.do("press B")["entry"]["value"] == 0        # B wraps after the highest value
    assert t.do("press P1")["entry"]["value"] == 0       # P1 -1, never below 0
    assert t.do("press P3", "press P3")["entry"]["value"] == 10  # P3 +5
    assert t.do("press P1")["entry"]["value"] == 9
    assert t.do("press P2")["entry"]["value"] == 10      # P2 +1
    assert t.do("press P3", "press P3", "press P3")["entry"]["value"] == 20  # capped
    assert t.do("press P4")["entry"]["value"] == 0       # P4 back to 0
    s = t.do("press A", "press A", "press A")            # dots 0, O 0, then X 0: a loop has symbols
    assert s["phase"] == "loop_x" and "refused" in s["sound"] and s["loops"] == []
    s = t.do("hold B 800")  # holding B gives the loop up: nothing recorded
    assert s["phase"] == "turn" and s["choice"] == "next" and s["actions_logged"] == 0
    s = t.do("press B")
    assert s["choice"] == "loop"  # letting go of that hold was not a press of B


STATE_KEYS = ("phase", "scores", "colours", "loops", "cards_left", "turn_seat", "actions_logged", "choice")


def same(a, b):
    return {k: a[k] for k in STATE_KEYS} == {k: b[k] for k in STATE_KEYS}


def test_undo_takes_back_each_kind_of_action_on_micropython():
    t = Table(3, seed=2)
    t.begin()
    empty = t.do("hold B 1200")
    assert "refused" in empty["sound"] and empty["actions_logged"] == 0  # nothing to take back
    t.next(2)
    kinds = [
        ("loop", coop_loop("green", 4, 1, 2)),
        ("colourless loop", coop_loop("none", 0, 2, 0, to="pink")),
        ("next", ["press A"]),
        ("skip", ["press B", "press B", "press A"]),
        ("END", ["hold A 1600", "press B", "press B", "press B", "press A"]),
    ]
    for name, lines in kinds:
        before = t.state()
        s = t.do(*lines)
        assert not same(s, before), name
        if name == "END":
            assert s["phase"] == "final" and s["winners"] is not None
        s = t.do("hold B 1200")  # one action back per hold
        assert same(s, before), (name, s, before)
        assert "wrong" in s["sound"]
        t.do(*lines[:1] if name == "next" else [])  # play on
    # the pause menu's UNDO does the same
    before = t.state()
    t.do(*coop_loop("blue", 3, 0, 0))
    s = t.pause("UNDO")
    assert same(s, before)
    out = run_both(t.script, "coop", 3, seed=2)
    assert game_keys(out[-1]) == game_keys(s)


def test_undo_goes_back_to_the_start_of_the_game_and_the_totals_count_back():
    t = Table(2)
    t.begin()
    t.loop(1, "blue", 5, 0, 0)
    t.next(3)
    t.loop(2, "green", 2, 0, 0)
    n = t.state()["actions_logged"]
    for k in range(n):
        t.do("hold B 1200")
    s = t.state()
    assert s["actions_logged"] == 0 and s["loops"] == [] and s["cards_left"] == 72 and s["turn_seat"] == 1
    dev = t.p.dev
    t.do("wait 3000")
    assert dev.game.shown_points == [0] * 6 and dev.game.shown[:2] == [0, 0]  # counted back


# --- cards, the first player, the remembered winner ---------------------------------------

@pytest.mark.parametrize("players,cards", [(2, coop_cards.WHITE), (3, coop_cards.BLACK), (4, coop_cards.BLACK)])
def test_cards_are_dealt_from_the_set_for_the_player_count_and_swapped_with_a_seat_button(players, cards):
    deals = set()
    for seed in range(1, 9):
        t = Table(players, seed=seed)
        s = t.state()
        deals.add(json.dumps(s["cards"]))
        names = [tuple(c) for c in cards]
        assert all(tuple(c) in names for c in s["cards"]) and len(set(map(tuple, s["cards"]))) == players
        for press in ["press P1", "press P2", "press P1", "press P%d" % players] * 3:
            before = s["cards"]
            s = t.do(press)
            seat = int(press[-1]) - 1
            held = names.index(tuple(before[seat]))
            assert tuple(s["cards"][seat]) == names[(held + 1) % len(names)]  # the next card of the set
            assert len(set(map(tuple, s["cards"]))) == players  # never two seats with one card
            for other in range(players):  # whoever held it took this seat's card
                if other != seat and s["cards"][other] != before[other]:
                    assert s["cards"][other] == before[seat]
    assert len(deals) > 1  # dealt at random


def test_first_player_is_offered_then_cycled_with_b():
    t = Table(3)
    s = t.do("press A")
    assert s["phase"] == "first_player" and s["choice"] == "1" and s["first_player"] == 1
    assert t.do("press B")["choice"] == "2"
    assert t.do("press B")["first_player"] == 3
    assert t.do("press B")["choice"] == "1"
    s = t.do("press B", "press A")
    assert s["phase"] == "turn" and s["turn_seat"] == 2 and s["first_player"] == 2


def menu_to_coop(storage, seats):
    """Boot over `storage`, open CO.OP from the main menu, join `seats`, A."""
    from layerlight import modes
    dev = simcore.make_device(None, 16, 16, 7, None, 0, storage=storage)
    sim = simcore.Simulator(dev)
    lines = ["press B"] * modes.names().index("coop") + ["press A"] + ["press P%d" % s for s in seats] + ["press A"]
    for i, line in enumerate(lines):
        sim.run_line(line, i + 1)
    return dev, sim


def test_the_last_winner_starts_the_next_game_if_that_seat_plays():
    storage = simcore.MemoryStorage(device_files())
    dev, sim = menu_to_coop(storage, [1, 2, 3])
    s = dev.state()
    assert s["phase"] == "cards" and s["players"] == 3
    for i, line in enumerate(["press A", "press A"] + coop_loop("blue", 3, 0, 0) + ["press A"]
                             + coop_loop("yellow", 9, 0, 0) + ["hold A 1600", "press B", "press B", "press B", "press A"]):
        sim.run_line(line, i + 1)
    final = dev.state()
    assert final["phase"] == "final" and len(final["winners"]) == 1
    winner = final["winners"][0]
    assert persist.decode(storage.files[persist.BESTS])["coop"] == [winner - 1]  # remembered on flash
    # an undo of the end forgets it again; the end once more remembers it
    sim.run_line("hold B 1200", 1)
    assert dev.state()["phase"] == "turn" and "coop" not in persist.decode(storage.files[persist.BESTS])
    for i, line in enumerate(["hold A 1600", "press B", "press B", "press B", "press A", "wait 500", "press A"]):
        sim.run_line(line, i + 1)
    assert dev.state()["game"] == "menu"
    flash = dict(storage.files)
    # the next game on this device: the winner is offered first
    dev, sim = menu_to_coop(simcore.MemoryStorage(flash), [1, 2, 3, 4])
    sim.run_line("press A", 1)
    assert dev.state()["phase"] == "first_player" and dev.state()["choice"] == str(winner)
    # ... unless the winner does not play: then P1
    others = [s for s in (1, 2, 3, 4) if s != winner]
    dev, sim = menu_to_coop(simcore.MemoryStorage(flash), others)
    sim.run_line("press A", 1)
    assert dev.state()["choice"] == str(others[0])


def test_a_solo_game_leaves_the_last_winner_alone():
    files = device_files()
    files[persist.BESTS] = persist.encode({"coop": [2], "time-attack": 12})
    storage = simcore.MemoryStorage(files)
    dev, sim = menu_to_coop(storage, [1])
    for i, line in enumerate(coop_loop("green", 2, 0, 0) + ["hold A 1600", "press B", "press B", "press B", "press A"]):
        sim.run_line(line, i + 1)
    assert dev.state()["phase"] == "final"
    assert persist.decode(storage.files[persist.BESTS]) == {"coop": [2], "time-attack": 12}


def test_end_during_the_set_up_leaves_the_game():
    t = Table(3)
    s = t.pause("END")
    assert s["game"] == "menu" and "resume" not in t.p.dev.menu_items()


def test_the_scores_page_shows_the_colours_then_goes_back():
    t = Table(2)
    t.begin()
    t.loop(1, "orange", 3, 0, 0)
    s = t.pause("SCORES")
    assert s["phase"] == "scores"
    t.do("wait 4000")
    s = t.do("press A")
    assert s["phase"] == "turn" and s["choice"] == "next" and s["colours"]["orange"] == 3


# --- no deck, settings ------------------------------------------------------------------------

@pytest.mark.parametrize("deck", [None, b"this is not a deck"], ids=["no deck", "broken deck"])
def test_coop_is_offered_and_played_without_a_usable_deck_and_the_error_shows_once(deck):
    files = device_files()
    del files["decks/default.deck"]
    if deck is not None:
        files["decks/default.deck"] = deck
    storage = simcore.MemoryStorage(files)
    dev = simcore.make_device(None, 16, 16, 1, None, 0, storage=storage)
    sim = simcore.Simulator(dev)
    assert dev.state()["phase"] == "error" and dev.state()["error"] == 1  # shown at boot
    sim.run_line("wait 5000", 1)
    dev2, sim2 = dev, sim
    from layerlight import modes
    lines = ["press B"] * modes.names().index("coop") + ["press A", "press P1", "press P3", "press A", "press A",
                                                          "press A"] + coop_loop("pink", 4, 1, 0) + ["press A"]
    for i, line in enumerate(lines):
        sim2.run_line(line, i + 2)
        assert dev2.where != "error", line
    s = dev2.state()
    assert s["game"] == "coop" and s["phase"] == "turn" and s["colours"]["pink"] == 5 and s["turn_seat"] == 3
    assert storage.files[persist.ERRORS].count(b" E1 ") == 1  # the deck error, once


BAD_TABLES = [
    ("coop_black", [["blue", "green", "teal"]] + [list(c) for c in coop_cards.BLACK[1:]], "unknown colour 'teal'"),
    ("coop_black", [["blue", "green"]] + [list(c) for c in coop_cards.BLACK[1:]], "card 1 is not a list of three"),
    ("coop_white", [["blue", "blue", "pink"], ["green", "orange", "purple"]], "card 1 has a colour twice"),
    ("coop_white", [["blue", "yellow", "pink"]], "1 card(s), at least 2 needed"),
    ("coop_black", "blue green yellow", "expected a list of cards"),
]


@pytest.mark.parametrize("key,value,words", BAD_TABLES)
def test_a_wrong_card_table_is_one_line_and_the_box_cards_are_used(key, value, words):
    logs = []
    cfg = config.load(simcore.MemoryStorage({config.CONFIG_FILE: json.dumps({key: value}).encode()}), logs.append)
    assert cfg[key] == coop_cards.default(key)
    said = [line for line in logs if key in line]
    assert len(said) == 1 and words in said[0] and "\n" not in said[0], logs


def test_the_card_table_setting_is_played_and_checked_against_the_player_count():
    mine = [["pink", "purple", "blue"], ["green", "yellow", "orange"]]
    s = trace("press A\n", 2, config={"coop_white": mine})[-1]
    assert sorted(map(sorted, s["cards"])) == sorted(map(sorted, mine))
    three = [list(c) for c in coop_cards.BLACK[:3]]
    s = trace("press A\n", 3, config={"coop_black": three})[-1]
    assert sorted(map(sorted, s["cards"])) == sorted(map(sorted, three))
    # three black cards are fine for 3 players, too few for 4: one line, and the box's cards
    logs = []
    dev = simcore.make_device(device_files({"coop_black": three}), 16, 16, 1, "coop", 4, logs.append)
    assert [line for line in logs if line.startswith("coop:")] == [
        "coop: coop_black for 4 players: 3 card(s), at least 4 needed, the box's cards are used"]
    assert sorted(map(sorted, dev.state()["cards"])) == sorted(map(sorted, coop_cards.BLACK))


def test_the_turn_timer_is_off_by_default_and_never_ends_a_turn():
    t = Table(2)
    t.begin()
    assert t.state()["timer_ms"] is None
    t = Table(2, config={"coop_turn_s": 20})
    t.begin()
    s = t.state()
    assert 19800 <= s["timer_ms"] <= 20000
    s = t.do("wait 16000")
    assert "beep" in s["sound"] and 3000 < s["timer_ms"] < 4200
    s = t.do("wait 5000")
    assert s["timer_ms"] == 0 and "timeout" in s["sound"]
    assert s["phase"] == "turn" and s["turn_seat"] == 1  # the player still ends the turn
    s = t.do("wait 3000")
    assert s["sound"] == [] and s["turn_seat"] == 1
    s = t.next()
    assert s["turn_seat"] == 2 and s["timer_ms"] >= 19900  # a fresh sand for the next turn
    t.do(*coop_loop("blue", 2, 0, 0))
    assert t.state()["timer_ms"] < s["timer_ms"]  # a loop does not restart it
    out = run_both(t.script, "coop", 2, config={"coop_turn_s": 20})
    assert game_keys(out[-1]) == game_keys(t.state())


def test_the_sand_of_the_turn_timer_never_touches_a_seat_total():
    from layerlight import screens
    from layerlight.modes.keeper import GREY
    whole, game, players = coop_game()
    # a part of the whole game, each line given time for the loop's colour to count and leave the screen
    script = "".join(line + "\nwait 2500\n" for line in whole.split("\n")[:160])
    numbers = {"%06x" % c for c in screens.SEAT_COLOURS + (GREY,)}
    boards = 0
    for size in (16, 32):
        out = [json.loads(x) for x in run_cpython(script, game, players, size=(size, size), frames=True,
                                                   config={"coop_turn_s": 60})]
        for s in out:
            if s["game"] != "coop" or s["phase"] != "turn" or s["choice"] != "next":
                continue
            rows = s["frame"]
            at = {(x, y): rows[y][6 * x:6 * x + 6] for y in range(size) for x in range(size)}
            sand = [p for p, c in at.items() if c == "%06x" % screens.RING]
            if not sand or not any(c in numbers for c in at.values()):
                continue  # a loop's colour counting up, not the board
            boards += 1
            for x, y in sand:
                near = [at.get((x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
                assert not numbers.intersection(near), (size, s["t"], x, y)
    assert boards > 60


def test_the_turn_timer_is_in_the_settings_menu():
    from layerlight import modes
    from layerlight.modes import settings
    labels = [label for label, _, _ in settings.ITEMS]
    storage = simcore.MemoryStorage(device_files())
    dev = simcore.make_device(None, 16, 16, 1, None, 0, storage=storage)
    sim = simcore.Simulator(dev)
    lines = ["press B"] * modes.names().index("settings") + ["press A"] + ["press B"] * labels.index("TURN")
    for i, line in enumerate(lines):
        sim.run_line(line, i + 1)
    assert dev.state()["item"] == "TURN" and dev.game.value_text() == "TURN OFF"
    sim.run_line("press A", 1)
    assert dev.game.value_text() == "TURN 30S"
    assert persist.decode(storage.files[persist.SETTINGS])["coop_turn_s"] == 30
    dev, _ = menu_to_coop(storage, [1, 2])
    assert dev.game.turn_total == 30000


def test_a_game_saved_during_the_cards_comes_back_to_the_cards():
    storage = simcore.MemoryStorage(device_files())
    dev = simcore.make_device(None, 16, 16, 4, "coop", 3, storage=storage)
    sim = simcore.Simulator(dev)
    sim.run_line("press P2", 1)
    cards = dev.state()["cards"]
    dev = simcore.make_device(None, 16, 16, 9, None, 0, storage=storage)  # the power went
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)  # RESUME
    s = dev.state()
    assert s["phase"] == "cards" and s["cards"] == cards


# --- the screens ----------------------------------------------------------------------------------

def test_no_screen_of_a_whole_game_allocates_on_micropython():
    """Every screen of a whole game, and of a shorter one with the turn timer on, the SCORES pages,
    a colour below zero and an undo, at every matrix size, drawn under micropython.heap_lock after
    every script line."""
    config = {"coop_turn_s": 10}
    t = Table(3, config=config)
    t.begin()
    t.loop(1, "none", 0, 0, 5, to="green")
    t.loop(2, "blue", 12, 3, 1)
    t.do("hold B 1200")
    t.pause("SCORES")
    t.do("wait 3000", "wait 3000", "wait 3000", "press A", "wait 12000")
    t.loop(3, "pink", 4, 4, 0)
    t.pause("END")
    t.do("wait 1000", "press A")
    assert t.state()["game"] == "menu"
    whole, game, players = coop_game()
    for script, players, config in ((whole, 4, None), (t.script, 3, config)):
        for size in ("8", "16", "32"):
            res = run_micropython("tests/wasm/keeper_draw_entry.py",
                                  args=["coop", str(players), size, size, json.dumps(config) if config else ""],
                                  mounts=MOUNTS, stdin=script)
            assert res.returncode == 0, res.stderr
            out = res.stdout.split("\n")
            assert "probe caught" in out  # the check has teeth
            assert not [line for line in out if line.startswith("alloc")], (size, out[:10])
            assert int([line for line in out if line.startswith("done")][0].split()[1]) > 100


# The colours as the eye sees them on the LEDs: layerlight_tools.led_colour, the one colour
# model (the light of each channel after the cap, relative to the matrix's white; CIEDE2000 by
# coloraide). The bytes the real frame buffer puts on the wire are what the model starts from.

def closest_pair(palette, cap=0.25):
    return min((led_colour.delta_e(palette[i], palette[j], cap), COLOURS[i], COLOURS[j])
               for i in range(len(palette)) for j in range(i + 1, len(palette)))


MIN_DELTA_E = 25  # CIEDE2000: about 2.3 is a just-noticeable difference; 25 is "another colour" at a glance


def test_the_model_reads_the_wire_bytes_of_a_grb_strip():
    """What the model calls the light of a colour is what the frame buffer sends a GRB strip,
    over the white's bytes at that cap."""
    for colour in coop.LED:
        fb = FrameBuffer(1, 1, cap=0.25, order="GRB")
        fb.pixel(0, 0, colour)
        g, r, b = fb.buf
        assert led_colour.light(colour, 0.25) == (r / 64, g / 64, b / 64)


@pytest.mark.parametrize("cap", [0.25, 0.1, 0.5, 1.0])
def test_the_six_colours_are_told_apart_on_the_leds(cap):
    """Every pair of loop colours at least MIN_DELTA_E apart as the LEDs emit them at each
    brightness of the settings menu (0.25 is the default), cap applied."""
    diff, a, b = closest_pair(coop.LED, cap)
    assert diff >= MIN_DELTA_E, "%s and %s are only %.1f apart at brightness %s" % (a, b, diff, cap)


def test_screen_colours_would_not_do_on_leds():
    """The check has teeth: the usual screen colours put orange too close to yellow, purple to blue."""
    screen = (0x0000FF, 0x00FF00, 0xFFFF00, 0xFF8000, 0xFF69B4, 0x8000FF)
    assert closest_pair(screen)[0] < MIN_DELTA_E


# --- the pictures in docs/ ---------------------------------------------------------------------------

def docs_frames():
    """The frames the pictures show: the colour choice, a board at 16x16, the loop counting on."""
    t = Table(4, seed=3)
    t.begin()
    for seat, colour, dots in ((1, "blue", 9), (2, "green", 7), (3, "yellow", 6), (4, "orange", 5), (1, "pink", 4),
                               (2, "purple", 3), (3, "yellow", 4), (4, "pink", 6)):
        t.loop(seat, colour, dots, 1, 0)
    t.do("wait 3000")
    t.next(1)
    t.do("wait 3000")
    dev = t.p.dev

    def frame():
        t.do("wait 300")  # the light of the last press has gone
        dev.render()
        return dev.fb.hex_rows()
    board = frame()
    t.do("press B", "press A", "press B", "press B", "press B")  # loop, orange highlighted
    choice = frame()
    t.do("press B")  # pink
    choice2 = frame()
    t.do("press B")  # purple
    choice3 = frame()
    return board, [choice, choice2, choice3]


def write_docs(folder=DOCS):
    board, choices = docs_frames()
    led_picture.picture([board], pitch=24).save(os.path.join(folder, "coop-board.png"))
    led_picture.picture(choices, pitch=18).save(os.path.join(folder, "coop-colours.png"))


def test_the_pictures_in_docs_are_up_to_date(tmp_path):
    from PIL import Image
    write_docs(str(tmp_path))
    for name in ("coop-board.png", "coop-colours.png"):
        with Image.open(os.path.join(DOCS, name)) as a, Image.open(tmp_path / name) as b:
            assert a.size == b.size and a.tobytes() == b.tobytes(), \
                "docs/%s is out of date: run `.venv/bin/python tests/test_coop.py`" % name


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    write_docs()
    print("wrote docs/coop-board.png and docs/coop-colours.png")
