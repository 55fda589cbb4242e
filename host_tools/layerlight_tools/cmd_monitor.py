"""`layerlight monitor`: the board's console and its error log."""


def cmd_monitor(args):
    from layerlight_tools import monitor
    return monitor.monitor(port=args.port, restart=not args.attach, show_log=not args.attach,
                           seconds=args.seconds, log_only=args.log)


def register(sub):
    m = sub.add_parser("monitor", help="show the board's console and error log",
                       description="Prints the board's error log, restarts the firmware and shows its console "
                                   "until Ctrl-C.")
    m.add_argument("--port", help="serial port of the board (default: found by its USB id)")
    m.add_argument("--attach", action="store_true",
                   help="only show the console from now on, without stopping the running game")
    m.add_argument("--log", action="store_true", help="print the error log and stop")
    m.add_argument("--seconds", type=float, help="stop after this many seconds (default: run until Ctrl-C)")
    m.set_defaults(func=cmd_monitor)
