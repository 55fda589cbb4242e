# The play log's figures on the real MicroPython (WebAssembly), for tests/bench/bench_history.py:
# a log of KEEP games on the simulated flash; the time to append a record (the first
# append after boot surveys the log's head and tail), to open HISTORY (one pass over
# the log, a record at a time) and to draw its page; the heap while HISTORY is open.
# Each time is scaled to an RP2040 by the calibration loop run next to it.
# ARGV: reps, calibration iterations, RP2040 ms for them.
import gc
import os
import time

import micropython

from layerlight import persist, playlog
from layerlight.storage import FileStorage
from layerlight_tools import simcore

REPS = int(ARGV[0])  # noqa: F821 (set by the runner)
CALIBRATION = int(ARGV[1])  # noqa: F821
RP2040_MS = float(ARGV[2])  # noqa: F821
MODES = ("layers", "coop", "paper-world", "otlo", "time-attack")


def record(i):
    seats = [1, 2, 3, 4][:2 + i % 3]
    scores = [(i * 7 + s * 3) % 40 for s in range(len(seats))]
    return {"mode": MODES[i % len(MODES)], "seats": seats, "scores": scores, "winners": [seats[i % len(seats)]],
            "tie_break": None, "detail": {"colours": {"red": 3, "blue": 5}}, "played": {"deck": "f8578657",
            "level": None}, "rounds": 6, "ms": 600000 + i, "ended": "final", "date": "2026-11-25 20:%02d" % (i % 60),
            "n": i + 1}


def calibrate():
    global C, p, i
    p = [0, 1, 2]
    best = 1 << 30
    for _ in range(3):
        t0 = time.ticks_ms()
        for i in range(CALIBRATION):
            C = p[1] + p[2]
        best = min(best, time.ticks_diff(time.ticks_ms(), t0))
    return best


def scaled(ms):
    """wasm ms -> RP2040 ms, by the calibration measured now (the machine is shared)."""
    return ms * RP2040_MS / max(1, calibrate())


# the log in files on MicroPython's filesystem, as on the device's flash (not in the heap),
# at its fullest once the appends below are made: plays.old holds KEEP games and plays.log
# KEEP - 1 (one more game and it would rotate), so HISTORY has 2 KEEP - 1 lines to go through
os.mkdir("/flash")
size = 0
with open("/flash/" + playlog.OLD, "wb") as f:
    for i in range(playlog.KEEP):
        size += f.write(persist.encode(record(i)))
FIRST = 2 * playlog.KEEP - 2 - REPS  # the records in plays.log before the appends
with open("/flash/" + playlog.LOG, "wb") as f:
    for i in range(playlog.KEEP, FIRST):
        size += f.write(persist.encode(record(i)))
dev = simcore.make_device(None, 16, 16, 1, storage=FileStorage("/flash"))
plays = playlog.PlayLog(dev.storage)  # as the device makes one at a game's end
print("log_bytes", size)

# appending: the first one after boot surveys the log (its head and tail, timed alone over
# REPS fresh logs: once is below the clock's grain); the next ones only write
t0 = time.ticks_us()
for k in range(REPS):
    playlog.PlayLog(dev.storage)._survey()
survey_ms = time.ticks_diff(time.ticks_us(), t0) / 1000 / REPS
plays.append(record(FIRST))
t0 = time.ticks_us()
for k in range(REPS):
    plays.append(record(FIRST + 1 + k))
next_ms = time.ticks_diff(time.ticks_us(), t0) / 1000 / REPS
print("append_first_ms %.2f" % scaled(survey_ms + next_ms))
print("append_ms %.3f" % scaled(next_ms))

# the rest in steps (run_mpy --loop): MicroPython's collector frees the heap fully only
# between two calls into the wasm port, so each heap figure is read at a step's start
STAGE = 0
BASE = 0


def bench_step():
    global STAGE, BASE
    used = gc.mem_alloc()
    if STAGE == 0:
        BASE = used
        STAGE = 1
        # opening HISTORY over both files, full
        t0 = time.ticks_us()
        dev.start_game("history")
        open_ms = time.ticks_diff(time.ticks_us(), t0) / 1000
        print("open_ms %.1f" % scaled(open_ms))
        print("games %d" % dev.game.games())
        return False
    if STAGE == 1:
        print("heap_open %d" % (used - BASE))
        STAGE = 2
        game = dev.game
        fb = dev.fb
        # a page's frame, drawn REPS times (and once under heap_lock: drawing must not allocate)
        t0 = time.ticks_us()
        for k in range(REPS):
            game.draw(fb, k * 40)
        draw_ms = time.ticks_diff(time.ticks_us(), t0) / 1000 / REPS
        print("draw_ms %.3f" % scaled(draw_ms))
        t0 = time.ticks_us()
        for k in range(REPS):
            game.cache_key = -1  # drawn from scratch, as right after B
            game.draw(fb, k * 40)
        first_ms = time.ticks_diff(time.ticks_us(), t0) / 1000 / REPS
        print("draw_first_ms %.3f" % scaled(first_ms))
        micropython.heap_lock()
        try:
            game.draw(fb, 1234)
            allocates = "no"
        except MemoryError:
            allocates = "yes"
        micropython.heap_unlock()
        print("draw_allocates %s" % allocates)
        # turning a page (B): one record read from flash
        t0 = time.ticks_us()
        for k in range(REPS):
            game.turn_to(k % game.games())
        turn_ms = time.ticks_diff(time.ticks_us(), t0) / 1000 / REPS
        print("turn_ms %.2f" % scaled(turn_ms))
        return False
    print("heap_turned %d" % (used - BASE))
    return True
