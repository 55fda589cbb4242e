"""A script played on the emulated Pico, as `sim --headless` plays it on the simulator.

The script is read with the simulator's own interpreter, but instead of
stepping a device it notes when each button goes down or up and where each
line ends (emulated ms from the game's time 0). Then:

- every change becomes edges on that button's GPIO pin (pressed = low, as
  the buttons are wired to ground), with contact bounce, settled just before
  the 10 ms instant the simulator would see it at;
- every line's end becomes a request "LL at T LEVEL THEN" on the serial
  console: at instant T the device takes the buttons as LEVEL (as the line
  left them), draws its frame, sends it to the LEDs, answers with its state
  (layerlight/host_link.py), then takes them as THEN (as the next line begins
  them). The pins count between line ends; at a line's end they cannot show
  a button let go and pressed again at one instant, and a sample a flash
  write held up is the instant before's, as on a board;
- the frame for that line is the one decoded from the data pin while the
  device sent it.

Requests and edges go out AHEAD_MS of the device's time, so the device has
them before it gets there however the host and the emulator are scheduled.
"""

import json

from layerlight import boards
from layerlight_tools import simcore
from layerlight_tools.errors import UserError

AHEAD_MS = 600        # requests and edges are sent this far ahead of the device's time
RUN_MS = 100          # the emulator runs this long between two looks at what came back
# A change is made on the pin at its instant exactly: the device files a sample
# under the instant whose millisecond it was read in (micropython_hw._sample),
# so a clean edge counts at its instant, as in the simulator. A bouncing
# contact chatters after it (level, not level, ...), settled 230 us later: a
# sample read in those 230 us may see the old level and count the change one
# instant late, as a real button's bounce can.
BOUNCE_US = (0, 40, 90, 150, 230)
TICKS_US_WRAP = 1 << 30  # MicroPython's ticks_us wraps here


class Timeline(simcore.Simulator):
    """A script read as the simulator reads it, noting the buttons' changes and the lines' ends."""

    def __init__(self):
        self.t = 0
        self.pressed = 0
        self.levels = [(0, 0)]  # (t, buttons' bits from t on), one entry an instant
        self.ends = []          # (t, bits, line number) where each command line ends

    def advance(self, ms):
        self.t += ms

    def set_button(self, name, down, line_no):
        bit = 1 << self.button_index(name, line_no)
        self.pressed = self.pressed | bit if down else self.pressed & ~bit
        if self.levels[-1][0] == self.t:
            self.levels[-1] = (self.t, self.pressed)
        else:
            self.levels.append((self.t, self.pressed))

    def read(self, lines):
        """Reads every line (a bad one: simcore.ScriptError naming it); returns self."""
        no = 0
        for line in lines:
            no += 1
            if self.run_line(line, no):
                self.ends.append((self.t, self.pressed, no))
        return self

    def level_at(self, t):
        """The buttons at instant t once every line there has run."""
        bits = 0
        for at, b in self.levels:
            if at > t:
                break
            bits = b
        return bits

    def changes(self):
        """(t, bits before, bits after) where the buttons differ from one instant to the next."""
        out = []
        before = 0
        for t, bits in self.levels:
            if bits != before:
                out.append((t, before, bits))
            before = bits
        return out


class Session:
    """The game side of a booted emulated Pico: begins games and plays scripts on it."""

    def __init__(self, pico, board="pico", bounce=True, console=None):
        profile = boards.PROFILES[board]
        self.pico = pico
        self.pins = [profile["buttons"][name] for name in boards.BUTTON_NAMES]
        self.bounce = bounce
        self.console = console or (lambda line: None)
        self.origin_us = None

    def begin(self, seed, game=None, players=0):
        """A new device with this seed (as `sim --seed --game --players`); returns once the host
        knows its time 0 (emulated us)."""
        request = "LL begin %d" % seed
        if game is not None:
            request += " %s %d" % (game, players)
        self.pico.write((request + "\n").encode())
        line = self._wait_answer(lambda obj: "begun" in obj, "the device to begin a game")
        self.origin_us = line["begun"] * 1000
        return self.origin_us

    def play(self, timeline, on_line, on_error=None):
        """Plays the timeline from the device's time 0; on_line(report, frame bytes or None, line
        number) after each line."""
        if self.origin_us is None:
            raise UserError("begin a game before playing a script")
        changes = timeline.changes()
        ends = timeline.ends
        sent_changes = sent_ends = done = 0
        pico = self.pico
        while done < len(ends):
            horizon = (pico.us - self.origin_us) // 1000 + AHEAD_MS
            while sent_changes < len(changes) and changes[sent_changes][0] <= horizon:
                self._edges(*changes[sent_changes])
                sent_changes += 1
            requests = []
            while sent_ends < len(ends) and ends[sent_ends][0] <= horizon:
                t, bits, _no = ends[sent_ends]
                requests.append("LL at %d %d %d\n" % (t, bits, timeline.level_at(t)))
                sent_ends += 1
            if requests:
                pico.write("".join(requests).encode())
            pico.run_ms(RUN_MS)
            for report in self.answers():
                t, _bits, no = ends[done]
                if report.get("t") != t:
                    raise UserError("the device answered for t=%s, expected line %d at t=%d: %s"
                                    % (report.get("t"), no, t, report))
                on_line(report, self._frame(report), no)
                done += 1

    # ------------------------------------------------------------ the pins

    def _edges(self, t, before, after):
        at = self.origin_us + t * 1000
        for b, pin in enumerate(self.pins):
            bit = 1 << b
            if (before ^ after) & bit:
                level = 0 if after & bit else 1  # pressed pulls the pin low
                steps = BOUNCE_US if self.bounce else (0,)
                for i, dt in enumerate(steps):
                    self.pico.edge(pin, level ^ (i % 2), at + dt)

    # ------------------------------------------------------------ the console

    def answers(self):
        """The device's answers that came in (dicts), its other lines to the console."""
        out = []
        pico = self.pico
        with pico.cond:
            lines = pico.lines[:]
            del pico.lines[:]
        for us, text in lines:
            if text.startswith("LL {"):
                obj = json.loads(text[3:])
                if "refused" in obj:
                    raise UserError("the device refused a request: %s" % obj["refused"])
                obj["_us"] = us
                out.append(obj)
            else:
                self.console(text)
        return out

    def _wait_answer(self, want, what, limit_ms=5000):
        found = []

        def done():
            found.extend(a for a in self.answers() if want(a))
            return bool(found)
        self.pico.run_until(done, what, step_ms=5, limit_ms=limit_ms)
        return found[0]

    def _frame(self, report):
        """The frame the device sent while answering (its shown_us, ticks_us before and after)."""
        t0, t1 = report.get("shown_us", (None, None))
        if t0 is None:
            return None
        for attempt in range(2):
            with self.pico.cond:
                frames = self.pico.frames[-50:]
            for f in reversed(frames):
                start = int(f["start_us"]) % TICKS_US_WRAP
                if (start - t0) % TICKS_US_WRAP <= (t1 - t0) % TICKS_US_WRAP:
                    return f["data"]
            self.pico.run_ms(1)  # its latch had not passed yet
        raise UserError("no frame on the data pin between ticks_us %d and %d (t=%s)" % (t0, t1, report.get("t")))


def trace_state(report, frame, cfg, frames=False):
    """A report as a trace line's state: the simulator's keys; with frames, the frame as sent."""
    from layerlight_tools.pico import wire
    state = {k: v for k, v in report.items() if k not in ("shown_us", "frames_us", "alloc", "_us")}
    if frames:
        state["frame"] = wire.logical_rows(frame, cfg) if frame is not None else None
    return state
