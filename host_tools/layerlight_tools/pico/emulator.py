"""The emulated Pico: rp2040js (npm) running a stock MicroPython UF2, driven from Python.

`Pico` starts `pico.mjs` under Node and talks JSON lines with it. Emulated
time moves only when asked (`run_to`), so what a test or a script sees does
not depend on how fast this machine is. Everything the chip sends out is
collected as it comes: the USB serial bytes, the WS2812 frames decoded from
the matrix's data pin, the buzzer's frequency.
"""

import collections
import json
import math
import os
import shutil
import struct
import subprocess
import threading
import time

from layerlight_tools.errors import UserError

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "pico.mjs")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
RP2040_FAMILY = 0xE48BFF56
BOOTROM_SIZE = 16384
UF2_HELP = "the Pico's MicroPython UF2 from https://micropython.org/download/RPI_PICO/"
BOOTROM_HELP = ("the RP2040 boot ROM (B1, 16 KB) from raspberrypi/pico-bootrom or the rp2040js "
                "repository's demo folder")
# LAYERLIGHT_NODE_ARGS: Node's own options for every emulator started (a developer's
# profile: "--cpu-prof --cpu-prof-dir=DIR"; Node refuses those in NODE_OPTIONS)
WALL_TIMEOUT_S = 600   # no answer from the emulator for this long: it is stuck
# the flash chip's program and erase times (pico.mjs, FLASH_TIMES): as a W25Q16JV
# usually takes, or the most its datasheet allows
FLASH_TIMES = ("typical", "max")


def flash_times(profile=None):
    """The flash times profile: as given, else LAYERLIGHT_FLASH_TIMES, else typical."""
    profile = profile or os.environ.get("LAYERLIGHT_FLASH_TIMES") or "typical"
    if profile not in FLASH_TIMES:
        raise UserError("LAYERLIGHT_FLASH_TIMES=%s: the flash times are typical or max" % profile)
    return profile


