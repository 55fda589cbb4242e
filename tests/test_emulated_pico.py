"""The firmware on the rp2 port, on an emulated RP2040 (rp2040js).

Two ways onto the chip. The stock MicroPython UF2 (../shared/rp2, or
LAYERLIGHT_UF2), with the firmware flashed by `layerlight flash` over a pty as a
person flashes a Pico: a flash from nothing and an unchanged re-flash. The
Layerlight UF2 (`make uf2`, the firmware frozen in; tests/uf2_fixture.py): every
mode's game, played through the GPIO pins, watched on the WS2812 data pin, with
the table's files on LittleFS on the (modelled) flash chip, compared with the
simulator after every script line (the state, and the frame byte for byte as
the wire carries it); contact bounce; power cuts during a save and while a game
is logged.

The boot ROM comes from ../shared/rp2 (or LAYERLIGHT_BOOTROM). Where ../shared/rp2
and ../shared/micropython exist these tests must run: a missing file there is a
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

import pico_games
from uf2_fixture import uf2_image  # noqa: F401 (a pytest fixture: the Layerlight UF2's flash image)

SIZE = 16


def rp2_files():
    uf2, rom = target.chosen_files()
    shared_uf2, shared_rom = target.shared_files()
    uf2, rom = uf2 or shared_uf2, rom or shared_rom
    if os.path.isdir(target.SHARED_RP2):
        assert uf2 and rom, "%s exists but lacks the UF2 or the boot ROM" % target.SHARED_RP2
    elif not (uf2 and rom):
        pytest.skip("no UF2 and boot ROM: set LAYERLIGHT_UF2 and LAYERLIGHT_BOOTROM")
    return uf2, rom


SETTINGS = dict(pico_games.SHORT, width=SIZE, height=SIZE)


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """A flash image with the firmware put on by `layerlight flash` from a blank chip, and what the
    first flash and an unchanged second one (after a power cycle) did."""
    uf2, rom = rp2_files()
    image = str(tmp_path_factory.mktemp("pico") / "flash.bin")
    pico = target.power_on(uf2, rom, image)
    try:
        first = target.flash(pico, SETTINGS)
    finally:
        pico.close(keep=True)
    pico = target.power_on(uf2, rom, image)
    try:
        boot_frames = booted(pico)
        second = target.flash(pico, SETTINGS)
    finally:
        pico.close(keep=True)
    return {"uf2": uf2, "rom": rom, "image": image, "first": first, "second": second, "boot_frames": boot_frames}


def booted(pico, ms=1500):
    """The frames a Pico powered on sends in its first ms of running its firmware."""
    pico.run_ms(ms)
    with pico.cond:
        return [f["data"] for f in pico.frames]


def test_flash_from_nothing_then_the_menu_on_a_power_cycle_then_nothing_to_copy(flashed):
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


def sim_trace(script, game, players, seed):
    """(state, wire bytes of its frame) after every line, from the simulator with the same settings."""
    cfg = wire.device_config(SETTINGS)
    dev = simcore.make_device(firmware_files.device_files(None, SETTINGS), SIZE, SIZE, seed, game, players)
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


@pytest.fixture(scope="module")
def played(uf2_image, tmp_path_factory):
    """Every mode's short game played on emulated Picos running the Layerlight UF2, two at a
    time (one per core)."""
    flashed = uf2_image
    def one(entry):
        name, script, game, players, seed = entry
        folder = str(tmp_path_factory.mktemp(name))
        # clean edges: a bounce read can count a change one instant late, as on a board
        # (test_a_long_contact_bounce_is_one_press); the simulator knows no bounce
        return name, play_on_pico(flashed, folder, with_history(script), game, players, seed, bounce=False)
    with ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 2))) as pool:
        return dict(pool.map(one, GAMES))


@pytest.mark.parametrize("entry", GAMES, ids=[g[0] for g in GAMES])
def test_every_mode_plays_on_the_pico_as_in_the_simulator(entry, played):
    name, script, game, players, seed = entry
    device = played[name]
    expected = sim_trace(with_history(script), game, players, seed)
    assert len(device) == len(expected)
    lines = [line for line in with_history(script).split("\n") if line.split("#")[0].strip()]
    for i, ((report, frame), (state, wire_frame)) in enumerate(zip(device, expected)):
        got = session.trace_state(report, frame, None)
        assert got == state, "line %d (%s): the Pico's state differs\nPico: %s\nsim:  %s" % (
            i + 1, lines[i], json.dumps(got), json.dumps(state))
        assert frame == wire_frame, "line %d (%s) at t=%d: the frame on the data pin differs" % (
            i + 1, lines[i], state["t"])
    end = len(device) - len(HISTORY.split("\n"))
    assert device[end - 2][0]["phase"] in ("final", "result")  # the game was played to its end
    assert device[end - 1][0]["game"] == "menu"
    # written to the play log on LittleFS and read back by HISTORY on the Pico
    page = device[-2][0]
    assert page["game"] == "history" and page["games"] == 1 and page["record"] == 1 and page["mode"] == game
    assert page["scores"] == device[end - 2][0]["scores"]
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
    """Play lines on the image from a power-on, the power cut at (flash write, us) if given:
    ([(report's emulated us, flash writes so far, report)] a line, [(us, write number)])."""
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
            assert cut is not None and pico.cut is not None  # the power went mid-script
        return marks, list(pico.flash_writes)
    finally:
        pico.close(keep=cut is not None)


def cut_one_of(flashed, image, writes, lines, seed, game, players):
    """Play the lines again on a fresh copy of the image, the power cut at a random moment of
    one of those flash writes (LAYERLIGHT_CUT_SEED picks it); returns the write cut."""
    rng = random.Random(int(os.environ.get("LAYERLIGHT_CUT_SEED", "20")))
    write = rng.choice(writes)
    shutil.copyfile(flashed["image"], image)
    play_cut(flashed, image, lines, seed, game, players, (write, rng.randint(0, 400)))
    return write


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


def test_a_power_cut_during_a_save_loses_no_saved_score(uf2_image, tmp_path):
    """The power goes at a random moment of the flash writes of a save that changed the scores;
    on the next boot the game resumes with the scores of that save or of the one before, never
    anything else, on real LittleFS (the Layerlight UF2)."""
    flashed = uf2_image
    name, script, game, players, seed = GAMES[0]
    lines = script.split("\n")
    saves = saves_in(script, game, players, seed)
    k = next(k for k in range(1, len(saves)) if saves[k][0] > len(lines) // 3 and saves[k][1] != saves[k - 1][1])
    at, scores = saves[k]
    head = lines[:at + 1] + ["wait 2000"]
    allowed = (saves[k - 1][1], scores)

    # once through, to see which flash writes that save makes
    image = str(tmp_path / "flash.bin")
    shutil.copyfile(flashed["image"], image)
    marks, writes = play_cut(flashed, image, head, seed, game, players)
    before = marks[-3][1]  # the writes made up to the line before the save's
    save = [n for us, n in writes if n > before and us <= marks[-1][0]]
    assert save, "the save made no flash write"
    write = cut_one_of(flashed, image, save, head, seed, game, players)

    reports = after_power_on(flashed, image, ["wait 100", "press A", "wait 100"])
    assert reports[0]["choice"] == "RESUME", "write %d of %s cut: no game to resume" % (write, save)
    resumed = reports[-1]
    assert resumed["game"] == game and resumed["phase"] != "error", resumed
    assert resumed["scores"] in allowed, "write %d of %s cut" % (write, save)


def test_a_power_cut_while_a_game_is_logged_loses_nothing_and_logs_it_once(uf2_image, tmp_path):
    """Time attack to its result, then A: the record is appended to plays.log and the saved
    game removed. The power goes at a random moment of those flash writes; on the next boot
    HISTORY holds the game exactly once (the saved game, still there, carries its record and
    its number: it is logged when the next mode starts, or seen to be logged already)."""
    flashed = uf2_image
    name, script, game, players, seed = GAMES[2]
    assert game == "time-attack"
    lines = [line for line in script.split("\n") if line] + ["wait 1000"]
    image = str(tmp_path / "flash.bin")

    shutil.copyfile(flashed["image"], image)
    marks, writes = play_cut(flashed, image, lines, seed, game, players)
    assert marks[-3][2]["phase"] == "result" and marks[-2][2]["game"] == "menu"
    before = marks[-3][1]  # the writes made up to the result, the line before A
    leaving = [n for us, n in writes if n > before]
    assert leaving, "leaving the result made no flash write"
    write = cut_one_of(flashed, image, leaving, lines, seed, game, players)

    # the next mode to start: HISTORY, its first page
    page = after_power_on(flashed, image, ["wait 100"], 1, "history", 0)[-1]
    where = "write %d of %s cut" % (write, leaving)
    assert page["game"] == "history", where
    assert page["games"] == 1 and page["record"] == 1 and page["mode"] == game, (where, page)
    assert page["scores"] == marks[-3][2]["scores"], where


def test_the_uf2_onto_a_pico_flashed_on_stock_micropython(flashed, uf2_image, tmp_path):
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
