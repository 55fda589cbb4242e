# Game modes. Each is a module with a `Mode` class speaking one protocol:
#
#   Mode(ctx, seats=None, first_player=None)
#       ctx: the Context (deck, rng, settings, sound); seats: seat indices
#       already in play (skip joining), first_player: a seat (skip the draw).
#   handle(ev, now)    one button event (layerlight.buttons)
#   tick(now)          time passes (game time in ms: it stands still in the pause menu)
#   draw(fb, now)      the current screen into the frame buffer
#   state()            a dict of the trace keys (see the simulator spec)
#   done               True when the mode is over and the menu should come back
#
# Adding a mode: one new module, one line here.

REGISTRY = (
    ("layers", "Layers"),
)


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

    def __init__(self, cfg, deck, rng, sound, log=print):
        self.cfg = cfg
        self.deck = deck
        self.rng = rng
        self.sound = sound
        self.log = log
