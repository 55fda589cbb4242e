"""A Layerlight board on a USB serial port, through mpremote's Python API.

`find_port()` picks the board's port; `Board(port)` opens it, stops whatever
runs (a soft reset into the raw REPL, as `mpremote` does) and offers what
`flash`, `doctor` and `monitor` need: the board's MicroPython version, small
file operations run on the board (hashes, atomic writes), console reading.
Every failure a person can cause (wrong port, no MicroPython, cable pulled)
comes out as a one-line UserError.
"""

import base64
import contextlib
import io
import os
import sys
import time

from layerlight_tools.errors import UserError

ERROR_LOG = "errors.log"        # the firmware's error log on the board's flash
CONNECT_TIMEOUT = 5.0           # s for a MicroPython REPL to answer Ctrl-C / Ctrl-A
READ_TIMEOUT = 2.0              # s pyserial waits for a byte
MIN_VERSION = (1, 22)
CHUNK = 2048                    # bytes of file data per command sent
READ_CHUNK = 4096               # bytes of file data per command read (a few KB of the board's heap)

# sys.implementation._mpy >> 10 (see MicroPython's docs, "MicroPython .mpy files")
MPY_ARCHES = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
              "xtensa", "xtensawin", "rv32imc", "rv64imc")

# USB ids of MicroPython boards, and of the USB-serial chips of ESP32 boards.
KNOWN_USB = {
    (0x2E8A, 0x0005): "Raspberry Pi Pico / Pico 2 running MicroPython",
    (0x303A, 0x4001): "ESP32-S3 running MicroPython (native USB)",
    (0x303A, 0x1001): "ESP32-S3 (USB serial/JTAG)",
    (0x10C4, 0xEA60): "CP210x USB-serial (ESP32 board)",
    (0x1A86, 0x7523): "CH340 USB-serial (ESP32 board)",
    (0x1A86, 0x55D4): "CH9102 USB-serial (ESP32 board)",
    (0xF055, 0x9800): "MicroPython board",
}

# Board profile (firmware/layerlight/boards.py) from sys.implementation._machine.
CHIP_BOARDS = (("RP2350", "pico2"), ("RP2040", "pico"), ("ESP32S3", "esp32s3"), ("ESP32-S3", "esp32s3"))

# Where to get MicroPython for a board profile.
DOWNLOADS = {
    "pico": "https://micropython.org/download/RPI_PICO/",
    "pico2": "https://micropython.org/download/RPI_PICO2/",
    "esp32s3": "https://micropython.org/download/ESP32_GENERIC_S3/",
}

