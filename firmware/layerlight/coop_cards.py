# CO.OP's six colours and the box's player cards (docs/coop.md,
# its player cards): the one list of colour names, shared by the config check (at
# boot, config.cards_problem) and the CO.OP mode, which each load it when
# they run.

COLOURS = ("blue", "green", "yellow", "orange", "pink", "purple")

# the box's cards: white for 2 players, black for 3-4 (every two black cards share exactly one colour)
WHITE = (("blue", "yellow", "pink"), ("green", "orange", "purple"))
BLACK = (("blue", "green", "yellow"), ("blue", "orange", "pink"), ("green", "orange", "purple"),
         ("yellow", "pink", "purple"))
# config key -> (the box's cards, the fewest cards a table of them needs)
TABLES = {"coop_white": (WHITE, 2), "coop_black": (BLACK, 3)}


def default(key):
    """The box's cards for a config key, as the config holds them (lists)."""
    return [list(card) for card in TABLES[key][0]]
