"""The play log on the device: a record at every final, kept across power cuts and
damage, the last 500 games, and the HISTORY menu item that shows them."""

import json
import os
import subprocess
import sys

import pytest

from layerlight import modes, persist, playlog
from layerlight.storage import FileStorage
from layerlight_tools import simcore
from layerlight_tools.firmware_files import device_files

import pico_games

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HISTORY_WALK = "press B\n" * modes.names().index("history") + "press A\n"


def sim(args, script, cwd=REPO):
    res = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "sim", "--headless", "--trace",
                          "--script", "-"] + args, input=script, capture_output=True, text=True, cwd=cwd)
    assert res.returncode == 0, res.stderr
    return [json.loads(line) for line in res.stdout.splitlines()]


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    """Every mode's short game played with `layerlight sim --flash DIR`, one run each, as a
    table plays an evening: the folder and each game's final as the trace showed it."""
    folder = tmp_path_factory.mktemp("season")
    config = folder.parent / "short.json"
    config.write_text(json.dumps(pico_games.SHORT))
    finals = []
    for name, script, game, players, seed in pico_games.games():
        trace = sim(["--flash", str(folder / "flash"), "--config", str(config), "--game", game,
                     "--players", str(players), "--seed", str(seed)], script)
        final = [s for s in trace if s["phase"] in ("final", "result")][-1]
        assert trace[-1]["game"] == "menu"
        finals.append(final)
    return folder / "flash", finals


def test_every_modes_final_is_one_record_with_its_scores_and_winners(season):
    folder, finals = season
    data = (folder / playlog.LOG).read_bytes()
    records, bad = playlog.parse(data)
    assert bad == 0
    assert [r["n"] for r in records] == list(range(1, len(finals) + 1))
    for rec, final in zip(records, finals):
        assert rec["mode"] == final["game"]
        assert rec["seats"] == final["seats"]
        assert rec["scores"] == final["scores"]
        best = max(final["scores"])
        # the mode's own winners where its trace names them, else the highest score (solo: the seat)
        assert rec["winners"] == (final.get("winners") or
                                  [s for s, v in zip(final["seats"], final["scores"]) if v == best])
        assert rec["ended"] == "final" and rec["date"] is None  # a scripted run has no date
        assert rec["ms"] > 0
    by_mode = {r["mode"]: r for r in records}
    coop_final = [f for f in finals if f["game"] == "coop"][0]
    assert by_mode["coop"]["detail"]["colours"] == coop_final["colours"]
    assert len(by_mode["paper-world"]["detail"]["breakdown"]) == 4
    assert by_mode["paper-world"]["tie_break"] == [f for f in finals if f["game"] == "paper-world"][0]["tie_break"]
    assert by_mode["otlo"]["detail"]["handicap"] == [f for f in finals if f["game"] == "otlo"][0]["handicap"]
    assert by_mode["time-attack"]["detail"]["missions"] == \
        [f for f in finals if f["game"] == "time-attack"][0]["missions_done"]
    assert by_mode["layers"]["rounds"] == 6 and by_mode["layers"]["played"]["deck"]


def test_history_shows_the_games_newest_first_then_each_modes_wins(season):
    folder, finals = season
    trace = sim(["--flash", str(folder)], HISTORY_WALK + "press B\n" * 13 + "press B\npress A\n")
    pages = trace[len(HISTORY_WALK.split("\n")) - 2:]
    assert pages[0]["game"] == "history" and pages[0]["games"] == 7 and pages[0]["skipped"] == 0
    games = pages[:7]
    assert [p["mode"] for p in games] == [f["game"] for f in reversed(finals)]
    assert [p["record"] for p in games] == [7, 6, 5, 4, 3, 2, 1]
    for page, final in zip(games, reversed(finals)):
        assert page["phase"] == "games" and page["scores"] == final["scores"]
    wins = pages[7:14]
    assert all(p["phase"] == "wins" for p in wins)
    coop = [p for p in wins if p["mode"] == "coop"][0]
    coop_final = [f for f in finals if f["game"] == "coop"][0]
    assert coop["wins"] == [1 if s in coop_final["winners"] else 0 for s in (1, 2, 3, 4)]
    assert pages[14]["page"] == 0  # B after the last page: the newest game again
    assert trace[-1]["game"] == "menu"  # A: back to the menu


