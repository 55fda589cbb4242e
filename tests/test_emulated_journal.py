"""The save journal on the emulated Pico running the Layerlight UF2 (firmware/layerlight/journal.py,
at the top of the UF2's ROMFS partition): whole score-keeper games entered at the simulator's pace,
with no pause after an entry, end as in the simulator and light every press within a frame; a
power cut just after a change's frame has begun on the data pin resumes with that change; power
cuts in the middle of the journal's page programs and erases (the modelled W25Q16 left part done)
lose no entry that was lit.

Emulated time throughout (the emulator's CPU is about 4x slower than a Pico, its flash times the
chip's own): the figures are the emulation's own, the same on any machine."""

import os
import shutil
import sys

import pytest

from layerlight_tools import firmware_files, simcore
from layerlight_tools.pico import session, target

import pico_games
import scenario_lib
from test_emulated_pico import after_power_on, per_instant, play_cut, sim_trace
import uf2_fixture

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench"))
import wire_frames  # noqa: E402

pytestmark = pytest.mark.chip  # the emulated RP2040: in make test, not in make quick

JOURNAL = (0x98000, 0xA0000)           # the save journal's flash (uf2/boards/LAYERLIGHT_PICO)


# A 32x32 built as hardware/32x32.md now says: four 16x16 panels, each on its own data pin
# (config.py's panels.lanes), sent at once
LANES = [16, 17, 18, 19]
LANES_PANELS = {"size": [16, 16], "across": 2, "down": 2, "lanes": LANES}


def settings(size, lanes=False):
    if lanes:
        return dict(pico_games.SHORT, width=size, height=size, panels=LANES_PANELS)
    return dict(pico_games.SHORT, width=size, height=size)


def image_for(uf2_image, folder, size, used_journal=False, lanes=False):
    """A copy of the fixture's flash with the short settings at `size` put on by `layerlight
    flash`; with used_journal, the journal's area filled with 0x00 (as another firmware's code
    leaves it: every block must be erased before it is written)."""
    image = os.path.join(str(folder), "flash.bin")
    shutil.copyfile(uf2_image["image"], image)
    if settings(size, lanes) != uf2_fixture.SETTINGS:  # the fixture's image has its own already
        pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], image)
        try:
            pico.run_ms(500)
            target.flash(pico, settings(size, lanes))
        finally:
            pico.close(keep=True)
    if used_journal:
        with open(image, "r+b") as f:
            f.seek(JOURNAL[0])
            f.write(bytes(JOURNAL[1] - JOURNAL[0]))
    return image


def play_watched(uf2_image, image, script, game, players, seed, timeline=session.Timeline, lanes=False):
    """The script played from a power-on over `image`: (reports with their frames, every frame
    on the data pin (on each lane's pin, with lanes), the flash's ops, the game's instant 0 in us)."""
    pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], image, data_pin=LANES if lanes else 16)
    try:
        pico.run_ms(500)  # as test_emulated_pico.play_cut: a cut run is this run to the cut
        game_on = session.Session(pico, bounce=False)
        origin = game_on.begin(seed, game, players)
        out = []
        game_on.play(timeline().read(script.split("\n")), lambda r, f, no: out.append((r, f)))
        with pico.cond:
            return out, list(pico.frames), dict(pico.flash_ops), origin
    finally:
        pico.close()


def lit_after(events, frames, origin):
    """[(ms from the event until the strip shows its change (wire_frames.light), or None, instant, line)]."""
    out = []
    for t, line, changes in events:
        us = wire_frames.light(frames, origin + t * 1000, changes)[0]
        out.append((None if us is None else us / 1000, t, line))
    return out


