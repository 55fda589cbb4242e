# Memory as shipped, on the real MicroPython (WebAssembly), driven by
# run_mpy's --loop so that the garbage collector runs between steps.
#
# One device boots, then plays a whole game of every mode in turn, going back
# to the menu in between, as a table would:
#   boot_code   bytecode of what is loaded at boot (the app, screens, buttons...)
#   boot        live heap after boot, bytecode included
#   per mode:   peak  live heap over the whole game (bytecode included)
#               code  bytecode of the modules the mode loaded on top of boot
#               after live heap once the menu is back and the mode was let go
#               (it stays above `before` by the names the mode's .mpy files
#               interned: MicroPython never frees interned strings)
# Heap figures leave out this harness (measured before anything is loaded).
# STDIN: blocks "== MODE PLAYERS" followed by that game's script lines.
import gc
import sys

from layerlight_tools import simcore

BLOCKS = []
for line in STDIN.split("\n"):  # noqa: F821 (set by the runner)
    if line.startswith("== "):
        words = line.split()
        BLOCKS.append((words[1], int(words[2]), []))
    elif BLOCKS:
        BLOCKS[-1][2].append(line)

BOOT_CODE = ("layerlight.app", "layerlight.storage", "layerlight.display", "layerlight.modes.settings")
STAGE = 0
BASE = 0
MARK = 0
SIM = None
BLOCK = 0
AT = 0
PEAK = 0
LOADED = []


def used():
    return gc.mem_alloc() - BASE


def drop(names):
    from layerlight.runtime import forget_modules  # loaded at boot (app.py): costs nothing here
    forget_modules(names)


def bench_step():
    global STAGE, BASE, MARK, SIM, BLOCK, AT, PEAK, PEAK_AT, LOADED
    if STAGE == 0:
        BASE = gc.mem_alloc()
        for name in BOOT_CODE:
            __import__(name)
        STAGE = 1
        return False
    if STAGE == 1:
        print("boot_code %d" % used())
        from layerlight.app import boot
        from layerlight.storage import FileStorage
        storage = FileStorage("")
        SIM = simcore.Simulator(boot(simcore.SimHardware(16, 16, storage), storage, 11))
        STAGE = 2
        return False
    if STAGE == 2:
        print("boot %d" % used())
        STAGE = 3
        return False
    if STAGE == 3:  # the next game starts
        if BLOCK >= len(BLOCKS):
            return True
        name, players, _ = BLOCKS[BLOCK]
        MARK = used()  # the menu, before this game
        SIM.dev.start_game(name, list(range(players)), 0)
        AT = 0
        PEAK = 0
        PEAK_AT = ""
        LOADED = []
        STAGE = 4
        return False
    if STAGE == 4:  # one script line per step, the heap read after a collection
        u = used()
        if u > PEAK:
            PEAK = u
            PEAK_AT = "line %d, %s" % (AT, SIM.dev.game.phase if SIM.dev.game is not None else "menu")
        for m in sys.modules:
            if m.startswith("layerlight.") and m not in SIM.dev.boot_modules and m not in LOADED:
                LOADED.append(m)
        name, players, lines = BLOCKS[BLOCK]
        while AT < len(lines):
            AT += 1
            if SIM.run_line(lines[AT - 1], AT):
                return False
        dev = SIM.dev
        if dev.game is not None:  # the script left the game running: the table goes back to the menu
            dev.game_over()
        SIM.advance(1000)  # a second of the menu on show
        STAGE = 5
        return False
    if STAGE == 5:
        after = used()
        print("mode %s before %d peak %d after %d modules %d" % (BLOCKS[BLOCK][0], MARK, PEAK, after, len(LOADED)))
        print("peak_at %s %s" % (BLOCKS[BLOCK][0], PEAK_AT))
        for m in LOADED:
            __import__(m)
        MARK = after
        STAGE = 6
        return False
    if STAGE == 6:
        print("code %s %d" % (BLOCKS[BLOCK][0], used() - MARK))
        drop(LOADED)
        BLOCK += 1
        STAGE = 3
        return False
    return True
