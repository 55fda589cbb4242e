# Hardware backend for MicroPython boards (RP2040, RP2350, ESP32-S3), 1.22+.
#
# Pins come from the config (GPIO numbers, see layerlight.boards). Everything
# that can fail because of a bad pin is set up in the constructor and reported
# as a ValueError naming the config key, so a wrong layerlight.json is caught
# at boot with a readable message instead of a bare "invalid pin" later.
#
# show() runs every frame and must not allocate (a GC pause mid-game shows as
# a stutter): the frame buffer is already in strip order, colour order and
# brightness (see layerlight.display), so it is one slice copy and a send.
#
# Buttons and strip, by port:
# - rp2 (Pico, Pico 2): the buttons are read every millisecond by PIO and
#   filed by DMA, and the strip is sent by PIO and DMA (backends/rp2_pio.py):
#   a press counts at its millisecond whatever the CPU is doing, and no frame
#   turns interrupts off.
# - other ports (the ESP32-S3 profile): a timer reads the buttons every 10 ms
#   (late when interrupts are off: such instants are marked MISSED), and the
#   strip goes out through `neopixel`.

import sys
import time

import machine

from layerlight.boards import BUTTON_NAMES, PROFILES
from layerlight.display import FrameBuffer
from layerlight.strip_map import config_map
from layerlight.storage import FileStorage

# rp2's PWM cannot go below ~8 Hz (~7.5 Hz at 125 MHz, ~9 Hz at 150 MHz);
# anything that low is inaudible anyway, so clamp rather than raise.
MIN_TONE_HZ = 10
TONE_DUTY = 32768  # square wave: loudest on a passive piezo
HOST_LINE = 96     # the longest line a host sends (layerlight.host_link)


def _pin_error(key, pin, e):
    return ValueError("config %s: cannot use pin %r (%s)" % (key, pin, e))


# Stopping the watchdog (rp2): MicroPython's machine.WDT has no stop, and a soft
# reset leaves it running; pico-sdk's watchdog_disable clears CTRL.ENABLE. The
# write goes to the register block's atomic-clear alias (base + 0x3000), which
# clears the bits written as 1 and leaves the others.
#   RP2040: WATCHDOG_BASE 0x40058000, CTRL at offset 0x00, ENABLE bit 30
#           (RP2040 datasheet 4.7.6 "List of Registers"; the alias: 2.1.2 "Atomic Register Access")
#   RP2350: WATCHDOG_BASE 0x400d8000, CTRL at offset 0x00, ENABLE bit 30
#           (RP2350 datasheet 12.9.7 "List of registers"; the alias: 2.1.3 "Atomic register access")
WATCHDOG_CTRL_CLR = {"RP2040": 0x40058000 + 0x3000, "RP2350": 0x400D8000 + 0x3000}
WATCHDOG_CTRL_ENABLE = 1 << 30


def _ready(poll, ms):
    """Whether the console has a byte within ms. poll.ipoll answers with one tuple it keeps:
    poll.poll makes a new list each time, and the loop asks every few milliseconds, so its
    garbage set off collections (15 ms of the emulated chip each) at any moment, a press's too."""
    for _event in poll.ipoll(ms):
        return True
    return False


def stop_watchdog():
    """Stop the chip's watchdog (rp2 only: on other ports a started WDT runs on)."""
    if sys.platform != "rp2":
        return False
    chip = "RP2350" if "RP2350" in getattr(sys.implementation, "_machine", "") else "RP2040"
    machine.mem32[WATCHDOG_CTRL_CLR[chip]] = WATCHDOG_CTRL_ENABLE
    return True


def console_reader():
    """A function giving the console's next byte as an int: bytes, not text, so that a
    byte that is not UTF-8 never raises (sys.stdin.buffer where the port has it)."""
    buf = getattr(sys.stdin, "buffer", None)
    if buf is not None:
        one = bytearray(1)

        def read_byte():
            return one[0] if buf.readinto(one) else -1
        return read_byte

    def read_char():
        ch = sys.stdin.read(1)
        return ord(ch) if ch else -1
    return read_char


MISSED = 0x80  # a sample's mark: no reading was made at that instant (interrupts were off)

