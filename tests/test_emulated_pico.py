"""The firmware on the rp2 port, on an emulated RP2040 (rp2040js).

Two ways onto the chip. The stock MicroPython UF2 (beside the repository, or
LAYERLIGHT_UF2), with the firmware flashed by `layerlight flash` over a pty as a
person flashes a Pico: a flash from nothing and an unchanged re-flash. The
Layerlight UF2 (`make uf2`, the firmware frozen in; tests/uf2_fixture.py): every
mode's game, played through the GPIO pins, watched on the WS2812 data pin, with
the table's files on LittleFS on the (modelled) flash chip, compared with the
simulator after every script line (the state, and the frame byte for byte as
the wire carries it); contact bounce; power cuts during a save and while a game
is logged.

The boot ROM comes from beside the repository (or LAYERLIGHT_BOOTROM). Where it
and MicroPython's source exist these tests must run: a missing file there is a
failure, not a skip.
"""

import json
import os
import random
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest

from layerlight import modes, persist
from layerlight_tools import firmware_files, simcore
from layerlight_tools.pico import session, target, wire

import flash_cuts
import pico_games
import uf2_fixture
from uf2_fixture import booted, rp2_files

pytestmark = pytest.mark.chip  # the emulated RP2040: in make test, not in make quick

SIZE = 16


SETTINGS = dict(pico_games.SHORT, width=SIZE, height=SIZE)


STOCK = pytest.mark.xdist_group("stock-flashed")  # uf2_fixture.stock_flashed, made once a worker


@STOCK
def test_flash_from_nothing_then_the_menu_on_a_power_cycle_then_nothing_to_copy(stock_flashed):
    flashed = stock_flashed
    first, second = flashed["first"], flashed["second"]
    from layerlight_tools import flash
    assert first["previous"] is None and first["main"]
    modules = [rel[:-3] + ".mpy" for rel in flash.firmware_sources() if rel not in flash.SOURCE_ONLY]
    assert sorted(first["sent"]) == sorted(modules)  # every module, compiled for the board
    assert "layerlight.json" in first["data"] and "decks/default.deck" in first["data"]
    assert "Traceback" not in first["boot_log"]
    # powered off and on again: the firmware starts by itself and draws (a lit menu)
    frames = flashed["boot_frames"]
    assert len(frames) >= 10 and any(any(f) for f in frames[-5:])
    assert all(len(f) == SIZE * SIZE * 3 for f in frames)
    # the same firmware and settings again: nothing is sent, copied or rewritten
    assert second["sent"] == [] and second["copied"] == [] and second["data"] == []
    assert not second["main"] and second["slot"] == first["slot"]


def sim_trace(script, game, players, seed, size=SIZE, more=None):
    """(state, wire bytes of its frame) after every line, from the simulator with the same settings
    (and `more` of them: the panels of a 32x32, say)."""
    settings = dict(SETTINGS, width=size, height=size, **(more or {}))
    cfg = wire.device_config(settings)
    dev = simcore.make_device(firmware_files.device_files(None, settings), size, size, seed, game, players)
    sim = simcore.Simulator(dev, frames=True)
    out = []
    no = 0
    for line in script.split("\n"):
        no += 1
        if sim.run_line(line, no):
            played = dev.sound.played
            s = sim.state(list(played))
            del played[:]
            rows = s.pop("frame")
            out.append((s, wire.wire_bytes(rows, cfg, dev.hw.cap)))
    return out


def per_instant(script, trace):
    """The simulator's trace as the Pico reports it: once per instant where lines end, after
    the last of them, with the tunes of every line there (session.Timeline.reported)."""
    timeline = session.Timeline().read(script.split("\n"))
    out = []
    sounds = []
    keep = set(timeline.reported())
    for i, (state, frame) in enumerate(trace):
        sounds += state["sound"]
        if i in keep:
            out.append((dict(state, sound=sounds), frame))
            sounds = []
    return out


