"""`layerlight history`: the play log read on the PC (from a simulator's flash folder or a
board behind a pty), its table, per-mode figures, exports and plot, and the bad inputs
that must end in one line. Logs are written by the firmware's own PlayLog."""

import csv
import datetime
import json
import os
import re
import subprocess
import sys
import time

import pytest

from layerlight import persist, playlog
from layerlight.storage import FileStorage
from layerlight_tools import cli, devicefs
from layerlight_tools.history import export, names, plot

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rec(mode, seats, scores, winners, ms, date=None, tie_break=None, detail=None, ended="final", rounds=6,
        deck=None, level=None):
    return {"mode": mode, "seats": seats, "scores": scores, "winners": winners, "tie_break": tie_break,
            "detail": detail, "played": {"deck": deck, "level": level}, "rounds": rounds, "ms": ms,
            "ended": ended, "date": date}


# A season, oldest first: every kind of detail, a tie (layers), a tie-break between equal
# scores (otlo), everybody tied (coop), a solo game, a game ended from the pause menu.
SEASON = [
    rec("layers", [1, 2, 3], [12, 9, 12], [1, 3], 605000, "2025-03-01 19:02", deck="1a2b3c4d"),
    rec("time-attack", [1], [7], [1], 180000,
        detail={"missions": 7, "rating": "B", "new_best": True, "levels": [1, 2, 2, 3, 3, 4, 4]},
        deck="1a2b3c4d", level=1, rounds=7),
    rec("paper-world", [1, 2], [30, 41], [2], 1500000, "2025-03-02 20:00",
        detail={"breakdown": [{"stars": 9, "objectives": 14, "hand": 4, "discard": 3, "scissors": 0},
                              {"stars": 12, "objectives": 20, "hand": 6, "discard": 1, "scissors": 2}]},
        rounds=11),
    rec("layers", [1, 2], [15, 10], [1], 420500, "2025-03-03 18:00", ended="end", deck="1a2b3c4d", rounds=4),
    rec("coop", [2, 4], [20, 20], [2, 4], 900000, "2025-03-04 21:30", tie_break="shared",
        detail={"colours": {"blue": 6, "green": 4, "yellow": 10, "orange": 8, "pink": 7, "purple": 5}},
        rounds=18),
    rec("otlo", [1, 2, 3, 4], [3, 5, 5, 1], [2], 754999, "2025-03-05 19:45", tie_break="fewer cards",
        detail={"handicap": [0, 0, 1, 0], "cards": [[4, 9, 17], [1, 2, 3, 5, 8], [6, 7, 10, 11, 12], [13]],
                "levels": "1-3", "elapsed_ms": None}, deck="0badcafe", rounds=14),
]


def write_log(folder, records):
    """The records appended by the device's own PlayLog (numbered 1, 2, ...); what it wrote."""
    log = playlog.PlayLog(FileStorage(str(folder)))
    for r in records:
        assert log.append(json.loads(json.dumps(r))) is not None
    return [dict(r, n=i + 1) for i, r in enumerate(records)]


@pytest.fixture
def season(tmp_path):
    folder = tmp_path / "flash"
    folder.mkdir()
    return folder, write_log(folder, SEASON)


def run(args, capsys):
    code = cli.main(["history"] + args)
    out, err = capsys.readouterr()
    return code, out, err


def cells(line):
    """A table line's cells (columns are two or more spaces apart; a cell has single spaces)."""
    return re.split(r" {2,}", line.strip())


def sections(out):
    """(games table rows, per-mode table rows), each a list of cell lists, header first."""
    games, per_mode = out.split("\n\n")
    return [cells(x) for x in games.splitlines()[1:]], [cells(x) for x in per_mode.splitlines()[1:]]


# ---------------------------------------------------------------- the table and the figures