# make test plays them where the check is hardest, 32x32 (the most LEDs): CO.OP (the slowest
# press) on four lanes, the way to build one now, against 80 ms, and Paper World on the one chain
# of the boards already built (a frame is 31 ms on the wire) against 120; make soak
# (LAYERLIGHT_SOAK=1) each game both ways and CO.OP at 16x16 too, against its own 80 ms
KEEPERS = [("paper-world", 32, False), ("coop", 32, True)]
if os.environ.get("LAYERLIGHT_SOAK"):
    KEEPERS += [("paper-world", 32, True), ("coop", 32, False), ("coop", 16, False)]
# the two tests of one game read one run (keeper_run): under make test's workers they run on
# the same one (tests/conftest.py), each game's pair on whichever is free
KEEPER_PARAMS = [pytest.param(game, size, lanes, id="%s-%d%s" % (game, size, "-lanes" if lanes else ""),
                              marks=pytest.mark.xdist_group("journal-%s-%d-%s" % (game, size, lanes)))
                 for game, size, lanes in KEEPERS]
_RUNS = {}


def keeper_run(uf2_image, tmp_path, game, size, lanes):
    """A whole CO.OP or Paper World game entered at the simulator's pace on the pins (no pause
    after an entry; the state asked for at the end only), played once per module:
    (report, frame, flash ops, [(ms to light, instant, line)], the script)."""
    if (game, size, lanes) not in _RUNS:
        script = {"coop": scenario_lib.coop_game, "paper-world": scenario_lib.paper_world_game}[game]()[0]
        script = script.rstrip("\n").rsplit("\n", 1)[0]  # the final's last A left out: the final is asked for
        image = image_for(uf2_image, tmp_path, size, lanes=lanes)
        played, frames, ops, origin = play_watched(uf2_image, image, script, game, 4, 1, wire_frames.PinsOnly, lanes)
        (report, frame), = played
        lit = lit_after(wire_frames.event_changes(script, game, 4, 1, settings(size, lanes)), frames, origin)
        _RUNS[game, size, lanes] = (report, frame, ops, lit, script, origin, frames)
    return _RUNS[game, size, lanes]


@pytest.mark.parametrize("game,size,lanes", KEEPER_PARAMS)
def test_a_whole_keeper_game_at_the_simulators_pace_ends_as_in_the_simulator_and_no_press_waits_on_the_flash(
        uf2_image, tmp_path, game, size, lanes):
    """No pause after an entry (tests/pico_games.py paced the emulated games while a save cost
    100-200 ms): the final state and frame are the simulator's, the entries went to flash as the
    journal's page programs, and every button event that changes the matrix is on the wire with
    no erase between it and its frame (an entry waits for one page program at most)."""
    report, frame, ops, lit, script, origin, frames = keeper_run(uf2_image, tmp_path, game, size, lanes)
    state, wire_frame = per_instant(script, sim_trace(script, game, 4, 1, size,
                                                      {"panels": LANES_PANELS} if lanes else None))[-1]
    assert state["phase"] == "final"
    got = session.trace_state(report, frame, None)
    got.pop("sound")  # the tunes of the whole game (asked for once): the simulator's are the last instant's
    assert dict(got, sound=None) == dict(state, sound=None)
    assert frame == wire_frame
    saves = [op for op in ops.values() if op["at"] is not None and JOURNAL[0] <= op["at"] < JOURNAL[1]]
    assert len(saves) > 30 and all(op["kind"] == "program" for op in saves)  # the journal's page programs
    assert len(lit) > 100 and all(ms is not None for ms, _t, _line in lit)
    erases = [op for op in ops.values() if op["kind"] == "erase" and op["us"] >= origin]
    for ms, t, line in lit:
        at = origin + t * 1000
        waited = [op for op in erases if at <= op["us"] <= at + ms * 1000]
        assert not waited, (t, line, ms, waited)
    # every pulse on every lane inside the WS2812B's windows, and the latch between frames
    assert len(frames) > 100 and not [f["timing"] for f in frames if f["timing"]][:3]
    if lanes:  # the four panels at once: no frame longer on the wire than one panel's
        assert max(f["end_us"] - f["start_us"] for f in frames) < 16 * 16 * 24 * 1.25 + 20