class Hardware:
    """Buttons, LED matrix, buzzer, clock and flash of a MicroPython board."""

    def __init__(self, cfg):
        self.width = cfg["width"]
        self.height = cfg["height"]
        self.storage = FileStorage("")
        self._cap = cfg["brightness"]
        self._order = cfg["color_order"]
        n = self.width * self.height

        self._table = config_map(cfg)  # a bad layout/origin/rotation names the setting
        if len(self._order) != 3 or sorted(self._order) != ["B", "G", "R"]:
            raise ValueError("config color_order: %r is not an order of R, G, B" % self._order)

        # A pin the port refuses falls back to the board profile's (config.py checked
        # them against the board's GPIOs; this is what the port itself says): the box
        # still lights and plays, and the device shows the error (pin_problems).
        self.pin_problems = []
        profile = PROFILES.get(cfg.get("board"), PROFILES["pico"])
        buttons = cfg["buttons"]
        if not isinstance(buttons, dict):
            raise ValueError("config buttons: expected {name: pin}, got %r" % (buttons,))
        buttons = dict(buttons)
        # Bit i of read_buttons() is BUTTON_NAMES[i], so the list is in that order.
        self._buttons = []
        for name in BUTTON_NAMES:
            if name not in buttons:
                raise ValueError("config buttons: no pin for %s" % name)
            pin = self._pin("buttons." + name, buttons[name], profile["buttons"][name],
                            lambda p: machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP))
            buttons[name] = pin[0]
            self._buttons.append(pin[1])

        try:
            import rp2  # noqa: F401 (the port has PIO and DMA)
            from layerlight.backends import rp2_pio
        except ImportError:
            rp2_pio = None
        self._sampler = None
        self._prepared = False
        self._strip = None
        self._np = None
        panels = cfg.get("panels")
        lanes = panels.get("lanes") if panels else None  # four panels each on its own pin (config.py)
        self._lanes = None
        if lanes is not None and rp2_pio is not None:
            try:
                self._strip = rp2_pio.LaneSender(lanes[0], n * 3, time.ticks_us, time.ticks_diff)
            except Exception as e:  # the port refused a pin: the one chain, said on the matrix
                self.pin_problems.append("config panels.lanes: cannot use pins %r (%s): one chain on pin %r"
                                         % (lanes, e, lanes[0]))
                lanes = None
        elif lanes is not None:
            # no PIO (an ESP32-S3): each lane sent after the other, by the port's own driver
            import neopixel
            q = n // 4
            self._lanes = [(neopixel.NeoPixel(machine.Pin(p), q), None, None) for p in lanes]
        if self._strip is None and self._lanes is None and rp2_pio is not None:
            self._strip = self._pin("matrix_pin", cfg["matrix_pin"], profile["matrix_pin"],
                                    lambda p: rp2_pio.StripSender(p, n * 3, time.ticks_us, time.ticks_diff))[1]
        elif self._strip is None and self._lanes is None:
            import neopixel
            self._np = self._pin("matrix_pin", cfg["matrix_pin"], profile["matrix_pin"],
                                 lambda p: neopixel.NeoPixel(machine.Pin(p), n))[1]
        if self._np is not None and len(self._np.buf) != n * 3:
            # the frame buffer holds 3 bytes per pixel; an RGBW driver would garble.
            raise ValueError("config matrix_pin: NeoPixel buffer is not 3 bytes per pixel")
        if rp2_pio is not None:
            self.mark = rp2_pio.marker()  # the loop's markers (app.py): a store the emulator records
        if rp2_pio is not None:
            try:
                self._sampler = rp2_pio.ButtonSampler([buttons[name] for name in BUTTON_NAMES],
                                                      cfg.get("sample_pass") or None)
            except ValueError as e:  # buttons spread over the GPIOs: the timer reads them
                self.log("buttons: %s; read by a timer every 10 ms instead" % e)
        if self._sampler is not None:
            self.SAMPLE_MS = self._sampler.SAMPLE_MS
            self.SAMPLES_KEPT = self._sampler.KEPT
        self._fb = None  # made by framebuffer()

        self._pwm = None
        self._freq = 0
        if cfg["buzzer_pin"] is not None:
            def open_pwm(pin):
                pwm = machine.PWM(machine.Pin(pin))
                pwm.freq(1000)
                pwm.duty_u16(0)
                return pwm
            self._pwm = self._pin("buzzer_pin", cfg["buzzer_pin"], profile["buzzer_pin"], open_pwm)[1]

        # the timer's samples of the buttons (start_sampling, where there is no PIO)
        self._ring = bytearray(self.SAMPLES_KEPT)
        self._taken = 0
        self._at = 0       # ticks_ms of the latest sample's instant (kept near now: never wraps)
        self._step = 10
        self._timer = None
        # a host's request line, read a byte at a time so that a person typing
        # on the console never stalls the loop; select.poll is the idle wait
        self._line = bytearray(HOST_LINE)
        self._line_len = 0
        self._line_bad = False  # a byte that is no part of a host's request came in this line
        self._line_bytes = 0    # the line's bytes so far (beyond the HOST_LINE kept)
        self._read_byte = console_reader()
        self._poll = None
        try:
            import select
            self._poll = select.poll()
            self._poll.register(sys.stdin, select.POLLIN)
        except Exception:  # a port without a pollable stdin: the loop just sleeps
            self._poll = None

        # The watchdog is opt-in and started on the first feed(), not here:
        # a WDT cannot be stopped, and boot (config, deck loading) may take
        # longer than the timeout before the main loop starts feeding.
        self._wdt = None
        self._wdt_ms = cfg.get("watchdog_ms")
        if self._wdt_ms is not None and (not isinstance(self._wdt_ms, int) or self._wdt_ms <= 0):
            raise ValueError("config watchdog_ms: expected a positive int, got %r" % (self._wdt_ms,))

    # --- time -----------------------------------------------------------

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def date(self):
        # The Pico has no battery: its RTC starts at 2021-01-01 on power-up and
        # knows the date only once a host set it (`layerlight flash`/`history`)
        t = time.localtime()
        if t[0] < 2024:
            return None
        return "%04d-%02d-%02d %02d:%02d" % (t[0], t[1], t[2], t[3], t[4])

    def ticks_add(self, a, b):
        return time.ticks_add(a, b)

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    # --- the buttons' samples: by PIO and DMA on rp2, else by a timer ----------

    SAMPLE_MS = 10      # the timer's period (rp2: 1, set in __init__)
    SAMPLES_KEPT = 128  # the timer's 1.28 s of samples (rp2: rp2_pio.ButtonSampler.KEPT)

    def prepare_sampling(self):
        """Get the sampler ready (its channels aborted and armed again), ahead of
        start_sampling: that takes a few ms, which must not fall after instant 0."""
        if self._sampler is not None and not self._prepared:
            self._sampler.prepare()
            self._prepared = True

    def start_sampling(self, origin=None):
        """Sample the buttons every SAMPLE_MS from instant 0 at ticks_ms `origin` (a
        moment about to come or just past; default now) on. Returns the origin."""
        if self._sampler is not None:
            self.prepare_sampling()
            self._prepared = False
            if origin is not None:
                while time.ticks_diff(time.ticks_ms(), origin) < 0:
                    pass  # reading 0 is made at instant 0 (a host's lead-in ends)
            else:
                origin = time.ticks_ms()
            late = time.ticks_diff(time.ticks_ms(), origin)
            self._sampler.start()
            if late > 0:  # every reading that many ms late: a host's instants would be off
                self.log("buttons: sampling began %d ms after instant 0" % late)
            return origin
        if self._timer is not None:
            self._timer.deinit()
        step_ms = self.SAMPLE_MS
        self._step = step_ms
        self._taken = 0
        origin = time.ticks_ms() if origin is None else origin
        self._at = origin
        self._ring[0] = self.read_buttons()
        try:
            self._timer = machine.Timer(-1, mode=machine.Timer.PERIODIC, period=step_ms,
                                        callback=self._sample)
        except (TypeError, ValueError):  # a port whose timers need a hardware id (ESP32)
            self._timer = machine.Timer(0, mode=machine.Timer.PERIODIC, period=step_ms,
                                        callback=self._sample)
        return origin

    def _sample(self, _timer):
        # The timer's callback: no allocation. A sample that came late (the
        # strip's write or a flash write holds interrupts off) is filed under
        # its instant; the instants it missed are marked MISSED (the buttons
        # stay as the device last took them), so a change is never seen
        # earlier than it happened.
        # The pins are read within one millisecond, the one the sample is filed
        # by: a change made at an instant's first microsecond counts at that
        # instant, never one earlier (read again if a millisecond went by).
        while True:
            ms = time.ticks_ms()
            bits = self.read_buttons()
            if time.ticks_ms() == ms:
                break
        # Counted from the latest sample's instant, not from the origin: ticks_diff
        # is right only within half the ticks' period (2**29 ms, 6.2 days), and
        # the device runs for longer than that.
        late = time.ticks_diff(ms, self._at) // self._step
        if late <= 0:
            return
        self._at = time.ticks_add(self._at, late * self._step)
        j = self._taken
        k = j + late
        ring = self._ring
        kept = self.SAMPLES_KEPT
        if late > kept:  # only the last `kept` are read: the work stays bounded
            j = k - kept
        while j < k - 1:
            j += 1
            ring[j % kept] = MISSED
        ring[k % kept] = bits
        self._taken = k

    def samples_taken(self):
        if self._sampler is not None:
            return self._sampler.taken()
        return self._taken

    def sample(self, k):
        if self._sampler is not None:
            return self._sampler.sample(k)
        return self._ring[k % self.SAMPLES_KEPT]

    def same_until(self, k, end, level):
        if self._sampler is not None:
            return self._sampler.same_until(k, end, level)
        ring = self._ring
        kept = self.SAMPLES_KEPT
        while k < end and ring[k % kept] == level:
            k += 1
        return k

    def idle(self, ms):
        """Wait up to ms; a whole line from a host, if one came (else None)."""
        poll = self._poll
        if poll is None:
            time.sleep_ms(ms)
            return None
        if not _ready(poll, ms):
            return None
        line = self._line
        read_byte = self._read_byte
        while _ready(poll, 0):
            b = read_byte()
            if b < 0:
                break
            if b == 10 or b == 13:  # a line ends
                n = self._line_len
                bad = self._line_bad
                count = self._line_bytes
                self._line_len = self._line_bytes = 0
                self._line_bad = False
                if bad:
                    # a person typing, or a program that is not a Layerlight host:
                    # not a request (they are ASCII), and never the loop's end
                    self.log("console: ignored a line that is not ASCII text (%d bytes)" % count)
                elif n:
                    return bytes(line[:n]).decode()
                continue
            self._line_bytes += 1
            if b < 32 or b > 126:
                self._line_bad = True
            elif self._line_len < HOST_LINE:
                line[self._line_len] = b
                self._line_len += 1
        return None

    # --- input ----------------------------------------------------------

    def read_buttons(self):
        """Bit i set while button i (P1..P4, A, B) is down; pressed pulls the pin to 0."""
        bits = 0
        pins = self._buttons
        for i in range(len(pins)):
            if not pins[i].value():
                bits |= 1 << i
        return bits

    # --- LEDs -----------------------------------------------------------

    def framebuffer(self):
        """The frame buffer to draw into: wired, ordered and capped like this matrix.

        The NeoPixel's buf goes to the wire byte for byte, so the frame is kept
        in the strip's own colour order; NeoPixel.ORDER only matters for
        np[i] = ..., which we never use.
        """
        if self._fb is None:
            self._fb = FrameBuffer(self.width, self.height, self._table, self._cap, self._order)
        return self._fb

    def send_whole(self):
        """The next frame goes out whole, even where it changes nothing (the PIO sender sends only
        what changed): a host asking for the state reads the frame off the data pin."""
        if self._strip is not None:
            self._strip.whole = True

    def show(self, fb):
        if self._strip is not None:
            self._strip.send(fb.buf)  # a memcpy and a DMA start: no allocation, interrupts on
            return
        if self._lanes is not None:
            if self._lanes[0][1] is not fb.buf:  # each lane's quarter of the frame, made once
                q = len(self._lanes[0][0].buf)
                self._lanes = [(lane[0], fb.buf, memoryview(fb.buf)[k * q:(k + 1) * q])
                               for k, lane in enumerate(self._lanes)]
            for np, _buf, quarter in self._lanes:
                np.buf[:] = quarter
                np.write()
            return
        self._np.buf[:] = fb.buf  # a memcpy: no allocation
        self._np.write()

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
            pwm.duty_u16(0)
            self._freq = 0
            return
        freq = max(MIN_TONE_HZ, int(freq))
        if freq != self._freq:
            # Re-setting the same frequency restarts the PWM period on some
            # ports (an audible click), so only touch it when it changes.
            pwm.freq(freq)
            pwm.duty_u16(TONE_DUTY)
            self._freq = freq

    # --- system ---------------------------------------------------------

    def journal_flash(self):
        """The save journal's flash on the Layerlight UF2: the top JOURNAL_BYTES of its ROMFS
        partition (uf2/boards/*/mpconfigboard.h). None elsewhere (stock MicroPython, another
        port, a developer's own main.py on a UF2 without the journal): the game is saved in a file."""
        try:
            import layerlight_build  # pyright: ignore[reportMissingImports] (frozen into the UF2 only)
            import vfs
            size = layerlight_build.JOURNAL_BYTES
            segment = vfs.rom_ioctl(2, 0)  # pyright: ignore[reportAttributeAccessIssue] (1.25+) the ROMFS partition, an rp2.Flash (4 KB blocks)
            blocks = segment.ioctl(4, 0)
        except (ImportError, AttributeError, OSError, TypeError, ValueError):
            return None
        if not isinstance(blocks, int) or blocks * 4096 < size * 2:
            return None
        return RomTop(segment, blocks - size // 4096, size)

    def feed(self):
        if self._wdt_ms is None:
            return
        if self._wdt is None:
            try:
                self._wdt = machine.WDT(timeout=self._wdt_ms)
            except Exception as e:  # e.g. rp2 allows at most 8388 ms
                raise ValueError("config watchdog_ms: cannot start watchdog with %r (%s)" % (self._wdt_ms, e))
        self._wdt.feed()

    def close(self):
        """Stop what runs without the CPU (the loop is over: a host took the REPL, or the
        device restarts), the watchdog first: nothing feeds it from now on."""
        stop_watchdog()
        self._wdt = None
        if self._timer is not None:
            self._timer.deinit()
            self._timer = None
        for part in (self._sampler, self._strip):
            if part is not None:
                part.close()
        self._sampler = self._strip = None
        self.tone(0)

    def _pin(self, key, pin, fallback, make):
        """(pin, make(pin)); if the port refuses the pin, (fallback, make(fallback)) and the
        problem noted. A fallback the port refuses too is the error it gives."""
        try:
            return pin, make(pin)
        except Exception as e:  # ValueError/TypeError/OSError depending on port
            if pin == fallback:
                raise _pin_error(key, pin, e)
            problem = "config %s: cannot use pin %r (%s), using the board's pin %r" % (key, pin, e, fallback)
            self.log(problem)
            self.pin_problems.append(problem)
        try:
            return fallback, make(fallback)
        except Exception as e:
            raise _pin_error(key, fallback, e)

    def log(self, line):
        print(line)


class RomTop:
    """The top `size` bytes of the ROMFS partition's rp2.Flash as journal.py's flash: reads
    straight from the memory-mapped flash, programs (writeblocks with an offset: no erase)
    and erases (ioctl 6) of rp2_flash.c, each with XIP and interrupts off while the chip
    works, PIO and DMA going on meanwhile."""

    def __init__(self, segment, first, size):
        self.segment = segment
        self.first = first        # the first 4 KB block of the area in the partition
        self.size = size
        self.mem = memoryview(segment)[first * 4096:first * 4096 + size]

    def read(self, offset, n):
        return bytes(self.mem[offset:offset + n])

    def program(self, offset, data):
        self.segment.writeblocks(self.first + offset // 4096, data, offset % 4096)

    def erase(self, offset):
        self.segment.ioctl(6, self.first + offset // 4096)