def test_the_games_newest_first_then_each_modes_figures(season, capsys):
    folder, records = season
    code, out, err = run(["--flash", str(folder)], capsys)
    assert code == 0 and err == ""
    assert out.startswith("6 games, newest first (the device keeps the last 500):\n")
    games, per_mode = sections(out)
    assert games == [
        ["n", "date", "mode", "seats", "scores", "winners", "length", "ended"],
        ["6", "2025-03-05 19:45", "otlo", "P1, P2, P3, P4", "3 5 5 1", "P2", "12:34", "final"],
        ["5", "2025-03-04 21:30", "coop", "P2, P4", "20 20", "P2, P4", "15:00", "final"],
        ["4", "2025-03-03 18:00", "layers", "P1, P2", "15 10", "P1", "7:00", "end"],
        ["3", "2025-03-02 20:00", "paper-world", "P1, P2", "30 41", "P2", "25:00", "final"],
        ["2", "-", "time-attack", "P1", "7", "P1", "3:00", "final"],
        ["1", "2025-03-01 19:02", "layers", "P1, P2, P3", "12 9 12", "P1, P3", "10:05", "final"],
    ]
    assert per_mode[0] == ["mode", "plays", "wins P1", "wins P2", "wins P3", "wins P4", "avg win", "best win",
                           "avg margin", "avg length"]
    # modes in the device's menu order; margins: layers (12-9, 15-10), a tie-break between
    # equal scores (otlo) and everybody tied (coop) are 0, a solo mode has none
    assert per_mode[1:] == [
        ["layers", "2", "2", "0", "1", "0", "13.5", "15", "4.0", "8:32"],
        ["time-attack", "1", "1", "0", "0", "0", "7.0", "7", "-", "3:00"],
        ["otlo", "1", "0", "1", "0", "0", "5.0", "5", "0.0", "12:34"],
        ["coop", "1", "0", "1", "0", "1", "20.0", "20", "0.0", "15:00"],
        ["paper-world", "1", "0", "1", "0", "0", "41.0", "41", "11.0", "25:00"],
    ]


def test_names_label_the_seats_in_the_table_the_csv_and_the_plot(season, tmp_path, capsys):
    folder, records = season
    table = tmp_path / "games.csv"
    picture = tmp_path / "season.png"
    code, out, err = run(["--flash", str(folder), "--names", "P1=Ann, P2=Ben,P4=Dee Lee",
                          "--csv", str(table), "--plot", str(picture)], capsys)
    assert code == 0, err
    games, per_mode = sections(out)
    assert games[1][3:6] == ["P1 Ann, P2 Ben, P3, P4 Dee Lee", "3 5 5 1", "P2 Ben"]
    assert games[2][5] == "P2 Ben, P4 Dee Lee"
    assert per_mode[0][2:6] == ["wins P1 Ann", "wins P2 Ben", "wins P3", "wins P4 Dee Lee"]
    with table.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[-1]["players"] == "P1 Ann;P2 Ben;P3;P4 Dee Lee" and rows[-1]["winning_players"] == "P2 Ben"
    assert rows[-1]["seats"] == "1;2;3;4"  # the seat numbers stay numbers
    fig = plot.write_plot(str(picture), records, names.parse_names("P1=Ann,P2=Ben,P4=Dee Lee"))
    legends = [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]
    bars = [t.get_text() for ax in fig.axes[1::2] for t in ax.get_xticklabels()]
    assert "P1 Ann" in legends and "P4 Dee Lee" in legends and "P3" in legends
    assert bars[:4] == ["P1 Ann", "P2 Ben", "P3", "P4 Dee Lee"]


@pytest.mark.parametrize("bad, says", [
    ("P5=Eve", "--names: 'P5': the seats are P1 to P4"),
    ("P1=Ann,Ben", "--names: 'Ben' is not SEAT=NAME"),
    ("P1=", "--names: P1 has no name"),
    ("P1=Ann,p1=Ann", "--names: P1 is named twice"),
    ("Seat1=Ann", "--names: 'Seat1': the seats are P1 to P4"),
])
def test_bad_names_are_one_line(season, capsys, bad, says):
    folder, records = season
    code, out, err = run(["--flash", str(folder), "--names", bad], capsys)
    assert code == 2 and out == ""
    assert err.startswith("layerlight: " + says) and err.count("\n") == 1, err


# ---------------------------------------------------------------- exports


