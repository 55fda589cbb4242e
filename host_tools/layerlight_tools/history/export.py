"""The games as files for other tools: CSV (one row a game, flat columns that do not
change with the options) and JSON (the records exactly as the device wrote them)."""

import csv
import json

from layerlight_tools.errors import UserError
from layerlight_tools.history import stats
from layerlight_tools.history.names import seat_label

# seats, scores and winners: seat numbers and scores joined by ";" (seats order);
# players / winning_players: the same seats as labels ("P1 Ann" with --names);
# empty cells for null; detail: the mode's breakdown as compact JSON
CSV_COLUMNS = ("n", "date", "mode", "seats", "scores", "winners", "players", "winning_players", "tie_break",
               "rounds", "ms", "ended", "deck", "level", "detail")


def csv_row(rec, names):
    """A game as {column: text}."""
    played = rec.get("played") if isinstance(rec.get("played"), dict) else {}
    seats = rec.get("seats") if isinstance(rec.get("seats"), list) else []
    scores = rec.get("scores") if isinstance(rec.get("scores"), list) else []
    won = stats.winners(rec)
    detail = rec.get("detail")
    return {
        "n": rec["n"], "date": _cell(rec.get("date")), "mode": _cell(rec.get("mode")),
        "seats": ";".join(_cell(s) for s in seats), "scores": ";".join(_cell(v) for v in scores),
        "winners": ";".join(_cell(s) for s in won),
        "players": ";".join(seat_label(s, names) for s in seats),
        "winning_players": ";".join(seat_label(s, names) for s in won),
        "tie_break": _cell(rec.get("tie_break")), "rounds": _cell(rec.get("rounds")), "ms": _cell(rec.get("ms")),
        "ended": _cell(rec.get("ended")), "deck": _cell(played.get("deck")), "level": _cell(played.get("level")),
        "detail": "" if detail is None else json.dumps(detail, separators=(",", ":")),
    }


def write_csv(path, records, names):
    """One row a game, oldest first, under a header of CSV_COLUMNS."""
    with _open(path, "--csv") as f:
        w = csv.DictWriter(f, fieldnames=CSV_COLUMNS, lineterminator="\n")
        w.writeheader()
        for rec in records:
            w.writerow(csv_row(rec, names))


def json_text(records):
    """A JSON array of the records, one a line, oldest first: nothing added, nothing left out."""
    if not records:
        return "[]\n"
    return "[\n" + ",\n".join(json.dumps(rec) for rec in records) + "\n]\n"


def write_json(path, records):
    with _open(path, "--json") as f:
        f.write(json_text(records))


def _cell(x):
    return "" if x is None else str(x)


def _open(path, option):
    try:
        return open(path, "w", newline="", encoding="utf-8")
    except OSError as e:
        raise UserError("%s %s: cannot write it (%s)" % (option, path, e.strerror or e))
