# The device behind the web page: the real firmware on the simulated hardware
# of simcore, driven from the page's animation loop one short call at a time.
#
# Written in the Python that MicroPython also runs: the page loads it, with
# the firmware and simcore, into the MicroPython WebAssembly build in the
# browser. Methods take and return plain ints and strs (JSON for the state),
# so nothing but plain values crosses between Python and JavaScript.

import binascii

from layerlight_tools import simcore

MAX_STEPS = 80       # loop passes per advance(): a call stays short, even after the tab slept
# A click can go down and up between two animation frames, and two clicks can
# come closer than the debounce time. So every change is queued and reaches
# the device no sooner than these times (virtual ms) after that button's last
# change: a press lasts at least PRESS_MS, like `press` in a script.
PRESS_MS = simcore.PRESS_MS
GAP_MS = 40


class WebDevice:
    """One simulated device; its flash (a dict name -> bytes) outlives a pulled plug."""

    def __init__(self, flash, width=16, height=16, seed=1, game=None, players=0):
        self.factory = dict(flash)  # the files the device was shipped with
        self.logs = []
        self.reset(width, height, seed, game, players)

    # --- power ---------------------------------------------------------------

    def reset(self, width, height, seed, game=None, players=0):
        """A new device with factory flash, `width` x `height` LEDs.

        game None or '' boots to the menu; with a game and players > 0 the game
        starts with seats P1..Pn joined and P1 first (like `sim --game`);
        players 0 starts it at its own beginning (joining).
        """
        self.width = width
        self.height = height
        self._boot(dict(self.factory), seed, game or None, players)

    def pull_plug(self, seed):
        """Power cut: the device is gone; a fresh one boots over the same flash, to its menu."""
        self._boot(self.dev.hw.storage.files, seed, None, 0)

    def _boot(self, files, seed, game, players):
        self.dev = None
        if game is not None and players > 0:
            dev = simcore.make_device(files, self.width, self.height, seed, game, players, self._log)
        else:
            dev = simcore.make_device(files, self.width, self.height, seed, None, 0, self._log)
            if game is not None:
                dev.start_game(game)
        self.dev = dev
        self._synced = dict(files)  # what the folder of `--web --flash DIR` already has
        self.t = 0
        self._queue = []            # (button, down) not yet seen by the device
        self._changed = [-GAP_MS] * 6
        self._freq = -1
        self._tones = []
        self._shown = None
        dev.step(0)
        self._note_tone()

    def _log(self, line):
        self.logs.append(line)
        if len(self.logs) > 200:
            del self.logs[0]

    # --- time and buttons ------------------------------------------------------

    def button(self, b, down):
        """Button b (P1..P4 = 0..3, A = 4, B = 5) goes down or up; the device sees it at once when it can."""
        self._queue.append((b, bool(down)))
        self._apply()
        return len(self._queue)

    def _apply(self):
        """Hand queued button changes to the device, in order, each as soon as it may happen."""
        hw = self.dev.hw
        queue = self._queue
        while queue:
            b, down = queue[0]
            bit = 1 << b
            if bool(hw.pressed & bit) == down:
                queue.pop(0)
                continue
            if self.t < self._changed[b] + (GAP_MS if down else PRESS_MS):
                return
            queue.pop(0)
            self._changed[b] = self.t
            if down:
                hw.pressed |= bit
            else:
                hw.pressed &= ~bit
            self.dev.step(self.t)  # the device polls all the time: it sees the change now
            self._note_tone()

    def advance(self, ms):
        """Let up to `ms` of virtual time pass, in 10 ms loop passes; returns the ms really passed."""
        ms = int(ms)
        dev = self.dev
        hw = dev.hw
        start = self.t
        end = start + min(ms, MAX_STEPS * simcore.STEP_MS)
        t = start
        while t + simcore.STEP_MS <= end:
            t += simcore.STEP_MS
            hw.clock = t
            dev.step(t)
            self.t = t
            if self._queue:
                self._apply()
            if hw.freq != self._freq:
                self._note_tone()
        return t - start

    def _note_tone(self):
        f = self.dev.hw.freq
        if f != self._freq:
            self._freq = f
            self._tones.append("%d:%d" % (self.t, f))
            if len(self._tones) > 64:
                del self._tones[0]

    # --- what the page shows -----------------------------------------------------

    def frame(self):
        """The LEDs as hex RRGGBB row by row, top row first; '' when unchanged since the last call."""
        buf = self.dev.fb.buf
        if self._shown is not None and self._shown == buf:
            return ""
        self._shown = bytes(buf)
        return binascii.hexlify(buf).decode()

    def cap(self):
        """The brightness the firmware set (the page shows the LEDs' light at it: led_colour)."""
        return "%g" % self.dev.hw.cap

    def tones(self):
        """Buzzer changes since the last call: 'ms:hz' items, comma-separated (0 Hz = silent)."""
        out = ",".join(self._tones)
        del self._tones[:]
        return out

    def status(self):
        """The state as the headless simulator traces it (JSON), plus the virtual time `t`."""
        s = self.dev.state()
        s["t"] = self.t
        return simcore.dumps(s)

    def flash_changes(self):
        """The files written or removed since the last call, as JSON {name: base64 or null}
        ("{}" when none): the page sends them to the server of `sim --web --flash DIR`."""
        files = self.dev.hw.storage.files
        synced = self._synced
        out = []
        for name in files:
            if synced.get(name) is not files[name]:  # a write makes a new bytes object
                synced[name] = files[name]
                out.append('"%s": "%s"' % (name, binascii.b2a_base64(files[name]).decode().strip()))
        for name in [n for n in synced if n not in files]:
            del synced[name]
            out.append('"%s": null' % name)
        return "{" + ", ".join(out) + "}"

    def flash_names(self):
        """The files on the device's flash, comma-separated, sorted."""
        return ",".join(sorted(self.dev.hw.storage.files))

    def console(self):
        """Console lines since the last call, newline-separated."""
        out = "\n".join(self.logs)
        del self.logs[:]
        return out


def mode_names():
    """The game modes of the firmware, comma-separated."""
    from layerlight import modes
    return ",".join(modes.names())