def test_csv_holds_every_game_one_row_each_in_stable_columns(season, tmp_path, capsys):
    folder, records = season
    path = tmp_path / "games.csv"
    assert run(["--flash", str(folder), "--csv", str(path)], capsys)[0] == 0
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        assert tuple(reader.fieldnames) == export.CSV_COLUMNS
        rows = list(reader)
    assert len(rows) == len(records)

    def numbers(cell):
        return [int(x) for x in cell.split(";")] if cell else []

    for row, r in zip(rows, records):  # oldest first, as the log
        assert int(row["n"]) == r["n"]
        assert (row["date"] or None) == r["date"]
        assert row["mode"] == r["mode"] and row["ended"] == r["ended"]
        assert numbers(row["seats"]) == r["seats"]
        assert numbers(row["scores"]) == r["scores"]
        assert numbers(row["winners"]) == r["winners"]
        assert (row["tie_break"] or None) == r["tie_break"]
        assert int(row["rounds"]) == r["rounds"] and int(row["ms"]) == r["ms"]
        assert (row["deck"] or None) == r["played"]["deck"]
        assert (int(row["level"]) if row["level"] else None) == r["played"]["level"]
        assert (json.loads(row["detail"]) if row["detail"] else None) == r["detail"]
        assert "\n" not in row["detail"] and ", " not in row["detail"]  # compact


def test_json_is_the_records_exactly_as_on_the_device(season, tmp_path, capsys):
    folder, records = season
    path = tmp_path / "games.json"
    assert run(["--flash", str(folder), "--json", str(path)], capsys)[0] == 0
    got = json.loads(path.read_text())
    assert got == records  # every key, nothing added, oldest first (newest last)
    on_device, bad = playlog.parse((folder / playlog.LOG).read_bytes())
    assert got == on_device and bad == 0
    assert [list(r) for r in got] == [list(r) for r in on_device]  # the device's key order too


def test_the_plot_is_a_png_with_a_row_for_each_mode(season, tmp_path, capsys):
    from PIL import Image
    folder, records = season
    path = tmp_path / "season.png"
    assert run(["--flash", str(folder), "--plot", str(path)], capsys)[0] == 0
    with Image.open(path) as im:
        assert im.format == "PNG"
        # 11 x 3.2 inches a mode at 100 dpi, five modes played
        assert im.size == (1100, 1600)
        colours = set(im.convert("RGB").getdata())
    assert (0xFF, 0x10, 0x10) in colours and (0x10, 0x40, 0xFF) in colours  # P1's red, P2's blue bars
    assert len(colours) > 50  # text, lines, bars: not a blank page


def test_an_empty_log_says_so_in_one_line_and_exports_no_games(tmp_path, capsys):
    folder = tmp_path / "flash"
    folder.mkdir()
    code, out, err = run(["--flash", str(folder), "--json", str(tmp_path / "g.json"),
                          "--csv", str(tmp_path / "g.csv"), "--plot", str(tmp_path / "g.png")], capsys)
    assert (code, out, err) == (0, "no games in the play log yet\n", "")
    assert json.loads((tmp_path / "g.json").read_text()) == []
    assert (tmp_path / "g.csv").read_text() == ",".join(export.CSV_COLUMNS) + "\n"
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- damage and the 500 kept


def test_a_damaged_line_in_the_middle_loses_only_that_game(season, capsys, tmp_path):
    folder, records = season
    path = folder / playlog.LOG
    data = bytearray(path.read_bytes())
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == ord("\n")][:-1]
    data[starts[2] + 40] ^= 0x04  # a bit flipped on flash, inside game 3's JSON
    path.write_bytes(bytes(data))
    out_json = tmp_path / "g.json"
    code, out, err = run(["--flash", str(folder), "--json", str(out_json)], capsys)
    assert code == 0
    assert err == "read 5 games, skipped 1 damaged lines\n"
    assert [int(row[0]) for row in sections(out)[0][1:]] == [6, 5, 4, 2, 1]
    assert json.loads(out_json.read_text()) == [r for r in records if r["n"] != 3]


