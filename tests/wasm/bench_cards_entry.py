# The firmware's solver on the real MicroPython (WebAssembly): every solution
# of each level-5 mission of a deck, timed, then the calibration loop of
# bench_device_entry.py (run from that very file, not copied) to scale the
# times to an RP2040.
# ARGV: deck path, calibration iterations, repeats per pattern.
import time

from layerlight.deck import Deck
from layerlight.solver import Solver
from layerlight.storage import FileStorage

DECK = ARGV[0]  # noqa: F821 (set by the runner)
CALIBRATION = ARGV[1]  # noqa: F821
REPEATS = int(ARGV[2])  # noqa: F821

deck = Deck(FileStorage(""), DECK)
solver = Solver(deck.layers)
for k in range(deck.level_count(5)):
    m = deck.level_mission(5, k)
    best = 1 << 30
    for _ in range(5):  # best of five: other work on the machine only slows a run down
        t0 = time.ticks_us()
        for _ in range(REPEATS):
            sols = solver.solutions(m.pattern, 5)
        best = min(best, time.ticks_diff(time.ticks_us(), t0))
    print("solve %d %d %d" % (m.id, len(sols), best // REPEATS))

# the calibration loop of the device bench, from its own file
ns = {"ARGV": ["0", CALIBRATION], "STDIN": ""}
with open("/bench/bench_device_entry.py") as f:
    exec(f.read(), ns)
ns["calibrate"]()
