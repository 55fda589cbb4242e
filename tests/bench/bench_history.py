"""The play log and HISTORY on the real MicroPython (WebAssembly), as RP2040 estimates: the time to
append a game's record, to open HISTORY over a full log and to draw and turn its pages; the heap
HISTORY holds while open."""

from bench_device import FRAME_TARGET_MS, MOUNTS, RP2040_MS_PER_ITERATION
from mpy import run_micropython

REPS = 200
CALIBRATION = 30_000


def measure():
    res = run_micropython("tests/wasm/history_bench_entry.py",
                          args=[str(REPS), str(CALIBRATION), str(RP2040_MS_PER_ITERATION * CALIBRATION)],
                          mounts=MOUNTS, loop="LOOP_DONE = bench_step()")
    if res.returncode != 0:
        raise SystemExit("bench_history failed:\n%s" % res.stderr)
    return dict(line.split(" ", 1) for line in res.stdout.strip().splitlines())


def main():
    f = measure()
    print("a full play log: plays.old with 500 games and plays.log with 499, %.1f KB on flash (HISTORY shows the"
          " last %s);" % (int(f["log_bytes"]) / 1024, f["games"]))
    print("RP2040 estimates (wasm time scaled by a calibration loop;")
    print("the flash's own write time is not in them: LittleFS on the emulated Pico, `make bench pico`, has it)")
    print("  append a record, first after boot (surveys the log's head and tail): %s ms" % f["append_first_ms"])
    print("  append a record, next ones:                                     %s ms" % f["append_ms"])
    print("  open HISTORY (the last 500 lines checked and glanced at, a chunk at a time): %s ms" % f["open_ms"])
    print("  turn a page (B: one record read):                                %s ms" % f["turn_ms"])
    worst = max(float(f["draw_ms"]), float(f["draw_first_ms"]))
    print("  draw a page, steady (copied back) / first (after B):              %s / %s ms  (target < %.1f ms; %s)" % (
        f["draw_ms"], f["draw_first_ms"], FRAME_TARGET_MS, "OK" if worst < FRAME_TARGET_MS else "OVER"))
    print("  drawing allocates: %s" % f["draw_allocates"])
    print("  heap HISTORY holds while open: %.1f KB (its module and its index of the log), %.1f KB after"
          " turning %d pages" % (int(f["heap_open"]) / 1024, int(f["heap_turned"]) / 1024, REPS))


if __name__ == "__main__":
    main()
