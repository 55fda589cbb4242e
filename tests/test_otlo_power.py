"""OTLO and power cuts: a cut at every flash write of a whole game resumes with every claim,
verdict and barred seat decided before it; the solo clock resumes from its last save."""

import flash_cuts
from layerlight import persist
from layerlight_tools import simcore
from scenario_lib import otlo_game
from test_power_cuts import FILES, cut_runs, play, reboot

SCRIPT, GAME, PLAYERS = otlo_game()
LINES = SCRIPT.strip().split("\n")
KEYS = ("phase", "seats", "scores", "piles", "claimer", "barred", "handicap", "solved", "mission")


def game_saves(storage):
    return sum(1 for name, _ in storage.saved if name == persist.GAME)


def clean_run():
    """The game without a cut: the state at each save of game.json (a save follows every change)."""
    storage = simcore.MemoryStorage(FILES)
    dev = simcore.make_device(None, 16, 16, 5, GAME, PLAYERS, storage=storage)
    at_save = {game_saves(storage): dev.state()}
    sim = simcore.Simulator(dev)
    for i, line in enumerate(LINES):
        sim.run_line(line, i + 1)
        if dev.game is not None:
            at_save[game_saves(storage)] = dev.state()
    return storage, at_save


def test_a_clean_game_is_saved_at_every_claim_and_verdict_and_cleared_at_the_end():
    storage, at_save = clean_run()
    snaps = [persist.decode(d)["snap"] for n, d in storage.saved if n == persist.GAME]
    verdicts = [i for i in range(1, len(snaps)) if snaps[i]["phase"] == "play" and snaps[i - 1]["phase"] == "verify"]
    assert len(verdicts) >= 16  # every card solved, and the wrong claims, each saved at once
    assert persist.GAME not in storage.files  # the finished game is not offered again
    assert persist.decode(storage.files[persist.BESTS])["otlo-levels"] == "1-3"


def test_power_cut_at_every_step_of_a_whole_game_resumes_where_the_table_was():
    """A cut at every step of the firmware's own saves (and halfway through every write): RESUME
    brings back every claim, verdict and barred seat the table had entered when the last save
    finished (test_power_cuts.cut_runs: expected from the script played without a cut)."""
    resumed = cut_runs(LINES, GAME, PLAYERS, 5, KEYS)
    assert sum(1 for s in resumed if s) > 150
    assert {"play", "claim", "verify"} <= {s["phase"] for s in resumed if s}


def test_the_solo_clock_resumes_from_its_last_save():
    storage = flash_cuts.new_storage(FILES)
    lines = ["press A", "wait 25000", "press A", "wait 4000"]
    dev, _ = play(storage, lines, GAME, 1, seed=5)
    before = dev.state()
    assert 29000 <= before["elapsed_ms"] <= 29200
    dev, _ = reboot(storage)  # the plug is pulled
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)
    s = dev.state()
    # saved at the A (25 s): the 4 s since are lost, never more than a checkpoint
    assert s["piles"] == before["piles"] and s["solved"] == before["solved"]
    assert 25000 <= s["elapsed_ms"] <= before["elapsed_ms"] - 3800
    sim.run_line("wait 1000", 2)
    assert dev.state()["elapsed_ms"] == s["elapsed_ms"] + 1000
