"""The play log as text: the games newest first, then each mode's figures."""

from layerlight import playlog
from layerlight_tools.history import stats
from layerlight_tools.history.names import seat_label

NO_GAMES = "no games in the play log yet"
ON_RESULT = "final, still on its result screen"  # the ended cell of a game saved at its final, not logged yet


def length(ms):
    """A game's length as m:ss (minutes go past 59: 75:00), "-" when unknown."""
    if ms is None:
        return "-"
    s = int(ms) // 1000
    return "%d:%02d" % (s // 60, s % 60)


def number(x, average=False):
    """A score for the table: averages with one decimal, "-" when there is none."""
    if x is None:
        return "-"
    if average:
        return "%.1f" % x
    return "%d" % x if x == int(x) else "%g" % x


def _text(x):
    return "-" if x is None else str(x)


def game_row(rec, names, on_result=None):
    """The cells of one game's line: n, date, mode, seats, scores, winners, length, ended
    (ON_RESULT for the game numbered `on_result`)."""
    played = stats.seat_scores(rec)
    return [
        str(rec["n"]), _text(rec.get("date")), stats.mode_of(rec),
        ", ".join(seat_label(s, names) for s, _ in played) or "-",
        " ".join(number(v) for _, v in played) or "-",
        ", ".join(seat_label(s, names) for s in stats.winners(rec)) or "-",
        length(stats.length_ms(rec)), ON_RESULT if rec["n"] == on_result else _text(rec.get("ended")),
    ]


def games_table(records, names, on_result=None):
    """The games, newest first, as lines (the game numbered `on_result` marked as on its result)."""
    header = ["n", "date", "mode", "seats", "scores", "winners", "length", "ended"]
    rows = [game_row(rec, names, on_result) for rec in reversed(records)]
    return columns(header, rows, right={0, 6})


def modes_table(per_mode, names):
    """Each mode's figures, as lines."""
    header = (["mode", "plays"] + ["wins " + seat_label(s, names) for s in stats.SEATS] +
              ["avg win", "best win", "avg margin", "avg length"])
    rows = []
    for m in per_mode:
        rows.append([m.mode, str(m.plays)] + [str(m.wins[s]) for s in stats.SEATS] +
                    [number(m.avg_winning_score, True), number(m.best_winning_score),
                     number(m.avg_margin, True), length(m.avg_ms)])
    return columns(header, rows, right=set(range(1, len(header))))


def report(records, names, on_result=None):
    """The whole text `layerlight history` prints; `on_result`: the number of the game still
    on its result screen (source.PlayHistory.on_result), or None."""
    if not records:
        return NO_GAMES + "\n"
    lines = ["%d %s, newest first (the device keeps the last %d):" % (
        len(records), "game" if len(records) == 1 else "games", playlog.KEEP)]
    lines += games_table(records, names, on_result)
    lines += ["", "per mode (wins per seat position, a tie counts for each winner; margin: winner minus "
                  "runner-up):"]
    lines += modes_table(stats.per_mode(records), names)
    return "\n".join(lines) + "\n"


def columns(header, rows, right=()):
    """Lines of a table: the cells padded to their column's width, `right` columns right-aligned."""
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return [line(header)] + [line(r) for r in rows]
