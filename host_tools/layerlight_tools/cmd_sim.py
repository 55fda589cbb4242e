"""`layerlight sim`: the device simulator, in the terminal, headless with a script, or in a web page."""

import os
import sys

from layerlight_tools import firmware_files
from layerlight_tools.errors import UserError


def parse_size(text):
    try:
        w, h = text.lower().split("x")
        w, h = int(w), int(h)
    except ValueError:
        raise UserError("--size must look like 16x16, not %r" % text)
    if not (8 <= w <= 64 and 8 <= h <= 64):
        raise UserError("--size must be between 8x8 and 64x64, not %r" % text)
    return w, h


def cmd_sim(args):
    from layerlight_tools import simcore

    width, height = parse_size(args.size)
    check_game(args)
    if args.deck is not None:
        check_deck(args.deck, width, height)
    config = read_config(args.config) if args.config is not None else None
    if args.web:
        return run_web(args, width, height, config)
    files = firmware_files.device_files(args.deck, config)
    storage = None
    if args.flash is not None:
        from layerlight_tools.sim_flash import FolderStorage
        storage = FolderStorage(files, args.flash)
    if not args.headless:
        from layerlight_tools import term
        return term.run(files, width, height, args.seed, args.game, args.players, storage)
    lines = read_script(args)
    console = lambda line: print(line, file=sys.stderr)
    dev = simcore.make_device(files, width, height, args.seed, args.game, args.players, console, storage)
    sim = simcore.Simulator(dev, frames=args.frames)
    out = sys.stdout
    try:
        sim.run(lines, lambda line: out.write(line + "\n"), trace=args.trace)
    except simcore.ScriptError as e:
        raise UserError(str(e))
    return 0


def check_game(args):
    """--game and --players make sense together (--players filled in when not given)."""
    from layerlight import modes
    if args.game is not None and args.game not in modes.GAMES:
        raise UserError("unknown --game %r (one of: %s)" % (args.game, ", ".join(modes.GAMES)))
    if args.players is not None and not 1 <= args.players <= 4:
        raise UserError("--players must be 1 to 4")
    if args.game is not None:
        fewest, most = modes.seat_range(args.game)
        if args.players is None:  # two seats, or what the game takes
            args.players = min(max(2, fewest), most)
        if not fewest <= args.players <= most:
            raise UserError("%s is played by %s" % (args.game, "1 player" if most == 1 else
                                                     "%d to %d players" % (fewest, most)))


def read_script(args):
    """The lines of --script FILE (- for standard input)."""
    if args.script is None:
        raise UserError("--headless needs --script FILE (or - for standard input)")
    if args.script == "-":
        return sys.stdin.read().split("\n")
    try:
        with open(args.script) as f:
            return f.read().split("\n")
    except OSError as e:
        raise UserError("--script: cannot read %s: %s" % (args.script, e.strerror))


def check_deck(path, width=None, height=None):
    """A --deck must be a good deck of either kind: else one line naming it (the device would
    report its own deck path, and play on with the shipped one); with the matrix's size, its
    missions must fit it."""
    from layerlight.deckfile import DeckError
    from layerlight_tools.cmd_cards import pattern_too_big
    from layerlight_tools.layers import cards
    from layerlight_tools.otlo import cards as otlo_cards
    if not os.path.isfile(path):
        raise UserError("--deck: no such file: %s" % path)
    try:
        deck = (otlo_cards.open_deck if otlo_cards.is_otlo_deck(path) else cards.open_deck)(path)
    except DeckError as e:
        raise UserError("--deck %s: not a deck layerlight can play (%s)" % (path, e))
    too_big = pattern_too_big(deck.size, width, height) if width is not None and deck.kind == "layers" else None
    if too_big:
        raise UserError("--deck %s: %s" % (path, too_big))


def read_config(path):
    """The settings of --config FILE (a layerlight.json): a JSON object, else one line naming FILE.
    Its values are checked by the device as on a real one (a bad value is a console line and
    the default is used)."""
    import json
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read().decode("utf-8"))
    except OSError as e:
        raise UserError("--config: cannot read %s: %s" % (path, e.strerror))
    except (UnicodeDecodeError, ValueError) as e:
        raise UserError("--config %s: not JSON (%s)" % (path, e))
    if not isinstance(data, dict):
        raise UserError("--config %s: must be a JSON object of settings, like {\"timer_s\": 45}" % path)
    return data


def run_web(args, width, height, config=None):
    """`--web`: serve the page on localhost (the firmware runs in the browser's MicroPython)."""
    from layerlight_tools.web import server

    if args.headless:
        raise UserError("--web and --headless do not go together")
    if not 0 <= args.port <= 65535:
        raise UserError("--port must be 0 to 65535 (0 = any free port)")
    try:
        site = server.Site(width, height, args.seed, args.game, args.players if args.game else 0, args.deck,
                           config=config, flash_dir=args.flash)
    except server.SetupError as e:
        raise UserError(str(e))
    try:
        return server.serve(site, args.port, open_browser=not args.no_open)
    except OSError as e:
        raise UserError("cannot serve on 127.0.0.1:%d: %s" % (args.port, e.strerror or e))


def register(sub):
    from layerlight import modes
    s = sub.add_parser("sim", help="run the device simulator (terminal, --headless with a script, or --web)",
                       description="The device simulator: the real firmware with a virtual clock, buttons and "
                       "LED matrix, in the terminal, --headless with a script, or --web in a page. "
                       "Modes for --game: %s." % ", ".join(modes.GAMES))
    s.add_argument("--headless", action="store_true", help="no terminal UI: run --script and print state as JSON")
    s.add_argument("--script", help="script file for --headless ('-' = standard input)")
    s.add_argument("--game", metavar="GAME",
                   help="start this mode directly with seats P1..PN and P1 first: %s" % ", ".join(modes.GAMES))
    s.add_argument("--players", type=int, default=None,
                   help="seats in play with --game (default 2, or 1 for a solo game)")
    s.add_argument("--seed", type=int, default=1, help="seed for every shuffle (default 1)")
    s.add_argument("--deck", help="deck file to load instead of the default deck (a Layers or an OTLO deck)")
    s.add_argument("--config", metavar="FILE",
                   help="settings for the simulated device, as a layerlight.json (your own CO.OP cards, "
                   "Paper World tokens, timers...)")
    s.add_argument("--flash", metavar="DIR",
                   help="keep the device's files (saved game, bests, settings, play log) in DIR across runs, "
                        "as a board keeps its flash (read the games back with `layerlight history --flash DIR`)")
    s.add_argument("--size", default="16x16", help="matrix size, e.g. 8x8, 16x16, 32x32")
    s.add_argument("--trace", action="store_true", help="print the state after every script line")
    s.add_argument("--frames", action="store_true", help="include the LED matrix in each state")
    s.add_argument("--web", action="store_true", help="serve the simulator as a web page on localhost and open it")
    s.add_argument("--port", type=int, default=8765, help="port for --web (default 8765; 0 = any free port)")
    s.add_argument("--no-open", action="store_true", help="with --web: print the URL, do not open a browser")
    s.set_defaults(func=cmd_sim)
