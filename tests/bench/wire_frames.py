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