def test_a_truncated_last_line_loses_only_the_last_game(season, capsys):
    folder, records = season
    path = folder / playlog.LOG
    path.write_bytes(path.read_bytes()[:-30])  # a power cut in the middle of an append
    code, out, err = run(["--flash", str(folder)], capsys)
    assert code == 0 and err == "read 5 games, skipped 1 damaged lines\n"
    assert [int(row[0]) for row in sections(out)[0][1:]] == [5, 4, 3, 2, 1]


def test_only_the_last_500_games_are_read_across_both_files(tmp_path, capsys):
    over = 37
    games = [rec("layers" if i % 3 else "coop", [1, 2], [i % 7, 3], [1] if i % 7 > 3 else [2], 60000 + i)
             for i in range(playlog.KEEP + over)]
    records = write_log(tmp_path, games)
    assert (tmp_path / playlog.OLD).exists()  # the log rotated: both files hold kept games
    out_json = tmp_path / "g.json"
    code, out, err = run(["--flash", str(tmp_path), "--json", str(out_json)], capsys)
    assert code == 0 and err == ""
    assert out.startswith("%d games, newest first" % playlog.KEEP)
    rows, per_mode = sections(out)
    numbers = [int(r[0]) for r in rows[1:]]
    assert numbers == list(range(playlog.KEEP + over, over, -1))
    assert sum(int(r[1]) for r in per_mode[1:]) == playlog.KEEP
    assert json.loads(out_json.read_text()) == records[over:]


def test_records_a_future_firmware_might_write_do_not_break_it(tmp_path, capsys):
    """Good lines (their CRC holds) with keys missing or of other types: shown as far as they
    go, never a traceback."""
    odd = [{"n": 1}, {"n": 2, "mode": 5, "seats": "x", "scores": None, "winners": [1], "ms": "long"},
           {"n": 3, "mode": "darts", "seats": [1, 2], "scores": [1.5, "a"], "winners": [1, "b"], "ms": -4,
            "played": None, "detail": {"sets": 3}}]
    (tmp_path / playlog.LOG).write_bytes(b"".join(persist.encode(r) for r in odd))
    code, out, err = run(["--flash", str(tmp_path), "--csv", str(tmp_path / "g.csv"), "--json",
                          str(tmp_path / "g.json"), "--plot", str(tmp_path / "g.png")], capsys)
    assert code == 0 and err == "", err
    games, per_mode = sections(out)
    assert games[1] == ["3", "-", "darts", "P1", "1.5", "P1", "-", "-"]
    assert [row[0] for row in per_mode[1:]] == ["-", "darts"]
    assert json.loads((tmp_path / "g.json").read_text()) == odd


# ---------------------------------------------------------------- a game on its result screen


def saved_at_final(folder, record, name=persist.GAME):
    """The saved game as Device.save_game writes it once the game is at its final: the
    record rides along (the rest of the file is the game itself, here a stand-in)."""
    saved = {"game": record["mode"], "deck": None, "rng": 1, "snap": {"phase": "final"}, "ms": record["ms"],
             "n": record["n"], "record": record}
    (folder / name).write_bytes(persist.encode(saved))


def test_a_game_on_its_result_screen_is_the_newest_marked_and_counted(season, tmp_path, capsys):
    folder, records = season
    waiting = dict(rec("coop", [1], [14], [1], 61000, detail={"colours": {"blue": 14}}, rounds=72), n=7)
    saved_at_final(folder, waiting)
    out_json, out_csv = tmp_path / "g.json", tmp_path / "g.csv"
    code, out, err = run(["--flash", str(folder), "--json", str(out_json), "--csv", str(out_csv)], capsys)
    assert code == 0 and err == ""
    assert out.startswith("7 games, newest first")
    games, per_mode = sections(out)
    assert games[1] == ["7", "-", "coop", "P1", "14", "P1", "1:01", "final, still on its result screen"]
    assert [row[-1] for row in games[2:]] == ["final", "final", "end", "final", "final", "final"]
    assert ["coop", "2", "1", "1", "0", "1", "17.0", "20", "0.0", "8:00"] in per_mode
    assert json.loads(out_json.read_text()) == records + [waiting]  # the record the log will hold
    assert len(out_csv.read_text().splitlines()) == 1 + 7


