"""Power cuts at every flash step of the firmware's own saves (tests/flash_cuts.py): nothing
saved is lost, no state file is ever unreadable."""

import pytest

import flash_cuts
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


def assert_every_state_file_readable(storage):
    for name in (persist.GAME, persist.BESTS, persist.SETTINGS):
        if name in storage.files:
            persist.decode(storage.files[name])  # raises if damaged


def reboot(storage):
    """Power on again over the flash a cut left (the firmware's FileStorage over it, no fault)."""
    storage = flash_cuts.after_power_on(storage)
    logs = []
    dev = simcore.make_device(None, 16, 16, 99, None, 2, logs.append, storage=storage)
    return dev, logs


def saves_of(storage, name=persist.GAME):
    return sum(1 for n, _ in storage.saved if n == name)


def count_writes(script, game="layers", players=2):
    storage = flash_cuts.new_storage(FILES)
    dev, finished = play(storage, script, game, players)
    assert finished
    return storage.writes


# --- what the table entered, from the script ------------------------------------------------

def racing(s):
    """A Layers or Layers+ race runs: its presses are saved when it ends (docs/device.md), so until
    then what the table has entered is the reveal."""
    return s.get("phase") == "race"


def view(state, keys):
    """What of a state a resume must bring back: `keys` (a tuple, or a function of the state)."""
    if callable(keys):
        return keys(state)
    return {k: state[k] for k in keys}


def table_record(lines, game, players, seed, keys, files=FILES, rename_over=True):
    """The game played without a cut. Returns (storage, entered): entered[k] is what the table
    had entered while k saves of game.json had finished: the view (`keys`) of the state after
    the last script line that left k saves finished (a save follows every change at once, so a
    change with no save after it shows up here). A race's presses count at its end, its reveal
    until then. Nothing here is read from what the firmware wrote."""
    storage = flash_cuts.new_storage(files, rename_over)
    dev = simcore.make_device(None, 16, 16, seed, game, players, storage=storage)
    entered = {saves_of(storage): view(dev.state(), keys)}
    sim = simcore.Simulator(dev)
    for i, line in enumerate(lines):
        sim.run_line(line, i + 1)
        if dev.game is None:
            continue  # the game is over: nothing more to resume
        s = dev.state()
        k = saves_of(storage)
        if racing(s) and k in entered:
            continue
        entered[k] = view(s, keys)
    return storage, entered


def entered_at(entered, k):
    """What the table had entered once k saves had finished. A script line with more than one
    save (none of the shipped ones) leaves the saves before its last one at the line before."""
    if k in entered:
        return entered[k]
    lower = [j for j in entered if j < k]
    return entered[max(lower)] if lower else None


def ended(state):
    return state is not None and state.get("phase") in ("final", "result")


def check_cut(storage, entered, keys, at, how, game):
    """After a cut: every state file reads, and RESUME brings back what the table had entered
    when the last save finished, or, when the save the power cut had written all its bytes,
    what it had entered by then. No resume only before the first save finished, or when the
    game had ended (its file being cleared). Returns the resumed state (None: no resume)."""
    k = saves_of(storage)
    allowed = [entered_at(entered, k)]
    if flash_cuts.in_flight_done(storage, persist.GAME):
        allowed.append(entered_at(entered, k + 1))
    assert_every_state_file_readable(storage)
    dev, logs = reboot(storage)
    where = (at, how, storage.flash.struck, k)
    assert dev.where == "menu", (where, logs)
    assert not [line for line in logs if "damaged" in line], (where, logs)  # a cut never damages a state file
    if dev.menu_items()[0] != "resume":
        assert k == 0 or ended(entered_at(entered, k)), (where, "a finished save is lost", entered_at(entered, k))
        return None
    assert k > 0 or len(allowed) == 2, (where, "a game to resume before any save finished")
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)  # RESUME is the first item
    s = dev.state()
    assert s["game"] == game, (where, s, logs)
    got = view(s, keys)
    assert got in allowed, (where, got, allowed)
    return got


def cut_runs(lines, game, players, seed, keys, files=FILES, rename_over=True, first_step=0):
    """A power cut at every step of the firmware's saves (and halfway through every write), each
    resumed and checked; returns the states resumed."""
    clean, entered = table_record(lines, game, players, seed, keys, files, rename_over)
    resumed = []
    for at, how in flash_cuts.cuts(clean):
        if at < first_step:
            continue
        storage = flash_cuts.new_storage(files, rename_over)
        storage.fault = (at, how)
        dev, finished = play(storage, lines, game, players, seed)
        assert not finished and storage.flash.struck is not None, (at, how)
        assert storage.flash.struck[0] == clean.flash.steps[at][0], (at, how, storage.flash.struck)
        resumed.append(check_cut(storage, entered, keys, at, how, game))
    return resumed


