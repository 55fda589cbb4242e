# Device figures on the real MicroPython (WebAssembly), driven by run_mpy's
# --loop so that the garbage collector runs between steps:
#   1. baseline heap: this harness and the simulator's script runner only;
#   1b. the firmware modules a Layers game uses are imported: their bytecode
#      (in RAM when loaded from .mpy files, in flash when frozen);
#   2. the firmware boots (FileStorage on the wasm filesystem, as on flash);
#   3. a whole 4-player game, one script line per step: the live heap peak;
#   4. the busiest Layers frame timed, checked for allocation, and a
#      calibration loop to scale the time to an RP2040.
# ARGV: frames, calibration iterations; STDIN: the game's script.
import gc
import time

import micropython

from layerlight_tools import simcore

FRAMES = int(ARGV[0])  # noqa: F821 (set by the runner)
CALIBRATION = int(ARGV[1])  # noqa: F821
LINES = STDIN.split("\n")  # noqa: F821
STAGE = 0
BASE = 0
# what stays loaded during a Layers game (the config modules are dropped after boot)
CODE = ("layerlight.app", "layerlight.display", "layerlight.modes.table", "layerlight.modes.layers", "layerlight.storage",
        "layerlight.persist")
PEAK = 0
AT = 0
SIM = None


def boot(seed):
    from layerlight.app import boot as firmware_boot
    from layerlight.storage import FileStorage
    storage = FileStorage("")
    return firmware_boot(simcore.SimHardware(16, 16, storage), storage, seed)


def frame_figures():
    from layerlight import display, strip_map
    dev = boot(11)
    dev.start_game("layers", [0, 1, 2, 3], 0)
    sim = simcore.Simulator(dev)
    n = 0
    # the busiest screen: a race with the sand running and three finish markers
    for line in ("press A", "press A", "press P2", "wait 2000", "press P4", "wait 2000", "press P1", "wait 3000"):
        n += 1
        sim.run_line(line, n)
    game = dev.game
    # the frame buffer of a real matrix: serpentine wiring, GRB, brightness cap
    fb = display.FrameBuffer(16, 16, strip_map.pixel_map(16, 16), 0.25, "GRB")
    game.set_screen(fb)
    strip = bytearray(16 * 16 * 3)  # the NeoPixel driver's buffer: show() copies into it
    now = sim.t

    def frame(t):
        game.draw(fb, t)
        strip[:] = fb.buf

    frame(now)
    best = best_press = best_reveal = 1 << 30
    for _ in range(3):  # best of three: the JIT under the wasm warms up
        t0 = time.ticks_ms()
        for k in range(FRAMES):
            frame(now + k * 7)
        best = min(best, time.ticks_diff(time.ticks_ms(), t0))
        # the frame right after a press: the finish markers are redrawn too
        t0 = time.ticks_ms()
        for k in range(FRAMES // 10):
            game._race_bg_key = -1
            frame(now + k * 7)
        best_press = min(best_press, time.ticks_diff(time.ticks_ms(), t0))
        # the first frame of a mission: the pattern is drawn as well
        t0 = time.ticks_ms()
        for k in range(FRAMES // 10):
            game._race_bg_key = game._pattern_bg_key = -1
            frame(now + k * 7)
        best_reveal = min(best_reveal, time.ticks_diff(time.ticks_ms(), t0))
    print("frames %d %d" % (FRAMES, best))
    print("press_frames %d %d" % (FRAMES // 10, best_press))
    print("reveal_frames %d %d" % (FRAMES // 10, best_reveal))
    allocates = "no"
    micropython.heap_lock()
    try:
        for k in range(5):
            frame(now + 37 * k)
        game._race_bg_key = game._pattern_bg_key = -1
        frame(now + 300)
    except MemoryError:
        allocates = "yes"
    micropython.heap_unlock()
    print("draw_allocates %s" % allocates)


def calibrate():
    # the loop the RP2040 figure was measured with, on globals as at module level
    global C, p, i
    p = [0, 1, 2]
    best = 1 << 30
    for _ in range(3):
        t0 = time.ticks_ms()
        for i in range(CALIBRATION):
            C = p[1] + p[2]
        best = min(best, time.ticks_diff(time.ticks_ms(), t0))
    print("calibration_ms %d %d" % (CALIBRATION, best))


def bench_step():
    global STAGE, BASE, PEAK, AT, SIM
    used = gc.mem_alloc()
    if STAGE == 0:
        BASE = used
        STAGE = 10
        for name in CODE:
            __import__(name)
        return False
    if STAGE == 10:
        print("heap_code %d" % (used - BASE))
        STAGE = 1
        SIM = boot(11)
        return False
    if STAGE == 1:
        print("heap_after_boot %d" % (used - BASE))
        STAGE = 2
        SIM.start_game("layers", [0, 1, 2, 3], 0)
        SIM = simcore.Simulator(SIM)
        return False
    PEAK = max(PEAK, used - BASE)
    while AT < len(LINES):
        AT += 1
        if SIM.run_line(LINES[AT - 1], AT):
            return False
    print("heap_peak %d" % PEAK)
    print("final_phase %s" % SIM.dev.state()["phase"])
    SIM = None
    frame_figures()
    calibrate()
    return True