def check_uf2(path):
    """A UF2 for the RP2040, or a UserError that says what is wrong and where to get one."""
    if not path or not os.path.isfile(path):
        raise UserError("no UF2 at %s: give --uf2 FILE (or LAYERLIGHT_UF2), %s" % (path, UF2_HELP))
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 512 or len(data) % 512:
        raise UserError("%s is not a UF2 file (%d bytes, not whole 512-byte blocks): %s"
                        % (path, len(data), UF2_HELP))
    for at in range(0, len(data), 512):
        m0, m1, flags, target, size, _no, _count, family = struct.unpack_from("<8I", data, at)
        end, = struct.unpack_from("<I", data, at + 508)
        if (m0, m1, end) != UF2_MAGIC:
            raise UserError("%s is not a UF2 file (block %d has no UF2 magic): %s" % (path, at // 512, UF2_HELP))
        if flags & 0x2000 and family != RP2040_FAMILY:
            raise UserError("%s is a UF2 for another chip (family 0x%08x, not the RP2040's): %s"
                            % (path, family, UF2_HELP))
        if not 0x10000000 <= target < 0x11000000 or size > 476:
            raise UserError("%s: block %d writes outside the Pico's flash: %s" % (path, at // 512, UF2_HELP))
    return path


def check_bootrom(path):
    if not path or not os.path.isfile(path):
        raise UserError("no boot ROM at %s: give --bootrom FILE (or LAYERLIGHT_BOOTROM), %s" % (path, BOOTROM_HELP))
    size = os.path.getsize(path)
    if size != BOOTROM_SIZE:
        raise UserError("%s is not an RP2040 boot ROM (%d bytes, not 16384): %s" % (path, size, BOOTROM_HELP))
    return path


def node_ready():
    """Node and the npm package rp2040js, or a UserError saying how to get them."""
    if shutil.which("node") is None:
        raise UserError("the emulated Pico needs Node.js (node) on the PATH")
    if not os.path.isdir(os.path.join(REPO, "node_modules", "rp2040js")):
        raise UserError("the npm package rp2040js is missing: run `make setup` (npm ci) in %s" % REPO)


def pins_arg(data_pin):
    """The data pin, or the lanes' pins (a list: a panel on each), as pico.mjs takes them."""
    if isinstance(data_pin, (list, tuple)):
        return ",".join(str(p) for p in data_pin)
    return str(data_pin)


class Pico:
    """One emulated Pico. `flash_image`: a file holding the 16 MB flash from an
    earlier run (None: a blank flash), written back by `close(keep=True)`."""

    def __init__(self, uf2, bootrom, flash_image=None, data_pin=16, buzzer_pin=15, log=None,
                 times=None):
        node_ready()
        check_uf2(uf2)
        check_bootrom(bootrom)
        self.flash_image = flash_image
        self.log = log
        self.flash_times = flash_times(times)
        self.proc = subprocess.Popen(
            ["node"] + os.environ.get("LAYERLIGHT_NODE_ARGS", "").split() + [SCRIPT, bootrom, uf2, flash_image or "-", pins_arg(data_pin), str(buzzer_pin)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
            env=dict(os.environ, LAYERLIGHT_FLASH_TIMES=self.flash_times))
        self.cond = threading.Condition()
        self.us = 0                 # emulated time reached (us since power on)
        self.serial = bytearray()   # what the board wrote to its USB serial, not yet taken
        self.serial_listeners = []  # callables given each chunk instead (a pty bridge)
        self.lines = []             # (us, text) of each whole line the board wrote, when not bridged
        self._partial = b""
        self.frames = []            # {"start_us", "end_us", "sent": bytes on the wire, "data": what the
                                    # strip shows after it} in the order sent
        self.tones = []             # (us, hz)
        self.marks = []             # (us, code): the loop's markers (app.py M_*), with LAYERLIGHT_MARKS=1
        self.flash_writes = []      # (us, n): program/erase commands on the flash chip
        self.flash_ops = {}         # write number -> {"us", "kind": program|erase, "busy_us"}
        self.cut = None             # once the power went (cut_at): {"us", "busy", "write", "after_us", "left"}
        self.watchdog_resets = []   # us of each reset by the chip's watchdog (pico.mjs restarts the chip)
        self.connected = False
        self.dead = None
        self._acks = []
        self.stderr_tail = collections.deque(maxlen=20)  # the emulator's last words (rp2040js errors)
        # stderr read as it comes: Node writes to a pipe synchronously, so an emulator that
        # logged 64 KB nobody read would stop dead in the middle of a run (a "hang")
        self.err_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.err_reader.start()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self._wait(lambda: self._acks and self._acks[0].get("ev") == "ready", "start")
        self._acks.pop(0)

    # ------------------------------------------------------------ the Node side

    def _read(self):
        for line in self.proc.stdout:
            ev = json.loads(line)
            kind = ev["ev"]
            with self.cond:
                if kind == "serial":
                    data = bytes.fromhex(ev["hex"])
                    if self.serial_listeners:
                        for listener in self.serial_listeners:
                            listener(data)
                    else:
                        self.serial += data
                        *whole, self._partial = (self._partial + data).split(b"\n")
                        for line in whole:
                            self.lines.append((ev["us"], line.rstrip(b"\r").decode("utf-8", "replace")))
                elif kind == "frame":
                    self.frames.append({"start_us": ev["start_us"], "end_us": ev["end_us"],
                                        "sent": ev["sent"], "data": bytes.fromhex(ev["hex"]),
                                        "lanes": ev["lanes"], "timing": ev["timing"], "bad": ev["bad"]})
                elif kind == "marks":
                    self.marks.extend((us, code) for us, code in ev["at"])
                elif kind == "tone":
                    self.tones.append((ev["us"], ev["hz"]))
                elif kind == "flash":
                    self.flash_writes.append((ev["us"], ev["n"]))
                    self.flash_ops[ev["n"]] = ev
                elif kind == "cut":
                    self.cut = ev
                elif kind == "watchdog_reset":
                    # the console says so, as a line of its own (USB dropped: a line cut short ends here)
                    self.watchdog_resets.append(ev["us"])
                    note = "[the watchdog reset the chip at %.3f s]" % (ev["us"] / 1e6)
                    self.connected = False
                    if self._partial:
                        self.lines.append((ev["us"], self._partial.decode("utf-8", "replace")))
                        self._partial = b""
                    self.lines.append((ev["us"], note))
                    if self.log is not None:
                        self.log(note)
                elif kind == "connected":
                    self.connected = True
                elif kind == "at":
                    self.us = ev["us"]
                else:
                    self._acks.append(ev)
                self.cond.notify_all()
        self.err_reader.join(timeout=5)
        with self.cond:
            self.dead = "\n".join(self.stderr_tail).strip() or "the emulator stopped"
            self.cond.notify_all()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr_tail.append(line.rstrip("\n"))

    def _send(self, **cmd):
        if self.dead:
            raise UserError("the emulated Pico stopped: %s" % self.dead)
        try:
            self.proc.stdin.write(json.dumps(cmd) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._wait(lambda: False, cmd["cmd"])

    def _wait(self, done, what, timeout=WALL_TIMEOUT_S):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not done():
                if self.dead:
                    raise UserError("the emulated Pico stopped while waiting for %s: %s" % (what, self.dead))
                left = deadline - time.monotonic()
                if left <= 0:
                    said = "; the emulator last said: %s" % self.stderr_tail[-1] if self.stderr_tail else ""
                    raise UserError("the emulated Pico did not get to %s in %d s%s" % (what, timeout, said))
                self.cond.wait(left)

    # ------------------------------------------------------------ time and pins

    def run_to(self, us):
        """Let the chip run until emulated time `us` (microseconds since power on)."""
        if self.cut is not None:
            raise UserError("the emulated Pico's power was cut at t=%d us" % self.cut["us"])
        # a whole microsecond: the emulator stops at or past it, and says where in
        # its own float, which a target with a fraction (130000.216 + 5000 is
        # 135000.21600000001) could stay just above for ever (a hang under the
        # `max` flash times, where the clock's phase came to rest on such values)
        us = math.ceil(us)
        if us <= self.us:
            return
        self._send(cmd="run", until_us=us)
        self._wait(lambda: self.us >= us or self.cut is not None, "t=%d us" % us)

    def run_ms(self, ms):
        self.run_to(self.us + int(ms * 1000))

    def run_until(self, done, what, step_ms=50, limit_ms=60000):
        """Run in steps of step_ms until done() (checked between steps), at most limit_ms."""
        end = self.us + limit_ms * 1000
        while not done():
            if self.us >= end:
                raise UserError("the emulated Pico did not get to %s in %d ms of its time" % (what, limit_ms))
            self.run_ms(step_ms)

    def edge(self, pin, level, at_us=None):
        """Drive an input pin (a button: 0 = pressed, pulled up otherwise), now or at an instant."""
        if at_us is None:
            self._send(cmd="edge", pin=pin, level=level)
        else:
            self._send(cmd="edge", pin=pin, level=level, at_us=at_us)

    # ------------------------------------------------------------ the USB serial

    def write(self, data):
        self._send(cmd="serial", hex=bytes(data).hex())

    def take_serial(self):
        with self.cond:
            data = bytes(self.serial)
            del self.serial[:]
        return data

    def wait_line(self, prefix, what, step_ms=20, limit_ms=60000):
        """Run until the board writes a line starting with `prefix`; returns (us, line), earlier lines dropped."""
        def found():
            while self.lines and not self.lines[0][1].startswith(prefix):
                self.lines.pop(0)
            return bool(self.lines)
        self.run_until(found, what, step_ms, limit_ms)
        with self.cond:
            return self.lines.pop(0)

    def wait_serial(self, marker, what, step_ms=20, limit_ms=60000):
        """Run until `marker` (bytes) has come over the serial; returns everything up to and including it."""
        self.run_until(lambda: marker in self.serial, what, step_ms, limit_ms)
        with self.cond:
            at = self.serial.index(marker) + len(marker)
            data = bytes(self.serial[:at])
            del self.serial[:at]
        return data

    # ------------------------------------------------------------ the flash

    def cut_at(self, write, after_us):
        """Arrange a power cut after_us into flash write number `write` (counted from power on):
        the chip stops there, a program or erase still under way left part done as a W25Q16
        leaves it (pico.mjs, FlashChip); close(keep=True) keeps the flash as the cut left it.
        `cut` then says where it struck: {"us", "busy", "write", "after_us", "left": {"write",
        "kind", "done", "size"} or None}."""
        self._send(cmd="cut_at", write=write, after_us=after_us)

    def irq_off(self):
        """The longest stretches with interrupts off since the last ask, in us: overall, and
        with no flash write in them."""
        self._send(cmd="irq_off")
        self._wait(lambda: any(a.get("ev") == "irq_off" for a in self._acks), "the interrupts' figures")
        got = next(a for a in self._acks if a.get("ev") == "irq_off")
        self._acks.remove(got)
        return got["longest_us"], got["no_flash_us"]

    def load(self):
        """What the core did since the last ask: {"instructions", "asleep_us", "span_us"} (asleep:
        in WFI/WFE, waiting for an interrupt)."""
        self._send(cmd="load")
        self._wait(lambda: any(a.get("ev") == "load" for a in self._acks), "the core's load")
        got = next(a for a in self._acks if a.get("ev") == "load")
        self._acks.remove(got)
        return got

    def save_flash(self, path):
        self._send(cmd="save_flash", path=path)
        self._wait(lambda: any(a.get("ev") == "saved" for a in self._acks), "saving the flash")
        self._acks = [a for a in self._acks if a.get("ev") != "saved"]

    def close(self, keep=False):
        """Power off; with keep, the flash goes back to flash_image first."""
        if self.proc.poll() is None:
            try:
                if keep and self.flash_image:
                    self._send(cmd="quit", path=self.flash_image)
                else:
                    self._send(cmd="quit")
                self.proc.wait(timeout=30)
            except (UserError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.reader.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
