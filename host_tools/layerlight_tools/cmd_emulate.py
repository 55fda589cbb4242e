"""`layerlight emulate`: the firmware on an emulated Pico (rp2040js), played from a script or the keyboard.

With a stock MicroPython UF2 the firmware is flashed with `layerlight flash` over a pty;
with the Layerlight UF2 (`make uf2`) the Pico boots it as a person's Pico does after the
UF2 is dragged on, with nothing copied (--config, --deck or --size other than 16x16 are
the table's own files: those `layerlight flash` copies, and only those)."""

import os
import sys
import tempfile

from layerlight_tools.errors import UserError


def cmd_emulate(args):
    from layerlight_tools import simcore
    from layerlight_tools.cmd_sim import check_deck, check_game, parse_size, read_config, read_script
    from layerlight_tools.flash import Progress
    from layerlight_tools.pico import emulator, session, target, wire

    width, height = parse_size(args.size)
    check_game(args)
    uf2, bootrom = target.chosen_files(args.uf2, args.bootrom)
    emulator.check_uf2(uf2)
    emulator.check_bootrom(bootrom)
    emulator.node_ready()
    if args.deck is not None:
        check_deck(args.deck)
    from layerlight_tools import uf2 as uf2_tool
    with open(uf2, "rb") as f:
        frozen = uf2_tool.is_layerlight(f.read())
    settings = read_config(args.config) if args.config is not None else {}
    table_files = not frozen or args.config is not None or args.deck is not None or (width, height) != (16, 16)
    settings["width"], settings["height"] = width, height
    timeline = None
    if args.headless:
        try:
            timeline = session.Timeline().read(read_script(args))
        except simcore.ScriptError as e:
            raise UserError(str(e))
    elif not sys.stdin.isatty():
        raise UserError("the interactive view needs a terminal (use --headless --script for scripts)")

    err = sys.stderr
    console = lambda line: print("  | " + line, file=err)
    with tempfile.TemporaryDirectory(prefix="layerlight-pico-") as scratch:
        image = target.image_in(args.flash or scratch)
        print("powering on the emulated Pico (%s)%s" % (
            os.path.basename(uf2), ", flash kept in " + image if args.flash else ""), file=err)
        pico = target.power_on(uf2, bootrom, image)
        try:
            if table_files:
                target.flash(pico, settings, args.deck, Progress(err, tty=False))
            else:
                print("the Layerlight UF2: nothing copied, the Pico starts it as it would after the drag", file=err)
            game = session.Session(pico, bounce=not args.no_bounce, console=console)
            game.begin(args.seed, args.game, args.players or 0)
            cfg = wire.device_config(settings)
            if timeline is not None:
                play_script(game, timeline, cfg, args)
            else:
                from layerlight_tools.pico import term_view
                term_view.run(game, cfg)
        finally:
            pico.close(keep=bool(args.flash))
    return 0


def play_script(game, timeline, cfg, args):
    from layerlight_tools import simcore
    from layerlight_tools.pico import session
    out = sys.stdout
    last = []

    def on_line(report, frame, _no):
        line = simcore.dumps(session.trace_state(report, frame, cfg, args.frames))
        if args.trace:
            out.write(line + "\n")
            out.flush()
        else:
            last[:] = [line]
    game.play(timeline, on_line)
    if not args.trace:
        out.write((last[0] if last else "{}") + "\n")


def register(sub):
    from layerlight import modes
    e = sub.add_parser("emulate", help="run the firmware on an emulated Pico (rp2040js), flashed as a real board",
                       description="Boots an emulated Raspberry Pi Pico (the npm package rp2040js) with a "
                       "MicroPython UF2, flashes this firmware onto it with `layerlight flash` over a "
                       "pseudo-terminal, and plays it: from the keyboard, or --headless from a script in "
                       "the simulator's language (`wait N` is N ms of the Pico's time). Buttons are its GPIO "
                       "inputs (with contact bounce), the matrix is decoded from its WS2812 data pin. "
                       "Modes for --game: %s." % ", ".join(modes.GAMES))
    e.add_argument("--uf2", metavar="FILE",
                   help="MicroPython UF2 for the Pico (default: $LAYERLIGHT_UF2): the Layerlight UF2 "
                   "(build/layerlight-pico.uf2 from `make uf2`, booted with nothing copied) or a stock one "
                   "from https://micropython.org/download/RPI_PICO/ (the firmware flashed onto it)")
    e.add_argument("--bootrom", metavar="FILE",
                   help="RP2040 boot ROM, 16 KB (default: $LAYERLIGHT_BOOTROM; from raspberrypi/pico-bootrom "
                   "or the rp2040js repository)")
    e.add_argument("--flash", metavar="DIR",
                   help="keep the Pico's flash in DIR/flash.bin across runs (default: a blank flash each run)")
    e.add_argument("--headless", action="store_true", help="no terminal view: run --script and print state as JSON")
    e.add_argument("--script", help="script file for --headless ('-' = standard input)")
    e.add_argument("--game", metavar="GAME", help="start this mode with seats P1..PN and P1 first")
    e.add_argument("--players", type=int, default=None, help="seats in play with --game (default 2)")
    e.add_argument("--seed", type=int, default=1, help="seed for every shuffle (default 1)")
    e.add_argument("--deck", help="a .deck file to flash and use instead of the default deck")
    e.add_argument("--config", metavar="FILE", help="settings to flash, as a layerlight.json")
    e.add_argument("--size", default="16x16", help="matrix size, e.g. 8x8, 16x16, 32x32")
    e.add_argument("--trace", action="store_true", help="print the state after every script line (on the emulated Pico: once an instant, after its last change)")
    e.add_argument("--frames", action="store_true",
                   help="include the matrix in each state, as the data pin carried it (after the brightness cap)")
    e.add_argument("--no-bounce", action="store_true", help="clean button edges (default: contacts bounce)")
    e.set_defaults(func=cmd_emulate)
