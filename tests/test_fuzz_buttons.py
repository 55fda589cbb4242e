"""Random button mashing with contact bounce never breaks a Layers game."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layerlight import buttons
from layerlight_tools import simcore
from scenario_lib import device_files

FILES = device_files()

# one action: (buttons held as bits, how long in ms); bounce = quick flips
action = st.tuples(st.integers(0, 63), st.integers(0, 400), st.booleans())


def no_crash(dev):
    """No mode has crashed since the device started. A crash shows the error screen for a few
    seconds, or until a button is let go, and then the menu: `dev.where` alone misses it after a
    press, so the console's "error E.." line (app.Device.fail) is what is checked."""
    errors = [line for line in dev.hw.logs if line.startswith("error E")]
    assert not errors and dev.where != "error", dev.hw.logs[-6:]


def invariants(dev, finished_per_round):
    s = dev.state()
    if s["round"] is not None:
        assert 1 <= s["round"] <= 6
    if s["game"] == "coop":
        # cards only run down, one per `next`; every total is its card's colours (shared colours count twice)
        assert 0 <= s["cards_left"] <= 72
        if s["cards"]:
            assert s["scores"] == [sum(s["colours"][c] for c in card) for card in s["cards"]]
        assert sum(s["colours"].values()) == sum(l["dots"] + l["o"] - l["x"] for l in s["loops"])
    elif s["game"] == "paper-world":
        paper_world_invariants(s)
    elif s["game"] == "otlo":
        otlo_invariants(dev, s, finished_per_round)
    else:  # a CO.OP total can go below zero (every X is -1 point), and so can a Paper World final score
        assert all(v >= 0 for v in s["scores"])
    fo = s["finish_order"]
    assert len(fo) == len(set(fo)) <= max(s["players"], 0)
    if s["game"] in ("layers", "layers-plus") and s["round"] is not None:
        seen = finished_per_round.setdefault((id(dev.game), s["round"]), [])
        for seat in fo:
            if seat not in seen:
                seen.append(seat)
        assert len(seen) <= s["players"]


def paper_world_invariants(s):
    """Tokens only move from an objective to a seat, highest first, once per seat; the scissors are
    with a seat or nobody; the final round counts down; the scores are what the tokens, scissors and
    final counts make."""
    n = s["players"]
    table = list(range(n + 1, 1, -1))  # the default tokens (no paper_tokens setting here)
    mine = dict.fromkeys(s["seats"], 0)
    for o in s["objectives"]:
        assert len(set(o["claimed"])) == len(o["claimed"]) and set(o["claimed"]) <= set(s["seats"])
        assert o["tokens"] == table[len(o["claimed"]):]
        for k, seat in enumerate(o["claimed"]):
            mine[seat] += table[k]
    assert s["scissors"] is None or s["scissors"] in s["seats"]
    assert (s["turns_left"] is None) == (not s["final_round"])
    assert s["turns_left"] is None or 0 <= s["turns_left"] <= n
    bonus = {seat: 2 if s["scissors"] == seat else 0 for seat in s["seats"]}
    if s["phase"] == "final":
        b = s["breakdown"]
        assert s["scores"] == [x["stars"] + x["objectives"] - x["hand"] - x["discard"] + x["scissors"] for x in b]
        assert [x["objectives"] + x["scissors"] for x in b] == [mine[seat] + bonus[seat] for seat in s["seats"]]
        assert all(0 <= x["hand"] <= 9 for x in b) and s["winners"]
    elif s["phase"] != "pause":
        assert s["scores"] == [mine[seat] + bonus[seat] for seat in s["seats"]]


def otlo_invariants(dev, s, seen):
    """Piles only shrink (a solo skip moves a card under its pile); every score is its solved
    cards' stars plus the handicap, never below 0 per card; a barred seat never scores that card."""
    deck = dev.game.deck
    stars = seen.get("otlo stars")
    if stars is None:
        stars = seen["otlo stars"] = dict((c.id, c.stars) for c in map(deck.challenge, range(deck.count)))
    for seat, solved in zip(s["seats"], s["solved"]):
        for card, seats in s["barred"].items():
            assert not (seat in seats and int(card) in solved), s
    expected = [sum(max(0, stars[c] + h) for c in solved) for solved, h in zip(s["solved"], s["handicap"])]
    assert s["scores"] == expected, s
    if s["piles"]:  # dealt: from then on the cards left only go down
        left = sum(len(p) for p in s["piles"])
        key = ("otlo left", id(dev.game))
        assert left <= seen.get(key, left), s
        seen[key] = left
    cards = [c for p in s["piles"] for c in p] + [c for x in s["solved"] for c in x]
    assert len(cards) == len(set(cards)), s


OTLO_STEP = st.tuples(st.sampled_from(["P1", "P2", "P3", "P4", "A", "A", "B", "B"]), st.sampled_from([60, 60, 700, 2000]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OTLO_STEP, min_size=30, max_size=200), st.integers(1, 4), st.integers(0, 2**16))
def test_otlo_button_storms_keep_the_stars_right(steps, players, seed):
    """Whole OTLO games mashed button by button: claims, verdicts, skips, holds and pauses."""
    dev = simcore.make_device(FILES, 16, 16, seed, "otlo", players)
    sim = simcore.Simulator(dev)
    seen = {}
    for n, (button, ms) in enumerate(steps):
        sim.run_line("press %s" % button if ms == 60 else "hold %s %d" % (button, ms), n + 1)
        no_crash(dev)  # before leaving the loop: a crash drops the game and shows the menu
        if dev.game is None or dev.where != "game":
            break
        otlo_invariants(dev, dev.state(), seen)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(action, min_size=20, max_size=300), st.integers(2, 4), st.integers(0, 2**16),
       st.sampled_from([None, "layers", "layers-plus", "time-attack", "time-attack-plus", "coop", "paper-world",
                        "otlo"]))
def test_random_presses_with_bounce_keep_the_game_sound(actions, players, seed, game):
    if game == "otlo" and seed % 3 == 0:
        players = 1  # the solo game too
    dev = simcore.make_device(FILES, 16, 16, seed, game, players)
    sim = simcore.Simulator(dev)
    finished = {}
    for bits, ms, bounce in actions:
        if bounce:
            # contact bounce: the line flips a few times within the debounce window
            for k in range(4):
                dev.hw.pressed = bits if k % 2 == 0 else 0
                sim.t += 2
                dev.step(sim.t)
        dev.hw.pressed = bits
        sim.advance(ms)
        no_crash(dev)
        invariants(dev, finished)
        if dev.game is not None and dev.game.name.startswith("time-attack"):
            assert dev.state()["timer_ms"] is None or dev.state()["timer_ms"] >= 0


def test_bounce_inside_the_debounce_time_makes_one_press():
    b = buttons.Buttons()
    events = []
    t = 0
    for level in (1, 0, 1, 0, 1):  # bouncing contact, 3 ms apart
        events += list(b.update(t, level))
        t += 3
    for t in range(t, 200, 10):
        events += list(b.update(t, 1))
    events += list(b.update(200, 0))
    kinds = [buttons.kind_of(e) for e in events]
    assert kinds.count(buttons.PRESS) == 1
    assert kinds.count(buttons.RELEASE) == 1
