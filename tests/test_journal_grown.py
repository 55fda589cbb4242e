"""The journal's grown lists (journal.Journal.save's `grown`: a score keeper's log of the table's
actions): a save writes only the items added since the last one, and whatever the list went
through between two saves (items added, taken off the end, put back, the list emptied or
replaced), the journal on flash gives back exactly the game that was saved."""

import json

from hypothesis import given, settings, strategies as st

from layerlight import journal
from layerlight_tools import simcore
from scenario_lib import Player, coop_game

# what the table does to the log between two saves: ("add", n items), ("undo", n), ("reset",)
STEPS = st.lists(st.one_of(
    st.tuples(st.just("add"), st.lists(st.integers(-3, 5000), min_size=1, max_size=3)),
    st.tuples(st.just("undo"), st.integers(1, 3)),
    st.tuples(st.just("new"),),          # a new list object with the same items
    st.tuples(st.just("reset"),)), min_size=1, max_size=40)


def saved_game(log, n):
    return {"game": "coop", "n": n, "snap": {"log": log, "seats": [0, 1]}}


@settings(max_examples=150, deadline=None)
@given(STEPS)
def test_whatever_the_log_went_through_the_journal_gives_back_the_game_saved(steps):
    flash = simcore.SimFlash()
    j = journal.Journal(flash, log=lambda line: None)
    log = []
    for n, step in enumerate(steps):
        if step[0] == "add":
            log.extend(step[1])
        elif step[0] == "undo":
            del log[max(0, len(log) - step[1]):]
        elif step[0] == "new":
            log = list(log)
        else:
            log = []
        game = saved_game(log, n)
        j.save(game, ("log",))
        assert json.loads(j.texts["snap/log"]) == log  # what the next base record would hold
        assert journal.Journal(flash).load() == json.loads(json.dumps(game)), (n, step)


def test_an_entry_late_in_a_whole_coop_game_writes_out_only_itself():
    """The last entries of a CO.OP game (a log of 60 actions and more) cost as little work as the
    first ones: the JSON written out for an entry is its own few bytes and the game's small
    keys, not the whole log again (on the chip, every byte of it is time before the light)."""
    script = coop_game()[0]
    p = Player("coop", players=4, seed=1)
    dev = p.dev
    dev.saves = journal.Journal(simcore.SimFlash(), dev.log)
    written = []
    dumps = journal.json.dumps

    class Counted:
        @staticmethod
        def dumps(obj):
            text = dumps(obj)
            written[-1] += len(text)
            return text

        loads = staticmethod(json.loads)
    save = dev.saves.save

    def saved(obj, grown=()):
        written.append(0)
        save(obj, grown)
        if "record" in obj or len(obj["snap"]["log"]) <= 60:
            written.pop()  # the final's record (the game's result for the play log) aside
    dev.saves.save = saved
    journal.json = Counted
    try:
        for line in script.split("\n")[:-2]:
            p.do(line)
    finally:
        journal.json = json
    assert p.state()["actions_logged"] > 60
    assert written and max(written) < 250, written
