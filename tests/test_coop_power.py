"""CO.OP and power cuts: a cut at every flash write of a whole game resumes with every loop
entered before the cut (the power-cut test of issue 4, for the score keeper)."""

from layerlight import persist
from layerlight_tools import simcore
from scenario_lib import coop_game
from test_power_cuts import FILES, assert_every_state_file_readable, play, reboot, with_damage

SCRIPT, GAME, PLAYERS = coop_game()
LINES = SCRIPT.strip().split("\n")
KEYS = ("cards", "loops", "colours", "scores", "cards_left", "turn_seat", "actions_logged")


def game_saves(storage):
    return sum(1 for name, _ in storage.saved if name == persist.GAME)


def clean_run():
    """The game played without a cut: what the table had entered at each save of game.json
    (a save follows every change at once, so it is the state at the end of its script line)."""
    storage = simcore.MemoryStorage(FILES)
    dev = simcore.make_device(None, 16, 16, 1, GAME, PLAYERS, storage=storage)
    at_save = {game_saves(storage): dev.state()}
    sim = simcore.Simulator(dev)
    for i, line in enumerate(LINES):
        sim.run_line(line, i + 1)
        if dev.game is not None:
            at_save[game_saves(storage)] = dev.state()
    return storage, at_save


def test_a_clean_game_is_saved_at_every_change_and_cleared_at_the_end():
    storage, at_save = clean_run()
    saves = [persist.decode(d)["snap"] for n, d in storage.saved if n == persist.GAME]
    played = [s["log"] for s in saves if s["playing"]]
    assert played[0] == [] and len(played) > 100
    for a, b in zip(played, played[1:]):  # one save per action entered (or taken back)
        assert b[:-1] == a or a[:-1] == b, (a, b)
    assert len(played[-1]) == at_save[max(at_save)]["actions_logged"]
    assert persist.GAME not in storage.files  # the finished game is not offered again
    assert persist.decode(storage.files[persist.BESTS])["coop"]  # the winner is remembered


def test_power_cut_at_every_write_of_a_whole_game_resumes_every_loop():
    clean, at_save = clean_run()
    resumed = 0
    for at in range(clean.writes):
        storage = simcore.MemoryStorage(FILES)
        storage.fault = (at, "cut")
        dev, finished = play(storage, LINES, GAME, PLAYERS, seed=1)
        assert not finished
        expected = at_save.get(game_saves(storage))
        for how in ("cut", "partial", "empty"):
            damaged = with_damage(storage, how)
            assert_every_state_file_readable(damaged)
            dev, logs = reboot(damaged)
            assert dev.where == "menu", (at, how, logs)
            if persist.GAME not in damaged.files:
                assert expected is None or game_saves(storage) == 0 or expected["phase"] == "final", (at, how)
                continue  # nothing saved yet, or the finished game was being cleared
            assert dev.menu_items()[0] == "resume", (at, how)
            sim = simcore.Simulator(dev)
            sim.run_line("press A", 1)  # RESUME
            s = dev.state()
            assert s["game"] == "coop", (at, how, s)
            for key in KEYS:
                assert s[key] == expected[key], (at, how, key, s[key], expected[key])
            resumed += 1
    assert resumed > 400  # most cuts left a game to resume (three kinds of damage per write)


def test_a_cut_after_an_undo_resumes_without_the_loop_taken_back():
    undo = LINES.index("hold B 1200")
    storage = simcore.MemoryStorage(FILES)
    dev, _ = play(storage, LINES[:undo + 1], GAME, PLAYERS, seed=1)
    before = dev.state()
    dev, _ = reboot(storage)  # the plug is pulled right after the undo
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)
    after = dev.state()
    for key in KEYS:
        assert after[key] == before[key], key
    # and the undo goes on working after the resume, back through the loops saved before the cut
    sim.run_line("hold B 1200", 2)
    assert dev.state()["actions_logged"] == before["actions_logged"] - 1
