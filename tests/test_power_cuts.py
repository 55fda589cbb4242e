"""Power cuts at every flash write: nothing saved is lost, no state file is ever unreadable."""

import json

import pytest

from layerlight import persist
from layerlight_tools import simcore
from scenario_lib import Player, device_files

FILES = device_files()


def two_player_game():
    p = Player("layers", players=2, seed=5)
    verdicts = [["A", "A"], ["A", "B"], ["B"], ["A", "A"], ["A", "A"], ["B", "B"]]
    orders = [[1, 2], [2, 1], [1], [2, 1], [1, 2], [2, 1]]
    for o, v in zip(orders, verdicts):
        p.play_round(o, v)
    p.do("press A")
    return p.script.strip().split("\n")


SCRIPT = two_player_game()


def play(storage, script, game="layers", players=2, seed=5):
    """Run a script on a device over `storage`; returns (device, True) or (None, False) at a power cut."""
    try:
        dev = simcore.make_device(None, 16, 16, seed, game, players, storage=storage)
        sim = simcore.Simulator(dev)
        for i, line in enumerate(script):
            sim.run_line(line, i + 1)
    except simcore.PowerCut:
        return None, False
    return dev, True


def last_saved(storage, name):
    for n, data in reversed(storage.saved):
        if n == name:
            return persist.decode(data)
    return None


def assert_every_state_file_readable(storage):
    for name in (persist.GAME, persist.BESTS, persist.SETTINGS):
        if name in storage.files:
            persist.decode(storage.files[name])  # raises if damaged


def reboot(storage):
    storage.fault = None
    logs = []
    dev = simcore.make_device(None, 16, 16, 99, None, 2, logs.append, storage=storage)
    return dev, logs


def count_writes(script, game="layers", players=2):
    storage = simcore.MemoryStorage(FILES)
    dev, finished = play(storage, script, game, players)
    assert finished
    return storage.writes


def test_a_clean_game_saves_after_every_change_and_ends_with_nothing_to_resume():
    storage = simcore.MemoryStorage(FILES)
    dev, finished = play(storage, SCRIPT)
    assert finished and dev.state()["game"] == "menu"
    saves = [persist.decode(d) for n, d in storage.saved if n == persist.GAME]
    assert len(saves) > 30
    assert persist.GAME not in storage.files  # the finished game was cleared
    rounds = {s["snap"]["round"] for s in saves}
    assert rounds == {1, 2, 3, 4, 5, 6}


def check_resume(storage, at, how):
    """Boot again over the flash a cut left, and resume: the last save is what comes back."""
    assert_every_state_file_readable(storage)
    expected = last_saved(storage, persist.GAME)
    dev, logs = reboot(storage)
    assert dev.where == "menu", (at, how, logs)
    if expected is None or persist.GAME not in storage.files:
        return  # nothing saved yet, or the finished game was being cleared
    assert dev.saved is not None, (at, how)
    assert dev.saved["snap"]["scores"] == expected["snap"]["scores"]
    assert dev.menu_items()[0] == "resume"
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)  # RESUME is the first item
    s = dev.state()
    snap = expected["snap"]
    assert s["game"] == "layers" and s["round"] == (snap["round"] or None), (at, how, s)
    assert s["scores"] == [snap["scores"][seat] for seat in snap["seats"]]
    assert s["first_player"] == snap["first"] + 1
    assert (s["mission"] is not None) == bool(snap["mission_ref"])