def read_number(rows, seat, colour):
    """The number a person at `seat` (1-4) reads in `colour` along their edge: the frame
    turned to them, the bottom band of glyph height, each 3x5 cell matched to the font."""
    from layerlight import font
    from table_view import turned
    band = turned(rows, seat - 1)[-font.GLYPH_H:]
    cols = [x for x in range(len(band[0])) if any(row[x] == colour for row in band)]
    if not cols:
        return None
    text = ""
    x = cols[0]
    while x <= cols[-1]:
        cell = [[1 if band[r][x + c] == colour else 0 for c in range(font.GLYPH_W)] for r in range(font.GLYPH_H)]
        for ch in "-0123456789":
            g = font.glyph_rows(ch)
            if cell == [[font.glyph_bit(g, c, r) for c in range(font.GLYPH_W)] for r in range(font.GLYPH_H)]:
                text += ch
                break
        else:
            return "?"
        x += font.ADVANCE
    return int(text)


def test_the_history_frame_faces_each_seat_with_its_score_the_winner_in_its_colour(season):
    """What a person sees: the newest game's page, turned to each seat, reads that seat's
    score upright; the winner's in the winner's colour, the others grey."""
    from layerlight.endings import LOSER
    from layerlight.screens import SEAT_COLOURS
    folder, finals = season
    page = sim(["--flash", str(folder), "--frames"], HISTORY_WALK)[-1]
    newest = finals[-1]
    assert newest["winners"]
    for seat, score in zip(newest["seats"], newest["scores"]):
        if seat in newest["winners"]:
            assert read_number(page["frame"], seat, SEAT_COLOURS[seat - 1]) == score
        else:
            assert read_number(page["frame"], seat, SEAT_COLOURS[seat - 1]) is None
            assert read_number(page["frame"], seat, LOSER) in (score, "?")  # grey (neighbours' grey may touch)


def test_an_empty_log_says_so_and_goes_back(tmp_path):
    trace = sim(["--flash", str(tmp_path)], HISTORY_WALK + "press B\npress A\n")
    assert trace[-3]["phase"] == "empty" and trace[-3]["games"] == 0
    assert trace[-1]["game"] == "menu"


def record(mode="coop", seats=(1, 2), scores=(3, 5)):
    return {"mode": mode, "seats": list(seats), "scores": list(scores), "winners": [2], "tie_break": None,
            "detail": None, "played": {"deck": None, "level": None}, "rounds": 3, "ms": 1000, "ended": "final",
            "date": None}


def test_the_log_keeps_the_last_500_games_rotating_two_files(tmp_path):
    log = playlog.PlayLog(FileStorage(str(tmp_path)))
    for i in range(1200):
        assert log.append(record(scores=(i, 0))) == i + 1
    assert sorted(os.listdir(tmp_path)) == sorted([playlog.OLD, playlog.LOG])
    names = [playlog.OLD, playlog.LOG]
    records = []
    for name in names:
        got, bad = playlog.parse((tmp_path / name).read_bytes())
        assert bad == 0
        records += got
    kept = playlog.newest(records)
    assert [r["n"] for r in kept] == list(range(701, 1201))
    # a new PlayLog (the device booted again) goes on numbering from the file
    again = playlog.PlayLog(FileStorage(str(tmp_path)))
    assert again.append(record()) == 1201