@pytest.mark.parametrize("case", ["logged", "in play", "damaged", "new only"])
def test_the_saved_game_adds_a_game_only_when_it_waits_at_its_final(season, capsys, case):
    """Once logged (a power cut between the append and the saved game's removal leaves it),
    it is not counted again; a game still being played, or a damaged file, is no game; a
    saved game.json.new alone is read as the device reads it at power-on."""
    folder, records = season
    if case == "logged":
        saved_at_final(folder, records[-1])
    elif case == "in play":
        (folder / persist.GAME).write_bytes(persist.encode({"game": "coop", "snap": {}, "n": 7}))
    elif case == "damaged":
        saved_at_final(folder, dict(records[0], n=7))
        data = bytearray((folder / persist.GAME).read_bytes())
        data[30] ^= 0x01
        (folder / persist.GAME).write_bytes(bytes(data))
    else:
        saved_at_final(folder, dict(records[0], n=7), name=persist.GAME + ".new")
    code, out, err = run(["--flash", str(folder)], capsys)
    assert code == 0 and err == ""
    numbers = [row[0] for row in sections(out)[0][1:]]
    if case == "new only":
        assert numbers == ["7", "6", "5", "4", "3", "2", "1"] and "still on its result screen" in out
    else:
        assert numbers == ["6", "5", "4", "3", "2", "1"] and "still on its result screen" not in out


def sim(folder, script, *options):
    res = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "sim", "--headless", "--script", "-",
                          "--flash", str(folder), "--trace"] + list(options),
                         input=script, capture_output=True, text=True, cwd=REPO)
    assert res.returncode == 0, res.stderr
    return [json.loads(line) for line in res.stdout.splitlines()]


def test_a_solo_coop_game_left_on_its_result_shows_then_is_logged_once(tmp_path, capsys):
    """As a new user tries it: a solo CO.OP game played to its final on the simulator's flash,
    then `history --flash`; then the result left with A, or HISTORY opened on the device."""
    import shutil
    from layerlight import modes
    folder = tmp_path / "flash"
    trace = sim(folder, "press A\nwait 200\n" * 72, "--game", "coop", "--players", "1")
    assert trace[-1]["phase"] == "final"
    assert not (folder / playlog.LOG).exists()
    out_json = tmp_path / "on_result.json"
    code, out, err = run(["--flash", str(folder), "--json", str(out_json)], capsys)
    assert code == 0 and err == ""
    assert out.startswith("1 game, newest first")
    assert sections(out)[0][1][2:] == ["coop", "P1", "0", "P1", sections(out)[0][1][6],
                                       "final, still on its result screen"]
    waiting = json.loads(out_json.read_text())
    assert [r["n"] for r in waiting] == [1]
    history_walk = "press B\n" * (1 + modes.names().index("history")) + "press A\nwait 200\n"  # RESUME first
    for name, script in (("left with A", "press A\nwait 300\npress A\nwait 300\n"), ("HISTORY", history_walk)):
        copy = tmp_path / name
        shutil.copytree(folder, copy)
        trace = sim(copy, script)
        if name == "HISTORY":
            assert trace[-1]["game"] == "history" and trace[-1]["games"] == 1  # logged first, as it opens
        assert not (copy / persist.GAME).exists()
        logged = tmp_path / (name + ".json")
        code, out, err = run(["--flash", str(copy), "--json", str(logged)], capsys)
        assert code == 0 and err == ""
        assert out.startswith("1 game, newest first") and "still on its result screen" not in out
        assert json.loads(logged.read_text()) == waiting  # the record shown is the record logged


# ---------------------------------------------------------------- errors are one line


def test_a_missing_folder_is_one_line_and_exit_2(tmp_path, capsys):
    missing = tmp_path / "nowhere"
    assert run(["--flash", str(missing)], capsys) == (2, "", "layerlight: --flash %s: no such folder\n" % missing)
    a_file = tmp_path / "plays.log"
    a_file.write_bytes(b"")
    assert run(["--flash", str(a_file)], capsys)[2] == "layerlight: --flash %s: not a folder\n" % a_file
    # the installed command, as a person runs it: no traceback
    res = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "history", "--flash", str(missing)],
                         capture_output=True, text=True, cwd=REPO)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == "layerlight: --flash %s: no such folder\n" % missing


