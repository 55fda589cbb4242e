"""The figures of a season, per mode: plays, wins per seat position, the winning score
(average and best), the margin over the runner-up and how long a game took.

A tie counts as a win for each winner (as HISTORY on the device counts them). The
margin is the winners' score minus the best score of the others (0 when a tie-break
decided between equal scores, or when everybody tied); a solo game has none."""

from layerlight import modes

SEATS = (1, 2, 3, 4)


def mode_of(rec):
    """The record's mode, "-" if it names none."""
    mode = rec.get("mode")
    return mode if isinstance(mode, str) else "-"


def seat_scores(rec):
    """[(seat, score)] of a record, in its seat order (entries that are not numbers left out:
    the log is the device's, but a PC tool must not fall over a record it does not expect)."""
    seats = rec.get("seats") if isinstance(rec.get("seats"), list) else []
    scores = rec.get("scores") if isinstance(rec.get("scores"), list) else []
    return [(s, v) for s, v in zip(seats, scores) if _number(s) and _number(v)]


def winners(rec):
    """The winners' seat numbers."""
    w = rec.get("winners")
    return [s for s in w if _number(s)] if isinstance(w, list) else []


def winning_score(rec):
    """The winners' best score, or None if the record names no winner who scored."""
    won = winners(rec)
    scores = [v for s, v in seat_scores(rec) if s in won]
    return max(scores) if scores else None


def margin(rec):
    """Winning score minus the runner-up's; None for a solo game (or no winning score)."""
    played = seat_scores(rec)
    top = winning_score(rec)
    if len(played) < 2 or top is None:
        return None
    won = winners(rec)
    others = [v for s, v in played if s not in won]
    return top - max(others) if others else 0


def length_ms(rec):
    ms = rec.get("ms")
    return ms if _number(ms) and ms >= 0 else None


class ModeStats:
    """One mode's figures over its games (None where no game gives one)."""

    def __init__(self, mode, records):
        self.mode = mode
        self.plays = len(records)
        self.wins = dict((seat, 0) for seat in SEATS)
        for rec in records:
            for seat in set(winners(rec)):
                if seat in self.wins:
                    self.wins[seat] += 1
        tops = [t for t in (winning_score(r) for r in records) if t is not None]
        self.avg_winning_score = _mean(tops)
        self.best_winning_score = max(tops) if tops else None
        self.avg_margin = _mean([m for m in (margin(r) for r in records) if m is not None])
        self.avg_ms = _mean([ms for ms in (length_ms(r) for r in records) if ms is not None])


def mode_order(records):
    """The modes played, in the device's menu order (a mode it does not know last, by name)."""
    played = set(mode_of(r) for r in records)
    known = [m for m in modes.GAMES if m in played]
    return known + sorted(played - set(known))


def per_mode(records):
    """[ModeStats] for each mode played, in menu order."""
    return [ModeStats(mode, [r for r in records if mode_of(r) == mode]) for mode in mode_order(records)]


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _mean(values):
    return sum(values) / len(values) if values else None
