# What the device answers a host that asks over its serial console
# (`layerlight emulate`, the emulated Pico's tests, bench figures).
#
# Loaded only when a line starting "LL " arrives: a device nobody asks never
# imports it, and its loop only polls the console while it is idle anyway.
# Requests, one a line:
#
#   LL begin SEED [GAME PLAYERS]   a new Device with that seed (as `sim --seed`),
#                                  optionally in a game with seats P1..PN and P1
#                                  first (as `sim --game`). Its time 0 is LEAD_MS
#                                  later, so that the host can set the buttons
#                                  for it. Answer: LL {"begun": ORIGIN}, the
#                                  ticks_ms of time 0
#   LL at T                        at the device's instant T (ms), once it has taken in
#                                  the buttons' samples up to T (changes at T included):
#                                  draw the frame, send it to the LEDs, answer LL {state}
#                                  with "t", "sound" and "shown_us" (ticks_us before and
#                                  after the frame went out)
#   LL hold MS                     do nothing for MS ms (a stall, as a flash write at the
#                                  chip's slowest makes), then answer LL {"held": MS}
#   LL lag                         answer LL {"lag": samples, "lost_ms": ms}: the most samples
#                                  the loop was behind since the last ask, the samples lost
#   LL mem                         answer LL {"alloc": ..., "free": ...} after a collection
#   LL mem 0|1                     from now on, each report has "alloc" (after a collection)
#   LL time 0|1                    time each frame from now on (ticks_us); each report then
#                                  has "frames_us": [slowest first drawing, slowest steady
#                                  drawing, slowest strip write] since the last report
#
# The host never says what the buttons are: the device takes them from its own
# pins' samples (on the rp2 port, read every millisecond by PIO), as on a table.
# A host only asks what the device made of them, at an instant.

import json

LEAD_MS = 300


class HostLink:
    def __init__(self):
        self.due = []        # instants reports were asked for, in time order
        self.timing = None   # [slowest first drawing, slowest steady drawing, slowest strip write] in us
        self.mem_each = False  # each report has the heap in use after a collection
        self.sent = [0]        # the last strip write's us, when timed

    def request(self, dev, line):
        """Handle a line; returns a new Device when the host asks to begin again."""
        words = line.split()
        if len(words) < 2 or words[0] != "LL":
            return None  # not for us (a person typing on the console)
        cmd = words[1]
        try:
            if cmd == "at" and len(words) != 3:
                answer({"refused": "LL at T: the device reads its buttons from its pins"})
            elif cmd == "at":
                self.due.append(int(words[2]))
            elif cmd == "begin":
                new = begin(dev, int(words[2]), words[3] if len(words) > 3 else None,
                            int(words[4]) if len(words) > 4 else 0)
                self.due = []
                new.host = self
                if self.timing is not None:
                    self.timing = [0, 0, 0]
                    timed_render(new, self)
                return new
            elif cmd == "hold":
                ms = int(words[2])
                hold(dev, ms)
                answer({"held": ms})
            elif cmd == "lag":
                answer({"lag": dev.lag, "lost_ms": dev.lost_ms})
                dev.lag = 0
            elif cmd == "mem" and not heap_known():
                answer({"refused": "no heap figures on this port"})
            elif cmd == "mem" and len(words) > 2:
                self.mem_each = words[2] == "1"
            elif cmd == "mem":
                import gc
                gc.collect()
                answer({"alloc": gc.mem_alloc(), "free": gc.mem_free()})
            elif cmd == "time":
                self.timing = [0, 0, 0] if words[2] == "1" else None
                if self.timing is not None and not hasattr(dev, "timed"):
                    timed_render(dev, self)
            else:
                answer({"refused": "unknown request " + cmd})
        except (IndexError, ValueError) as e:
            answer({"refused": "bad request %r: %s" % (line, e)})
        return None

    def lead_in(self, dev):
        """The begun device's time 0 is LEAD_MS from now: say when, and take the
        host's first requests meanwhile. Returns that ticks_ms."""
        hw = dev.hw
        start = hw.ticks_ms()
        origin = hw.ticks_add(start, LEAD_MS)
        answer({"begun": origin})
        while hw.ticks_diff(hw.ticks_ms(), start) < LEAD_MS - 3:  # (idle may run a ms over)
            line = hw.idle(1)
            if line is not None and " begin " not in line:
                self.request(dev, line)
        return origin

    def asks(self, now):
        """A report is due at (or was asked for before) the instant `now`."""
        due = self.due
        return len(due) > 0 and due[0] <= now

    def report(self, dev, now):
        """At the instant `now`, its samples taken in: the reports asked for it."""
        due = self.due
        while due and due[0] <= now:
            t = due.pop(0)
            if t < now:
                answer({"refused": "asked for t=%d, already at %d" % (t, now)})
                continue
            whole = getattr(dev.hw, "send_whole", None)
            if whole is not None:
                whole()  # the host reads this frame off the data pin: sent even if unchanged
            t0 = dev.hw.ticks_us()
            dev.render()
            t1 = dev.hw.ticks_us()
            s = dev.state()
            s["shown_us"] = [t0, t1]
            s["t"] = now
            played = dev.sound.played  # the tunes begun since the last report, as the simulator's trace
            s["sound"] = list(played)
            del played[:]
            if self.timing is not None:
                s["frames_us"] = self.timing
                self.timing = [0, 0, 0]
            if self.mem_each:
                import gc
                gc.collect()
                s["alloc"] = gc.mem_alloc()
            answer(s)


