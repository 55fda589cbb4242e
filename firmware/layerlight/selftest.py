# Hardware self-test, driven from the PC by `layerlight doctor` through the
# REPL; the game never imports it. Each call shows one thing on the matrix, or
# waits for one button, or beeps, and returns a small result: the PC asks the
# person what they see and turns the answers into config fixes.

import gc
import os

from layerlight import config
from layerlight.display import FrameBuffer
from layerlight.strip_map import pixel_map
from layerlight.hardware import open_hardware
from layerlight.storage import FileStorage

RED = 0xFF0000
GREEN = 0x00FF00
BLUE = 0x0000FF
WHITE = 0xFFFFFF
# Every LED at once is lit at half of full white: the brightness cap is made for
# frames of at most power.SCREEN_PEAK of full white (config.load), and a self-test
# frame brighter than the games' would overload the supply the cap was made for
# (16x16 full white at 0.25 is about 4.1 A on the 3 A supply). Half white is
# still white, and shows every channel of every LED.
ALL_LIT = 0x7F7F7F  # 127/255 of full white on every channel: within SCREEN_PEAK (0.5)
SEAT_COLOURS = (RED, BLUE, GREEN, 0xFFFF00, WHITE, WHITE)  # P1..P4, A, B
WIRING = ("layout", "origin", "rotation", "flip_x", "flip_y", "color_order")
SHOWN = ("board", "width", "height", "brightness", "sound", "matrix_pin", "buttons", "buzzer_pin",
         "panels") + WIRING


class SelfTest:
    """The board's hardware, opened with its settings (config errors raise ValueError naming the key)."""

    def __init__(self):
        self.log = []
        self.cfg = config.load(FileStorage(""), self.log.append)
        self.log.extend(self.cfg["pin_problems"])
        self.hw = open_hardware(self.cfg)
        self.fb = self.hw.framebuffer()
        self.w = self.fb.width
        self.h = self.fb.height

    def info(self):
        """Settings, free heap and flash, and what the config loader complained about."""
        gc.collect()
        flash_free = flash_total = None
        try:
            st = os.statvfs("/")
            flash_free = st[0] * st[4]
            flash_total = st[1] * st[2]
        except (AttributeError, OSError):
            pass
        cfg = {}
        for k in SHOWN:
            cfg[k] = self.cfg[k]
        return {"heap_free": gc.mem_free(), "heap_used": gc.mem_alloc(), "flash_free": flash_free,
                "flash_total": flash_total, "config": cfg, "log": self.log}

    def remap(self, layout, origin, rotation, flip_x, flip_y, color_order, panels=None):
        """Draw with other wiring settings from now on (the PC tries its fixes with them)."""
        table = pixel_map(self.w, self.h, layout, origin, rotation, flip_x, flip_y, panels)
        self.fb = FrameBuffer(self.w, self.h, table, self.cfg["brightness"], color_order)

    def _show(self):
        self.hw.show(self.fb)

    def off(self):
        self.fb.clear()
        self._show()
        self.hw.tone(0)

    def fill(self, colour):
        self.fb.rect(0, 0, self.w, self.h, colour)
        self._show()

    def lines(self):
        """The top row green, the left column blue, the top-left pixel white."""
        fb = self.fb
        fb.clear()
        for x in range(self.w):
            fb.pixel(x, 0, GREEN)
        for y in range(self.h):
            fb.pixel(0, y, BLUE)
        fb.pixel(0, 0, WHITE)
        self._show()

    def panel_marks(self, which):
        """On panel `which` (numbered row by row from the top-left; -1: on every panel) a green
        line along its top row and a blue one down its left column, white where they meet."""
        p = self.cfg["panels"]
        pw, ph = p["size"]
        across = p["across"]
        fb = self.fb
        fb.clear()
        for i in range(across * p["down"]):
            if which in (-1, i):
                x, y = (i % across) * pw, (i // across) * ph
                fb.rect(x, y, pw, 1, GREEN)
                fb.rect(x, y, 1, ph, BLUE)
                fb.pixel(x, y, WHITE)
        self._show()

    def sweep(self, ms=40):
        """Each row in turn, then each column (white), then every LED (ALL_LIT)."""
        fb = self.fb
        for y in range(self.h):
            fb.clear()
            fb.rect(0, y, self.w, 1, WHITE)
            self._show()
            self.hw.sleep_ms(ms)
        for x in range(self.w):
            fb.clear()
            fb.rect(x, 0, 1, self.h, WHITE)
            self._show()
            self.hw.sleep_ms(ms)
        self.fill(ALL_LIT)

    def seat(self, button):
        """The edge in front of the seat whose button is asked for, in its colour (A, B: a dot)."""
        fb = self.fb
        w, h = self.w, self.h
        fb.clear()
        c = SEAT_COLOURS[button]
        if button == 0:
            fb.rect(0, h - 1, w, 1, c)
        elif button == 1:
            fb.rect(0, 0, 1, h, c)
        elif button == 2:
            fb.rect(0, 0, w, 1, c)
        elif button == 3:
            fb.rect(w - 1, 0, 1, h, c)
        else:
            fb.rect(w // 2 - 1, h // 2 - 1, 2, 2, c)
        self._show()

    def buttons_down(self):
        return self.hw.read_buttons()

    def wait_press(self, timeout_ms):
        """The first button to go down (ignoring any held already), after it is let go; -1 on timeout."""
        hw = self.hw
        start = hw.ticks_ms()
        held = hw.read_buttons()
        while hw.ticks_diff(hw.ticks_ms(), start) < timeout_ms:
            bits = hw.read_buttons()
            new = bits & ~held
            held &= bits
            if new:
                b = 0
                while not new & (1 << b):
                    b += 1
                t = hw.ticks_ms()
                while hw.read_buttons() & (1 << b) and hw.ticks_diff(hw.ticks_ms(), t) < 3000:
                    hw.sleep_ms(5)
                return b
            hw.sleep_ms(5)
        return -1

    def beep(self):
        """Three rising beeps (whatever the sound setting says)."""
        hw = self.hw
        for f in (880, 1320, 1760):
            hw.tone(f)
            hw.sleep_ms(150)
            hw.tone(0)
            hw.sleep_ms(80)