def play_on_pico(flashed, folder, script, game, players, seed, **kw):
    """flashed: a fixture's dict (its "uf2", "rom" and "image")."""
    """[(report, frame bytes)] after every line of the script, played on a fresh copy of the image."""
    image = os.path.join(folder, "flash.bin")
    shutil.copyfile(flashed["image"], image)
    pico = target.power_on(flashed["uf2"], flashed["rom"], image)
    try:
        pico.run_ms(500)
        game_on = session.Session(pico, **kw)
        game_on.begin(seed, game, players)
        out = []
        game_on.play(session.Timeline().read(script.split("\n")), lambda r, f, no: out.append((r, f)))
        return out
    finally:
        pico.close()


GAMES = pico_games.games()
# after each game, HISTORY from the menu: the game just logged on LittleFS, then back
HISTORY = "\n".join(["wait 400"] + ["press B"] * modes.names().index("history") + ["press A", "wait 300", "press A"])


def with_history(script):
    return script.rstrip("\n") + "\n" + HISTORY


def played(uf2_image, folder, entry):
    """One mode's short game played on an emulated Pico running the Layerlight UF2, HISTORY after it."""
    name, script, game, players, seed = entry
    # clean edges: a bounce read can count a change one instant late, as on a board
    # (test_a_long_contact_bounce_is_one_press); the simulator knows no bounce
    return play_on_pico(uf2_image, folder, with_history(script), game, players, seed, bounce=False)


@pytest.mark.parametrize("entry", GAMES, ids=[g[0] for g in GAMES])
def test_every_mode_plays_on_the_pico_as_in_the_simulator(entry, uf2_image, tmp_path):
    name, script, game, players, seed = entry
    device = played(uf2_image, str(tmp_path), entry)
    expected = per_instant(with_history(script), sim_trace(with_history(script), game, players, seed))
    assert len(device) == len(expected)
    lines = [line for line in with_history(script).split("\n") if line.split("#")[0].strip()]
    timeline = session.Timeline().read(with_history(script).split("\n"))
    lines = [lines[i] for i in timeline.reported()]
    for i, ((report, frame), (state, wire_frame)) in enumerate(zip(device, expected)):
        got = session.trace_state(report, frame, None)
        assert got == state, "line %d (%s): the Pico's state differs\nPico: %s\nsim:  %s" % (
            i + 1, lines[i], json.dumps(got), json.dumps(state))
        assert frame == wire_frame, "line %d (%s) at t=%d: the frame on the data pin differs" % (
            i + 1, lines[i], state["t"])
    in_game = [i for i in timeline.reported() if i < len(timeline.ends) - len(HISTORY.split("\n"))]
    game_reports = [r for r, f in device[:len(in_game)]]
    final = [r for r in game_reports if r["phase"] in ("final", "result")]
    assert final, "the game was not played to its end"
    assert game_reports[-1]["game"] == "menu"
    # written to the play log on LittleFS and read back by HISTORY on the Pico
    page = device[-2][0]
    assert page["game"] == "history" and page["games"] == 1 and page["record"] == 1 and page["mode"] == game
    assert page["scores"] == final[-1]["scores"]
    assert device[-1][0]["game"] == "menu"


def test_a_long_contact_bounce_is_one_press(uf2_image, tmp_path):
    """B chatters for 15 ms going down and again coming up: the menu moves one item."""
    flashed = uf2_image
    image = str(tmp_path / "flash.bin")
    shutil.copyfile(flashed["image"], image)
    pico = target.power_on(flashed["uf2"], flashed["rom"], image)
    try:
        pico.run_ms(500)
        game = session.Session(pico, bounce=False)
        origin = game.begin(7)
        rng = random.Random(3)
        b_pin = game.pins[5]

        def chatter(start_us, settle):
            at = start_us
            level = settle
            while at < start_us + 15000:
                pico.edge(b_pin, level, at)
                level ^= 1
                at += rng.randint(150, 1800)
            pico.edge(b_pin, settle, at)
        chatter(origin + 1_000_000, 0)
        chatter(origin + 1_200_000, 1)
        reports = []
        game.play(session.Timeline().read(["wait 1500"]), lambda r, f, no: reports.append(r))
    finally:
        pico.close()
    sim = sim_trace("wait 1000\npress B\nwait 440\n", None, 0, 7)[-1][0]
    assert reports[-1]["choice"] == sim["choice"] == "LAYERS+"
    assert reports[-1]["sound"] == ["tick"]


