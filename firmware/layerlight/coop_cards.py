# CO.OP's six colours and the box's player cards (games.md, "CO.OP score
# keeper"): the one list of colour names, shared by the config check (at
# boot) and the CO.OP mode. Kept tiny on purpose: it stays loaded.

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


def problem(cards, need):
    """What is wrong with a table of player cards, in a few words; None if nothing."""
    if not isinstance(cards, list):
        return "expected a list of cards, each a list of three colours"
    if len(cards) < need:
        return "%d card(s), at least %d needed" % (len(cards), need)
    for i in range(len(cards)):
        card = cards[i]
        if not isinstance(card, list) or len(card) != 3:
            return "card %d is not a list of three colours" % (i + 1)
        for c in card:
            if c not in COLOURS:
                return "card %d: unknown colour %r (one of %s)" % (i + 1, c, ", ".join(COLOURS))
        if card[0] == card[1] or card[0] == card[2] or card[1] == card[2]:
            return "card %d has a colour twice" % (i + 1)
    return None
