"""The score keepers on the real MicroPython, next to Layers measured the same way: the
busiest frame of a whole game (RP2040 estimate) and the peak heap over it.

Adding a mode is one line in KEEPERS: a whole game from scenario_lib, as (script, game, players).
"""

from bench_device import FRAME_TARGET_MS, MOUNTS, RP2040_MS_PER_ITERATION
from mpy import run_micropython
import scenario_lib

KEEPERS = [
    (scenario_lib.coop_game, 1),
    (scenario_lib.paper_world_game, 1),
]
# the targets: no frame over FRAME_TARGET_MS, no peak above Layers' (its whole game, played with its seed)
REFERENCE = (scenario_lib.layers_game, 11)
REPS = 30


def measure(make, seed, calibration=300_000):
    script, game, players = make()
    res = run_micropython("tests/wasm/keeper_bench_entry.py",
                          args=[game, str(players), str(seed), str(REPS), str(calibration)],
                          mounts=MOUNTS, stdin=script, loop="LOOP_DONE = bench_step()")
    if res.returncode != 0:
        raise SystemExit("bench_keepers failed on %s:\n%s" % (game, res.stderr))
    f = {"game": game, "players": players, "phases": []}
    for line in res.stdout.splitlines():
        key, *vals = line.split()
        if key == "phase":
            f["phases"].append((vals[0], int(vals[1]), int(vals[2])))
        else:
            f[key] = vals
    n, ms = map(int, f["calibration_ms"])
    f["scale"] = RP2040_MS_PER_ITERATION * n / max(ms, 1)
    return f


def frame_ms(f, key):
    """(wasm ms, RP2040 estimate ms, phase) of the busiest frame of that kind."""
    reps, ms, phase = int(f[key][0]), int(f[key][1]), f[key][2]
    return ms / reps, ms / reps * f["scale"], phase


def main():
    ref = measure(*REFERENCE)
    ref_peak = int(ref["heap_peak"][0])
    print("whole games on the real MicroPython (firmware from source: bytecode in the heap), 16x16, GRB, cap 0.25;")
    print("every screen after every script line timed %d times, steady (cached parts copied back) and first "
          "(drawn from scratch, as after a change)" % REPS)
    print("  %-12s %-24s %-24s %9s %10s %s" % ("mode", "busiest steady frame", "busiest first frame", "peak heap",
                                                "bytecode", "targets"))
    for f in [ref] + [measure(make, seed) for make, seed in KEEPERS]:
        steady = frame_ms(f, "steady")
        first = frame_ms(f, "first")
        peak = int(f["heap_peak"][0])
        ok = max(steady[1], first[1]) < FRAME_TARGET_MS and (f is ref or peak <= ref_peak)
        print("  %-12s %5.2f ms  %-14s %5.2f ms  %-14s %6.1f KB %7.1f KB %s" % (
            "%s (%d)" % (f["game"], f["players"]), steady[1], steady[2], first[1], first[2], peak / 1024,
            int(f["heap_code"][0]) / 1024, "reference" if f is ref else "OK" if ok else "OVER"))
        if f["draw_allocates"][0] != "no":
            print("    drawing allocates in some screen of this game (micropython.heap_lock)")
        print("    by phase, steady / first: " + ", ".join(
            "%s %.1f/%.1f" % (name, s / REPS * f["scale"], t / REPS * f["scale"]) for name, s, t in f["phases"]))
    print("  (frame times: RP2040 estimates from the calibration loop, target < %.1f ms; a keeper's peak heap"
          " must not pass Layers' %.1f KB; the game ended in: %s)" % (
              FRAME_TARGET_MS, ref_peak / 1024, ref["final_phase"][0]))


if __name__ == "__main__":
    main()