# ------------------------------------------------- every press at its instant, pins only

@pytest.fixture(scope="module")
def sized(uf2_image, tmp_path_factory):
    """The Layerlight UF2's flash image per matrix size: the 16x16 one, its settings put on
    again by `layerlight flash` at 8x8 and 32x32."""
    flashed = uf2_image
    images = {SIZE: flashed["image"], "flashed": flashed}
    for size in (8, 32):
        image = str(tmp_path_factory.mktemp("pico%d" % size) / "flash.bin")
        shutil.copyfile(flashed["image"], image)
        pico = target.power_on(flashed["uf2"], flashed["rom"], image)
        try:
            target.flash(pico, dict(SETTINGS, width=size, height=size))
        finally:
            pico.close(keep=True)
        images[size] = image
    return images


def play_games(flashed, image, games, folder):
    """Several (script, game, players, seed) played one after the other on one Pico powered on
    from a copy of `image`, each begun afresh; [(reports and frames, pico's frames, origin)]."""
    copy = os.path.join(folder, "flash.bin")
    shutil.copyfile(image, copy)
    pico = target.power_on(flashed["uf2"], flashed["rom"], copy)
    out = []
    try:
        pico.run_ms(500)
        game_on = session.Session(pico, bounce=False)
        for script, game, players, seed in games:
            origin = game_on.begin(seed, game, players)
            got = []
            game_on.play(session.Timeline().read(script.split("\n")), lambda r, f, no: got.append((r, f)))
            with pico.cond:
                frames = list(pico.frames)
            out.append((got, frames, origin))
        return out
    finally:
        pico.close()


def same_as_sim(got, script, game, players, seed, size):
    expected = per_instant(script, sim_trace(script, game, players, seed, size))
    assert len(got) == len(expected)
    for i, ((report, frame), (state, wire_frame)) in enumerate(zip(got, expected)):
        assert session.trace_state(report, frame, None) == state, "report %d at t=%d" % (i, state["t"])
        assert frame == wire_frame, "report %d at t=%d: the frame on the data pin differs" % (i, state["t"])


@pytest.mark.parametrize("size", [8, 16, 32])
def test_close_races_come_out_in_the_order_pressed_at_every_size(size, sized, tmp_path):
    """Layers and Layers+, four seats within 300 ms, the first press while the reveal's save is
    being written, the pins alone: exactly the simulator's finish order, points and tokens,
    frame for frame. At 32x32 one seat's press lasts 20 ms, inside a strip write."""
    rng = random.Random(size)
    races = []
    for game, seed in (("layers", 4), ("layers-plus", 8)):
        script, order = pico_games.close_race(game, seed, rng, short_seat=2 if size == 32 else None)
        races.append((script, game, 4, seed, order))
    played = play_games_on(sized, size, [r[:4] for r in races], str(tmp_path))
    for (script, game, players, seed, order), (got, frames, origin) in zip(races, played):
        race_end = [r for r, f in got if r["phase"] == "verify"][0]
        assert race_end["finish_order"] == order, (game, size)
        same_as_sim(got, script, game, players, seed, size)
        if size == 32:  # the 20 ms press overlapped a frame on the wire, and counted
            t = down_at(script, "P2")
            at_us, up_us = origin + t * 1000, origin + (t + 20) * 1000
            near = [((f["start_us"] - origin) / 1000, (f["end_us"] - origin) / 1000) for f in frames
                    if at_us - 100_000 < f["start_us"] < up_us + 100_000]
            assert any(f["start_us"] < up_us and f["end_us"] > at_us for f in frames), (
                "no strip write during the press at %d-%d ms: frames (ms) %s" % (t, t + 20, near))
            assert 2 in race_end["finish_order"]


def play_games_on(sized, size, games, folder):
    return play_games(sized["flashed"], sized[size], games, folder)


def down_at(script, button):
    """The instant (ms) a script's `down BUTTON` line comes."""
    t = 0
    for line in script.split("\n"):
        words = line.split()
        if words[:1] == ["wait"]:
            t += int(words[1])
        elif words[:1] == ["press"]:
            t += simcore.PRESS_MS
        elif words == ["down", button]:
            return t
    raise AssertionError("no down %s" % button)


