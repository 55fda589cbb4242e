# Plays any mode's script (first written for the score keepers) on the real MicroPython (WebAssembly) and,
# after every line, draws the screen a few times under micropython.heap_lock:
# drawing must allocate nothing, whatever the phase. Prints one line per
# script line that allocated ("alloc LINE PHASE"), then "done FRAMES", then
# "phases P1 P2 ..." (every phase drawn, first seen first, so a caller can check
# that the script reached the screens it means to check, the final say).
# ARGV: game, players, width, height, config JSON ('' = none)[, seed (default 1):
# the one the script was written for]; STDIN: the script.
import os

import micropython

from layerlight_tools import simcore

game, players, width, height, config_json = ARGV[:5]  # noqa: F821 (set by the runner)
seed = int(ARGV[5]) if len(ARGV) > 5 else 1  # noqa: F821
files = {}
for name in os.listdir("/decks"):
    with open("/decks/" + name, "rb") as f:
        files["decks/" + name] = f.read()
if config_json:
    files["layerlight.json"] = config_json.encode()
dev = simcore.make_device(files, int(width), int(height), seed, game, int(players))
sim = simcore.Simulator(dev)
lines = STDIN.split("\n")  # noqa: F821


def draw_locked(g, fb, now):
    """True if four frames were drawn without allocating (locals only: a new global would allocate)."""
    micropython.heap_lock()
    try:
        for k in range(4):
            g.draw(fb, now + 401 * k)  # across blinks and pages
    except MemoryError:
        micropython.heap_unlock()
        return False
    micropython.heap_unlock()
    return True


frames = 0
phases = []
for i in range(len(lines)):
    if not sim.run_line(lines[i], i + 1):
        continue
    g = dev.game
    if g is None or dev.where != "game":
        continue
    frames += 4
    if g.phase not in phases:
        phases.append(g.phase)
    if not draw_locked(g, dev.fb, dev.game_time()):
        print("alloc %d %s" % (i + 1, g.phase))
print("done %d" % frames)
print("phases " + " ".join([str(p) for p in phases]))


class Allocating:
    def draw(self, fb, now):
        return [now]  # a new list: the check must catch it


print("probe %s" % ("caught" if not draw_locked(Allocating(), None, 0) else "missed"))
