# A mode's figures on the real MicroPython (WebAssembly), for tests/bench/bench_keepers.py,
# driven by run_mpy's --loop so that the garbage collector runs between steps:
#   1. baseline heap (this harness and the simulator only), then the firmware
#      modules the mode uses are imported (their bytecode counts, as in bench_device);
#   2. the firmware boots; the whole game is played, one script line per step:
#      the live heap peak;
#   3. the game again on a matrix wired like a real one (serpentine, GRB,
#      brightness cap), and after every line the screen is timed: `reps`
#      steady frames (the mode's cached parts copied back) and `reps` frames
#      drawn from scratch (as right after a change), each next to a short run
#      of the calibration loop that scales wasm time to an RP2040 (the machine
#      is shared: its speed drifts, so every state carries its own scale);
#      every frame is also drawn once under heap_lock.
# ARGV: mode, players, seed, reps, calibration iterations, RP2040 ms for them;
# STDIN: the game's script. Prints heap_code, heap_after_boot, heap_peak,
# final_phase, then "phase NAME STEADY FIRST" (RP2040 estimates in microseconds,
# the busiest frame of that phase), draw_allocates.
import gc
import time

import micropython

from layerlight_tools import simcore

MODE = ARGV[0]  # noqa: F821 (set by the runner)
PLAYERS = int(ARGV[1])  # noqa: F821
SEED = int(ARGV[2])  # noqa: F821
REPS = int(ARGV[3])  # noqa: F821
CALIBRATION = int(ARGV[4])  # noqa: F821
RP2040_MS = float(ARGV[5])  # noqa: F821 (what CALIBRATION iterations take on an RP2040)
LINES = STDIN.split("\n")  # noqa: F821
CODE = ("layerlight.app", "layerlight.display", "layerlight.storage", "layerlight.persist",
        "layerlight.modes." + MODE.replace("-", "_"))
STAGE = 0
BASE = 0
PEAK = 0
AT = 0
SIM = None
KEEPER = False  # a score keeper (keeper.py: its screens keyed by `look`), else a race game (table.py)


def boot(seed):
    from layerlight.app import boot as firmware_boot
    from layerlight.storage import FileStorage
    storage = FileStorage("")
    return firmware_boot(simcore.SimHardware(16, 16, storage), storage, seed)


def forget(game):
    """Make the next frame a first one: the mode's cached screen parts are stale."""
    if KEEPER:
        game.look += 1  # the score keepers
    elif hasattr(game, "screen"):
        game.screen.key = -1  # OTLO: its screen cache
    else:
        game._race_bg_key = game._pattern_bg_key = -1  # the race games


def draws_without_allocating(game, fb, now):
    """The screen drawn from its cache and from scratch, each under heap_lock."""
    for fresh in (False, True):
        if fresh:
            forget(game)
        micropython.heap_lock()
        try:
            game.draw(fb, now + fresh)
        except MemoryError:
            micropython.heap_unlock()
            return False
        micropython.heap_unlock()
    return True


def timed(game, fb, strip, now, fresh):
    """ms for REPS frames (draw + the copy to the LED driver), best of three (the machine is shared)."""
    best = 1 << 30
    for _ in range(3):
        t0 = time.ticks_ms()
        for k in range(REPS):
            if fresh:
                forget(game)
            game.draw(fb, now + k)
            strip[:] = fb.buf
        best = min(best, time.ticks_diff(time.ticks_ms(), t0))
    return best


def frame_figures():
    from layerlight import display, strip_map

    def wired(hw):
        return display.FrameBuffer(16, 16, strip_map.pixel_map(16, 16), 0.25, "GRB")
    simcore.SimHardware.framebuffer = wired  # the device draws into a real matrix's buffer
    global KEEPER
    dev = boot(SEED)
    dev.start_game(MODE, list(range(PLAYERS)), 0)
    KEEPER = hasattr(dev.game, "look")
    sim = simcore.Simulator(dev)
    strip = bytearray(16 * 16 * 3)  # the NeoPixel driver's buffer: show() copies into it
    allocates = "no"
    frames = 0
    phases = {}
    for n in range(len(LINES)):
        if not sim.run_line(LINES[n], n + 1):
            continue
        game = dev.game
        if game is None or dev.where != "game":
            continue
        fb = dev.fb
        now = dev.game_time()
        game.draw(fb, now)
        scale = RP2040_MS / max(1, calibrate())  # RP2040 ms per wasm ms, measured now
        steady = int(timed(game, fb, strip, now, False) * scale * 1000 / REPS)
        first = int(timed(game, fb, strip, now, True) * scale * 1000 / REPS)
        was = phases.get(game.phase, (0, 0))
        phases[game.phase] = (max(was[0], steady), max(was[1], first))
        frames += 6 * REPS
        if not draws_without_allocating(game, fb, now):
            allocates = "yes"
    for name in sorted(phases):
        print("phase %s %d %d" % (name, phases[name][0], phases[name][1]))
    print("draw_allocates %s %d" % (allocates, frames))


def calibrate():
    """ms for the calibration loop here, best of three: the loop the RP2040 figure was measured
    with (tests/bench/bench_device.py), on globals as at module level."""
    global C, p, i
    p = [0, 1, 2]
    best = 1 << 30
    for _ in range(3):
        t0 = time.ticks_ms()
        for i in range(CALIBRATION):
            C = p[1] + p[2]
        best = min(best, time.ticks_diff(time.ticks_ms(), t0))
    return best


def bench_step():
    global STAGE, BASE, PEAK, AT, SIM
    used = gc.mem_alloc()
    if STAGE == 0:
        BASE = used
        for name in CODE:
            __import__(name)
        STAGE = 1
        return False
    if STAGE == 1:
        print("heap_code %d" % (used - BASE))
        SIM = boot(SEED)
        STAGE = 2
        return False
    if STAGE == 2:
        print("heap_after_boot %d" % (used - BASE))
        SIM.start_game(MODE, list(range(PLAYERS)), 0)
        SIM = simcore.Simulator(SIM)
        STAGE = 3
        return False
    PEAK = max(PEAK, used - BASE)
    while AT < len(LINES):
        AT += 1
        if SIM.run_line(LINES[AT - 1], AT):
            return False
    print("heap_peak %d" % PEAK)
    print("final_phase %s" % SIM.dev.state()["phase"])
    SIM = None
    gc.collect()
    frame_figures()
    return True
