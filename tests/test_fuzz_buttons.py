"""Random button mashing with contact bounce never breaks a Layers game."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layerlight import buttons
from layerlight_tools import simcore
from scenario_lib import device_files

FILES = device_files()

# one action: (buttons held as bits, how long in ms); bounce = quick flips
action = st.tuples(st.integers(0, 63), st.integers(0, 400), st.booleans())


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
    else:  # a CO.OP total can go below zero (every X is -1 point)
        assert all(v >= 0 for v in s["scores"])
    fo = s["finish_order"]
    assert len(fo) == len(set(fo)) <= max(s["players"], 0)
    if s["game"] in ("layers", "layers-plus") and s["round"] is not None:
        seen = finished_per_round.setdefault((id(dev.game), s["round"]), [])
        for seat in fo:
            if seat not in seen:
                seen.append(seat)
        assert len(seen) <= s["players"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(action, min_size=20, max_size=300), st.integers(2, 4), st.integers(0, 2**16),
       st.sampled_from([None, "layers", "layers-plus", "time-attack", "time-attack-plus", "coop"]))
def test_random_presses_with_bounce_keep_the_game_sound(actions, players, seed, game):
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
        invariants(dev, finished)
        assert dev.where != "error", dev.hw.logs[-3:]
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
