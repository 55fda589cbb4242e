# Game modes. Each is a module with a `Mode` class speaking one protocol:
#
#   Mode(ctx, seats=None, first_player=None, saved=None)
#       ctx: the Context (deck, rng, settings, sound, personal bests); seats:
#       seat indices already in play (skip joining), first_player: a seat
#       (skip the draw), saved: a snapshot() to resume from.
#   handle(ev, now)    one button event (layerlight.buttons)
#   tick(now)          time passes (game time in ms: it stands still in the pause menu)
#   draw(fb, now)      the current screen into the frame buffer
#   state()            a dict of the trace keys (see docs/trace.md)
#   set_screen(fb)     the frame buffer it will draw into (layouts are made for it)
#   snapshot()         what to save so the game can resume after a power cut
#   GROWN (optional)   keys of the snapshot whose list only grows at its end or
#                      shrinks from it, an item never changed once in (a score
#                      keeper's log): a save writes only the new items (journal.py)
#   resumed(now)       called once when a saved game runs again
#   done               True when the mode is over and the menu should come back
#   dirty              set when something worth saving changed (the device saves)
#   outbox             other files to save, [(name, object)] (bests, settings)
#
# Modes touch no files and no hardware: the device does the saving.
#
# Adding a mode: one new module, one line here. A line is: the name (as the
# simulator's --game spells it), the menu label, the kind of deck the mode
# plays from ("layers", "otlo", or None for a mode that needs no deck: the
# device starts it even when no deck could be opened), and the seats it takes.

REGISTRY = (
    ("layers", "LAYERS", "layers", 2, 4),
    ("layers-plus", "LAYERS+", "layers", 2, 4),
    ("time-attack", "TIME ATTACK", "layers", 1, 1),
    ("time-attack-plus", "TIME ATTACK+", "layers", 1, 1),
    ("otlo", "OTLO", "otlo", 1, 4),
    ("coop", "CO.OP", None, 1, 4),
    ("paper-world", "PAPER WORLD", None, 2, 4),
    ("settings", "SETTINGS", None, 0, 0),
    ("history", "HISTORY", None, 0, 0),
)
# what --game can start, and what can be saved and resumed
GAMES = ("layers", "layers-plus", "time-attack", "time-attack-plus", "otlo", "coop", "paper-world")


def names():
    return [entry[0] for entry in REGISTRY]


def _entry(name):
    for entry in REGISTRY:
        if entry[0] == name:
            return entry
    raise ValueError("unknown game: " + name)


def label(name):
    return _entry(name)[1]


def deck_kind(name):
    """The kind of deck a mode plays from ("layers", "otlo"), or None if it needs none."""
    return _entry(name)[2]


def seat_range(name):
    """(fewest, most) seats the mode can be played with."""
    entry = _entry(name)
    return entry[3], entry[4]


def mode_class(name):
    """The Mode class of a game by its name (imported on first use, to save RAM)."""
    label(name)
    module = __import__("layerlight.modes." + name.replace("-", "_"), None, None, ["Mode"])
    return module.Mode


class Context:
    """What a mode gets from the device: settings, the open deck, randomness and sound."""

    def __init__(self, cfg, deck, rng, sound, log=print, bests=None, storage=None):
        self.cfg = cfg
        self.deck = deck
        self.rng = rng
        self.sound = sound
        self.log = log
        self.bests = bests if bests is not None else {}
        self.storage = storage  # the device's files (HISTORY reads the play log from them)