def layers_view(s):
    """Layers: the round, scores, first player, mission, finish order, tile and phase; the round
    tile's screen and the deck choice are one step (A from the tile's screen only shows the
    choice: nothing is entered, and nothing saved)."""
    keys = ("game", "round", "scores", "first_player", "mission", "finish_order", "round_tile")
    out = {k: s[k] for k in keys}
    out["phase"] = "choose" if s["phase"] in ("round_tile", "choose_deck") else s["phase"]
    return out


def resumed_from(data, game, keys):
    """What a device powered on over a flash holding `data` as its saved game brings back
    with RESUME (the view `keys` of its state), or None when it offers no RESUME."""
    storage = flash_cuts.new_storage(dict(FILES, **{persist.GAME: data}))
    dev, logs = reboot(storage)
    assert dev.where == "menu", logs
    if dev.menu_items()[0] != "resume":
        return None
    simcore.Simulator(dev).run_line("press A", 1)
    s = dev.state()
    assert s["game"] == game, (s, logs)
    return view(s, keys)


def test_a_clean_game_saves_after_every_change_and_ends_with_nothing_to_resume():
    """Every save of a whole game, resumed on its own, brings back what the table had entered
    when it was written and until the next save (from the script, not from the firmware's
    files: table_record), every round is saved, and the finished game leaves nothing to
    resume."""
    storage, entered = table_record(SCRIPT, "layers", 2, 5, layers_view)
    saves = [d for n, d in storage.saved if n == persist.GAME]
    assert len(saves) > 30
    assert persist.GAME not in storage.files  # the finished game was cleared
    assert {entered[k]["round"] for k in range(1, len(saves) + 1)} == {1, 2, 3, 4, 5, 6}
    # entered[k] is the table after the last line that left k saves: a change with no save
    # after it would show there and not in save k
    for k, data in enumerate(saves, 1):
        assert resumed_from(data, "layers", layers_view) == entered[k], (k, entered[k - 1])


@pytest.mark.parametrize("rename_over", [True, False], ids=["littlefs", "fat"])
def test_power_cut_at_every_step_of_a_whole_game(rename_over):
    """LittleFS renames over the old file; FAT will not, and the firmware removes the old file
    first: a cut between the two must still resume the new save (persist.load reads game.json.new)."""
    resumed = cut_runs(SCRIPT, "layers", 2, 5, layers_view, rename_over=rename_over)
    phases = {s["phase"] for s in resumed if s}
    assert {"race", "verify", "scores", "final"} <= phases, phases
    assert sum(1 for s in resumed if s) > 100
    assert sum(1 for s in resumed if s is None) <= 8  # the first save and the end's clearing only


def test_a_write_the_flash_refuses_never_stops_the_game():
    total = count_writes(SCRIPT)
    for at in range(0, total, 3):
        storage = flash_cuts.new_storage(FILES)
        storage.fault = (at, "fail")
        dev, finished = play(storage, SCRIPT)
        assert storage.flash.struck is not None, at
        assert finished and dev.state()["game"] == "menu", at
        assert any("could not" in line for line in dev.hw.logs), at


def entered_per_save(storage, dev, lines, name, value):
    """Play `lines` on dev (over storage, no fault): value(dev) after the last line that left k
    saves of `name` finished, for each k (what the table had set when k saves had finished)."""
    sim = simcore.Simulator(dev)
    entered = {saves_of(storage, name): value(dev)}
    for i, line in enumerate(lines):
        sim.run_line(line, i + 1)
        entered[saves_of(storage, name)] = value(dev)
    return entered


def settled_after_cut(storage, entered, name):
    """What must be on flash after a cut: the value of the last save of `name` that finished,
    or of the one the cut struck if all its bytes were written."""
    k = saves_of(storage, name)
    allowed = [entered_at(entered, k)]
    if flash_cuts.in_flight_done(storage, name):
        allowed.append(entered_at(entered, k + 1))
    return allowed


def test_time_attack_best_survives_a_cut_at_every_step():
    script = ["press A", "press P3", "press A", "press P4", "press A", "wait 31000", "press A"]
    files = device_files({"attack_s": 30})
    files[persist.BESTS] = persist.encode({"time-attack": 5})
    clean = flash_cuts.new_storage(files)
    dev = simcore.make_device(None, 16, 16, 5, "time-attack", 1, storage=clean)
    entered = entered_per_save(clean, dev, script, persist.BESTS, lambda d: d.bests.get("time-attack"))
    assert entered[0] == 5 and entered[max(entered)] == 9  # the script scores 9, a new best
    kept = set()
    for at, how in flash_cuts.cuts(clean):
        storage = flash_cuts.new_storage(files)
        storage.fault = (at, how)
        dev, finished = play(storage, script, "time-attack", 1)
        assert not finished and storage.flash.struck is not None, (at, how)
        assert_every_state_file_readable(storage)
        dev, logs = reboot(storage)
        allowed = settled_after_cut(storage, entered, persist.BESTS)
        # a best whose save finished is never lost; one whose save did not finish is not there
        assert dev.bests.get("time-attack") in allowed, (at, how, storage.flash.struck, allowed, logs)
        kept.add(dev.bests.get("time-attack"))
    assert kept == {5, 9}