def test_port_and_flash_together_are_one_line(season, capsys):
    folder, records = season
    assert run(["--flash", str(folder), "--port", "/dev/ttyACM0"], capsys) == (
        2, "", "layerlight: give --port (a board) or --flash DIR (a folder), not both\n")


def test_an_export_that_cannot_be_written_is_one_line(season, tmp_path, capsys):
    folder, records = season
    for option in ("--csv", "--json", "--plot"):
        target = tmp_path / "no" / "such" / "dir" / "out"
        code, out, err = run(["--flash", str(folder), option, str(target)], capsys)
        assert code == 2 and err == "layerlight: %s %s: cannot write it (No such file or directory)\n" % (
            option, target)


# ---------------------------------------------------------------- from a board


def test_from_a_board_over_the_port_sets_its_clock_and_restarts_it(tmp_path, capsys):
    """A board (the pty device) whose flash holds a log longer than one read (so it comes in
    pieces): the same games as from the folder, and the board's clock is set on the way."""
    from wasm.pty_device import PtyDevice
    folder = tmp_path / "flash"
    folder.mkdir()
    games = [SEASON[i % len(SEASON)] for i in range(40)]
    records = write_log(folder, games)
    assert (folder / playlog.LOG).stat().st_size > 2 * devicefs.READ_CHUNK
    # a game torn by a power cut, then two more: the board's bytes go to the same parser
    with open(folder / playlog.LOG, "ab") as f:
        f.write(persist.encode(dict(SEASON[0], n=41))[:-20])
    records += write_log_more(folder, SEASON[1:3], first=41)
    waiting = dict(SEASON[4], n=44)  # and a game on its result screen, saved with its record
    saved_at_final(folder, waiting)
    out_json = tmp_path / "g.json"
    with PtyDevice(flash_dir=folder) as dev:
        boots = dev.status()["boots"]
        code, out, err = run(["--port", dev.port, "--json", str(out_json)], capsys)
        assert code == 0, err
        # stopped without a reset to be read, then restarted into its main.py (Ctrl-D)
        assert dev.status()["boots"] == boots + 1 and dev.status()["mode"] == "friendly"
        assert err == "read 43 games, skipped 1 damaged lines\n"
        assert json.loads(out_json.read_text()) == records + [waiting]
        assert out.startswith("43 games, newest first")
        assert sections(out)[0][1][0] == "44" and sections(out)[0][1][-1] == "final, still on its result screen"
        with devicefs.Board(dev.port) as board:
            clock = board.eval("__import__('machine').RTC().datetime()")
        board_time = datetime.datetime(*clock[:3], *clock[4:7])
        assert abs((board_time - datetime.datetime.now()).total_seconds()) < 120, clock
        # a board with no log: no games yet
        dev.control("remove", path="/" + playlog.LOG)
        dev.control("remove", path="/" + playlog.OLD)
        dev.control("remove", path="/" + persist.GAME)
        code, out, err = run(["--port", dev.port], capsys)
        assert (code, out, err) == (0, "no games in the play log yet\n", "")


def write_log_more(folder, games, first):
    """Appends after a torn line, as the device does (its PlayLog starts them on a new line)."""
    log = playlog.PlayLog(FileStorage(str(folder)))
    out = []
    for i, r in enumerate(games):
        assert log.append(json.loads(json.dumps(r))) == first + i
        out.append(dict(r, n=first + i))
    return out


def test_a_port_with_no_board_answering_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(devicefs, "CONNECT_TIMEOUT", 1.0)
    monkeypatch.setattr(devicefs, "READ_TIMEOUT", 0.2)
    master, slave = os.openpty()
    try:
        import tty
        tty.setraw(slave)
        name = os.ttyname(slave)
        t = time.monotonic()
        code, out, err = run(["--port", name], capsys)
        assert time.monotonic() - t < 5
    finally:
        os.close(master)
        os.close(slave)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("layerlight: %s: no MicroPython REPL answered" % name), err
