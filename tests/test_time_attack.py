"""Solo time attack: the clock, picking decks, scoring by level, the rating and the personal best."""

import json

import pytest

from layerlight import persist
from layerlight.modes.time_attack import rating
from layerlight_tools import simcore
from scenario_lib import Player, device_files


def test_a_three_minute_run_scores_the_levels_done():
    p = Player("time-attack")
    assert p.state()["phase"] == "ready" and p.state()["timer_ms"] is None
    p.do("press A")
    s = p.state()
    assert s["phase"] == "choose_deck" and s["timer_ms"] == 180000  # the clock starts when A is let go
    p.do("press A")  # level 3
    assert p.state()["mission"]["level"] == 3
    p.do("wait 20000")
    p.do("press A")  # made it: +3
    p.do("press P4")  # P4 picks level 5 directly
    assert p.state()["phase"] == "solve" and p.state()["mission"]["level"] == 5
    p.do("press A")  # +5
    p.do("press P1")  # level 2 is not a Layers time-attack deck
    assert p.state()["phase"] == "choose_deck"
    p.do("press B"); p.do("press A")
    level = p.state()["mission"]["level"]
    p.do("press B")  # skip: no points
    assert p.state()["scores"] == [8] and p.state()["missions_done"] == 2
    p.do("press P3")  # level 4, in progress when the clock ends: does not count
    p.do("wait 170000")
    s = p.state()
    assert s["phase"] == "result" and s["scores"] == [8] and s["timer_ms"] == 0
    assert s["rating"] == "TRY HARDER!" and s["best"] == 8 and s["new_best"] is True
    assert level in (3, 4, 5)
    p.do("press A")
    assert p.state()["game"] == "menu"


def test_plus_variant_has_level_two_and_the_clock_is_a_setting():
    p = Player("time-attack-plus", config={"attack_s": 60})
    p.do("press A")
    assert p.state()["timer_ms"] == 60000
    p.do("press P1")
    assert p.state()["mission"]["level"] == 2
    p.do("press A")
    p.do("wait 60000")
    assert p.state()["phase"] == "result" and p.state()["scores"] == [2]


@pytest.mark.parametrize("score, words", [(0, "TRY HARDER!"), (10, "TRY HARDER!"), (11, "NOT BAD, YOU COULD DO BETTER"),
                                          (30, "THAT WAS PRETTY GOOD"), (31, "GREAT RESULT!"), (50, "IMPRESSIVE!"),
                                          (51, "WHAT A GENIUS!"), (99, "WHAT A GENIUS!")])
def test_rating_table(score, words):
    assert rating(score) == words


def run_attack(storage, levels):
    """A time attack making missions of the given levels, on a device over `storage`."""
    dev = simcore.make_device(None, 16, 16, 1, "time-attack", 1, storage=storage)
    sim = simcore.Simulator(dev)
    lines = ["press A"]
    for lv in levels:
        lines += ["press P%d" % (lv - 1), "press A"]
    lines += ["wait 181000"]
    for i, line in enumerate(lines):
        sim.run_line(line, i + 1)
    return dev


def test_personal_best_is_kept_on_flash_and_a_new_one_gets_a_fanfare():
    storage = simcore.MemoryStorage(device_files())
    dev = run_attack(storage, [3, 4])
    assert dev.state()["new_best"] and "fanfare" in dev.sound.played
    assert persist.decode(storage.files["bests.json"]) == {"time-attack": 7}
    # after a reboot: the best is remembered; a lower score is no new best
    dev = run_attack(storage, [3])
    s = dev.state()
    assert s["best"] == 7 and not s["new_best"] and "fanfare" not in dev.sound.played
    dev = run_attack(storage, [5, 5])
    assert dev.state()["new_best"] and persist.decode(storage.files["bests.json"])["time-attack"] == 10


def test_a_used_up_level_is_refused_until_every_pile_is_used(tmp_path):
    from layerlight_tools.layers import cards, sets
    from layerlight_tools.firmware_files import DEFAULT_SET
    small = tmp_path / "small.deck"
    layer_set = sets.load(DEFAULT_SET)
    cards.write(layer_set, cards.build(layer_set, 1, progress=None), str(small))
    dev = simcore.make_device({"decks/default.deck": small.read_bytes()}, 16, 16, 1, "time-attack", 1)
    sim = simcore.Simulator(dev)
    for i, line in enumerate(["press A", "press P2", "press A", "press P2"]):
        sim.run_line(line, i + 1)
    s = dev.state()
    assert s["phase"] == "choose_deck" and "refused" in dev.sound.played  # level 3 is used up
    assert s["level"] in (4, 5)
    for i, line in enumerate(["press P3", "press A", "press P4", "press A", "press P2"]):
        sim.run_line(line, 10 + i)
    # every pile was used: all shuffled again, level 3 is back
    assert dev.state()["phase"] == "solve" and dev.state()["mission"]["level"] == 3


@pytest.mark.parametrize("game", ["time-attack", "layers"])
def test_a_game_saved_under_a_longer_timer_resumes_under_a_shorter_one(game):
    """A game saved under ATTACK 3:00 (or TIMER 90 S) is switched off; SETTINGS then says 1:00
    (20 S); RESUME goes on with the game's own length: no crash, the sand never more than its
    ring (on the chip, native_draw.ring reads and writes by the lit count unchecked), the clock
    where it was."""
    storage = simcore.MemoryStorage(device_files())
    storage.files[persist.SETTINGS] = persist.encode({"attack_s": 180, "timer_s": 90})
    players = 1 if game == "time-attack" else 2
    dev = simcore.make_device(None, 16, 16, 5, game, players, storage=storage)
    sim = simcore.Simulator(dev, frames=True)
    want = "solve" if game == "time-attack" else "race"
    for no in range(1, 8):
        if dev.state()["phase"] == want:
            break
        sim.run_line("press A", no)
    if game == "layers":
        # a race is saved at its reveal and its end; a firmware before timer_length saved its
        # sand mid-race too: that save, under TIMER 90 S
        saved = persist.decode(storage.files[persist.GAME])
        saved["snap"].pop("timer_length", None)
        saved["snap"]["timer_left"] = 85000
        storage.files[persist.GAME] = persist.encode(saved)
    else:
        sim.run_line("wait 3000", no + 1)
        before = dev.state()
        assert before["timer_ms"] is not None and before["timer_ms"] > 60000
    # switched off; the settings menu then writes the shorter timers
    storage.files[persist.SETTINGS] = persist.encode({"attack_s": 60, "timer_s": 20})
    dev = simcore.make_device(None, 16, 16, 6, None, players, storage=storage)
    sim = simcore.Simulator(dev, frames=True)
    assert dev.state()["choice"] == "RESUME"
    for no, line in enumerate(["press A", "wait 500", "wait 500"], 1):
        sim.run_line(line, no)
        s = dev.state()
        assert s["game"] == game and s["phase"] != "error", s
    assert 20000 < s["timer_ms"] <= (180000 if game == "time-attack" else 85000)
    if game == "time-attack":
        assert 60000 < s["timer_ms"] <= 180000  # the attack's own length, less what was played
