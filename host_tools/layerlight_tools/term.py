"""The interactive simulator in a terminal: the LED matrix in true colour, keys for buttons.

Two LEDs per character cell (upper half block with foreground = top pixel,
background = bottom pixel). A terminal reports key presses, not key releases,
so a tap is a short press and holds have their own keys.
"""

import os
import select
import sys
import termios
import time
import tty

from layerlight import buttons
from layerlight_tools import simcore

TAP_MS = 80
KEYS = {"1": buttons.P1, "2": buttons.P2, "3": buttons.P3, "4": buttons.P4,
        "a": buttons.A, " ": buttons.A, "\r": buttons.A, "\n": buttons.A, "b": buttons.B}
HELP = ("keys: 1-4 players  a/space A  b B  |  A (shift) hold A: pause menu  "
        "B (shift) hold/let go B: solution  m hold A+B: main menu  |  q quit")


def frame_text(fb, brightness=1.0):
    """The frame buffer as terminal text: half blocks in 24-bit colour."""
    out = []
    for y in range(0, fb.height, 2):
        row = []
        for x in range(fb.width):
            top = fb.get(x, y)
            bottom = fb.get(x, y + 1) if y + 1 < fb.height else 0
            row.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm\u2580" % (
                top >> 16, (top >> 8) & 255, top & 255, bottom >> 16, (bottom >> 8) & 255, bottom & 255))
        out.append("".join(row) + "\x1b[0m")
    return out


def run(files, width, height, seed, game, players):
    if not sys.stdin.isatty():
        print("layerlight sim: the interactive simulator needs a terminal (use --headless --script for scripts)", file=sys.stderr)
        return 2
    logs = []
    dev = simcore.make_device(files, width, height, seed, game, players, logs.append)
    hw = dev.hw
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
                text = frame_text(hw.frame)
                if text != last_frame:
                    last_frame = text
                    s = dev.state()
                    status = "%s  phase: %s  round: %s  scores: %s  timer: %s" % (
                        s["game"], s["phase"], s["round"], s["scores"],
                        "-" if s["timer_ms"] is None else "%.1fs" % (s["timer_ms"] / 1000))
                    out.write("\x1b[H" + "\r\n".join(text) + "\r\n\x1b[K" + status + "\r\n\x1b[K" + HELP +
                              "\r\n\x1b[K" + (logs[-1] if logs else "") + "\r\n")
                    out.flush()
            time.sleep(0.005)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[0m\x1b[?25h\r\n")
        out.flush()
