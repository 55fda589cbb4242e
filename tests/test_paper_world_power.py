"""Paper World: power cuts at every flash write of the final round and the final entry.

The game is saved as its set-up and the log of actions, a seat's final counts being one
action; after a cut the device replays the log and the table is back where the last save
left it: in the final round with the same turns left, or in the final entry at the seat
whose counts were not saved yet.
"""

import flash_cuts
from layerlight_tools import simcore
from scenario_lib import coop_count, paper_world_game
from test_power_cuts import FILES, cut_runs, play, reboot

SCRIPT, GAME, PLAYERS = paper_world_game()
LINES = SCRIPT.strip().split("\n")
KEYS = ("phase", "scores", "objectives", "scissors", "final_round", "turns_left", "turn_seat", "actions_logged",
        "entry", "winners", "breakdown", "first_player", "seats")


def clean_run():
    """The whole game without a cut: the flash writes before each line, and the state the
    table is in right after each log of actions first came about (what a resume must show)."""
    storage = flash_cuts.new_storage(FILES)
    dev = simcore.make_device(None, 16, 16, 5, GAME, PLAYERS, storage=storage)
    sim = simcore.Simulator(dev)
    writes = []
    by_log = {}
    trigger = entry = None
    for i, line in enumerate(LINES):
        writes.append(storage.writes)
        sim.run_line(line, i + 1)
        if dev.game is not None:
            by_log.setdefault(tuple(dev.game.log), {k: dev.state()[k] for k in KEYS})
            if trigger is None and dev.state()["final_round"]:
                trigger = i
            if entry is None and dev.state()["phase"] == "final_entry":
                entry = i + 1
    return storage.writes, writes, by_log, trigger, entry


# TRIGGER: the line that chose `end`; ENTRY: the first line of the final entry
TOTAL, WRITES, BY_LOG, TRIGGER, ENTRY = clean_run()


def resume(storage):
    dev, logs = reboot(storage)
    assert dev.menu_items()[0] == "resume", logs
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)  # RESUME is the first item
    return dev, sim


def test_the_script_reaches_the_final_round_at_the_trigger_line():
    assert BY_LOG and any(s["final_round"] and s["phase"] == "turn" and s["turns_left"] == 4 for s in BY_LOG.values())
    storage = flash_cuts.new_storage(FILES)
    dev, finished = play(storage, LINES[:TRIGGER + 1], GAME, PLAYERS)
    assert dev.state()["final_round"] and dev.state()["turns_left"] == 4
    dev, finished = play(simcore.MemoryStorage(FILES), LINES[:TRIGGER], GAME, PLAYERS)
    assert not dev.state()["final_round"]


def resumed_view(state):
    """What a resume brings back: all of KEYS but the counts being typed at the final entry
    (not saved until a seat's counts are confirmed: they are typed again)."""
    return {k: state[k] for k in KEYS if k != "entry"}


def test_a_power_cut_at_every_step_of_the_final_round_and_the_final_entry():
    """A cut at every step of the firmware's own saves from the line that ends the game (and
    halfway through every write): RESUME brings back what the table had entered when the last
    save finished (test_power_cuts.cut_runs: expected from the script played without a cut)."""
    resumed = [s for s in cut_runs(LINES, GAME, PLAYERS, 5, resumed_view, first_step=WRITES[TRIGGER]) if s]
    seen = {(s["phase"], s["turns_left"], s["turn_seat"]) for s in resumed}
    # every turn of the final round (and the turn before, when the cut struck the end's own save),
    # every seat's final entry and the final itself were resumed
    assert {left for p, left, _ in seen if p == "turn"} == {None, 4, 3, 2, 1}
    assert {seat for p, _, seat in seen if p == "final_entry"} == {1, 2, 3, 4}
    assert ("final", 0, None) in seen


def test_a_cut_in_the_final_round_resumes_it_and_the_game_goes_on():
    storage = flash_cuts.new_storage(FILES)
    play(storage, LINES[:TRIGGER + 5], GAME, PLAYERS)  # the end, P1 refused a claim, then two turns ended
    dev, sim = resume(storage)
    s = dev.state()
    assert s["phase"] == "turn" and s["final_round"] and s["turns_left"] == 2 and s["turn_seat"] == 3
    for i, line in enumerate(["press A", "press A"]):
        sim.run_line(line, 2 + i)
    s = dev.state()
    assert s["phase"] == "final_entry" and s["turn_seat"] == 1 and s["turns_left"] == 0


def test_a_cut_in_the_final_entry_resumes_at_the_seat_being_entered():
    """A cut while P2's counts are typed: P1's are saved, P2's start again; the game ends as it would have."""
    lines = LINES[:ENTRY]
    lines += coop_count(20) + coop_count(2) + coop_count(3)  # P1's counts (as the whole game has them)
    lines += coop_count(21) + coop_count(1)  # P2's stars and hand, not saved yet
    storage = flash_cuts.new_storage(FILES)
    dev, finished = play(storage, lines, GAME, PLAYERS)
    assert dev.state()["entry"] == {"what": "discard", "value": 0} and dev.state()["turn_seat"] == 2
    dev, sim = resume(storage)
    s = dev.state()
    assert s["phase"] == "final_entry" and s["turn_seat"] == 2 and s["entry"] == {"what": "stars", "value": 0}
    rest = coop_count(21) + coop_count(1) + coop_count(5)
    for stars, hand, discard in ((15, 0, 1), (18, 3, 2)):
        rest += coop_count(stars) + coop_count(hand) + coop_count(discard)
    for i, line in enumerate(rest):
        sim.run_line(line, 2 + i)
    s = dev.state()
    final = [v for v in BY_LOG.values() if v["phase"] == "final"][0]
    assert {k: s[k] for k in KEYS} == final
    assert s["scores"] == [27, 27, 23, 24] and s["winners"] == [1]
