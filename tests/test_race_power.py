"""No flash write while players race (docs/device.md, "Power cuts"): a save stops
the whole chip, so a Layers or Layers+ race is saved at its reveal and at its end,
never in between, and OTLO's play is saved only when a claim is called or settled.
A power cut at any write of a race, or between them, loses at most that race's
presses: the game comes back at the race's reveal, with the same mission."""

import pytest

from layerlight import persist
from layerlight_tools import simcore
from scenario_lib import device_files

FILES = device_files()


def race_to_verify(game):
    """Reveal a mission, then two seats press 97 ms apart, the sand runs 4 s, the third presses."""
    return ["press A"] * (2 if game == "layers" else 1) + [
        "wait 3000", "press P2", "wait 37", "press P3", "wait 4000", "press P1"]


def writes_per_line(storage, script, game, players=3, seed=3):
    """[(line, writes made by it, state after it)] for the script played on `storage`."""
    dev = simcore.make_device(None, 16, 16, seed, game, players, storage=storage)
    sim = simcore.Simulator(dev)
    out = []
    for i, line in enumerate(script):
        n = storage.writes
        sim.run_line(line, i + 1)
        out.append((line, storage.writes - n, dev.state()))
    return out


@pytest.mark.parametrize("game", ["layers", "layers-plus"])
def test_a_race_writes_nothing_from_its_reveal_to_its_end(game):
    storage = simcore.MemoryStorage(FILES)
    lines = writes_per_line(storage, race_to_verify(game), game)
    reveal = next(i for i, (_, _, s) in enumerate(lines) if s["phase"] == "race")
    assert lines[reveal][1] > 0, "the reveal is saved (a cut mid-race comes back to it)"
    racing = lines[reveal + 1:-1]
    assert [s["finish_order"] for _, _, s in racing][-1] == [2, 3]
    assert racing[-1][2]["timer_ms"] is not None  # the sand ran across these lines
    assert [w for _, w, _ in racing] == [0] * len(racing), "a flash write while the race ran"
    line, w, s = lines[-1]
    assert s["phase"] == "verify" and s["finish_order"] == [2, 3, 1]
    assert w > 0, "the race's presses are saved when it ends"
    saved = persist.decode(storage.files[persist.GAME])["snap"]
    assert saved["finish_order"] == [1, 2, 0]


def resumed(storage):
    storage.fault = None
    dev = simcore.make_device(None, 16, 16, 99, None, 2, storage=storage)
    assert dev.menu_items()[0] == "resume"
    sim = simcore.Simulator(dev)
    sim.run_line("press A", 1)
    return dev.state()


@pytest.mark.parametrize("game", ["layers", "layers-plus"])
def test_a_power_cut_at_any_write_of_a_race_or_between_them_comes_back_to_its_reveal_or_its_end(game):
    script = race_to_verify(game)
    storage = simcore.MemoryStorage(FILES)
    lines = writes_per_line(storage, script, game)
    reveal = next(i for i, (_, _, s) in enumerate(lines) if s["phase"] == "race")
    at_reveal = lines[reveal][2]
    at_end = lines[-1][2]
    pre = simcore.MemoryStorage(FILES)
    writes_per_line(pre, script[:reveal], game)
    before = persist.decode(pre.files[persist.GAME])["snap"]  # the last save before the reveal
    first = storage.writes - sum(w for _, w, _ in lines[reveal:])  # the reveal's first write
    keys = ("game", "round", "first_player", "scores", "mission")
    # the power goes mid-race, between two presses: the race comes back from its reveal
    for upto in range(reveal + 1, len(script) - 1):
        storage = simcore.MemoryStorage(FILES)
        writes_per_line(storage, script[:upto + 1], game)
        s = resumed(storage)
        assert s["phase"] == "race" and s["finish_order"] == [] and s["timer_ms"] is None, (upto, s)
        assert {k: s[k] for k in keys} == {k: at_reveal[k] for k in keys}
        if game == "layers-plus":
            assert s["tokens"] == at_reveal["tokens"]
    # the power goes at every write of the reveal's save and of the race end's save
    for at in range(first, storage_writes(script, game)):
        for how in ("cut", "partial", "empty"):
            storage = simcore.MemoryStorage(FILES)
            storage.fault = (at, how)
            with pytest.raises(simcore.PowerCut):
                writes_per_line(storage, script, game)
            if not any(name == persist.GAME for name, _ in storage.saved):
                assert at == first and how != "partial" or persist.GAME not in storage.files, (at, how)
                continue  # the game's first save was cut: nothing to resume, nothing damaged
            s = resumed(storage)
            if at < first + lines[reveal][1]:  # the reveal's save was cut: before it, or it
                assert s["phase"] in (before["phase"], "race"), (at, how, s)
            else:  # the race end's save was cut: the reveal, or the end
                assert s["phase"] in ("race", "verify"), (at, how, s)
            if s["phase"] == "race":
                assert s["finish_order"] == [] and {k: s[k] for k in keys} == {k: at_reveal[k] for k in keys}, (at, how)
            elif s["phase"] == "verify":
                assert s["finish_order"] == at_end["finish_order"], (at, how, s)
            else:  # the reveal comes again: the same mission, from the piles as saved
                assert s["scores"] == [before["scores"][seat] for seat in before["seats"]], (at, how, s)


def storage_writes(script, game):
    storage = simcore.MemoryStorage(FILES)
    writes_per_line(storage, script, game)
    return storage.writes


def test_otlo_play_writes_only_when_a_claim_is_called_or_settled():
    import otlo_fixture
    files = dict(FILES)
    otlo_fixture.ensure(files)
    storage = simcore.MemoryStorage(files)
    script = ["press A", "press A", "wait 2000", "press P3", "wait 20", "press P1",
              "press B", "wait 500", "press P2", "press A", "press A", "wait 4000", "press P4"]
    lines = writes_per_line(storage, script, "otlo", 4, 1)
    seen = []
    for line, w, s in lines:
        seen.append((line, s["phase"], w))
        if s["phase"] == "play" and line in ("wait 2000", "wait 4000", "wait 500"):
            assert w == 0, seen
    phases = ["levels"] + [s["phase"] for _, _, s in lines]
    calls = [w for i, (line, w, s) in enumerate(lines) if s["phase"] == "claim" and phases[i] == "play"]
    settled = [w for i, (line, w, s) in enumerate(lines) if s["phase"] == "play" and phases[i] != "play"]
    assert len(calls) == 2 and all(w > 0 for w in calls), seen
    assert len(settled) >= 2 and all(w > 0 for w in settled), seen
