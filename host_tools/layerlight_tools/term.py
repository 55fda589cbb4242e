"""The interactive simulator in a terminal: the LED matrix as the eye sees it, keys for buttons.

Each LED is a round cell two characters wide ("● "), one terminal row an LED,
so a 16x16 matrix is a square of 32 columns by 16 rows; a matrix wider than
24 LEDs (32x32) uses half blocks instead, two LEDs a character, to fit. The
seats' names sit on their sides in their colours (P1 bottom, P2 left, P3 top,
P4 right), as at the table. Colours go through the one colour model
(led_colour): an LED's light at the device's brightness, not its value as a
screen colour. At 16x16 the whole view fits an 80x24 terminal.

A terminal reports key presses, not key releases, so a tap is a short press
and holds have their own keys.
"""

import os
import re
import select
import sys
import termios
import time
import tty

from layerlight import buttons, screens
from layerlight_tools import led_colour, simcore

TAP_MS = 80
KEYS = {"1": buttons.P1, "2": buttons.P2, "3": buttons.P3, "4": buttons.P4,
        "a": buttons.A, " ": buttons.A, "\r": buttons.A, "\n": buttons.A, "b": buttons.B}
HELP = ("keys: 1-4 the players' buttons   a (or space) A   b B   q quit",
        "shift-A/B hold or let go A/B (A held: pause; B held: solution)   m A+B: menu")
OFF = (32, 32, 36)        # an unlit LED: a dark dot, as on the board
ROUND_MAX = 24            # wider matrices are drawn with half blocks
RESET = "\x1b[0m"
ESC = re.compile("\x1b\\[[0-9;]*m")


def fg(rgb):
    return "\x1b[38;2;%d;%d;%dm" % rgb


def bg(rgb):
    return "\x1b[48;2;%d;%d;%dm" % rgb


def led_rgb(value, table):
    """A frame value as the screen colour the eye would see on the LED (OFF when unlit)."""
    if not value:
        return OFF
    return (table[value >> 16], table[(value >> 8) & 0xFF], table[value & 0xFF])


def seat_label(seat):
    return fg(led_rgb(screens.SEAT_COLOURS[seat], led_colour.screen_table(1.0))) + "P%d" % (seat + 1) + RESET


def frame_lines(fb, cap=led_colour.DEFAULT_CAP):
    """The frame with the seats around it, as terminal lines (24-bit colour escapes)."""
    table = led_colour.screen_table(cap)
    w, h = fb.width, fb.height
    rows = []
    if w <= ROUND_MAX:
        for y in range(h):
            rows.append("".join(fg(led_rgb(fb.get(x, y), table)) + "\u25cf " for x in range(w)) + RESET)
        cols = 2 * w
    else:
        for y in range(0, h, 2):
            rows.append("".join(fg(led_rgb(fb.get(x, y), table)) + bg(led_rgb(fb.get(x, y + 1), table)
                                                                      if y + 1 < h else (0, 0, 0)) + "\u2580"
                                for x in range(w)) + RESET)
        cols = w
    margin = "   "
    middle = len(rows) // 2
    out = [margin + " " * ((cols - 2) // 2) + seat_label(2)]
    for k, row in enumerate(rows):
        out.append((seat_label(1) + " " if k == middle else margin) + row + (" " + seat_label(3) if k == middle else ""))
    out.append(margin + " " * ((cols - 2) // 2) + seat_label(0))
    return out


def visible_width(line):
    """The columns a line takes on a terminal (escapes take none)."""
    return len(ESC.sub("", line))


def screen_text(fb, state, cap, log_line=""):
    """The whole view: the matrix and its seats, a status line, the keys, the console's last line."""
    status = "%s  phase: %s  round: %s  scores: %s  timer: %s" % (
        state["game"], state["phase"], state["round"], state["scores"],
        "-" if state["timer_ms"] is None else "%.1fs" % (state["timer_ms"] / 1000))
    return frame_lines(fb, cap) + [status[:79]] + list(HELP) + [log_line[:79]]


def run(files, width, height, seed, game, players, storage=None):
    if not sys.stdin.isatty():
        print("layerlight sim: the interactive simulator needs a terminal (use --headless --script for scripts)", file=sys.stderr)
        return 2
    logs = []
    dev = simcore.make_device(files, width, height, seed, game, players, logs.append, storage)
    hw = dev.hw
    hw.date_from_pc = True  # a person playing: the games go into the play log with today's date
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    out = sys.stdout
    start = time.monotonic()
    releases = {}   # button -> time (ms) to let it go
    toggled = 0
    last_frame = None
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?25l\x1b[2J")
        while True:
            now = int((time.monotonic() - start) * 1000)
            while select.select([fd], [], [], 0)[0]:
                ch = os.read(fd, 1).decode(errors="ignore")
                if ch == "q":
                    return 0
                if ch in KEYS:
                    b = KEYS[ch]
                    hw.pressed |= 1 << b
                    releases[b] = now + TAP_MS
                elif ch in ("A", "B"):
                    b = buttons.button_index(ch)
                    toggled ^= 1 << b
                    hw.pressed = (hw.pressed & ~(1 << b)) | (toggled & (1 << b))
                elif ch == "m":
                    hw.pressed |= (1 << buttons.A) | (1 << buttons.B)
                    releases[buttons.A] = releases[buttons.B] = now + buttons.COMBO_MS + 200
            for b, at in list(releases.items()):
                if now >= at and not toggled & (1 << b):
                    hw.pressed &= ~(1 << b)
                    del releases[b]
            hw.clock = now
            dev.step(now)
            if hw.frame is not None:
                text = screen_text(hw.frame, dev.state(), hw.cap, logs[-1] if logs else "")
                if text != last_frame:
                    last_frame = text
                    out.write("\x1b[H" + "".join(line + "\x1b[K\r\n" for line in text))
                    out.flush()
            time.sleep(0.005)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[0m\x1b[?25h\r\n")
        out.flush()
