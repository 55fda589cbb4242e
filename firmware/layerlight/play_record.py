# A finished game as a play log record (layerlight/playlog.py keeps them).
#
# Built while the mode is still loaded (it asks the mode), and kept apart
# from the log's file code: the device builds the record, lets the mode go,
# and only then loads playlog to write it, so no mode's peak heap carries
# the log's code.


def record_of(dev, ended):
    """The device's running game as a record (numbered when it started): what the trace
    knows of it (the mode's state(), or only the part of it a record keeps: result_state())
    and the mode's own breakdown (result_detail())."""
    game = dev.game
    ms = dev.played_ms() if dev.ended_ms is None else dev.ended_ms
    brief = getattr(game, "result_state", None)
    # A score keeper's state() lists every action for the trace (CO.OP: a dict per loop): 6 ms
    # on the chip at a game's end, spent before its final is saved and drawn.
    s = game.state() if brief is None else brief()
    seats = s["seats"]
    scores = s["scores"]
    winners = s.get("winners")
    if not winners:  # solo, or a mode that names no winners: the highest score
        best = max(scores) if scores else 0
        winners = [seats[i] for i in range(len(seats)) if scores[i] == best]
    detail = getattr(game, "result_detail", None)
    rounds = getattr(game, "rounds_played", None)
    deck = getattr(game.ctx, "deck", None)
    mission = s.get("mission")
    return {
        "mode": dev.game_name, "seats": seats, "scores": scores, "winners": winners,
        "tie_break": s.get("tie_break"),
        "detail": detail() if detail is not None else None,
        "played": {"deck": None if deck is None else "%08x" % (deck.crc & 0xFFFFFFFF),
                   "level": None if mission is None else mission.get("level")},
        "rounds": rounds() if rounds is not None else (s.get("round") or 0),
        "ms": ms, "ended": ended, "date": dev.hw.date(), "n": dev.game_n,
    }
