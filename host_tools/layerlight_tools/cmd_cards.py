"""`layerlight cards`: build and check mission decks."""

from layerlight_tools.errors import UserError


def cmd_cards_build(args):
    from layerlight_tools import cards, sets
    try:
        layer_set = sets.load(args.set)
    except sets.SetError as e:
        raise UserError(str(e))
    if args.per_level < 1:
        raise UserError("--per-level must be at least 1")
    missions = cards.build(layer_set, args.per_level, args.seed)
    size = cards.write(layer_set, missions, args.output)
    counts = {}
    for m in missions:
        counts[m.level] = counts.get(m.level, 0) + 1
    print("%s: %d missions (%s), %d bytes" % (args.output, len(missions),
          ", ".join("level %d: %d" % kv for kv in sorted(counts.items())), size))
    return 0


def cmd_cards_check(args):
    from layerlight import deck as deckfile
    from layerlight_tools import cards
    try:
        problems = cards.check(args.deck)
    except deckfile.DeckError as e:
        raise UserError(str(e))
    for p in problems:
        print("%s: %s" % (args.deck, p))
    if problems:
        return 1
    print("%s: every mission checked" % args.deck)
    return 0


def register(sub):
    c = sub.add_parser("cards", help="mission decks").add_subparsers(dest="cards_command", required=True)
    b = c.add_parser("build", help="build a deck from a layer-set file")
    b.add_argument("set", help="layer-set TOML file")
    b.add_argument("-o", "--output", required=True, help="deck file to write")
    b.add_argument("--per-level", type=int, default=60, help="missions per level (default 60)")
    b.add_argument("--seed", type=int, default=1, help="seed for the random search (default 1)")
    b.set_defaults(func=cmd_cards_build)
    k = c.add_parser("check", help="re-verify every mission of a deck from scratch")
    k.add_argument("deck")
    k.set_defaults(func=cmd_cards_check)