LIGHT_MS = {8: 80, 16: 80, 32: 120}  # a frame (issue 33), emulated time, unscaled: the one chain
LANES_LIGHT_MS = 80                  # a 32x32 on four lanes: as quick as the other sizes


@pytest.mark.parametrize("game,size,lanes", KEEPER_PARAMS)
def test_every_press_in_a_whole_unpaced_keeper_game_lights_within_a_frame(uf2_image, tmp_path, game, size, lanes):
    """Press (or release) to the end of the first frame on the data pins that shows what it
    changed, for every button event of the game (the same run as the test above)."""
    _report, _frame, _ops, lit, _script, _origin, _frames = keeper_run(uf2_image, tmp_path, game, size, lanes)
    limit = LANES_LIGHT_MS if lanes else LIGHT_MS[size]
    late = [(ms if ms is None else round(ms), t, line) for ms, t, line in lit if ms is None or ms > limit]
    assert not late, late


def journal_records(script, game, players, seed, size):
    """[(line index, state)] for the game's start (index -1) and every script line after which
    the simulator's journal (the same firmware over simcore.SimFlash) made a record whole."""
    dev = simcore.make_device(firmware_files.device_files(None, settings(size)), size, size, seed, None, players,
                              flash=simcore.SimFlash())
    dev.start_game(game, list(range(players)), 0)
    assert dev.saves.written == 1
    sim = simcore.Simulator(dev)
    out = [(-1, dev.state())]
    for i, line in enumerate(script.split("\n")):
        n = dev.saves.written
        sim.run_line(line, i + 1)
        if dev.game is None:
            break
        assert dev.saves.written - n in (0, 1), line
        if dev.saves.written > n:
            out.append((i, dev.state()))
    return out


def record_groups(ops, origin):
    """The journal's page programs (the game's from its start: the image held no saved game), grouped by record (the pages of one
    record follow each other within a millisecond): [[op numbers]]."""
    programs = sorted(n for n, op in ops.items() if op["kind"] == "program" and op["at"] is not None
                      and JOURNAL[0] <= op["at"] < JOURNAL[1])  # the game's: nothing else is saved there
    groups = []
    for n in programs:
        if groups and ops[n]["us"] - (ops[groups[-1][-1]]["us"] + ops[groups[-1][-1]]["busy_us"]) < 1000:
            groups[-1].append(n)
        else:
            groups.append([n])
    return groups


def resumed(uf2_image, image):
    """The state RESUME brings back on the next power-on."""
    reports = after_power_on(uf2_image, image, ["wait 100", "wait 50", "press A", "wait 100"])
    assert reports[0]["choice"] == "RESUME", reports[0]
    return reports[-1]


def keeper_view(s):
    return {k: s.get(k) for k in ("game", "scores", "actions_logged", "turn_seat", "phase")}