def test_otlo_the_earlier_of_two_calls_20_ms_apart_claims_just_after_a_card_was_settled(sized, tmp_path):
    """A claim is settled (the device saves it as play resumes); 15 ms later P3 calls OTLO!,
    20 ms after that P2: both presses fall inside that save; P3 claims, as in the simulator."""
    from scenario_lib import Player
    p = Player("otlo", players=4, seed=5)
    for line in ("press B", "press B", "press A", "press A"):
        p.do(line)
    p.do("press P1")
    assert p.state()["phase"] == "claim"
    p.do("press A")  # P1's pile
    p.do("press A")  # right: the card is settled, play resumes (and is saved)
    assert p.state()["phase"] == "play"
    for line in ("wait 15", "down P3", "wait 20", "down P2", "wait 60", "up P3", "up P2", "wait 300"):
        p.do(line)
    assert p.state()["claimer"] == 3
    (got, frames, origin), = play_games_on(sized, SIZE, [(p.script, "otlo", 4, 5)], str(tmp_path))
    assert got[-1][0]["phase"] == "claim" and got[-1][0]["claimer"] == 3
    same_as_sim(got, p.script, "otlo", 4, 5, SIZE)


def saves_in(script, game, players, seed):
    """[(line index, scores saved)] for every line after which the simulator saved the game."""
    from layerlight import persist
    dev = simcore.make_device(firmware_files.device_files(None, SETTINGS), SIZE, SIZE, seed, game, players)
    sim = simcore.Simulator(dev)
    out = []
    for i, line in enumerate(script.split("\n")):
        n = len(dev.storage.saved)
        sim.run_line(line, i + 1)
        if any(name == persist.GAME for name, _ in dev.storage.saved[n:]):
            out.append((i, dev.state()["scores"]))
    return out


def play_cut(flashed, image, lines, seed, game, players, cut=None):
    """Play lines on the image from a power-on, the power cut at (flash write, us into it) if
    given: ([(report's emulated us, flash writes so far, report)] a line, [(us, write number)],
    {write number: its flash event (us, kind, busy_us)}). A cut asked for must strike: the
    write asked for, that far into it, and a program or erase under way left part done."""
    pico = target.power_on(flashed["uf2"], flashed["rom"], image)
    marks = []
    try:
        pico.run_ms(500)
        if cut is not None:
            pico.cut_at(*cut)
        game_on = session.Session(pico, bounce=False)
        game_on.begin(seed, game, players)
        try:
            # the writes made by the time the device answered (not by the time the host read
            # the answer: the host reads 100 ms of the Pico's time at once)
            game_on.play(session.Timeline().read(lines), lambda r, f, no: marks.append(
                (r["_us"], sum(1 for us, _n in list(pico.flash_writes) if us <= r["_us"]), r)))
        except Exception:
            if cut is None or pico.cut is None:
                raise  # no cut was asked for, or it never came: a failure of its own
        if cut is not None:
            check_cut(pico, cut)
        return marks, list(pico.flash_writes), dict(pico.flash_ops)
    finally:
        pico.close(keep=cut is not None)


def check_cut(pico, cut):
    """The power went where it was asked to: that write, that many us into it; mid-write (the
    write's own time not over) the flash chip was busy and the program or erase is part done."""
    write, after_us = cut
    struck = pico.cut
    assert struck is not None, "the cut at %s never came" % (cut,)
    op = pico.flash_ops.get(write)
    assert op is not None and struck["write"] == write and struck["after_us"] == after_us, (cut, struck)
    assert abs(struck["us"] - (op["us"] + after_us)) <= 1, (cut, op, struck)
    # no later write had begun (the moments are chosen before the next write of a clean run)
    assert len(pico.flash_writes) == write or struck["us"] < pico.flash_writes[write][0], (cut, struck)
    mid = after_us < op["busy_us"]
    assert struck["busy"] == mid, (cut, op, struck)
    left = struck["left"]
    if mid:
        assert left is not None and left["write"] == write and left["kind"] == op["kind"], (cut, struck)
        assert left["done"] < left["size"], (cut, struck)  # the chip was stopped part way
    else:
        assert left is None or left["done"] == left["size"], (cut, struck)


