"""A script played on the emulated Pico, as `sim --headless` plays it on the simulator.

The script is read with the simulator's own interpreter, but instead of
stepping a device it notes when each button goes down or up and where each
line ends (emulated ms from the game's time 0). Then:

- every change becomes edges on that button's GPIO pin (pressed = low, as
  the buttons are wired to ground) at its instant, with contact bounce after
  it. The device reads its pins every millisecond (PIO) and takes a change in
  at the millisecond it read it, as on a table. A button let go and pressed
  again at one instant (two lines, which the simulator steps one after the
  other) gets a real gap on the pin: each later change of the same button at
  that instant comes GAP_MS after the one before (the debouncer ignores both
  alike: it lets a button change once in 20 ms);
- every instant where lines end becomes a request "LL at T" on the serial
  console: once the device has taken in its samples up to T, it draws its
  frame, sends it to the LEDs and answers with its state
  (layerlight/host_link.py). The host never says what the buttons are. The
  pins cannot show what was between two changes at one instant, so a report
  comes after every change at its instant: lines that end at one instant get
  one report, after the last of them, and a line that ends where the next
  line changes a button (`wait 40` then `press P1`) gets none;
- the frame for that report is the one decoded from the data pin while the
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
GAP_MS = 2            # a button changed twice at one instant: the second change this much later
                      # (two samples: a change one sample long is a glitch, app.Device.run)
FRAME_WAIT_MS = 60    # a frame is on the wire this long at most after it began (32x32: 31 ms)
# A bouncing contact chatters after its change (level, not level, ...), settled
# 230 us later: the millisecond's reading may catch it mid-bounce and take the
# change a millisecond late, as a real button's bounce can.
BOUNCE_US = (0, 40, 90, 150, 230)
TICKS_US_WRAP = 1 << 30  # MicroPython's ticks_us wraps here


class Timeline(simcore.Simulator):
    """A script read as the simulator reads it, noting the buttons' changes and the lines' ends."""

    def __init__(self):
        self.t = 0
        self.pressed = 0
        self.changes = []       # (us, button, down) on the pins, in time order
        self.ends = []          # (t, bits, line number) where each command line ends
        self._at = {}           # button -> (instant of its last change, changes there)
        self._by_line = []      # (us, index of the line) of each change

    def advance(self, ms):
        self.t += ms

    def set_buttons(self, names, down, line_no):
        for name in names:
            b = self.button_index(name, line_no)
            bit = 1 << b
            if bool(self.pressed & bit) == down:
                continue  # no change on the pin
            self.pressed ^= bit
            # a button already changed at this instant changes again GAP_MS later
            t, n = self._at.get(b, (-1, 0))
            n = n + 1 if t == self.t else 0
            self._at[b] = (self.t, n)
            self.changes.append(((self.t + n * GAP_MS) * 1000, b, down))
            self._by_line.append(((self.t + n * GAP_MS) * 1000, len(self.ends)))

    def read(self, lines):
        """Reads every line (a bad one: simcore.ScriptError naming it); returns self."""
        no = 0
        for line in lines:
            no += 1
            if self.run_line(line, no):
                self.ends.append((self.t, self.pressed, no))
        self.changes.sort(key=lambda c: c[0])
        return self

    def reported(self):
        """The indexes (in ends) of the lines the device reports after: the last line
        ending at each instant, unless a later line changes a button at that very
        instant (the pins show both changes at once: that later line is reported)."""
        ends = self.ends
        later = set((us, i) for us, i in self._by_line)
        out = []
        for i in range(len(ends)):
            us = ends[i][0] * 1000
            if i + 1 < len(ends) and ends[i + 1][0] == ends[i][0]:
                continue
            if any((us, j) in later for j in range(i + 1, len(ends) + 1)):
                continue
            out.append(i)
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
        number) after the last line ending at each instant (Timeline.reported)."""
        if self.origin_us is None:
            raise UserError("begin a game before playing a script")
        changes = timeline.changes
        ends = [timeline.ends[i] for i in timeline.reported()]
        sent_changes = sent_ends = done = 0
        pico = self.pico
        while done < len(ends):
            horizon = (pico.us - self.origin_us) // 1000 + AHEAD_MS
            while sent_changes < len(changes) and changes[sent_changes][0] <= horizon * 1000:
                self._edges(*changes[sent_changes])
                sent_changes += 1
            requests = []
            while sent_ends < len(ends) and ends[sent_ends][0] <= horizon:
                requests.append("LL at %d\n" % ends[sent_ends][0])
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

    def _edges(self, us, b, down):
        at = self.origin_us + us
        level = 0 if down else 1  # pressed pulls the pin low
        steps = BOUNCE_US if self.bounce else (0,)
        for i, dt in enumerate(steps):
            self.pico.edge(self.pins[b], level ^ (i % 2), at + dt)

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
        for attempt in range(FRAME_WAIT_MS // 2):
            with self.pico.cond:
                frames = self.pico.frames[-50:]
            for f in reversed(frames):
                start = int(f["start_us"]) % TICKS_US_WRAP
                if (start - t0) % TICKS_US_WRAP <= (t1 - t0) % TICKS_US_WRAP:
                    return f["data"]
            # still on the wire (DMA sends it while the device goes on), or its latch to come
            self.pico.run_ms(2)
        raise UserError("no frame on the data pin between ticks_us %d and %d (t=%s)" % (t0, t1, report.get("t")))


def trace_state(report, frame, cfg, frames=False):
    """A report as a trace line's state: the simulator's keys; with frames, the frame as sent."""
    from layerlight_tools.pico import wire
    state = {k: v for k, v in report.items() if k not in ("shown_us", "frames_us", "alloc", "_us")}
    if frames:
        state["frame"] = wire.logical_rows(frame, cfg) if frame is not None else None
    return state