# Run on the board once per session: small file tools the commands call.
HELPERS = r"""
import os, binascii
try:
    import hashlib
    _ll_sha = hashlib.sha256
except (ImportError, AttributeError):
    _ll_sha = None
_ll_buf = bytearray(1024)
_ll_f = None
def _ll_hash(p):
    if _ll_sha is None:
        return None
    h = _ll_sha()
    mv = memoryview(_ll_buf)
    try:
        with open(p, 'rb') as f:
            while True:
                n = f.readinto(_ll_buf)
                if not n:
                    break
                h.update(mv[:n])
    except OSError:
        return None
    return binascii.hexlify(h.digest()).decode()
def _ll_isdir(p):
    try:
        return os.stat(p)[0] & 0x4000 != 0
    except OSError:
        return False
def _ll_walk(d, pre=''):
    out = []
    try:
        es = list(os.ilistdir(d))
    except OSError:
        return out
    for e in es:
        if e[1] & 0x4000:
            out += _ll_walk(d + '/' + e[0], pre + e[0] + '/')
        else:
            out.append(pre + e[0])
    return out
def _ll_hashes(d):
    r = {}
    for q in _ll_walk(d):
        r[q] = _ll_hash(d + '/' + q)
    return r
def _ll_read(p):
    try:
        with open(p) as f:
            return f.read()
    except OSError:
        return None
def _ll_mkdirs(p):
    q = ''
    for part in p.strip('/').split('/'):
        q += '/' + part
        if not _ll_isdir(q):
            os.mkdir(q)
def _ll_rm(p):
    try:
        os.remove(p)
    except OSError:
        pass
def _ll_cp(a, b):
    mv = memoryview(_ll_buf)
    with open(a, 'rb') as s, open(b, 'wb') as d:
        while True:
            n = s.readinto(_ll_buf)
            if not n:
                break
            d.write(mv[:n])
def _ll_open(p):
    global _ll_f
    _ll_f = open(p, 'wb')
def _ll_w(s):
    _ll_f.write(binascii.a2b_base64(s))
def _ll_wr(b):
    _ll_f.write(b)
# base64 (4 characters for 3 bytes) unless binascii is Python, not C (the WebAssembly port)
_ll_b64 = not hasattr(binascii, '__file__')
def _ll_close():
    global _ll_f
    _ll_f.close()
    _ll_f = None
def _ll_rmtree(p):
    if _ll_isdir(p):
        for e in list(os.ilistdir(p)):
            _ll_rmtree(p + '/' + e[0])
        os.rmdir(p)
    else:
        _ll_rm(p)
def _ll_free():
    st = os.statvfs('/')
    return st[0] * st[4]
def _ll_rd(p, at, n):
    try:
        with open(p, 'rb') as f:
            f.seek(at)
            return f.read(n)
    except OSError:
        return None
"""

# Defines _ll_uf2(): the version of the Layerlight UF2 (frozen module layerlight_build), or None.
UF2_PROBE = """
def _ll_uf2():
    try:
        import layerlight_build
    except ImportError:
        return None
    return layerlight_build.VERSION
"""

# Sets the board's clock; prints 1, or 0 on a port with no machine.RTC (or one that refuses).
SET_CLOCK = """
try:
    import machine
    machine.RTC().datetime(%r)
    print(1)
except Exception:
    print(0)
"""


# ---------------------------------------------------------------- finding the port


def describe_port(p):
    ids = "%04x:%04x" % (p.vid, p.pid) if p.vid is not None and p.pid is not None else "no USB id"
    what = p.description if p.description and p.description != "n/a" else ""
    return "%s (%s%s)" % (p.device, ids, ", " + what if what else "")


def is_micropython_port(p):
    if p.vid is None or p.pid is None:
        return False
    return (p.vid, p.pid) in KNOWN_USB or (p.vid == 0xF055)


def find_port(ports=None):
    """The one serial port a MicroPython board is on; UserError naming the ports otherwise."""
    if ports is None:
        from serial.tools import list_ports
        ports = list(list_ports.comports())
    ports = sorted(ports, key=lambda p: p.device)
    boards = [p for p in ports if is_micropython_port(p)]
    if len(boards) == 1:
        return boards[0].device
    if not boards:
        if not ports:
            raise UserError("no serial ports found: plug the board in with a data USB cable "
                            "(and on Linux, be in the dialout group), or give --port")
        raise UserError("no MicroPython board among the serial ports (%s): plug it in, or give --port PORT"
                        % "; ".join(describe_port(p) for p in ports))
    raise UserError("several boards found (%s): pick one with --port PORT"
                    % "; ".join(describe_port(p) for p in boards))


# ---------------------------------------------------------------- versions


def board_for(machine):
    """The board profile for sys.implementation._machine, or None."""
    text = (machine or "").upper()
    for chip, board in CHIP_BOARDS:
        if chip in text:
            return board
    return None


def check_version(info, board=None):
    """Refuses a MicroPython older than MIN_VERSION, with how to update it."""
    version = tuple(info["version"][:3])
    if version[:2] < MIN_VERSION:
        where = DOWNLOADS.get(board or board_for(info.get("machine")) or "", "https://micropython.org/download/")
        raise UserError("the board runs MicroPython %s; Layerlight needs %d.%d or newer: install a current "
                        "MicroPython from %s (for a Pico: hold BOOTSEL while plugging it in, then copy the "
                        ".uf2 onto the RPI-RP2 drive)" % (".".join(str(v) for v in version),
                                                          MIN_VERSION[0], MIN_VERSION[1], where))