def moments_for(writes, ops, names, count, cut_seed):
    """The moments to cut: the named ones (the same every run), or with a seed (make soak,
    LAYERLIGHT_CUT_SEED) `count` seeded ones. [(name, (write number, us into it))]."""
    if cut_seed is None:
        return flash_cuts.named_moments(writes, ops, names)
    return flash_cuts.seeded_moments(writes, ops, count, random.Random(cut_seed))


def where_cut(name, moment, writes, cut_seed):
    seeded = "" if cut_seed is None else " (LAYERLIGHT_CUT_SEED=%d)" % cut_seed
    return "cut %s at %s of writes %s%s" % (name, moment, writes, seeded)


def cuts_played(flashed, tmp_path, moments, lines, seed, game, players, then):
    """Each moment ((name, (write, us))) cut on its own copy of the image (two Picos at a
    time); then(image) reads what the next power-on shows. Returns [(name, moment, then's
    answer)]."""
    def one(k):
        name, at = moments[k]
        image = str(tmp_path / ("cut%d.bin" % k))
        shutil.copyfile(flashed["image"], image)
        play_cut(flashed, image, lines, seed, game, players, at)
        try:
            return name, at, then(image)
        except Exception as e:  # say which cut left the flash the next power-on stumbled on
            raise AssertionError("after the cut %s at %s: %s" % (name, at, e)) from e
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(one, range(len(moments))))


def after_power_on(flashed, image, lines, seed=1, game=None, players=0):
    """The reports of lines played on the image powered on again (a new device begun)."""
    pico = target.power_on(flashed["uf2"], flashed["rom"], image)
    try:
        pico.run_ms(1500)
        game_on = session.Session(pico)
        game_on.begin(seed, game, players)
        reports = []
        game_on.play(session.Timeline().read(lines), lambda r, f, no: reports.append(r))
        return reports
    finally:
        pico.close()


# The moments cut, named (kind, index among that kind's writes, where: flash_cuts.moment): the
# same every run. Each plays the script again on its own emulated Pico (two at a time), so the
# lists are what a run can afford; `make soak` cuts seeded moments instead, as many as asked.
# A game's save, on the Layerlight UF2 a record appended to the save journal (page programs,
# no erase: the journal's erases ahead are cut in test_emulated_journal): the first and last
# page program cut part done, and between two writes (after the first program).
SAVE_MOMENTS = [("program", 0, "mid"), ("program", -1, "mid"), ("program", 0, "gap")]
# leaving a result: the play log's append (its first page program), the saved game's removal
# (the last), and between two writes; these writes are page programs only (no sector erase:
# a save's erases are cut above)
LOGGED_MOMENTS = [("program", 0, "mid"), ("program", -1, "mid"), ("program", 1, "gap")]
# seeded moments a seed (make soak)
CUTS_SAVE = 3
CUTS_LOGGED = 2