def with_damage(storage, how):
    """The flash as a cut during the struck write leaves it: nothing written, half, or an empty file."""
    copy = simcore.MemoryStorage(storage.files)
    copy.saved = list(storage.saved)
    name, data = storage.cut_during
    if data is not None and how == "partial":
        copy.files[name] = data[:len(data) // 2]
    elif data is not None and how == "empty":
        copy.files[name] = b""
    return copy


def test_power_cut_at_every_write_of_a_whole_game():
    total = count_writes(SCRIPT)
    for at in range(total):
        storage = simcore.MemoryStorage(FILES)
        storage.fault = (at, "cut")
        dev, finished = play(storage, SCRIPT)
        assert not finished
        for how in ("cut", "partial", "empty"):
            check_resume(with_damage(storage, how), at, how)


def test_a_write_the_flash_refuses_never_stops_the_game():
    total = count_writes(SCRIPT)
    for at in range(0, total, 3):
        storage = simcore.MemoryStorage(FILES)
        storage.fault = (at, "fail")
        dev, finished = play(storage, SCRIPT)
        assert finished and dev.state()["game"] == "menu", at
        assert any("could not" in line for line in dev.hw.logs), at


def test_time_attack_best_survives_a_cut_at_every_write():
    script = ["press A", "press P3", "press A", "press P4", "press A", "wait 31000", "press A"]
    files = device_files({"attack_s": 30})
    files[persist.BESTS] = persist.encode({"time-attack": 5})
    storage = simcore.MemoryStorage(files)
    play(storage, script, "time-attack", 1)
    assert persist.decode(storage.files[persist.BESTS]) == {"time-attack": 9}
    for at in range(storage.writes):
        storage = simcore.MemoryStorage(files)
        storage.fault = (at, "cut")
        play(storage, script, "time-attack", 1)
        for how in ("cut", "partial", "empty"):
            damaged = with_damage(storage, how)
            assert_every_state_file_readable(damaged)
            dev, logs = reboot(damaged)
            assert dev.bests.get("time-attack") in (5, 9), (at, how)


def test_settings_survive_a_cut_at_every_write():
    # main menu: B to SETTINGS (the last item), A opens; A changes TIMER; B, A changes COUNT...
    from layerlight import modes
    script = ["press B"] * modes.names().index("settings") + ["press A", "press A", "press B", "press A", "press B", "press B", "press B",
                                "press A", "press B", "press A"]
    storage = simcore.MemoryStorage(FILES)
    dev, _ = play(storage, script, None, 2)
    final = persist.decode(storage.files[persist.SETTINGS])
    assert final["timer_s"] == 45 and final["countdown_s"] == 15 and final["sound"] is False
    for at in range(storage.writes):
        cut = simcore.MemoryStorage(FILES)
        cut.fault = (at, "cut")
        play(cut, script, None, 2)
        for how in ("cut", "partial", "empty"):
            damaged = with_damage(cut, how)
            assert_every_state_file_readable(damaged)
            dev, logs = reboot(damaged)
            # whatever was saved last is what the device now runs with
            expected = last_saved(damaged, persist.SETTINGS)
            if expected:
                assert dev.cfg["timer_s"] == expected["timer_s"] and dev.sound.enabled == expected["sound"]


def test_a_damaged_saved_game_is_reported_and_survived():
    storage = simcore.MemoryStorage(FILES)
    play(storage, SCRIPT[:10])
    data = bytearray(storage.files[persist.GAME])
    data[20] ^= 0x04  # a flipped bit
    storage.files[persist.GAME] = bytes(data)
    dev, logs = reboot(storage)
    sim = simcore.Simulator(dev, frames=True)
    s = sim.state()
    assert s["phase"] == "error" and s["error"] == 4
    assert any("game.json" in line and "damaged" in line for line in logs)
    assert "resume" not in dev.menu_items()
    assert b"E4" in storage.files[persist.ERRORS]
    sim.run_line("wait 5000", 1)
    assert dev.state()["phase"] == "menu"


def test_a_crash_inside_a_mode_is_logged_shown_and_the_game_stays_resumable(monkeypatch):
    from layerlight.modes import table
    storage = simcore.MemoryStorage(FILES)
    dev = simcore.make_device(None, 16, 16, 1, "layers", 2, storage=storage)
    sim = simcore.Simulator(dev, frames=True)
    for i, line in enumerate(["press A", "press A", "press P1", "press P2"]):
        sim.run_line(line, i + 1)
    saved_scores = dev.state()["scores"]

    def broken(self, kind, b, now):
        raise ZeroDivisionError("a bug")
    monkeypatch.setitem(table.TableGame.HANDLERS, "verify", broken)
    monkeypatch.setitem(dev.game.HANDLERS, "verify", broken)
    sim.run_line("press A", 5)
    s = sim.state()
    assert s["phase"] == "error" and s["error"] == 2
    assert any(row.count("ff0000") for row in s["frame"])
    assert b"E2 layers crashed: a bug" in storage.files[persist.ERRORS]
    monkeypatch.undo()
    sim.run_line("wait 5000", 6)
    assert dev.menu_items()[0] == "resume"
    sim.run_line("press A", 7)
    s = dev.state()
    assert s["phase"] == "verify" and s["scores"] == saved_scores and s["finish_order"] == [1, 2]


def test_error_log_stays_bounded():
    storage = simcore.MemoryStorage()
    for i in range(200):
        persist.append_log(storage, "line %d of an error that happened" % i, print)
    data = storage.files[persist.ERRORS]
    assert len(data) <= persist.ERRORS_MAX and data.endswith(b"line 199 of an error that happened\n")
    assert data.startswith(b"line ")


# --- undo (the pause menu): what a power cut after an undo brings back --------

UNDO_TILES = {"round_tiles": [["M", 3, "S", 1]]}
# the rulebook example (P4 robs P1: 3, 0, 3, 1), then UNDO the steal, then P4
# robs P3 instead, A: round 2
BEFORE_UNDO = ["press A", "press B", "press A", "press P1", "press P2", "press P3", "press P4",
               "press A", "press B", "press A", "press A", "press P1"]
UNDO_LINES = ["hold A 1600", "press B", "press A"]
AFTER_UNDO = ["press P3", "wait 2000", "press A"]


def resume_after_cut(storage, how):
    dev, logs = reboot(with_damage(storage, how))
    assert dev.menu_items()[0] == "resume", logs
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)
    return dev, sim


