# Runtime of the pty device harness (tests/wasm/pty_device.mjs): run in every
# fresh MicroPython instance before boot.py and main.py. It is not on the
# device's flash: the stand-ins live in sys.modules only.
#
# - `machine` and `neopixel` stand-ins, so the firmware's real MicroPython
#   backend (layerlight/backends/micropython_hw.py) runs: pins are read from
#   and written to the harness (JS module `harness_js`), the LED buffer is kept
#   for the tests to look at, the buzzer's tones are recorded, the clock
#   (machine.RTC) that host tools set is kept by the harness.
# - The firmware's loop is made drivable step by step: the wasm REPL cannot
#   run while Python loops, so Device.run() is swapped (the first time a Pin is
#   made, which boot() does before run() is called) for one that hands the
#   Device to the harness. The harness then calls step() between the
#   characters it feeds to the REPL, with the same clock arithmetic as run().
# - script(): the headless simulator's script lines (press/hold/down/up/wait)
#   played on the booted device through its button pins, on a virtual clock.

import json
import sys
import time

import harness_js  # noqa: F401 (registered by the harness)

STEP_MS = 10
PRESS_MS = 60
_NAMES = ("P1", "P2", "P3", "P4", "A", "B")


class _State:
    dev = None          # the booted Device, while the firmware "runs"
    patched = None      # the layerlight.app module whose Device.run was swapped
    manual = False      # virtual clock (script) instead of ticks_ms
    last = 0
    np = None           # the last NeoPixel written
    writes = 0
    strips = []         # the NeoPixels the board's hardware made, in order (one a lane: a 32x32's
    made_after = -1     # four panels each on its own pin); a new set once one has been written


H = _State()


class _Dummy:
    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return _Dummy()

    def __getattr__(self, name):
        return _Dummy()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        _patch_app()
        if not isinstance(id, int) or not 0 <= id <= 47:
            raise ValueError("invalid pin")
        self.id = id
        if value is not None:
            harness_js.set_pin(id, 1 if value else 0)

    def init(self, *args, **kwargs):
        pass

    def value(self, v=None):
        if v is None:
            return harness_js.pin(self.id)
        harness_js.set_pin(self.id, 1 if v else 0)

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, *args, **kwargs):
        return None


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16

    def _report(self):
        harness_js.tone(self._freq if self._duty else 0)

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = int(f)
        self._report()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = int(d)
        self._report()

    def deinit(self):
        self._duty = 0
        self._report()


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout

    def feed(self):
        pass


class RTC:
    """Stand-in for machine.RTC, which the WebAssembly port lacks (it has no `machine` at
    all): without it `layerlight flash` and `layerlight history` would set a dummy's clock
    and a test could not see that they set it. The time lives in the harness (JS), not in
    this instance, because a board's clock runs on through a soft reset (a fresh instance
    here) and only a power cycle starts it again at 2021-01-01, as an RP2040's does."""

    def __init__(self, id=0):
        pass

    def datetime(self, dt=None):
        """(year, month, day, weekday, hours, minutes, seconds, subseconds); weekday 0 is Monday."""
        if dt is None:
            base = int(harness_js.rtc_base())
            if base < 0:
                base = time.mktime((2021, 1, 1, 0, 0, 0, 0, 0))
            t = time.gmtime(base + int(harness_js.rtc_elapsed()))
            return (t[0], t[1], t[2], t[6], t[3], t[4], t[5], 0)
        if len(dt) != 8:
            raise ValueError("requested length 8 but object has length %d" % len(dt))
        harness_js.rtc_set(time.mktime((dt[0], dt[1], dt[2], dt[4], dt[5], dt[6], 0, 0)))