def a_scoring_save(wait_ms):
    """A save that changed the scores, a third of the way into GAMES[0] or later: (game,
    players, seed, the script up to it then `wait_ms`, the scores a resume may bring back:
    the save's or the one before's)."""
    name, script, game, players, seed = GAMES[0]
    lines = script.split("\n")
    saves = saves_in(script, game, players, seed)
    k = next(k for k in range(1, len(saves)) if saves[k][0] > len(lines) // 3 and saves[k][1] != saves[k - 1][1])
    at, scores = saves[k]
    return game, players, seed, lines[:at + 1] + ["wait %d" % wait_ms], (saves[k - 1][1], scores)


@pytest.mark.parametrize("cut_seed", flash_cuts.cut_seeds(), ids=lambda s: "fixed" if s is None else "seed%d" % s)
def test_a_power_cut_during_a_save_loses_no_saved_score(uf2_image, tmp_path, cut_seed):
    """The power goes at several moments of the flash writes of a save that changed the scores
    (mid-program, between writes: SAVE_MOMENTS, or seeded ones under make soak);
    on the next boot the game resumes with the scores of that save or of the one before,
    never anything else, in the Layerlight UF2's save journal on raw flash."""
    flashed = uf2_image
    game, players, seed, head, allowed = a_scoring_save(2000)

    # once through, to see which flash writes that save makes
    image = str(tmp_path / "flash.bin")
    shutil.copyfile(flashed["image"], image)
    marks, writes, ops = play_cut(flashed, image, head, seed, game, players)
    before = marks[-3][1]  # the writes made up to the line before the save's
    save = [n for us, n in writes if n > before and us <= marks[-1][0]]
    assert save, "the save made no flash write"
    moments = moments_for(save, ops, SAVE_MOMENTS, CUTS_SAVE, cut_seed)

    def resumed(image):
        return after_power_on(flashed, image, ["wait 100", "wait 50", "press A", "wait 100"])
    for cut, moment, reports in cuts_played(flashed, tmp_path, moments, head, seed, game, players, resumed):
        where = where_cut(cut, moment, save, cut_seed)
        assert reports[0]["choice"] == "RESUME", where + ": no game to resume"
        assert reports[-1]["game"] == game and reports[-1]["phase"] != "error", (where, reports[-1])
        assert reports[-1]["scores"] in allowed, (where, reports[-1]["scores"], allowed)


@pytest.mark.parametrize("cut_seed", flash_cuts.cut_seeds(), ids=lambda s: "fixed" if s is None else "seed%d" % s)
def test_a_power_cut_while_a_game_is_logged_loses_nothing_and_logs_it_once(uf2_image, tmp_path, cut_seed):
    """Time attack to its result, then A: the record is appended to plays.log and the saved
    game removed. The power goes at moments of those flash writes (mid-erase, mid-program,
    between writes: LOGGED_MOMENTS, or seeded ones under make soak); on the next boot HISTORY holds the game exactly
    once (the saved game, still there, carries its record and its number: it is logged when the
    next mode starts, or seen to be logged already)."""
    flashed = uf2_image
    name, script, game, players, seed = GAMES[2]
    assert game == "time-attack"
    lines = [line for line in script.split("\n") if line] + ["wait 1000"]
    image = str(tmp_path / "flash.bin")

    shutil.copyfile(flashed["image"], image)
    marks, writes, ops = play_cut(flashed, image, lines, seed, game, players)
    assert marks[-3][2]["phase"] == "result" and marks[-2][2]["game"] == "menu"
    before = marks[-3][1]  # the writes made up to the result, the line before A
    leaving = [n for us, n in writes if n > before]
    assert leaving, "leaving the result made no flash write"
    moments = moments_for(leaving, ops, LOGGED_MOMENTS, CUTS_LOGGED, cut_seed)

    def history(image):  # the next mode to start: HISTORY, its first page
        return after_power_on(flashed, image, ["wait 100"], 1, "history", 0)[-1]
    for cut, moment, page in cuts_played(flashed, tmp_path, moments, lines, seed, game, players, history):
        where = where_cut(cut, moment, leaving, cut_seed)
        assert page["game"] == "history", where
        assert page["games"] == 1 and page["record"] == 1 and page["mode"] == game, (where, page)
        assert page["scores"] == marks[-3][2]["scores"], where


@STOCK
def test_the_uf2_onto_a_pico_flashed_on_stock_micropython(stock_flashed, uf2_image, tmp_path):
    flashed = stock_flashed
    """A table's Pico that ran stock MicroPython with the firmware as files gets the Layerlight UF2:
    it boots the frozen firmware with the table's settings (the slot main.py left there is not
    run), and `layerlight flash` then removes what the stock flash left and copies nothing else."""
    import uf2_fixture
    image = str(tmp_path / "flash.bin")
    shutil.copyfile(flashed["image"], image)
    pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], image)
    try:
        frames = booted(pico)
        with pico.cond:
            lines = [text for _us, text in pico.lines]
        assert lines[0].startswith("Layerlight 0.1.0"), lines
        assert any("/main.py from `layerlight flash` on stock MicroPython is not run" in ln for ln in lines)
        assert "config: no layerlight.json, using defaults" not in lines and "Traceback" not in "\n".join(lines)
        assert any(any(f) for f in frames[-5:])
        done = target.flash(pico, SETTINGS)
        assert done["uf2"] and done["data"] == [] and done["sent"] == [] and not done["main"]
        assert done["removed"] == ["main.py", "firmware", "decks/default.deck", "decks/otlo.deck"]
        inside = uf2_fixture.look_inside(pico)
    finally:
        pico.close()
    assert "layerlight.json" in inside["root"]
    assert not {"main.py", "firmware"} & set(inside["root"]) and inside["rom"] == ["default.deck", "otlo.deck"]


