# Hardware backend for a Raspberry Pi running CPython with Adafruit Blinka.
#
# CPython only, but kept compilable by mpy-cross (the firmware tree is checked
# as a whole), hence % formatting and no newer syntax. Pins are `board`
# attribute names ("D5", "D18", see layerlight.boards). As on the MicroPython
# backend, every pin problem is raised from the constructor as a ValueError
# naming the config key.

import os
import time

import board
import digitalio
import neopixel

from layerlight.boards import BUTTON_NAMES
from layerlight.display import FrameBuffer
from layerlight.strip_map import config_map
from layerlight.storage import FileStorage

MIN_TONE_HZ = 10
TONE_DUTY = 32768  # square wave: loudest on a passive piezo


def _board_pin(key, name):
    """The `board` pin called `name`, or a ValueError naming the config key."""
    if not isinstance(name, str):
        raise ValueError("config %s: expected a board pin name like 'D5', got %r" % (key, name))
    pin = getattr(board, name, None)
    if pin is None:
        raise ValueError("config %s: no pin %r on this board" % (key, name))
    return pin


def _pin_error(key, name, e):
    return ValueError("config %s: cannot use pin %r (%s: %s)" % (key, name, type(e).__name__, e))


class Hardware:
    """Buttons, LED matrix, buzzer, clock and a data folder on a Raspberry Pi."""

    def __init__(self, cfg):
        self.width = cfg["width"]
        self.height = cfg["height"]
        self.storage = FileStorage(cfg.get("data_dir") or os.getcwd())
        self._cap = cfg["brightness"]
        n = self.width * self.height

        self._table = config_map(cfg)  # a bad layout/origin/rotation names the setting
        order = cfg["color_order"]
        if not isinstance(order, str) or len(order) != 3 or sorted(order) != ["B", "G", "R"]:
            raise ValueError("config color_order: %r is not an order of R, G, B" % (order,))

        buttons = cfg["buttons"]
        if not isinstance(buttons, dict):
            raise ValueError("config buttons: expected {name: pin}, got %r" % (buttons,))
        # Bit i of read_buttons() is BUTTON_NAMES[i], so the list is in that order.
        self._buttons = []
        for name in BUTTON_NAMES:
            key = "buttons." + name
            if name not in buttons:
                raise ValueError("config buttons: no pin for %s" % name)
            pin = _board_pin(key, buttons[name])
            try:
                io = digitalio.DigitalInOut(pin)
                io.direction = digitalio.Direction.INPUT
                io.pull = digitalio.Pull.UP
            except Exception as e:  # busy/unsupported pin: gpiod, RPi.GPIO... all differ
                raise _pin_error(key, buttons[name], e) from e
            self._buttons.append(io)

        # brightness=1.0: the cap is applied by the frame buffer's lookup table, the
        # same code path as on the device, so both look alike.
        name = cfg["matrix_pin"]
        pin = _board_pin("matrix_pin", name)
        try:
            self._pixels = neopixel.NeoPixel(pin, n, brightness=1.0, auto_write=False, pixel_order=order)
        except Exception as e:
            raise _pin_error("matrix_pin", name, e) from e
        self._fb = None  # made by framebuffer()

        self._pwm = None
        self._freq = 0
        name = cfg["buzzer_pin"]
        if name is not None:
            pin = _board_pin("buzzer_pin", name)
            # A wrong name is a config error (above); missing PWM support on
            # this Pi/OS is not: the game is playable without sound.
            try:
                import pwmio

                self._pwm = pwmio.PWMOut(pin, frequency=1000, duty_cycle=0, variable_frequency=True)
            except Exception as e:
                self.log("buzzer: no PWM on %s (%s: %s), sound off" % (name, type(e).__name__, e))
                self._pwm = None

    # --- time -----------------------------------------------------------

    def ticks_ms(self):
        return time.monotonic_ns() // 1000000

    def ticks_us(self):
        return time.monotonic_ns() // 1000

    def date(self):
        t = time.localtime()  # a Raspberry Pi keeps the date (network time)
        return "%04d-%02d-%02d %02d:%02d" % (t[0], t[1], t[2], t[3], t[4])

    def ticks_add(self, a, b):
        return a + b

    def ticks_diff(self, a, b):
        # monotonic_ns never wraps on CPython
        return a - b

    def sleep_ms(self, ms):
        time.sleep(ms / 1000)

    # --- the buttons' samples: read by the loop when it looks ---------------
    #
    # What this guarantees: Linux gives a Python program no hardware sampler,
    # so the pins are read each time the loop looks (every few ms: it idles 5 ms
    # between passes, longer when Linux schedules something else). A press is
    # filed under the millisecond it was read in, up to a pass late; presses
    # read in the same pass are a tie (buttons.py's round robin). The strip's
    # driver (rpi_ws281x, PWM and DMA) does not stop the reading.

    SAMPLE_MS = 1
    SAMPLES_KEPT = 1 << 30
    MISSED = 0x80  # an instant nobody read: the buttons as they were

    def start_sampling(self, origin=None):
        self._origin = self.ticks_ms() if origin is None else origin
        return self._origin

    def samples_taken(self):
        return self.ticks_ms() - self._origin

    def sample(self, k):
        if k < self.samples_taken():
            return self.MISSED
        return self.read_buttons()

    def idle(self, ms):
        self.sleep_ms(ms)
        return None

    # --- input ----------------------------------------------------------

    def read_buttons(self):
        """Bit i set while button i (P1..P4, A, B) is down; pressed pulls the pin low."""
        bits = 0
        for i, io in enumerate(self._buttons):
            if not io.value:
                bits |= 1 << i
        return bits

    # --- LEDs -----------------------------------------------------------

    def framebuffer(self):
        """The frame buffer to draw into: in strip order and capped, colours in RGB
        (the neopixel library reorders them to the wire order itself)."""
        if self._fb is None:
            self._fb = FrameBuffer(self.width, self.height, self._table, self._cap, "RGB")
        return self._fb

    def show(self, fb):
        strip = fb.buf
        pixels = self._pixels
        for i in range(len(strip) // 3):
            j = i * 3
            pixels[i] = (strip[j], strip[j + 1], strip[j + 2])
        pixels.show()

    def set_brightness(self, cap):
        self._cap = cap
        if self._fb is not None:
            self._fb.set_cap(cap)

    # --- sound ----------------------------------------------------------

    def tone(self, freq):
        pwm = self._pwm
        if pwm is None:
            return
        if freq <= 0:
            pwm.duty_cycle = 0
            self._freq = 0
            return
        freq = max(MIN_TONE_HZ, int(freq))
        if freq != self._freq:
            pwm.frequency = freq
            pwm.duty_cycle = TONE_DUTY
            self._freq = freq

    # --- system ---------------------------------------------------------

    def feed(self):
        # No hardware watchdog is driven on the Pi; feed() may do nothing.
        pass

    def close(self):
        pass  # nothing runs without the loop

    def log(self, line):
        print(line, flush=True)
