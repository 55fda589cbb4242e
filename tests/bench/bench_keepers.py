"""The score keepers on the real MicroPython, next to Layers measured the same way: the
busiest frame of a whole game (RP2040 estimate) and the peak heap over it.

Adding a mode is one line in KEEPERS: (a whole game from scenario_lib, giving (script, game, players);
the seed it was made with).
"""

from bench_device import FRAME_TARGET_MS, MOUNTS, RP2040_MS_PER_ITERATION
from mpy import run_micropython
import otlo_fixture
import scenario_lib


def otlo_solo_game():
    """OTLO solo: levels 1-3, the solution held up on a card, a skip, every card solved (the clock ring runs)."""
    lines = ["press B", "press B", "press A", "wait 1500", "hold B 3000", "press B"]
    lines += ["wait 2500", "press A"] * 12 + ["wait 2000", "press A"]
    return "\n".join(lines) + "\n", "otlo", 1

KEEPERS = [
    (scenario_lib.coop_game, 1),
    (scenario_lib.paper_world_game, 1),
    (scenario_lib.otlo_game, 5),  # OTLO is no score keeper, but it is measured the same way
    (otlo_solo_game, 1),
]
# the targets: no frame over FRAME_TARGET_MS, no peak above Layers' (its whole game, played with its seed)
REFERENCE = (scenario_lib.layers_game, 11)
REPS = 30
CALIBRATION = 30_000  # iterations of the calibration loop run next to every screen timed


def measure(make, seed):
    script, game, players = make()
    rp2040_ms = RP2040_MS_PER_ITERATION * CALIBRATION
    res = run_micropython("tests/wasm/keeper_bench_entry.py",
                          args=[game, str(players), str(seed), str(REPS), str(CALIBRATION), str(rp2040_ms)],
                          mounts=MOUNTS + otlo_fixture.mounts(), stdin=script, loop="LOOP_DONE = bench_step()")
    if res.returncode != 0:
        raise SystemExit("bench_keepers failed on %s:\n%s" % (game, res.stderr))
    f = {"game": game, "players": players, "phases": []}
    for line in res.stdout.splitlines():
        key, *vals = line.split()
        if key == "phase":
            f["phases"].append((vals[0], int(vals[1]), int(vals[2])))
        else:
            f[key] = vals
    return f


def busiest(f, kind):
    """(RP2040 estimate in ms, phase) of the busiest frame: kind 1 steady, 2 first."""
    us, phase = max((p[kind], p[0]) for p in f["phases"])
    return us / 1000, phase


def main():
    ref = measure(*REFERENCE)
    ref_peak = int(ref["heap_peak"][0])
    ref_data = ref_peak - int(ref["heap_code"][0])
    print("whole games on the real MicroPython, 16x16, GRB, cap 0.25; every screen after every script line timed")
    print("%d times, steady (cached parts copied back) and first (drawn from scratch, as after a change); RP2040"
          % REPS)
    print("estimates, each scaled by a calibration run next to it. Heap: firmware from source (its bytecode in the")
    print("heap, as with .mpy files); the game's own data is what a frozen firmware keeps in RAM.")
    print("  %-16s %-22s %-22s %9s %9s %9s %s" % ("mode", "busiest steady frame", "busiest first frame", "peak heap",
                                                 "bytecode", "data", "frames / heap / data"))
    for f in [ref] + [measure(make, seed) for make, seed in KEEPERS]:
        steady = busiest(f, 1)
        first = busiest(f, 2)
        peak = int(f["heap_peak"][0])
        code = int(f["heap_code"][0])
        frames_ok = max(steady[0], first[0]) < FRAME_TARGET_MS
        verdict = "reference" if f is ref else "%s / %s / %s" % (
            "OK" if frames_ok else "OVER", "OK" if peak <= ref_peak else "OVER", "OK" if peak - code <= ref_data else "OVER")
        print("  %-16s %5.2f ms %-13s %5.2f ms %-13s %6.1f KB %6.1f KB %6.1f KB %s" % (
            "%s (%d)" % (f["game"], f["players"]), steady[0], steady[1], first[0], first[1], peak / 1024,
            code / 1024, (peak - code) / 1024, verdict))
        if f["draw_allocates"][0] != "no":
            print("    drawing allocates in some screen of this game (micropython.heap_lock)")
        print("    by phase, steady / first ms: " + ", ".join(
            "%s %.1f/%.1f" % (name, s / 1000, t / 1000) for name, s, t in f["phases"]))
    print("  (targets: every frame < %.1f ms; a keeper's peak heap no higher than Layers' %.1f KB, its data no"
          " higher than Layers' %.1f KB; Layers' game ended in: %s)" % (
              FRAME_TARGET_MS, ref_peak / 1024, ref_data / 1024, ref["final_phase"][0]))


if __name__ == "__main__":
    main()
