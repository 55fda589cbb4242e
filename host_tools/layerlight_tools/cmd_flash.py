"""`layerlight flash`: put the firmware, a board profile and the decks on a board."""


def cmd_flash(args):
    from layerlight_tools import flash
    if args.uf2 is not None:
        from layerlight_tools import uf2
        uf2.copy_to_bootsel(args.uf2)
        return 0
    from layerlight_tools.cmd_sim import read_config
    settings = read_config(args.config) if args.config is not None else None
    flash.flash(port=args.port, board_name=args.board, deck=args.deck, firmware_dir=args.firmware,
                reset=not args.no_reset, settings=settings)
    return 0


def register(sub):
    from layerlight import boards
    from layerlight_tools.uf2 import DEFAULT_UF2
    f = sub.add_parser("flash", help="compile the firmware and copy it (only what changed) onto a board",
                       description="Compiles the firmware to .mpy with the mpy-cross that matches the board's "
                                   "MicroPython, copies only the files that changed (hashes compared on the "
                                   "board), installs the board profile's settings and the decks, and restarts "
                                   "the board. A flash cut off halfway leaves the old firmware running. On a "
                                   "board running the Layerlight UF2 (the firmware frozen in) only the table's "
                                   "own files go over: the settings and a --deck.")
    f.add_argument("--uf2", nargs="?", const=DEFAULT_UF2, metavar="FILE",
                   help="copy the Layerlight UF2 (default: build/layerlight-pico.uf2, made by `make uf2`) onto a "
                        "Pico in BOOTSEL mode (its RPI-RP2 drive), instead of flashing over the serial port")
    f.add_argument("--port", help="serial port of the board (default: found by its USB id)")
    f.add_argument("--board", choices=sorted(p for p in boards.PROFILES if boards.PROFILES[p]["platform"] == "micropython"),
                   help="board profile for the settings (default: told by the board's chip)")
    f.add_argument("--deck", help="a .deck file to install and use (default: the decks in firmware/decks)")
    f.add_argument("--firmware", help="firmware tree to flash (default: this repository's firmware/)")
    f.add_argument("--config", metavar="FILE",
                   help="settings to set on the board, as a layerlight.json (the board's other settings are kept)")
    f.add_argument("--no-reset", action="store_true", help="leave the board in its REPL afterwards")
    f.set_defaults(func=cmd_flash)