def mpy_abi(info):
    """(.mpy version, sub-version, arch name or None) of the board, from sys.implementation._mpy."""
    mpy = info.get("mpy")
    if mpy is None:
        return None
    arch = mpy >> 10
    return (mpy & 0xFF, (mpy >> 8) & 3, MPY_ARCHES[arch] if arch < len(MPY_ARCHES) else None)


# ---------------------------------------------------------------- the board


class Board:
    """An open connection to a MicroPython board, in its raw REPL."""

    def __init__(self, port, soft_reset=True, timeout=None, enter=True):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.port = port
        self.TransportError = TransportError
        if port.startswith("/") and not os.path.exists(port):
            raise UserError("%s: no such serial port (is the board plugged in?)" % port)
        if port.startswith("/") and not os.access(port, os.R_OK | os.W_OK):
            raise UserError("%s: no permission to open it (on Linux: sudo usermod -aG dialout $USER, then log "
                            "in again)" % port)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.t = SerialTransport(port, baudrate=115200, timeout=READ_TIMEOUT)
        except TransportError as e:
            raise UserError("%s: cannot open it (%s; is another program, e.g. Thonny or a serial "
                            "monitor, using it?)" % (port, e))
        self.helpers = False
        if enter:
            self.enter(soft_reset, timeout)

    def enter(self, soft_reset=True, timeout=None):
        """Stop what runs and enter the raw REPL (soft reset: a fresh heap, main.py not run)."""
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.t.enter_raw_repl(soft_reset=soft_reset, timeout_overall=timeout)
        except (self.TransportError, OSError) as e:
            self.close()
            if isinstance(e, OSError) and not isinstance(e, self.TransportError):
                raise UserError("%s: the connection broke (%s)" % (self.port, e))
            raise UserError("%s: no MicroPython REPL answered within %g s (is it the board's port, with "
                            "MicroPython on the board?)" % (self.port, timeout))
        self.helpers = False

    def close(self):
        t = getattr(self, "t", None)
        if t is not None:
            try:
                t.close()
            except OSError:  # e.g. a port without modem lines refuses DTR/RTS
                try:
                    t.serial.close()
                except OSError:
                    pass
            self.t = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- running code -----------------------------------------------------

    def exec(self, code, timeout=10, consumer=None):
        """Runs code on the board; returns its output (bytes). UserError on a Python error or a lost board."""
        try:
            out, err = self.t.exec_raw(code, timeout=timeout, data_consumer=consumer)
        except (self.TransportError, OSError) as e:
            raise UserError("%s: lost the board (%s); check the cable and run the command again" % (self.port, e))
        if err:
            lines = err.decode(errors="replace").strip().splitlines()
            raise BoardError(lines[-1] if lines else "error", err.decode(errors="replace"))
        return out

    def eval(self, expr, timeout=10):
        import ast
        out = self.exec("print(repr(%s))" % expr, timeout=timeout)
        return ast.literal_eval(out.decode().strip())

    def info(self):
        """The board's MicroPython: version, .mpy ABI, machine, platform, free heap and flash."""
        v = self.eval("(__import__('sys').implementation.version[:3], "
                      "getattr(__import__('sys').implementation, '_mpy', None), "
                      "getattr(__import__('sys').implementation, '_machine', ''), __import__('sys').platform)")
        return {"version": tuple(v[0]), "mpy": v[1], "machine": v[2], "platform": v[3]}

    def layerlight_uf2(self):
        """The Layerlight version frozen into the board's firmware (the Layerlight UF2), or None
        (stock MicroPython, the firmware put on as files by `layerlight flash`)."""
        self.exec(UF2_PROBE)
        return self.eval("_ll_uf2()")

    def load_helpers(self):
        if not self.helpers:
            self.exec(HELPERS)
            self.base64 = self.eval("_ll_b64")
            self.helpers = True

    # --- files ------------------------------------------------------------

    def read_text(self, path):
        self.load_helpers()
        return self.eval("_ll_read(%r)" % path)

    def read_bytes(self, path):
        """The file's bytes, or None if it does not exist. Read a piece at a time: a file
        as long as the play log (138 KB) would not fit in a Pico's heap as one string."""
        self.load_helpers()
        data = b""
        while True:
            part = self.eval("_ll_rd(%r, %d, %d)" % (path, len(data), READ_CHUNK))
            if part is None:
                return data or None
            data += part
            if len(part) < READ_CHUNK:
                return data

    def put(self, path, data, progress=None):
        """Writes data to path on the board (progress(sent, total) after each chunk)."""
        self.load_helpers()
        try:
            self.exec("_ll_open(%r)" % path)
            sent = 0
            while sent < len(data):
                chunk = data[sent:sent + CHUNK]
                if self.base64:
                    self.exec("_ll_w(%r)" % base64.b64encode(chunk))
                else:
                    self.exec("_ll_wr(%r)" % chunk)
                sent += len(chunk)
                if progress:
                    progress(sent, len(data))
            self.exec("_ll_close()")
        except BoardError as e:
            hint = " (the flash is full)" if "ENOSPC" in str(e) or str(e).endswith(": 28") else ""
            raise BoardError("cannot write %s on the board: %s%s" % (path, e, hint), e.traceback)

    def put_atomic(self, path, data, progress=None):
        """Writes path.new, then renames it over path: a cut cable leaves the old file or the new one."""
        self.put(path + ".new", data, progress)
        self.exec("import os\nos.rename(%r, %r)" % (path + ".new", path))