class _Machine(_Dummy):
    """Stand-in for the `machine` module."""

    Pin = Pin
    PWM = PWM
    WDT = WDT
    RTC = RTC
    PWRON_RESET = 1
    HARD_RESET = 2
    WDT_RESET = 3
    SOFT_RESET = 5

    def reset(self):
        harness_js.reset()
        raise SystemExit

    def soft_reset(self):
        raise SystemExit

    def reset_cause(self):
        return harness_js.reset_cause()

    def freq(self, f=None):
        return 125000000

    def unique_id(self):
        return b"\xe6\x61\x38\x00\x00\x00\x00\x01"

    def idle(self):
        pass


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        if H.made_after != H.writes:  # the hardware made again (a restart): its own strips
            H.strips = []
            H.made_after = H.writes
        H.strips.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        o = i * self.bpp
        for k in range(self.bpp):
            self.buf[o + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        o = i * self.bpp
        return tuple(self.buf[o + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        H.np = self
        H.writes += 1


class _Neopixel(_Dummy):
    NeoPixel = NeoPixel


sys.modules["machine"] = _Machine()
sys.modules["neopixel"] = _Neopixel()


def _patch_app():
    app = sys.modules.get("layerlight.app")
    if app is None or H.patched is app:
        return
    H.patched = app

    def run(dev):
        H.dev = dev
        H.last = time.ticks_ms()
        if H.manual:
            dev.step(dev.now)

    app.Device.run = run


# ---------------------------------------------------------------- called by the harness


def running():
    return H.dev is not None


def step():
    """One pass of the device's loop; False once the firmware has stopped (traceback printed)."""
    dev = H.dev
    if dev is None:
        return False
    try:
        if not H.manual:
            t = time.ticks_ms()
            dev.now += time.ticks_diff(t, H.last)
            H.last = t
        dev.step(dev.now)
        return True
    except SystemExit:
        raise
    except BaseException as e:
        H.dev = None
        sys.print_exception(e)
        return False


def interrupt():
    """Ctrl-C while the firmware runs: KeyboardInterrupt out of main.py, as on a board."""
    H.dev = None
    print("Traceback (most recent call last):\r\n  File \"main.py\", line 2, in <module>\r\nKeyboardInterrupt: \r")


def run_file(path):
    """Runs boot.py / main.py like the board's pyexec_file: errors are printed."""
    try:
        with open(path) as f:
            src = f.read()
    except OSError:
        return
    try:
        exec(compile(src, path, "exec"), {"__name__": "__main__"})
    except SystemExit:
        raise
    except BaseException as e:
        H.dev = None
        sys.print_exception(e)


def exec_raw(src):
    """A raw-paste command, as the board's raw REPL runs it: compiled as a file, run in __main__,
    answered with its output, Ctrl-D, the traceback if any, Ctrl-D. 1 asks for a soft reset."""
    try:
        exec(compile(src, "<stdin>", "exec"), __import__("__main__").__dict__)
    except SystemExit:
        print("\x04\x04", end="")
        return 1
    except BaseException as e:
        print("\x04", end="")
        sys.print_exception(e)
        print("\x04", end="")
        return 0
    print("\x04\x04", end="")
    return 0


def leds_hex():
    """The matrix's LEDs in wire order: the strip written last, or with lanes (one strip a pin,
    written one after the other) every lane's LEDs, lane 0 first: the lowest pin, as the board is
    wired (hardware/32x32.md: four consecutive GPIOs, lane n on the n-th)."""
    np = H.np
    if np is None:
        return ""
    strips = sorted(H.strips, key=lambda strip: strip.pin.id) if np in H.strips else [np]
    return "".join(["%02x" % b for strip in strips for b in strip.buf])


def led_writes():
    return H.writes


def _state(dev):
    s = dev.state()
    s["t"] = dev.now
    played = dev.sound.played
    s["sound"] = list(played)
    del played[:]
    return s


def script(text, seed):
    """Plays script lines on the booted device, virtual clock; returns the trace as JSON."""
    dev = H.dev
    if dev is None:
        raise RuntimeError("the firmware is not running")
    H.manual = True
    if seed >= 0:
        from layerlight.rng import Rng
        dev.rng = Rng(seed)
    pins = dev.cfg["buttons"]

    def set_button(name, down):
        name = name.upper()
        if name not in _NAMES:
            raise ValueError("unknown button " + name)
        harness_js.set_pin(pins[name], 0 if down else 1)
        dev.step(dev.now)

    def advance(ms):
        end = dev.now + ms
        while dev.now < end:
            dev.now = min(end, (dev.now // STEP_MS + 1) * STEP_MS)  # the grid, as simcore's
            dev.step(dev.now)

    out = []
    for line in text.split("\n"):
        words = line.split("#")[0].split()
        if not words:
            continue
        cmd = words[0].lower()
        if cmd == "press":
            set_button(words[1], True)
            advance(PRESS_MS)
            set_button(words[1], False)
        elif cmd == "hold":
            set_button(words[1], True)
            advance(int(words[2]))
            set_button(words[1], False)
        elif cmd in ("down", "up"):
            set_button(words[1], cmd == "down")
        elif cmd == "wait":
            advance(int(words[1]))
        else:
            raise ValueError("unknown script command " + cmd)
        out.append(_state(dev))
    return json.dumps(out)
