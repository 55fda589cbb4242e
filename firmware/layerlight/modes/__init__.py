# Game modes. Each is a module with a `Mode` class speaking one protocol:
#
#   Mode(ctx, seats=None, first_player=None, saved=None)
#       ctx: the Context (deck, rng, settings, sound, personal bests); seats:
#       seat indices already in play (skip joining), first_player: a seat
#       (skip the draw), saved: a snapshot() to resume from.
#   handle(ev, now)    one button event (layerlight.buttons)
#   tick(now)          time passes (game time in ms: it stands still in the pause menu)
#   draw(fb, now)      the current screen into the frame buffer
#   state()            a dict of the trace keys (see the simulator spec)
#   set_screen(fb)     the frame buffer it will draw into (layouts are made for it)
#   snapshot()         what to save so the game can resume after a power cut
#   resumed(now)       called once when a saved game runs again
#   done               True when the mode is over and the menu should come back
#   dirty              set when something worth saving changed (the device saves)
#   outbox             other files to save, [(name, object)] (bests, settings)
#
# Modes touch no files and no hardware: the device does the saving.
#
# Adding a mode: one new module, one line here.

REGISTRY = (
    ("layers", "LAYERS"),
    ("layers-plus", "LAYERS+"),
    ("time-attack", "TIME ATTACK"),
    ("time-attack-plus", "TIME ATTACK+"),
    ("settings", "SETTINGS"),
)
GAMES = ("layers", "layers-plus", "time-attack", "time-attack-plus")  # what --game can start


def names():
    return [name for name, _ in REGISTRY]


def label(name):
    for n, l in REGISTRY:
        if n == name:
            return l
    raise ValueError("unknown game: " + name)


def mode_class(name):
    """The Mode class of a game by its name (imported on first use, to save RAM)."""
    label(name)
    module = __import__("layerlight.modes." + name.replace("-", "_"), None, None, ["Mode"])
    return module.Mode


class Context:
    """What a mode gets from the device: settings, the open deck, randomness and sound."""

    def __init__(self, cfg, deck, rng, sound, log=print, bests=None):
        self.cfg = cfg
        self.deck = deck
        self.rng = rng
        self.sound = sound
        self.log = log
        self.bests = bests if bests is not None else {}