def hold(dev, ms):
    """The loop held for ms (the samples go on meanwhile)."""
    hold_ms = getattr(dev.hw, "hold_ms", None)  # a simulated clock moves itself
    if hold_ms is not None:
        hold_ms(ms)
        return
    # asleep rather than spinning: to the loop it is the same (it reads no sample meanwhile;
    # PIO and DMA go on filing them), and the emulated chip skips a sleep where it has to run
    # every instruction of a spin (a 5 s hold was 20 s of a test's time)
    import time
    time.sleep_ms(ms)  # pyright: ignore[reportAttributeAccessIssue]


def heap_known():
    import gc
    return hasattr(gc, "mem_alloc")  # MicroPython's; CPython (a Pi with Blinka) has no such figure


def answer(obj):
    print("LL " + json.dumps(obj))


def begin(dev, seed, game, players):
    """A new Device on the same hardware, as the simulator makes one (simcore.make_device)."""
    from layerlight import startup
    dev.hw.tone(0)
    dev.drop_game()
    cfg = startup.load_config(dev.storage)
    new = type(dev)(dev.hw, cfg, seed)  # app.Device, not imported: app imports this module
    if game:
        new.start_game(game, list(range(players)), 0)
    return new


def timed_render(dev, link):
    """Make the device's render time itself: the slowest first drawing (a button
    event came in its step), the slowest steady drawing, and the slowest strip
    write (its wire time is set by the WS2812 protocol, not by the chip's speed)."""
    FRAME_MS = dev.FRAME_MS
    render = dev.render
    hw = dev.hw
    last = [0]
    sent = link.sent
    if not hasattr(hw, "timed"):  # the same hardware goes on under every begun device
        show = hw.show

        def timed_show(fb):
            t0 = hw.ticks_us()
            show(fb)
            sent[0] = hw.ticks_diff(hw.ticks_us(), t0)
        hw.show = timed_show
        hw.timed = True

    def timed():
        # a frame not on the 40 ms schedule was asked for by a button's event
        first = dev.next_frame != last[0] + FRAME_MS
        t0 = hw.ticks_us()
        render()
        us = hw.ticks_diff(hw.ticks_us(), t0) - sent[0]
        last[0] = dev.now
        timing = link.timing
        if timing is not None:
            i = 0 if first else 1
            if us > timing[i]:
                timing[i] = us
            if sent[0] > timing[2]:
                timing[2] = sent[0]
    dev.render = timed
    dev.timed = True