def test_an_emulator_that_logs_much_still_runs_to_the_time_asked(tmp_path):
    """rp2040js logs to stderr (an unaligned read, say, which a real RP2040 faults on), and Node
    writes to a pipe synchronously: the host reads it as it comes, or an emulator that logged
    64 KB would stop dead mid-run and the host wait 600 s for a time it never reaches. Here a
    UF2 of three instructions reads an unaligned word in a loop (tens of thousands of lines)."""
    import threading
    from layerlight_tools import uf2
    from layerlight_tools.pico import emulator
    _uf2, rom = rp2_files()
    # ldr r0, [pc, #4]; loop: ldr r1, [r0]; b loop; nop; .word 0x20000001
    code = bytes.fromhex("0148" "0168" "fde7" "00bf") + (0x20000001).to_bytes(4, "little")
    path = tmp_path / "unaligned.uf2"
    path.write_bytes(uf2.pack([(uf2.XIP_BASE, code.ljust(256, b"\0"), 0xE48BFF56)]))
    pico = emulator.Pico(str(path), rom)
    try:
        ran = threading.Thread(target=pico.run_ms, args=(2,), daemon=True)
        ran.start()
        ran.join(120)
        assert not ran.is_alive(), "the emulator stopped at t=%d us with its log unread" % pico.us
        assert pico.us >= 2000
        assert any("not 32 bit aligned" in line for line in pico.stderr_tail)
    finally:
        pico.close()


def test_a_chip_asleep_with_nothing_to_wake_it_still_lets_the_time_asked_pass(tmp_path):
    """A chip asleep (WFI) with no alarm to come: its time runs on to the time asked (the host
    then sees a device that does not answer, in emulated time), rather than the emulator
    spinning with time stood still and the host waiting 600 s of wall time."""
    import threading
    from layerlight_tools import uf2
    from layerlight_tools.pico import emulator
    _uf2, rom = rp2_files()
    code = bytes.fromhex("72b6" "30bf" "fee7")  # cpsid i; wfi; b . (nothing set up to wake it)
    path = tmp_path / "asleep.uf2"
    path.write_bytes(uf2.pack([(uf2.XIP_BASE, code.ljust(256, b"\0"), 0xE48BFF56)]))
    pico = emulator.Pico(str(path), rom)
    try:
        ran = threading.Thread(target=pico.run_ms, args=(50,), daemon=True)
        ran.start()
        ran.join(60)
        assert not ran.is_alive(), "the emulator's time stood still at t=%d us" % pico.us
        assert pico.us >= 50000
    finally:
        pico.close()


def test_a_quiet_console_lets_the_chip_sleep_and_a_line_still_reaches_it(uf2_image, tmp_path):
    """A USB host sends an OUT packet only when it has bytes: the board's armed endpoint waits.
    (rp2040js's own USBCDC answered every arming at once with an empty packet, a transfer every
    10 us that kept the emulated CPU in its USB interrupt, never asleep, and slowed every
    emulated test and figure.) At the menu with nothing on the console the chip sleeps between
    its loop's steps; a host link request still gets its answer."""
    image = uf2_fixture.copy_image(uf2_image, tmp_path)
    pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], image)
    try:
        pico.run_ms(1500)  # booted, at the menu
        pico.load()
        pico.run_ms(1000)
        idle = pico.load()
        assert idle["span_us"] >= 1000000
        assert idle["asleep_us"] > 0.5 * idle["span_us"], idle
        before = pico.us
        session.Session(pico).begin(1)  # a line over USB, and the board's answer
        assert pico.us - before < 500000
    finally:
        pico.close()
