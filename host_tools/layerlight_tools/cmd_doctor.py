"""`layerlight doctor`: a hardware self-test run on the board."""


def cmd_doctor(args):
    from layerlight_tools import doctor
    return doctor.main(args)


def register(sub):
    d = sub.add_parser("doctor", help="hardware self-test: LEDs, buttons, buzzer, memory; names the config fixes",
                       description="Runs a self-test on the board: lights rows, columns and the three colours "
                                   "and asks what you see, asks for each button in turn, beeps, reports free "
                                   "heap and flash, and names the settings that fix what it finds.")
    d.add_argument("--port", help="serial port of the board (default: found by its USB id)")
    d.add_argument("--apply", action="store_true", help="write the fixes into the board's layerlight.json")
    d.add_argument("--button-timeout", type=float, default=15.0, metavar="S",
                   help="seconds to wait for each button (default 15)")
    d.set_defaults(func=cmd_doctor)