def test_a_cut_just_after_an_entrys_frame_has_begun_on_the_wire_resumes_with_that_entry(uf2_image, tmp_path):
    """Paper World, a count confirmed with A: the power goes 50 us after the first frame showing
    it began on the data pin (what the table may have seen): the next power-on resumes with it."""
    game, players, seed, size = "paper-world", 4, 1, 16
    script = scenario_lib.paper_world_game()[0]
    lines = script.split("\n")
    records = journal_records(script, game, players, seed, size)
    # an entry in the middle of the game that changed the scores
    k = next(k for k in range(len(records) // 2, len(records))
             if records[k][1]["scores"] != records[k - 1][1]["scores"] and lines[records[k][0]].startswith("press A"))
    at, entered = records[k]
    head = lines[:at + 1] + ["wait 300"]
    image = image_for(uf2_image, tmp_path, size)
    clean = str(tmp_path / "clean.bin")
    shutil.copyfile(image, clean)
    played, frames, ops, origin = play_watched(uf2_image, clean, "\n".join(head), game, players, seed)
    t, line, changes = [e for e in wire_frames.event_changes("\n".join(head), game, players, seed, settings(size))
                        if e[1] == "up A"][-1]
    frame = next(f for f in frames if f["start_us"] >= origin + t * 1000
                 and all(f["data"][i] == v for i, v in changes))
    cut_us = frame["start_us"] + 50
    write = max(n for n, op in ops.items() if op["us"] < cut_us)
    op = ops[write]
    assert JOURNAL[0] <= op["at"] < JOURNAL[1] and op["kind"] == "program", "the last flash write before the frame is not the save"
    assert op["us"] + op["busy_us"] <= frame["start_us"], "the entry was lit before it was on flash"
    play_cut(uf2_image, image, head, seed, game, players, (write, int(cut_us - op["us"])))
    assert keeper_view(resumed(uf2_image, image)) == keeper_view(dict(entered, phase="turn"))


# the moments cut, fixed (a clean run's flash ops at the moments named): each is played from a
# power-on on its own copy of the image
MOMENTS = ("mid-erase", "mid-program", "just-after-program", "between-entries")


def test_cuts_in_the_middle_of_the_journals_programs_and_erases_lose_no_lit_entry(uf2_image, tmp_path):
    """Paper World over a used journal area (every block erased before use, ahead, at quiet
    moments): the power cut in the middle of an erase, in the middle of an entry's page program,
    just after one and between two; on the next power-on RESUME brings back the last entry
    whose program had ended (the torn one's is ignored), never anything else."""
    game, players, seed, size = "paper-world", 4, 1, 16
    script = scenario_lib.paper_world_game()[0]
    lines = script.split("\n")
    records = journal_records(script, game, players, seed, size)
    # a second after the last entry: the erases ahead (250 ms after the last press, a sector
    # a step) are all made while the host still runs the Pico (a cut after its end never comes)
    head = lines[:records[len(records) // 2][0] + 1] + ["wait 1000"]
    records = journal_records("\n".join(head), game, players, seed, size)
    image = image_for(uf2_image, tmp_path, size, used_journal=True)
    clean = str(tmp_path / "clean.bin")
    shutil.copyfile(image, clean)
    played, frames, ops, origin = play_watched(uf2_image, clean, "\n".join(head), game, players, seed)
    erases = sorted(n for n, op in ops.items() if op["kind"] == "erase" and op["at"] is not None
                    and JOURNAL[0] <= op["at"] < JOURNAL[1] and op["us"] > origin + 1_000_000)  # ahead, in the game
    groups = record_groups(ops, origin)
    assert erases and len(groups) == len(records), (len(groups), len(records))
    mid = groups[len(groups) // 2][0]
    cuts = {"mid-erase": (erases[-1], int(ops[erases[-1]]["busy_us"]) // 2),
            "mid-program": (mid, int(ops[mid]["busy_us"]) // 2),
            "just-after-program": (groups[3][-1], int(ops[groups[3][-1]]["busy_us"]) + 20),
            "between-entries": (groups[4][-1], int(ops[groups[5][0]]["us"] - ops[groups[4][-1]]["us"]) // 2)}
    views = [keeper_view(dict(s, phase="turn")) for _i, s in records]
    for name in MOMENTS:
        write, after_us = cuts[name]
        copy = str(tmp_path / ("%s.bin" % name))
        shutil.copyfile(image, copy)
        play_cut(uf2_image, copy, head, seed, game, players, (write, after_us))
        cut_us = ops[write]["us"] + after_us
        whole = sum(1 for g in groups if ops[g[-1]]["us"] + ops[g[-1]]["busy_us"] <= cut_us)
        got = keeper_view(resumed(uf2_image, copy))
        assert got == views[whole - 1], (name, got, whole, views[whole - 1])
