# Starting a mode: the deck it plays from, its context, a saved game resumed.
#
# Needed only at the moment a game starts (and at boot, to check that a saved
# game's deck is still there): app.Device loads this module then and lets it
# go once the mode runs, so a game's peak heap does not carry its bytecode
# (tests/bench/bench_memory.py).

from layerlight import modes
from layerlight.runtime import print_exception
from layerlight.screens import ERR_DECK, ERR_MODE, ERR_NO_GAME


def open_deck(dev, kind, report):
    """The deck of a kind ("layers", "otlo") for the mode about to run; None
    (and, if `report`, the error on the matrix) when it cannot be used."""
    deck = dev.decks.get(kind)
    if deck is not None:
        return deck
    from layerlight.deckfile import DeckError
    try:
        if kind == "layers":
            if dev.deck_path is None:
                return None  # its error was shown at boot
            from layerlight.deck import Deck
            deck = Deck(dev.hw.storage, dev.deck_path)
        else:
            from layerlight.otlo_deck import OtloDeck
            deck = OtloDeck(dev.hw.storage, dev.cfg["otlo_deck"])
    except (DeckError, ImportError) as e:
        if report:
            dev.fail(ERR_DECK, str(e))
        return None
    dev.decks[kind] = deck
    return deck


def start(dev, name, seats, first_player, saved):
    """Start a mode on the device (or resume a saved game: saved = what
    Device.save_game wrote): the running mode, or None (the error on the matrix)."""
    kind = modes.deck_kind(name)
    deck = None
    if kind is not None:
        # the Layers deck's own error was shown at boot; another kind's is shown now
        deck = open_deck(dev, kind, kind != "layers")
        if deck is None:
            if kind == "layers":
                dev.fail(ERR_NO_GAME, "no usable deck: cannot start " + name)
            return None
    if kind == "layers" and saved is None and not deals(dev, name, deck):
        return None
    ctx = modes.Context(dev.cfg, deck, dev.rng, dev.sound, dev.log, dev.bests, dev.storage)
    try:
        if saved is not None:
            dev.rng.state = saved["rng"]
            game = modes.mode_class(name)(ctx, None, None, saved["snap"])
        else:
            game = modes.mode_class(name)(ctx, seats, first_player)
        game.set_screen(dev.fb)
    except Exception as e:
        print_exception(e, dev.log)
        dev.fail(ERR_MODE, "%s could not start: %s" % (name, e))
        return None
    dev.game = game
    dev.game_name = name
    dev.where = "game"
    dev.paused_total = 0
    dev.played_from = dev.game_time() - (saved.get("ms", 0) if saved is not None else 0)
    # its number in the play log, known from the start: the record is written once
    # even if the game is offered again after a power cut (playlog.PlayLog.append)
    dev.game_n = saved.get("n", 0) if saved is not None else 0
    if not dev.game_n:
        dev.game_n = dev.plays_last + 1
    if saved is not None:
        game.resumed(dev.game_time())
        dev.log("resumed %s" % name)
    elif name in modes.GAMES:
        dev.save_game()
    return game


def deals(dev, name, deck):
    """True when the deck has missions of a level the mode deals (Layers: 3-5). Else the error
    on the matrix and the levels on the console, before anyone joins: a table that built a small
    deck (only level 2, say) is told at once, not dropped to the menu after the round tile."""
    levels = modes.mode_class(name).levels
    for level in levels:
        if deck.level_count(level) > 0:
            return True
    has = []
    for level in range(1, 6):
        if deck.level_count(level) > 0:
            has.append(str(level))
    dev.fail(ERR_NO_GAME, "%s deals levels %d-%d; the deck has no missions of them (its levels: %s)" % (
        name, levels[0], levels[-1], ", ".join(has) if has else "none"))
    return False
