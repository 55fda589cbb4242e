"""`layerlight monitor`: the board's error log, then its console as the firmware runs.

The error log is the file devicefs.ERROR_LOG on the board's flash, written by
the firmware when it catches an error; reading it needs the REPL, so the
running game is stopped, the log printed, and the firmware restarted (its boot
messages are then the first lines of the console). `--attach` only listens.
"""

import codecs
import sys

from layerlight_tools import devicefs
from layerlight_tools.errors import UserError


def monitor(port=None, restart=True, show_log=True, seconds=None, log_only=False, out=None):
    out = out or sys.stdout
    port = port or devicefs.find_port()
    if not restart and not log_only:
        board = devicefs.Board(port, enter=False)
        say(out, "--- console of %s (Ctrl-C to stop) ---" % port)
    else:
        board = devicefs.Board(port, soft_reset=False)
        if show_log or log_only:
            log = board.read_text("/" + devicefs.ERROR_LOG)
            if log is None:
                say(out, "--- no error log on the board (%s does not exist) ---" % devicefs.ERROR_LOG)
            else:
                say(out, "--- %s on the board ---" % devicefs.ERROR_LOG)
                say(out, log.rstrip("\n") if log.strip() else "(empty)")
        t = board.t
        try:
            t.exit_raw_repl()
            devicefs.read_for(t.serial, 5, stop=lambda got: got.endswith(b">>> "))
            t.serial.write(b"\x04")  # soft reset: the firmware starts again
        except OSError as e:
            board.close()
            raise UserError("%s: lost the board (%s)" % (port, e))
        if log_only:
            board.close()
            return 0
        say(out, "--- console of %s, firmware restarted (Ctrl-C to stop) ---" % port)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def show(data):
        out.write(devicefs.console_text(data, decoder))
        out.flush()

    try:
        devicefs.read_for(board.t.serial, seconds, on_data=show)
    except KeyboardInterrupt:
        pass
    except OSError as e:
        raise UserError("%s: lost the board (%s)" % (port, e))
    finally:
        board.close()
    return 0


def say(out, text):
    out.write(text + "\n")
    out.flush()
