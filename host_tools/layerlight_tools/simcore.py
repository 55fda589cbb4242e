# The simulated device: virtual clock, buttons, matrix, buzzer and storage,
# and the script interpreter of the headless simulator (docs/trace.md).
#
# This file is written in the Python that MicroPython also runs: the tests
# load it, with the firmware, into the real MicroPython (WebAssembly) and check
# that the same script gives the same trace, byte for byte, as under CPython.

import io

# The firmware is imported where it is used, not here, so that a measurement
# can load this harness first and then see the firmware's own heap alone.

STEP_MS = 10        # the virtual loop runs every 10 ms, like the device's
PRESS_MS = 60
TRACE_KEYS = ("t", "game", "phase", "round", "players", "first_player", "scores", "mission",
              "finish_order", "round_tile", "tokens", "timer_ms")


class ScriptError(Exception):
    def __init__(self, line_no, message):
        Exception.__init__(self, "script line %d: %s" % (line_no, message))
        self.line_no = line_no


class PowerCut(BaseException):
    """The simulated power went off in the middle of a flash write.

    A BaseException, so that the firmware's own `except Exception` guards do
    not catch it: on a real device nothing runs after the power is gone.
    """


class MemoryStorage:
    """Files in a dict: the simulator's flash, with faults to inject.

    Every file-system write counts (`writes`); `fault = (n, how)` strikes the
    n-th one (0-based): 'fail' (the flash refuses: OSError), 'cut' (the power
    goes before it), 'partial' or 'empty' (the power goes while writing: the
    file is left half written or empty).
    """

    def __init__(self, files=None):
        self.files = dict(files or {})
        self.writes = 0
        self.fault = None
        self.saved = []  # (name, data) of every completed write_atomic, for tests
        self.cut_during = None  # (name, data) of the write a power cut struck

    def open_read(self, name):
        if name not in self.files:
            raise OSError(2, "no such file: " + name)
        return io.BytesIO(self.files[name])

    def read_bytes(self, name):
        if name not in self.files:
            raise OSError(2, "no such file: " + name)
        return self.files[name]

    def read_text(self, name):
        return self.read_bytes(name).decode()

    def _write(self, name, data, before=b""):
        """Count a write; the fault strikes it (`before`: what an append adds to)."""
        n = self.writes
        self.writes += 1
        if self.fault is not None and self.fault[0] == n:
            how = self.fault[1]
            self.cut_during = (name, data)
            if how == "fail":
                raise OSError(28, "no space left on device")
            if how == "partial" and data is not None:
                self.files[name] = before + bytes(data[:len(data) // 2])
            elif how == "empty" and data is not None:
                self.files[name] = before
            raise PowerCut()

    def write_atomic(self, name, data):
        tmp = name + ".new"
        self._write(tmp, data)
        self.files[tmp] = bytes(data)
        self._write(name, None)  # the rename
        self.files[name] = self.files.pop(tmp)
        self.saved.append((name, bytes(data)))

    def append(self, name, data):
        self._write(name, data, self.files.get(name, b""))
        self.files[name] = self.files.get(name, b"") + bytes(data)

    def rename(self, name, new):
        if name not in self.files:
            raise OSError(2, "no such file: " + name)
        self._write(new, None)
        self.files[new] = self.files.pop(name)

    def remove(self, name):
        for path in (name, name + ".new"):
            if path in self.files:
                self._write(path, None)
                del self.files[path]

    def listdir(self, name=""):
        prefix = name.rstrip("/") + "/" if name else ""
        out = []
        for k in self.files:
            if k.startswith(prefix):
                head = k[len(prefix):].split("/")[0]
                if head not in out:
                    out.append(head)
        return sorted(out)


class SimFlash:
    """A raw flash area for the game journal (layerlight.journal), as NOR flash behaves:
    an erase sets a 4 KB sector to 0xFF, a program can only clear bits (a byte becomes
    old AND new), in whole 256-byte pages.

    Every program and erase counts (`ops`: (kind, offset)), and every page programmed
    (`pages`: a program of several pages is as many page-program commands on the chip);
    `fault = (n, how)` strikes the n-th (0-based), `(n, how, count)` that many in a row:
    'fail' (the flash refuses: OSError, nothing written), 'fail-landed' (every byte written,
    then OSError all the same), 'fail-torn' (part written, then OSError), 'cut' (the power
    goes before it), 'partial' (the power goes midway: a program's first half of bytes
    lands, an erase's first half of the sector is erased), 'torn' (midway, every byte half
    done: a program clears only the high nibble's bits, an erase sets only the low
    nibble's) or ('random', seed): the power goes at a byte and bit drawn from the seed,
    the bytes before it done, that one part done.
    """

    SECTOR = 4096
    PAGE = 256

    def __init__(self, sectors=8, data=None):
        self.data = bytearray(data) if data is not None else bytearray(b"\xff" * (sectors * self.SECTOR))
        self.size = len(self.data)
        self.ops = []
        self.pages = 0      # pages programmed (each a page-program command)
        self.fault = None
        self.struck = None  # (n, kind, offset, how) of the op the fault struck

    def read(self, offset, n):
        return bytes(self.data[offset:offset + n])

    def _op(self, kind, offset):
        """Count an op; the 'how' of a fault striking it (None: it happens whole)."""
        n = len(self.ops)
        self.ops.append((kind, offset))
        if self.fault is None:
            return None
        first, how = self.fault[0], self.fault[1]
        count = self.fault[2] if len(self.fault) > 2 else 1
        if not first <= n < first + count:
            return None
        self.struck = (n, kind, offset, how)
        if how == "fail":
            raise OSError(5, "flash %s refused" % kind)
        return how

    def _stop(self, how, size):
        """(bytes done whole, the bits the next byte keeps of its change or None) for a
        fault `how` striking a write of `size` bytes."""
        if how == "partial" or how == "fail-torn":
            return size // 2, None
        if isinstance(how, tuple):  # ("random", seed)
            import random
            rnd = random.Random(how[1])
            return rnd.randrange(size), rnd.randrange(256)
        return size, None

    def program(self, offset, data):
        if offset % self.PAGE or len(data) % self.PAGE or offset + len(data) > self.size:
            raise ValueError("program at 0x%x, %d bytes: not whole pages of the area" % (offset, len(data)))
        how = self._op("program", offset)
        flash = self.data
        if how == "cut":
            raise PowerCut()
        self.pages += len(data) // self.PAGE
        n, bits = self._stop(how, len(data))
        for i in range(n):
            b = data[i] | 0x0F if how == "torn" else data[i]
            flash[offset + i] &= b
        if bits is not None:
            flash[offset + n] &= data[n] | bits  # some of its 0 bits programmed
        if how in ("fail-landed", "fail-torn"):
            raise OSError(5, "flash program refused")
        if how is not None:
            raise PowerCut()

    def erase(self, offset):
        if offset % self.SECTOR or offset >= self.size:
            raise ValueError("erase at 0x%x: not a sector of the area" % offset)
        how = self._op("erase", offset)
        if how == "cut":
            raise PowerCut()
        flash = self.data
        n, bits = self._stop(how, self.SECTOR)
        for i in range(offset, offset + n):
            flash[i] = flash[i] | 0x0F if how == "torn" else 0xFF
        if bits is not None:
            flash[offset + n] |= bits  # some of its bits back to 1
        if how in ("fail-landed", "fail-torn"):
            raise OSError(5, "flash erase refused")
        if how is not None:
            raise PowerCut()

    def after_power_on(self):
        """The same flash (its very bytes) after the power comes back: no fault, nothing counted."""
        return SimFlash(data=self.data)


class SimHardware:
    """The hardware layer of the simulated device."""

    def __init__(self, width, height, storage, log=None, flash=None):
        self.width = width
        self.height = height
        self.storage = storage
        self.flash = flash  # a SimFlash: the game saved in its journal (else in a file)
        self.pressed = 0
        self.date_from_pc = False
        self.clock = 0
        self.frame = None
        self.cap = 0.25  # the brightness the firmware set (set_brightness)
        self.freq = 0
        self.logs = []
        self._log = log

    def journal_flash(self):
        return self.flash

    def ticks_ms(self):
        return self.clock

    def ticks_us(self):
        return self.clock * 1000

    def date(self):
        """The date games are logged with: none in a scripted run (the same trace every
        time), the PC's in an interactive one (date_from_pc)."""
        if not self.date_from_pc:
            return None
        import time
        return time.strftime("%Y-%m-%d %H:%M")

    def ticks_add(self, a, b):
        return a + b

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.clock += ms

    def read_buttons(self):
        return self.pressed

    def framebuffer(self):
        # the simulator's matrix is logical: no wiring, full brightness, so a
        # frame reads as the LEDs would show it before the cap
        from layerlight.display import FrameBuffer
        return FrameBuffer(self.width, self.height)

    def show(self, fb):
        self.frame = fb

    def set_brightness(self, cap):
        # the matrix stays logical (frames before the cap, as traced); what the cap makes of
        # them is for whoever shows the LEDs (led_colour), so it is only noted here
        self.cap = cap

    def tone(self, freq):
        self.freq = freq

    def feed(self):
        pass

    def log(self, line):
        self.logs.append(line)
        if self._log:
            self._log(line)


def make_device(files, width=16, height=16, seed=1, game=None, players=2, log=None, storage=None, flash=None):
    """A Device on simulated hardware, optionally already in a game with seats P1..Pn and P1 first.

    Pass `storage` (a MemoryStorage) to boot again over the same flash, as after a power cut;
    `flash` (a SimFlash) to save the game in a journal there, as the Layerlight UF2 does.
    """
    from layerlight.app import Device
    from layerlight.startup import load_config
    if storage is None:
        storage = MemoryStorage(files)
    hw = SimHardware(width, height, storage, log, flash)
    cfg = load_config(storage, hw.log)
    cfg["width"] = width
    cfg["height"] = height
    hw.cap = cfg["brightness"]  # as a board's frame buffer starts (the power model's cap for its size)
    dev = Device(hw, cfg, seed)
    if game is not None:
        dev.start_game(game, list(range(players)), 0)
    return dev


class Simulator:
    """Runs script lines against a Device and produces trace lines."""

    def __init__(self, device, frames=False):
        self.dev = device
        self.hw = device.hw
        self.frames = frames
        self.t = 0
        self.dev.step(0)

    def advance(self, ms):
        """Let ms pass: a step at every multiple of STEP_MS (the device's grid, which
        the rp2 port keeps from its time 0) and at the end, where the trace is read."""
        end = self.t + ms
        while self.t < end:
            self.t = min(end, (self.t // STEP_MS + 1) * STEP_MS)
            self.hw.clock = self.t
            self.dev.step(self.t)

    def button_index(self, name, line_no):
        from layerlight import buttons

        try:
            return buttons.button_index(name)
        except ValueError:
            raise ScriptError(line_no, "unknown button %r (P1 P2 P3 P4 A B)" % name)

    def set_buttons(self, names, down, line_no):
        """Buttons down or up together, in one instant (one step: a tie between player
        buttons is the firmware's to break, as on the chip)."""
        for name in names:
            b = self.button_index(name, line_no)
            if down:
                self.hw.pressed |= 1 << b
            else:
                self.hw.pressed &= ~(1 << b)
        # the device samples all the time: it sees the change at this instant
        self.dev.step(self.t)

    def run_line(self, line, line_no):
        """One script line; returns False for blank/comment lines."""
        at = line.find("#")
        if at >= 0:
            line = line[:at]
        words = line.split()
        if not words:
            return False
        cmd = words[0].lower()
        args = words[1:]
        if cmd == "press":
            names = self._buttons(args, 0, line_no, "press BUTTON [BUTTON...]")
            self.set_buttons(names, True, line_no)
            self.advance(PRESS_MS)
            self.set_buttons(names, False, line_no)
        elif cmd == "hold":
            names = self._buttons(args, 1, line_no, "hold BUTTON [BUTTON...] MS")
            ms = self._ms(args[-1], line_no)
            self.set_buttons(names, True, line_no)
            self.advance(ms)
            self.set_buttons(names, False, line_no)
        elif cmd == "down" or cmd == "up":
            names = self._buttons(args, 0, line_no, cmd + " BUTTON [BUTTON...]")
            self.set_buttons(names, cmd == "down", line_no)
        elif cmd == "wait":
            self._need(args, 1, line_no, "wait MS")
            self.advance(self._ms(args[0], line_no))
        else:
            raise ScriptError(line_no, "unknown command %r (press, hold, down, up, wait)" % words[0])
        return True

    def _buttons(self, args, after, line_no, usage):
        """The button names of a line (several: at one instant), `after` words after them."""
        names = args[:len(args) - after]
        if not names:
            raise ScriptError(line_no, "expected: " + usage)
        for name in names:
            self.button_index(name, line_no)
        return names

    def _need(self, args, n, line_no, usage):
        if len(args) != n:
            raise ScriptError(line_no, "expected: " + usage)

    def _ms(self, text, line_no):
        try:
            v = int(text)
        except ValueError:
            raise ScriptError(line_no, "not a number of milliseconds: %r" % text)
        if v < 0 or v > 24 * 3600 * 1000:
            raise ScriptError(line_no, "milliseconds out of range: %r" % text)
        return v

    def state(self, sounds=None):
        s = self.dev.state()
        s["t"] = self.t
        s["sound"] = sounds if sounds is not None else []
        if self.frames:
            self.dev.render()
            s["frame"] = self.dev.fb.hex_rows()
        return s

    def trace_line(self):
        played = self.dev.sound.played
        line = dumps(self.state(list(played)))
        del played[:]
        return line

    def run(self, lines, emit, trace=True):
        """Run every line; emit(trace_line) after each command (or once at the end without trace)."""
        no = 0
        for line in lines:
            no += 1
            if self.run_line(line, no) and trace:
                emit(self.trace_line())
        if not trace:
            emit(self.trace_line())


def dumps(obj, top=True):
    """JSON with the trace keys first in a fixed order (MicroPython dicts are unordered)."""
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, float):
        return repr(obj)
    if isinstance(obj, str):
        out = '"'
        for ch in obj:
            if ch == '"' or ch == "\\":
                out += "\\" + ch
            elif ord(ch) < 32:
                out += "\\u%04x" % ord(ch)
            else:
                out += ch
        return out + '"'
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join([dumps(v, False) for v in obj]) + "]"
    if isinstance(obj, dict):
        keys = [k for k in TRACE_KEYS if k in obj] if top else []
        rest = sorted([k for k in obj if k not in keys])
        if top and "frame" in rest:
            rest.remove("frame")
            rest.append("frame")
        return "{" + ", ".join([dumps(k, False) + ": " + dumps(obj[k], False) for k in keys + rest]) + "}"
    raise TypeError("cannot write %r" % (obj,))