def set_clock(board, now=None):
    """Sets the board's clock (machine.RTC) to the PC's local time, `now` (a time.struct_time)
    or the present. A Pico has no battery for its clock: it starts at 2021-01-01 at each
    power-on, and the games it logs carry a date only once a host set it. Returns the time
    set ("YYYY-MM-DD HH:MM"), or None on a port without machine.RTC (its games simply have
    no date)."""
    t = time.localtime() if now is None else now
    # RTC.datetime's order: year, month, day, weekday (Monday 0, as tm_wday), h, min, s, subseconds
    fields = (t.tm_year, t.tm_mon, t.tm_mday, t.tm_wday, t.tm_hour, t.tm_min, t.tm_sec, 0)
    if board.exec(SET_CLOCK % (fields,)).strip() != b"1":
        return None
    return "%04d-%02d-%02d %02d:%02d" % (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min)


class BoardError(UserError):
    """Python on the board raised; str() is the last line of its traceback."""

    def __init__(self, line, traceback=""):
        UserError.__init__(self, line)
        self.traceback = traceback


def console_text(data, decoder=None):
    """Board output as text for a terminal: \\r dropped (boards end lines with \\r\\n), and the
    control bytes of the REPL protocol (Ctrl-D...) too. Pass an incremental decoder to
    decode a stream chunk by chunk."""
    text = decoder.decode(data) if decoder is not None else data.decode("utf-8", errors="replace")
    return "".join(ch for ch in text if ch >= " " or ch in "\n\t")


def read_for(serial, seconds, on_data=None, stop=None):
    """Reads what the board prints for `seconds` (None: until stop() or Ctrl-C); returns it."""
    got = b""
    end = None if seconds is None else time.monotonic() + seconds
    while end is None or time.monotonic() < end:
        n = serial.in_waiting
        if n:
            data = serial.read(n)
            got += data
            if on_data:
                on_data(data)
            if stop is not None and stop(got):
                break
        else:
            time.sleep(0.02)
    return got


def print_now(text="", end="\n"):
    sys.stdout.write(text + end)
    sys.stdout.flush()
