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
#   LL at T LEVEL                  at the grid's instant T (ms), once the buttons
#                                  read LEVEL (bits, P1 = 1): draw the frame,
#                                  send it to the LEDs, answer LL {state} with
#                                  "t", "sound" and "shown_us" (ticks_us before
#                                  and after the frame went out)
#   LL mem                         answer LL {"alloc": ..., "free": ...} after a collection
#   LL time 0|1                    time each frame's drawing and sending (ticks_us)
#                                  from now on; each report then has "frames_us":
#                                  [slowest first frame, slowest steady frame] since the last
#
# The buttons still come from the pins: LEVEL only orders two changes that
# the 10 ms samples cannot tell apart (a script's `up A` and `down B` at one
# instant: one trace line each in the simulator).

import json

LEAD_MS = 300


class HostLink:
    def __init__(self):
        self.due = []        # (t, level) reports asked for, in time order
        self.timing = None   # [slowest first frame, slowest steady frame] in us, when asked

    def request(self, dev, line):
        """Handle a line; returns a new Device when the host asks to begin again."""
        words = line.split()
        if len(words) < 2 or words[0] != "LL":
            return None  # not for us (a person typing on the console)
        cmd = words[1]
        try:
            if cmd == "at":
                self.due.append((int(words[2]), int(words[3])))
            elif cmd == "begin":
                new = begin(dev, int(words[2]), words[3] if len(words) > 3 else None,
                            int(words[4]) if len(words) > 4 else 0)
                self.due = []
                new.host = self
                if self.timing is not None:
                    self.timing = [0, 0]
                    timed_render(new, self)
                return new
            elif cmd == "mem":
                import gc
                gc.collect()
                answer({"alloc": gc.mem_alloc(), "free": gc.mem_free()})
            elif cmd == "time":
                self.timing = [0, 0] if words[2] == "1" else None
                if self.timing is not None:
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
        while hw.ticks_diff(hw.ticks_ms(), start) < LEAD_MS:
            line = hw.idle(1)
            if line is not None and " begin " not in line:
                self.request(dev, line)
        return origin

    def at(self, dev, now, level):
        """At the grid's instant `now`: the reports asked for it; returns the buttons' level."""
        due = self.due
        while due and due[0][0] <= now:
            t, want = due.pop(0)
            if t < now:
                answer({"refused": "asked for t=%d, already at %d" % (t, now)})
                continue
            if want != level:
                level = want
                dev.step(now, level, False)
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
                self.timing = [0, 0]
            answer(s)
        return level


def answer(obj):
    print("LL " + json.dumps(obj))


def begin(dev, seed, game, players):
    """A new Device on the same hardware, as the simulator makes one (simcore.make_device)."""
    from layerlight.app import Device
    from layerlight import startup
    dev.hw.tone(0)
    dev.drop_game()
    cfg = startup.load_config(dev.storage)
    new = Device(dev.hw, cfg, seed)
    if game:
        new.start_game(game, list(range(players)), 0)
    return new


def timed_render(dev, link):
    """Make the device's render time itself: the slowest first frame (a button
    event came in its step) and the slowest steady frame, drawing and the
    strip's write together."""
    from layerlight.app import FRAME_MS
    render = dev.render
    hw = dev.hw
    last = [0]

    def timed():
        # a frame not on the 40 ms schedule was asked for by a button's event
        first = dev.next_frame != last[0] + FRAME_MS
        t0 = hw.ticks_us()
        render()
        us = hw.ticks_diff(hw.ticks_us(), t0)
        last[0] = dev.now
        timing = link.timing
        if timing is not None:
            i = 0 if first else 1
            if us > timing[i]:
                timing[i] = us
    dev.render = timed
