"""Which LEDs a press lights, from the simulator: the wire bytes that differ between the frame
just before a `down Pn` line and just after it (the same instant), for finding the first frame
on the emulated Pico's data pin that shows the press (bench_pico: press to light)."""

from layerlight_tools import firmware_files, simcore
from layerlight_tools.pico import wire


def press_changes(script, game, players, seed, settings):
    """[(instant, seat, [(byte position, value)])] for every `down Pn` line of the script."""
    size = settings["width"]
    cfg = wire.device_config(settings)
    dev = simcore.make_device(firmware_files.device_files(None, settings), size, size, seed, game, players)
    sim = simcore.Simulator(dev, frames=True)

    def frame():
        dev.render()
        return wire.wire_bytes(dev.fb.hex_rows(), cfg, dev.hw.cap)
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


def event_changes(script, game, players, seed, settings):
    """[(instant, line, [(byte position, value)])] for every button going down or up in the
    script (press and hold lines too) that changes what the matrix shows at that instant: the
    wire bytes that differ between the frame just before it and just after it."""
    size = settings["width"]
    cfg = wire.device_config(settings)
    dev = simcore.make_device(firmware_files.device_files(None, settings), size, size, seed, game, players)
    sim = simcore.Simulator(dev, frames=True)

    def frame():
        dev.render()
        return wire.wire_bytes(dev.fb.hex_rows(), cfg, dev.hw.cap)
    out = []
    for no, line in enumerate(expanded(script).split("\n"), 1):
        words = line.split()
        before = frame() if words[:1] in (["down"], ["up"]) else None
        sim.run_line(line, no)
        if before is not None:
            after = frame()
            changes = [(i, after[i]) for i in range(len(after)) if after[i] != before[i]]
            if changes:
                out.append((sim.t, line, changes))
    return out
