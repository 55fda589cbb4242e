"""`layerlight history`: the games the device logged, their figures per mode, and exports."""

import sys


def cmd_history(args):
    from layerlight_tools.errors import UserError
    from layerlight_tools.history import export, names, report, source
    if args.flash is not None and args.port is not None:
        raise UserError("give --port (a board) or --flash DIR (a folder), not both")
    seat_names = names.parse_names(args.names)  # before the board: a typo costs no connection
    if args.flash is not None:
        log = source.read_folder(args.flash)
    else:
        log = source.read_board(args.port)
    if log.damaged:
        print("read %d games, skipped %d damaged lines" % (len(log.records), log.damaged), file=sys.stderr)
    sys.stdout.write(report.report(log.records, seat_names, log.on_result))
    if args.csv:
        export.write_csv(args.csv, log.records, seat_names)
    if args.json:
        export.write_json(args.json, log.records)
    if args.plot:
        try:
            from layerlight_tools.history import plot  # matplotlib: loaded only for a plot
        except ImportError as e:
            raise UserError("--plot needs matplotlib (%s): run `make setup`" % e)
        plot.write_plot(args.plot, log.records, seat_names)
    return 0


def register(sub):
    h = sub.add_parser("history", help="the games the device logged: a table, wins per seat, exports",
                       description="Reads the device's play log (the last 500 games: plays.old and plays.log "
                                   "on its flash) from a board over USB, or from a simulator's --flash "
                                   "folder, with a game still on its result screen (saved with it, logged "
                                   "once it is left), and prints the games, newest first, then per mode the plays, "
                                   "wins per seat position, winning scores, margins and lengths. Reading "
                                   "from a board also sets its clock from the PC's.")
    h.add_argument("--port", help="serial port of the board (default: found by its USB id)")
    h.add_argument("--flash", metavar="DIR",
                   help="read the log from a folder standing for the device's flash (`layerlight sim "
                        "--flash DIR`) instead of a board")
    h.add_argument("--names", metavar='"P1=Ann,P2=Ben,..."', help="names for the seat positions, used "
                   "everywhere (table, CSV, plot)")
    h.add_argument("--csv", metavar="FILE", help="write the games as CSV, one row a game")
    h.add_argument("--json", metavar="FILE", help="write the records as the device keeps them, a JSON array")
    h.add_argument("--plot", metavar="FILE.png", help="draw each mode's scores over the games and its wins "
                   "per seat into a PNG")
    h.set_defaults(func=cmd_history)
