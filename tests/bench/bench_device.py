"""Frame time, allocation and heap of the firmware on the real MicroPython, scaled to an RP2040."""

from mpy import run_micropython
from scenario_lib import four_player_game

# 1,000,000 iterations of `C = p[1] + p[2]` take about 7,984 ms on an RP2040 at
# 125 MHz with MicroPython 1.23 (measured on a board); the same loop runs in the
# WebAssembly build in the same process, and the ratio scales our timings.
RP2040_MS_PER_ITERATION = 7984 / 1_000_000
FRAME_TARGET_MS = 4.0
WIRE_MS_256 = 7.7
HEAP_TARGET = 48 * 1024
MOUNTS = ["firmware:/", "host_tools/layerlight_tools:/lib/layerlight_tools"]


def measure(frames=300, calibration=300_000):
    script = four_player_game().script
    res = run_micropython("tests/wasm/bench_device_entry.py", args=[frames, calibration], mounts=MOUNTS,
                          stdin=script, loop="LOOP_DONE = bench_step()")
    if res.returncode != 0:
        raise SystemExit("bench_device failed:\n" + res.stderr)
    figures = {}
    for line in res.stdout.splitlines():
        key, *vals = line.split()
        figures[key] = vals
    return figures


def main():
    f = measure()
    n_cal, cal_ms = map(int, f["calibration_ms"])
    n_frames, frames_ms = map(int, f["frames"])
    scale = (RP2040_MS_PER_ITERATION * n_cal) / max(cal_ms, 1)
    wasm_frame = frames_ms / n_frames
    device_frame = wasm_frame * scale
    print("calibration loop: %d iterations in %d ms here; an RP2040 is %.1fx slower" % (n_cal, cal_ms, scale))
    print("busiest Layers frame (race: pattern, sand ring, 3 finish markers, pixel mapping):")
    print("  wasm MicroPython: %.3f ms   RP2040 estimate: %.2f ms   target < %.1f ms   %s" % (
        wasm_frame, device_frame, FRAME_TARGET_MS, "OK" if device_frame < FRAME_TARGET_MS else "OVER"))
    n_press, press_ms = map(int, f["press_frames"])
    print("  the frame right after a press (finish markers redrawn): wasm %.3f ms, RP2040 estimate %.2f ms" % (
        press_ms / n_press, press_ms / n_press * scale))
    n_rev, rev_ms = map(int, f["reveal_frames"])
    print("  the first frame of a mission (pattern drawn once): wasm %.3f ms, RP2040 estimate %.2f ms" % (
        rev_ms / n_rev, rev_ms / n_rev * scale))
    print("  (the WS2812 wire itself needs %.1f ms for 256 LEDs)" % WIRE_MS_256)
    print("drawing allocates: %s (micropython.heap_lock around draw + pixel mapping)" % f["draw_allocates"][0])
    code = int(f["heap_code"][0])
    boot = int(f["heap_after_boot"][0])
    peak = int(f["heap_peak"][0])
    print("firmware bytecode of a Layers game: %.1f KB (in RAM when loaded from .mpy files; in flash when frozen)" % (
        code / 1024))
    print("live heap after boot: %.1f KB   peak over a 4-player game: %.1f KB   target < %d KB   %s" % (
        boot / 1024, peak / 1024, HEAP_TARGET // 1024, "OK" if peak < HEAP_TARGET else "OVER"))
    print("  of which game data (frozen firmware): after boot %.1f KB, peak %.1f KB   %s" % (
        (boot - code) / 1024, (peak - code) / 1024, "OK" if peak - code < HEAP_TARGET else "OVER"))
    print("  (firmware only, measured after a collection at every step; the game ended in the %s)" % f["final_phase"][0])


if __name__ == "__main__":
    main()
