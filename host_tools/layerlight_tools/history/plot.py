"""A picture of a season: per mode a row of two panels, each seat's score over the games
(x: the game's number, or its date when every game of the mode has one) and the wins per
seat position. Drawn off-screen by matplotlib's Agg backend: no display needed."""

import datetime

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.dates import AutoDateLocator, ConciseDateFormatter
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from layerlight.screens import SEAT_COLOURS
from layerlight_tools.errors import UserError
from layerlight_tools.history import stats
from layerlight_tools.history.names import seat_label

ROW_INCHES = (11.0, 3.2)  # one mode's row; the picture is as many rows high as modes played
DPI = 100
DOTS_UP_TO = 60           # games in a panel still drawn with a dot each


def game_date(rec):
    """The record's date as a datetime, or None (no date, or not one the device writes)."""
    try:
        return datetime.datetime.strptime(rec.get("date") or "", "%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return None


def seat_colour(seat):
    """The seat's LED colour, as the device shows it (for the plot's lines and bars)."""
    return "#%06x" % SEAT_COLOURS[seat - 1] if 1 <= seat <= len(SEAT_COLOURS) else "#808080"


def write_plot(path, records, names):
    """Draws the picture into path (PNG); returns the matplotlib Figure (for the tests to read)."""
    per_mode = stats.per_mode(records)
    fig = Figure(figsize=(ROW_INCHES[0], ROW_INCHES[1] * max(1, len(per_mode))), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    if per_mode:
        axes = fig.subplots(len(per_mode), 2, width_ratios=(3, 1), squeeze=False)
        for (scores_ax, wins_ax), m in zip(axes, per_mode):
            scores_panel(scores_ax, m, [r for r in records if stats.mode_of(r) == m.mode], names)
            wins_panel(wins_ax, m, names)
    else:
        fig.text(0.5, 0.5, "no games in the play log yet", ha="center", va="center", fontsize=16)
    try:
        fig.savefig(path, format="png")
    except OSError as e:
        raise UserError("--plot %s: cannot write it (%s)" % (path, e.strerror or e))
    return fig


def scores_panel(ax, m, games, names):
    """Each seat's score over one mode's games."""
    dates = [game_date(r) for r in games]
    by_date = all(d is not None for d in dates)
    xs = dates if by_date else [r["n"] for r in games]
    dots = len(games) <= DOTS_UP_TO  # dots while they can be told apart; hundreds make a thin line
    ys = []
    for seat in stats.SEATS:
        points = sorted((xs[i], v) for i, rec in enumerate(games) for s, v in stats.seat_scores(rec) if s == seat)
        if points:
            ys += [y for _, y in points]
            ax.plot([x for x, _ in points], [y for _, y in points], marker="o" if dots else "", markersize=4,
                    linewidth=1.5 if dots else 0.8, color=seat_colour(seat), label=seat_label(seat, names))
    ax.set_title("%s: scores (%d %s)" % (m.mode, m.plays, "game" if m.plays == 1 else "games"))
    if min(xs) == max(xs):  # one game (or one instant): a day or a game number either side
        pad = datetime.timedelta(days=1) if by_date else 1
        ax.set_xlim(xs[0] - pad, xs[0] + pad)
    if by_date:
        locator = AutoDateLocator()
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(ConciseDateFormatter(locator))
        ax.set_xlabel("date")
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("game number")
    ax.set_ylabel("score")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if ys and max(ys) - min(ys) < 2:  # scores all but equal: room for whole-number ticks
        ax.set_ylim(min(ys) - 1, max(ys) + 1)
    ax.grid(True, alpha=0.3)
    if ys:
        ax.legend(loc="best", fontsize="small")


def wins_panel(ax, m, names):
    """One mode's wins per seat position, a bar each in the seat's colour."""
    ax.bar([seat_label(s, names) for s in stats.SEATS], [m.wins[s] for s in stats.SEATS],
           color=[seat_colour(s) for s in stats.SEATS])
    ax.set_title("wins per seat")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(axis="x", labelsize="small")