def test_a_power_cut_right_after_an_undo_resumes_the_undone_state():
    files = device_files(UNDO_TILES)
    storage = simcore.MemoryStorage(files)
    dev, finished = play(storage, BEFORE_UNDO + UNDO_LINES, players=4)
    undone = dev.state()
    assert undone["phase"] == "steal" and undone["taker"] == 4 and undone["scores"] == [4, 0, 3, 0]
    # the plug is pulled: boot again over the same flash
    dev, logs = reboot(storage)
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)
    s = dev.state()
    for key in ("phase", "round", "scores", "taker", "mission", "finish_order", "round_tile"):
        assert s[key] == undone[key], key
    sim.run_line("press P3", 2)  # the table goes on: P4 robs P3 this time
    assert dev.state()["scores"] == [4, 0, 2, 1]


def test_a_power_cut_at_every_write_after_an_undo():
    files = device_files(UNDO_TILES)
    storage = simcore.MemoryStorage(files)
    play(storage, BEFORE_UNDO, players=4)
    at_undo = storage.writes  # the undo's own save is the next write
    storage = simcore.MemoryStorage(files)
    play(storage, BEFORE_UNDO + UNDO_LINES + AFTER_UNDO, players=4)
    total = storage.writes
    assert total == at_undo + 2 * 3  # three saves (a new file, then the rename): the undo, P3 robbed, round 2
    for at in range(at_undo, total):
        struck = (at - at_undo) // 2  # the save the cut struck: 0 the undo's, 1 P3's, 2 round 2's
        storage = simcore.MemoryStorage(files)
        storage.fault = (at, "cut")
        dev, finished = play(storage, BEFORE_UNDO + UNDO_LINES + AFTER_UNDO, players=4)
        assert not finished
        for how in ("cut", "partial", "empty"):
            dev, sim = resume_after_cut(storage, how)
            s = dev.state()
            if struck == 0:
                # the cut struck the undo's own save: the steal stands, and UNDO is still offered
                assert s["phase"] == "scores" and s["scores"] == [3, 0, 3, 1], (at, how, s)
                for i, line in enumerate(UNDO_LINES):
                    sim.run_line(line, 2 + i)
                s = dev.state()
            if struck <= 1:
                assert s["phase"] == "steal" and s["taker"] == 4 and s["scores"] == [4, 0, 3, 0], (at, how, s)
            else:
                assert s["phase"] == "scores" and s["scores"] == [4, 0, 2, 1], (at, how, s)
                # the round's steals were saved too: UNDO still takes back the new one
                for i, line in enumerate(UNDO_LINES):
                    sim.run_line(line, 2 + i)
                assert dev.state()["phase"] == "steal" and dev.state()["scores"] == [4, 0, 3, 0]


def test_time_attack_a_power_cut_after_an_undo_resumes_the_lower_score():
    before = ["press A", "press P4", "press A", "press P3", "press A"]  # 5 + 4 scored
    storage = simcore.MemoryStorage(FILES)
    play(storage, before, "time-attack", 1)
    at_undo = storage.writes
    script = before + UNDO_LINES + ["press A"]  # the undo, then A reveals the level-4 mission again
    for at in (at_undo, at_undo + 1, at_undo + 2, at_undo + 3):
        storage = simcore.MemoryStorage(FILES)
        storage.fault = (at, "cut")
        dev, finished = play(storage, script, "time-attack", 1)
        assert not finished
        dev, sim = resume_after_cut(storage, "cut")
        s = dev.state()
        assert s["game"] == "time-attack", s
        if at < at_undo + 2:  # the undo was not saved yet: the score stands, UNDO is still offered
            assert s["scores"] == [9] and s["missions_done"] == 2 and s["phase"] == "choose_deck", (at, s)
            for i, line in enumerate(UNDO_LINES):
                sim.run_line(line, 2 + i)
            s = dev.state()
        assert s["scores"] == [5] and s["missions_done"] == 1, (at, s)
        assert s["phase"] == "choose_deck" and s["level"] == 4, (at, s)  # the undone mission comes next
        sim.run_line("press A", 5)
        assert dev.state()["mission"]["level"] == 4
