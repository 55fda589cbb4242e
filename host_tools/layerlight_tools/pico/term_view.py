"""`layerlight emulate` without --headless: the emulated Pico's matrix in the terminal, keys for buttons.

The same view and keys as `layerlight sim` (term.py), but the buttons are
the Pico's GPIO pins and the picture is the last frame decoded from its data
pin (already capped: the colour model is asked for full brightness). The
emulator runs as fast as it can, so the Pico's clock runs slower than the wall
clock here; the status line says by how much.
"""

import os
import select
import sys
import termios
import time
import tty

from layerlight import buttons
from layerlight.display import FrameBuffer
from layerlight.strip_map import config_map
from layerlight_tools import term

RUN_MS = 20   # the Pico's time run between two looks at the keyboard


def run(game, cfg):
    pico = game.pico
    pins = game.pins
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    out = sys.stdout
    fb = FrameBuffer(cfg["width"], cfg["height"], config_map(cfg), 1.0, cfg["color_order"])
    logs = []
    game.console = logs.append
    releases = {}  # button -> the Pico's us to let it go
    held = 0
    start_wall, start_us = time.monotonic(), pico.us
    last_text = None
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?25l\x1b[2J")
        while True:
            while select.select([fd], [], [], 0)[0]:
                ch = os.read(fd, 1).decode(errors="ignore")
                if ch == "q":
                    return 0
                taps = []
                if ch in term.KEYS:
                    taps = [(term.KEYS[ch], term.TAP_MS)]
                elif ch == "m":
                    taps = [(buttons.A, buttons.COMBO_MS + 200), (buttons.B, buttons.COMBO_MS + 200)]
                elif ch in ("A", "B"):
                    b = buttons.button_index(ch)
                    held ^= 1 << b
                    pico.edge(pins[b], 0 if held & (1 << b) else 1)
                for b, ms in taps:
                    pico.edge(pins[b], 0)
                    releases[b] = pico.us + ms * 1000
            for b, at in list(releases.items()):
                if pico.us >= at and not held & (1 << b):
                    pico.edge(pins[b], 1)
                    del releases[b]
            pico.run_ms(RUN_MS)
            game.answers()  # the console's lines go to logs
            with pico.cond:
                frame = pico.frames[-1]["data"] if pico.frames else None
                del pico.frames[:-1]
            if frame is None:
                continue
            fb.buf[:] = frame[:len(fb.buf)].ljust(len(fb.buf), b"\0")
            wall = time.monotonic() - start_wall
            speed = (pico.us - start_us) / 1e6 / wall if wall > 0 else 0
            status = "emulated Pico  %.1f s of its time, %.2fx real time" % (pico.us / 1e6, speed)
            text = term.frame_lines(fb, 1.0) + [status] + list(term.HELP) + [(logs[-1] if logs else "")[:79]]
            if text != last_text:
                last_text = text
                out.write("\x1b[H" + "".join(line + "\x1b[K\r\n" for line in text))
                out.flush()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[0m\x1b[?25h\r\n")
        out.flush()

