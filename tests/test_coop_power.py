"""CO.OP and power cuts: a cut at every flash step of a whole game resumes with every loop
entered before the cut (the power-cut test of issue 4, for the score keeper)."""

import flash_cuts
from layerlight import persist
from layerlight_tools import simcore
from scenario_lib import coop_game
from test_power_cuts import FILES, cut_runs, play, reboot

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


def test_power_cut_at_every_step_of_a_whole_game_resumes_every_loop():
    """A cut at every step of the firmware's own saves (and halfway through every write): RESUME
    brings back every loop, card and skip the table had entered when the last save finished
    (test_power_cuts.cut_runs: expected from the script played without a cut)."""
    resumed = cut_runs(LINES, GAME, PLAYERS, 1, KEYS)
    assert sum(1 for s in resumed if s) > 300  # most cuts left a game to resume
    assert {1, 2, 3, 4} <= {s["turn_seat"] for s in resumed if s}


def test_a_cut_after_an_undo_resumes_without_the_loop_taken_back():
    undo = LINES.index("hold B 1200")
    storage = flash_cuts.new_storage(FILES)
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