def settings_now(dev):
    return {"timer_s": dev.cfg["timer_s"], "countdown_s": dev.cfg["countdown_s"], "sound": dev.sound.enabled,
            "coop_turn_s": dev.cfg["coop_turn_s"]}


def test_settings_survive_a_cut_at_every_step():
    # main menu: B to SETTINGS (the last item), A opens; A changes TIMER; B, A changes COUNT...
    from layerlight import modes
    script = ["press B"] * modes.names().index("settings") + ["press A", "press A", "press B", "press A", "press B", "press B", "press B",
                                "press A", "press B", "press A"]
    clean = flash_cuts.new_storage(FILES)
    dev = simcore.make_device(None, 16, 16, 5, None, 2, storage=clean)
    entered = entered_per_save(clean, dev, script, persist.SETTINGS, settings_now)
    assert entered[max(entered)] == {"timer_s": 45, "countdown_s": 15, "sound": False, "coop_turn_s": 30}
    assert len(entered) == 5 and entered[0] == settings_now(simcore.make_device(FILES))  # four changes, each saved
    seen = []
    for at, how in flash_cuts.cuts(clean):
        cut = flash_cuts.new_storage(FILES)
        cut.fault = (at, how)
        dev, finished = play(cut, script, None, 2)
        assert not finished and cut.flash.struck is not None, (at, how)
        assert_every_state_file_readable(cut)
        dev, logs = reboot(cut)
        # every change whose save finished is what the device now runs with, and no other
        allowed = settled_after_cut(cut, entered, persist.SETTINGS)
        assert settings_now(dev) in allowed, (at, how, cut.flash.struck, settings_now(dev), allowed, logs)
        seen.append(settings_now(dev))
    assert all(entered[k] in seen for k in range(len(entered) - 1))  # each but the last save's is resumed


def test_a_damaged_saved_game_is_reported_and_survived():
    storage = flash_cuts.new_storage(FILES)
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


def resume_after_cut(storage):
    dev, logs = reboot(storage)
    assert dev.menu_items()[0] == "resume", logs
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)
    return dev, sim


def test_a_power_cut_right_after_an_undo_resumes_the_undone_state():
    files = device_files(UNDO_TILES)
    storage = flash_cuts.new_storage(files)
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
    storage = flash_cuts.new_storage(files)
    play(storage, BEFORE_UNDO, players=4)
    at_undo = storage.writes  # the undo's own save is the next write
    saves_before = saves_of(storage)
    clean = flash_cuts.new_storage(files)
    play(clean, BEFORE_UNDO + UNDO_LINES + AFTER_UNDO, players=4)
    assert saves_of(clean) == saves_before + 3  # three saves: the undo, P3 robbed, round 2
    for at, how in flash_cuts.cuts(clean):
        if at < at_undo:
            continue
        storage = flash_cuts.new_storage(files)
        storage.fault = (at, how)
        dev, finished = play(storage, BEFORE_UNDO + UNDO_LINES + AFTER_UNDO, players=4)
        assert not finished and storage.flash.struck is not None
        # the saves that finished after the undo: 0 (the undo's was cut), 1 (P3's was), 2 (round 2's)
        struck = saves_of(storage) - saves_before
        dev, sim = resume_after_cut(storage)
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
    storage = flash_cuts.new_storage(FILES)
    play(storage, before, "time-attack", 1)
    at_undo = storage.writes
    saves_before = saves_of(storage)
    script = before + UNDO_LINES + ["press A"]  # the undo, then A reveals the level-4 mission again
    for at in range(at_undo, at_undo + 4):  # the undo's save (open, write, rename), then the next
        storage = flash_cuts.new_storage(FILES)
        storage.fault = (at, "cut")
        dev, finished = play(storage, script, "time-attack", 1)
        assert not finished and storage.flash.struck is not None
        dev, sim = resume_after_cut(storage)
        s = dev.state()
        assert s["game"] == "time-attack", s
        if saves_of(storage) == saves_before:  # the undo was not saved yet: the score stands, UNDO is still offered
            assert s["scores"] == [9] and s["missions_done"] == 2 and s["phase"] == "choose_deck", (at, s)
            for i, line in enumerate(UNDO_LINES):
                sim.run_line(line, 2 + i)
            s = dev.state()
        assert s["scores"] == [5] and s["missions_done"] == 1, (at, s)
        assert s["phase"] == "choose_deck" and s["level"] == 4, (at, s)  # the undone mission comes next
        sim.run_line("press A", 5)
        assert dev.state()["mission"]["level"] == 4
