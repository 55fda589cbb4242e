# Runs a simulator script on the real MicroPython (WebAssembly build).
# ARGV: game ('' = boot to menu), players, seed, width, height, frames (0/1),
# config JSON ('' = none); STDIN: the script. Prints the trace lines.
import os

from layerlight_tools import simcore

game, players, seed, width, height, frames, config_json = ARGV  # noqa: F821 (set by the runner)
files = {}
for name in os.listdir("/decks"):
    with open("/decks/" + name, "rb") as f:
        files["decks/" + name] = f.read()
if config_json:
    files["layerlight.json"] = config_json.encode()
dev = simcore.make_device(files, int(width), int(height), int(seed), game or None, int(players))
sim = simcore.Simulator(dev, frames == "1")
sim.run(STDIN.split("\n"), print)  # noqa: F821
