"""A MicroPython board on a pseudo-terminal, for tests without hardware.

    with PtyDevice() as dev:
        dev.port              # "/dev/pts/N": give it to mpremote / `layerlight flash`
        dev.control("status") # the harness's control channel (see pty_device.mjs)

The real MicroPython (npm WebAssembly build) runs in Node on the master side
(tests/wasm/pty_device.mjs); host tools open the slave side like a board's
USB serial port. Over a pty this is fast; TCP through pyserial's socket://
would be slow, since pyserial does not set TCP_NODELAY.

The test keeps a descriptor of the slave open for the harness's lifetime:
when the last one closes, the master reads EIO and the line settings reset.
"""

import base64
import fcntl
import json
import os
import select
import subprocess
import time
import tty
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SCRIPT = HERE / "pty_device.mjs"
RUNTIME = HERE / "pty_device_runtime.py"


class HarnessError(RuntimeError):
    pass


class PtyDevice:
    def __init__(self, flash_dir=None, clock="real", raw_paste=True, node="node"):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line editing: a serial line
        self.port = os.ttyname(self.slave)
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        ctl_r, self._ctl_w = os.pipe()
        self._rep_r, rep_w = os.pipe()
        flags = fcntl.fcntl(ctl_r, fcntl.F_GETFL)
        fcntl.fcntl(ctl_r, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        cmd = [node, str(SCRIPT), "--runtime", str(RUNTIME), "--ctl-in", str(ctl_r), "--ctl-out", str(rep_w),
               "--clock", clock, "--raw-paste", "on" if raw_paste else "off"]
        if flash_dir is not None:
            cmd += ["--flash", str(flash_dir)]
        self.proc = subprocess.Popen(cmd, cwd=REPO, stdin=self.master, stdout=self.master,
                                     stderr=subprocess.PIPE, pass_fds=(ctl_r, rep_w))
        os.close(ctl_r)
        os.close(rep_w)
        self._rep_buf = b""
        self.control("status", timeout=30)  # up and booted

    # ------------------------------------------------------------- control

    def control(self, cmd, timeout=30, **args):
        req = dict(args, cmd=cmd)
        os.write(self._ctl_w, (json.dumps(req) + "\n").encode())
        end = time.monotonic() + timeout
        while b"\n" not in self._rep_buf:
            left = end - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise HarnessError("no answer to %r from the pty device%s" % (cmd, self._stderr_tail()))
            r, _, _ = select.select([self._rep_r], [], [], min(left, 0.5))
            if r:
                chunk = os.read(self._rep_r, 65536)
                if not chunk:
                    raise HarnessError("the pty device exited%s" % self._stderr_tail())
                self._rep_buf += chunk
        line, self._rep_buf = self._rep_buf.split(b"\n", 1)
        reply = json.loads(line)
        if "error" in reply:
            raise HarnessError("%s: %s" % (cmd, reply["error"]))
        return reply

    def files(self):
        """{path: sha256 hex} of every file on the board's flash."""
        return self.control("files")["files"]

    def read(self, path):
        data = self.control("read", path=path)["data"]
        return None if data is None else base64.b64decode(data)

    def write(self, path, data):
        self.control("write", path=path, data=base64.b64encode(data).decode())

    def status(self):
        return self.control("status")

    def power_cycle(self):
        return self.control("power_cycle")

    def script(self, text, seed=None):
        return self.control("script", text=text, seed=seed if seed is not None else -1)["trace"]

    def leds(self):
        return bytes.fromhex(self.control("leds")["hex"])

    def press(self, pin, after_ms=50, hold_ms=120):
        self.control("press", pin=pin, after_ms=after_ms, hold_ms=hold_ms)

    def tones(self):
        return self.control("tones")["tones"]

    def console(self, timeout=0.5, until=None):
        """What the board printed since the last read (only while no host tool has the port open)."""
        out = b""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r, _, _ = select.select([self.slave], [], [], 0.05)
            if r:
                out += os.read(self.slave, 65536)
                if until is not None and until in out:
                    break
        return out

    # ------------------------------------------------------------- teardown

    def _stderr_tail(self):
        if self.proc.poll() is None:
            return ""
        err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
        return " (exit %s)\n%s" % (self.proc.returncode, err[-3000:])

    def close(self):
        if self._ctl_w is not None:
            os.close(self._ctl_w)  # the harness exits when its control channel closes
            self._ctl_w = None
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stderr:
            self.proc.stderr.close()
        os.close(self._rep_r)
        os.close(self.master)
        os.close(self.slave)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
