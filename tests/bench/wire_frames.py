"""Which LEDs a press lights, from the simulator: the wire bytes that differ between the frame
just before a `down Pn` line and just after it (the same instant), for finding the first frame
on the emulated Pico's data pin that shows the press (bench_pico: press to light)."""

from layerlight_tools import firmware_files, simcore
from layerlight_tools.pico import session, wire


class PinsOnly(session.Timeline):
    """A script played on the pins with the state asked for once, at its end (as a person plays
    it: no report, and no frame drawn for one, after every line)."""

    def reported(self):
        return session.Timeline.reported(self)[-1:]


def simulated(game, players, seed, settings):
    """The simulator on the game at the settings' size, and frame(): what it shows now, as
    the bytes on the data pin."""
    size = settings["width"]
    cfg = wire.device_config(settings)
    dev = simcore.make_device(firmware_files.device_files(None, settings), size, size, seed, game, players)

    def frame():
        dev.render()
        return wire.wire_bytes(dev.fb.hex_rows(), cfg, dev.hw.cap)
    return simcore.Simulator(dev, frames=True), frame


def press_changes(script, game, players, seed, settings):
    """[(instant, seat, [(byte position, value)])] for every `down Pn` line of the script."""
    sim, frame = simulated(game, players, seed, settings)
    out = []
    for no, line in enumerate(script.split("\n"), 1):
        words = line.split()
        before = frame() if words[:1] == ["down"] and words[1].startswith("P") else None
        sim.run_line(line, no)
        if before is not None:
            after = frame()
            changes = [(i, after[i]) for i in range(len(after)) if after[i] != before[i]]
            if changes:
                out.append((sim.t, int(words[1][1:]), changes))
    return out


def expanded(script):
    """The script with every `press` and `hold` written as its `down`, `wait` and `up` lines
    (the same timeline: simcore.Simulator plays them so)."""
    out = []
    for line in script.split("\n"):
        words = line.split("#")[0].split()
        if words[:1] == ["press"]:
            out += ["down " + " ".join(words[1:]), "wait %d" % simcore.PRESS_MS, "up " + " ".join(words[1:])]
        elif words[:1] == ["hold"]:
            out += ["down " + " ".join(words[1:-1]), "wait " + words[-1], "up " + " ".join(words[1:-1])]
        else:
            out.append(line)
    return "\n".join(out)


def event_changes(script, game, players, seed, settings, stable_ms=100):
    """[(instant, line, [(byte position, value)])] for every button going down or up in the
    script (press and hold lines too) that changes what the matrix shows at that instant: the
    wire bytes that differ between the frame just before it and just after it, and keep their
    new value for `stable_ms`, less those a later event changes within that time: what the
    device must show once it has taken the event in, whatever moves on the screen meanwhile
    (a tally counting, a blink) and whatever comes next."""
    sim, frame = simulated(game, players, seed, settings)
    events = []   # [instant, line, changes]
    no = 0
    for line in expanded(script).split("\n"):
        no += 1
        words = line.split("#")[0].split()
        if words[:1] in (["down"], ["up"]):
            before = frame()
            sim.run_line(line, no)
            after = frame()
            changes = [(i, after[i]) for i in range(len(after)) if after[i] != before[i]]
            moved = set(i for i, _v in changes)
            for ev in events[-4:]:
                if sim.t - ev[0] <= stable_ms:  # what this event changes is its own, not theirs
                    ev[2] = [(i, v) for i, v in ev[2] if i not in moved]
            if changes:
                events.append([sim.t, line, changes])
        elif words[:1] == ["wait"]:
            end = sim.t + int(words[1])
            while sim.t < end:
                step = min(end - sim.t, simcore.STEP_MS - sim.t % simcore.STEP_MS)
                sim.run_line("wait %d" % step, no)
                watching = [ev for ev in events[-4:] if sim.t - ev[0] <= stable_ms]
                if watching:
                    now = frame()
                    for ev in watching:
                        ev[2] = [(i, v) for i, v in ev[2] if now[i] == v]
        else:
            sim.run_line(line, no)
    return [(t, line, changes) for t, line, changes in events if changes]


def light(frames, at, changes):
    """(us from `at` until the strip shows `changes` [(byte, value)], the frame that shows them), or
    (None, None). frames: the emulated Pico's, in order, each's data what the strip shows once it is
    out. Where the strip already shows them at `at` (the last frame out by then has them), 0: the
    sender sends no frame that changes nothing, so a press whose light was never put out (the
    device drew no frame between the two presses) is lit at once. Else the end of the first frame
    out after `at` that shows them."""
    def shows(f):
        return all(f["data"][i] == v for i, v in changes)
    out = [f for f in frames if f["end_us"] <= at]
    if out and shows(out[-1]):
        return 0, out[-1]
    for f in frames:
        if f["end_us"] > at and shows(f):
            return f["end_us"] - at, f
    return None, None
