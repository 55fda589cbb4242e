# What the device does once, at power-on: read the config, open the hardware,
# load the saved settings and bests, check the mission deck, find a game that
# can be resumed. Kept out of app.py and let go when boot is over: loaded
# from .mpy files, bytecode is heap, and none of this runs again (a mode
# that needs a deck opens it itself, app.Device.open_deck).

from layerlight import modes, persist
from layerlight.runtime import forget_modules
from layerlight.screens import ERR_DECK, ERR_PIN, pattern_room


def load_config(storage, log=print):
    """The settings; the config modules are dropped again afterwards.

    Reading and checking the config is needed once, at boot: its bytecode
    (a few KB) would otherwise stay in the heap for the whole game.
    """
    from layerlight import config
    cfg = config.load(storage, log)
    forget_modules(("layerlight.config", "layerlight.boards", "layerlight.power", "layerlight.coop_cards"))
    return cfg


def boot(Device, hw=None, storage=None, seed=None):
    """Load the config, open the hardware and return a Device (app.Device, not yet running)."""
    if storage is None:
        from layerlight.storage import FileStorage
        storage = FileStorage("")
    cfg = load_config(storage)
    if hw is None:
        from layerlight.hardware import open_hardware
        hw = open_hardware(cfg)
    if seed is None:
        try:
            import os
            seed = int.from_bytes(os.urandom(4), "little")
        except (ImportError, AttributeError, NotImplementedError):
            seed = hw.ticks_ms()
    return Device(hw, cfg, seed)


def prepare(dev):
    """The Device's state from flash: settings, bests, the deck, a saved game."""
    # a pin the board cannot use: the box plays on the board's own pin, and says so
    for problem in dev.cfg.get("pin_problems", []) + getattr(dev.hw, "pin_problems", []):
        dev.fail(ERR_PIN, problem)
    saved = persist.load(dev.storage, persist.SETTINGS, dev._bad_file)
    if isinstance(saved, dict):
        from layerlight.modes.settings import apply
        apply(dev, saved)
    dev.bests = persist.load(dev.storage, persist.BESTS, dev._bad_file) or {}
    check_deck(dev, dev.cfg["deck"])
    dev.saved = saved_game(dev)
    from layerlight.playlog import PlayLog  # the next game's number (its head and tail are read)
    dev.plays_last = PlayLog(dev.storage, dev.log).last_number()
    # What boot needed once (this module, the settings menu's keys, the deck
    # readers, the strip map the hardware layer made its table with) is let
    # go: each mode loads what it uses when it starts.
    dev.decks.clear()
    forget_modules(("layerlight.modes.settings", "layerlight.deck", "layerlight.geometry",
                    "layerlight.deckfile", "layerlight.otlo_deck", "layerlight.strip_map",
                    "layerlight.launch", "layerlight.playlog", "layerlight.startup"))


def check_deck(dev, path):
    """Check a Layers deck and use it from now on; on failure keep the one we
    had and show the error (once: the modes that need no deck still run)."""
    from layerlight.deck import Deck
    from layerlight.deckfile import DeckError
    try:
        deck = Deck(dev.hw.storage, path)
    except DeckError as e:
        dev.fail(ERR_DECK, str(e))
        return False
    w, h = dev.cfg["width"], dev.cfg["height"]
    if deck.size > pattern_room(w, h):  # it would be drawn past the matrix's edge
        dev.fail(ERR_DECK, "%s: size %d: a %dx%d pattern is too big for the %dx%d matrix"
                 % (path, deck.size, deck.size, deck.size, w, h))
        return False
    dev.deck_path = path
    dev.deck_crc = deck.crc
    dev.decks["layers"] = deck
    dev.log("deck: %s, %d missions" % (path, deck.count))
    return True


def saved_game(dev):
    """The game saved on flash, if it can be resumed with the decks there now."""
    try:
        saved = dev.saves.load(dev._bad_file)
    except Exception as e:  # whatever the flash holds, the device boots (and says so)
        dev._bad_file("the saved game could not be read: %s" % e)
        saved = None
    if not isinstance(saved, dict) or saved.get("game") not in modes.GAMES:
        return None
    kind = modes.deck_kind(saved["game"])
    if kind is not None:
        deck = dev.open_deck(kind, False)
        if deck is None or saved.get("deck") != deck.crc:
            dev.log("the saved game was played with another deck: not offered")
            return None
    return saved