def test_a_damaged_record_in_the_middle_is_skipped_and_counted_the_rest_kept(tmp_path):
    storage = FileStorage(str(tmp_path))
    log = playlog.PlayLog(storage)
    for i in range(5):
        log.append(record(scores=(i, 0)))
    path = tmp_path / playlog.LOG
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"scores": [2', b'"scores": [9')  # a bit flipped on flash
    path.write_bytes(b"\n".join(lines))
    records, bad = playlog.parse(path.read_bytes())
    assert bad == 1 and [r["n"] for r in records] == [1, 2, 4, 5]
    seen = []
    assert log.scan(lambda n, mode, winners, name, at: seen.append(n)) == 1
    assert seen == [1, 2, 4, 5]
    assert playlog.PlayLog(storage).append(record()) == 6  # and the device goes on logging


def test_a_torn_last_line_loses_only_that_game(tmp_path):
    storage = FileStorage(str(tmp_path))
    log = playlog.PlayLog(storage)
    for i in range(3):
        log.append(record())
    path = tmp_path / playlog.LOG
    data = path.read_bytes()
    path.write_bytes(data[:-25])  # a FAT append cut short
    log = playlog.PlayLog(storage)
    assert log.append(record()) == 3  # numbered after the last good one
    records, bad = playlog.parse(path.read_bytes())
    assert [r["n"] for r in records] == [1, 2, 3] and bad == 1


def play_to_final(storage, seed=1):
    """Time attack on a device over `storage`, to its result and back to the menu."""
    dev = simcore.make_device(None, 16, 16, seed, "time-attack", 1, storage=storage)
    s = simcore.Simulator(dev)
    script = pico_games.time_attack("time-attack").split("\n")
    for no, line in enumerate(script, 1):
        s.run_line(line, no)
    return dev


@pytest.mark.parametrize("how", ["cut", "partial", "empty", "fail"])
def test_a_power_cut_at_any_write_of_the_log_loses_at_most_that_game(how):
    """Two games are in the log; the third one's final is cut at each of its file writes in
    turn (the append, a save, the removal of the saved game): boot again and play a fourth.
    Once the third game's final was saved, it is never lost; before, at most it is."""
    files = device_files(None, dict(pico_games.SHORT))
    base = simcore.MemoryStorage(files)
    play_to_final(base)
    play_to_final(base)
    assert playlog.parse(base.files[playlog.LOG])[0][-1]["n"] == 2
    # which writes the third game makes, and from which one on its final is saved
    probe = simcore.MemoryStorage(dict(base.files))
    final_saved = []
    write_atomic = probe.write_atomic

    def noting(name, data):
        write_atomic(name, data)
        if name == persist.GAME and b'"record"' in data and not final_saved:
            final_saved.append(probe.writes)
    probe.write_atomic = noting
    play_to_final(probe)
    total = probe.writes
    assert 0 < final_saved[0] < total
    for n in range(total):
        storage = simcore.MemoryStorage(dict(base.files))
        storage.fault = (n, how)
        try:
            play_to_final(storage)
        except simcore.PowerCut:
            pass
        storage.fault = None
        play_to_final(storage, seed=2)  # the device boots again over what the cut left
        records, bad = playlog.parse(storage.files[playlog.LOG])
        numbers = [r["n"] for r in records]
        assert numbers[:2] == [1, 2], (n, how)
        assert numbers in ([1, 2, 3], [1, 2, 3, 4]), (n, how, numbers)  # the cut game, at most, is lost
        if n >= final_saved[0] and how != "fail":  # cut once its final was saved: logged when the
            # next game starts (a flash that refuses the append, "fail", loses that record: logged)
            assert numbers == [1, 2, 3, 4], (n, how, numbers)
        assert bad <= 1
        assert all(r["mode"] == "time-attack" for r in records)


def to_result(storage, seed=1):
    """Time attack on a device over `storage`, left on its result screen."""
    dev = simcore.make_device(None, 16, 16, seed, "time-attack", 1, storage=storage)
    s = simcore.Simulator(dev)
    script = [line for line in pico_games.time_attack("time-attack").split("\n") if line]
    assert script[-1] == "press A"  # the line that leaves the result
    for no, line in enumerate(script[:-1], 1):
        s.run_line(line, no)
    assert dev.game.phase == "result"
    return dev, s


def logged(storage):
    return playlog.parse(storage.files.get(playlog.LOG, b""))[0]


def test_a_finished_game_kept_behind_the_menu_is_logged_once_when_history_opens():
    storage = simcore.MemoryStorage(device_files(None, dict(pico_games.SHORT)))
    dev, s = to_result(storage)
    for line in ["down A", "down B", "wait 3100", "up A", "up B"]:
        s.run_line(line, 100)      # A and B held: MENU, the game (on its result) kept
    items = dev.menu_items()
    assert items[0] == "resume"
    for _ in range(items.index("history")):
        s.run_line("press B", 101)
    s.run_line("press A", 102)     # HISTORY: the finished game is in it
    assert dev.state()["game"] == "history" and dev.state()["games"] == 1
    s.run_line("press A", 103)     # back
    # it is over: not offered again, so it cannot be resumed and logged a second time
    assert dev.where == "menu" and "resume" not in dev.menu_items()
    assert [r["mode"] for r in logged(storage)] == ["time-attack"]


def test_a_power_cut_on_the_final_screen_still_logs_the_game():
    storage = simcore.MemoryStorage(device_files(None, dict(pico_games.SHORT)))
    dev, _ = to_result(storage)
    score = dev.game.score
    assert logged(storage) == []   # not logged yet: its result is on show
    # the power goes; the device boots again over the same flash and offers the saved game
    dev = simcore.make_device(None, 16, 16, 2, None, 1, storage=storage)
    s = simcore.Simulator(dev)
    assert dev.menu_items()[0] == "resume"
    s.run_line("press B", 1)       # the table starts another game instead
    s.run_line("press A", 2)
    assert dev.game_name == "layers"
    (rec,) = logged(storage)
    assert rec["mode"] == "time-attack" and rec["scores"] == [score] and rec["ended"] == "final"
    assert rec["ms"] > 0


def test_a_game_resumed_on_its_final_screen_is_logged_once():
    storage = simcore.MemoryStorage(device_files(None, dict(pico_games.SHORT)))
    to_result(storage)
    dev = simcore.make_device(None, 16, 16, 2, None, 1, storage=storage)  # after a power cut
    s = simcore.Simulator(dev)
    s.run_line("press A", 1)       # RESUME: the result again
    assert dev.game.phase == "result"
    s.run_line("press A", 2)       # left
    s.run_line("press A", 3)       # a new game (the first item) gives nothing more to log
    assert [r["mode"] for r in logged(storage)] == ["time-attack"]


def test_a_game_ended_from_the_pause_menu_is_logged_one_left_from_the_menu_is_not():
    files = device_files(None, None)
    storage = simcore.MemoryStorage(files)
    dev = simcore.make_device(None, 16, 16, 3, "layers", 2, storage=storage)
    s = simcore.Simulator(dev)
    # P1 wins a round, then the table ends the game from the pause menu (hold A, B B, A)
    for no, line in enumerate(["press A", "press A", "press P1", "press A", "wait 200", "hold A 1600"], 1):
        s.run_line(line, no)
    assert dev.where == "pause"
    for no in range(dev.pause_items.index("END")):
        s.run_line("press B", 10 + no)
    s.run_line("press A", 19)
    assert dev.where == "menu"
    (rec,), bad = playlog.parse(storage.files[playlog.LOG])
    assert rec["ended"] == "end" and rec["mode"] == "layers" and rec["seats"] == [1, 2]
    # a game left with MENU and then given up for another one is not a played game
    s.run_line("press A", 20)      # LAYERS again
    s.run_line("press P1", 21)
    s.run_line("press P2", 22)
    s.run_line("press A", 23)
    assert dev.where == "game"
    for no, line in enumerate(["down A", "down B", "wait 3100", "up A", "up B"], 24):
        s.run_line(line, no)       # A and B held together: MENU, the game is kept
    assert dev.where == "menu" and dev.menu_items()[0] == "resume"
    s.run_line("press B", 30)
    s.run_line("press A", 31)      # LAYERS: a new game, the kept one is given up
    assert dev.where == "game" and dev.game.phase == "join"
    assert len(playlog.parse(storage.files[playlog.LOG])[0]) == 1


def test_the_record_is_encoded_as_every_saved_file():
    line = persist.encode(dict(record(), n=1))
    (rec,), bad = playlog.parse(line)
    assert rec["n"] == 1 and bad == 0


def test_history_reads_the_season_back_with_its_totals(season, tmp_path):
    """`layerlight history --flash DIR` over the season: every game, and per mode the plays
    and the wins of each seat position as the finals gave them."""
    folder, finals = season
    out_json = tmp_path / "games.json"
    res = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "history", "--flash", str(folder),
                          "--json", str(out_json)], capture_output=True, text=True, cwd=REPO)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    games = json.loads(out_json.read_text())
    assert [g["mode"] for g in games] == [f["game"] for f in finals]
    assert [g["scores"] for g in games] == [f["scores"] for f in finals]
    lines = res.stdout.splitlines()
    per_mode = {line.split()[0]: line.split() for line in lines[lines.index(
        [l for l in lines if l.startswith("mode ")][-1]) + 1:] if line.strip()}
    for final in finals:
        best = max(final["scores"])
        winners = final.get("winners") or [s for s, v in zip(final["seats"], final["scores"]) if v == best]
        row = per_mode[final["game"]]
        assert row[1] == "1"  # one play
        assert [int(x) for x in row[2:6]] == [1 if s in winners else 0 for s in (1, 2, 3, 4)]
        assert float(row[6]) == best


@pytest.mark.parametrize("game", ["coop", "paper-world"])
def test_a_score_keepers_record_keeps_what_its_state_says_at_every_step(game):
    """A score keeper's record is built from result_state(), not the trace's whole state()
    (which lists every action): at every line of a whole game, and at its final (winners,
    tie break: Paper World's ends on fewer discards), the two agree on everything a record
    keeps."""
    import scenario_lib
    from layerlight_tools import simcore
    script, name, players = getattr(scenario_lib, game.replace("-", "_") + "_game")()
    dev = simcore.make_device(scenario_lib.device_files(), 16, 16, 1, name, players)
    s = simcore.Simulator(dev)
    finals = 0
    for no, line in enumerate(script.split("\n"), 1):
        s.run_line(line, no)
        if dev.where != "game":
            continue
        state = dev.game.state()
        kept = dev.game.result_state()
        assert kept == {k: state[k] for k in kept}, (no, line)
        finals += state["phase"] == "final"
    assert finals
