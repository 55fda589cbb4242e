# Power cuts in the game journal on the real MicroPython (WebAssembly build): a whole game
# played over simcore.SimFlash, then again with the power cut at op after op (every `stride`th
# program and every erase, each cut before it, halfway and with every byte half done), each
# powered on again. Prints "cut N HOW ok" or "cut N HOW bad: ..." per cut, then "done K".
# ARGV: game, players, seed, stride; STDIN: the script.
import os

from layerlight import journal
from layerlight_tools import simcore

game, players, seed, stride = ARGV  # noqa: F821 (set by the runner)
players, seed, stride = int(players), int(seed), int(stride)
lines = STDIN.split("\n")  # noqa: F821
files = {}
for name in os.listdir("/decks"):
    with open("/decks/" + name, "rb") as f:
        files["decks/" + name] = f.read()
USED = bytes(8 * simcore.SimFlash.SECTOR)


def run(flash, records):
    dev = simcore.make_device(files, 16, 16, seed, None, players, flash=flash)
    saves = dev.saves
    save, clear = saves.save, saves.clear

    def saved(obj, grown=()):
        n = saves.written
        save(obj, grown)
        if saves.written > n:
            records.append(journal.unflatten(saves.texts))

    def cleared():
        n = saves.written
        clear()
        if saves.written > n:
            records.append(None)
    saves.save, saves.clear = saved, cleared
    try:
        dev.start_game(game, list(range(players)), 0)
        sim = simcore.Simulator(dev)
        for i, line in enumerate(lines):
            sim.run_line(line, i + 1)
    except simcore.PowerCut:
        return dev, False
    return dev, True


clean = simcore.SimFlash(data=USED)
records = []
dev, finished = run(clean, records)
assert finished
count = 0
for n in range(len(clean.ops)):
    kind, off = clean.ops[n]
    if kind == "program" and n % stride and off % journal.BLOCK:
        continue
    for how in ("cut", "partial", "torn"):
        flash = simcore.SimFlash(data=USED)
        flash.fault = (n, how)
        done = []
        dev, finished = run(flash, done)
        k = len(done)
        allowed = [records[k - 1] if k else None]
        if k < len(records) and kind == "program":
            allowed.append(records[k])
        logs = []
        after = simcore.make_device(None, 16, 16, 99, None, 2, logs.append, storage=dev.storage,
                                    flash=flash.after_power_on())
        bad = [ln for ln in logs if "error" in ln]
        if finished or after.where != "menu" or bad:
            print("cut", n, how, "bad:", finished, after.where, bad)
        elif after.saved not in allowed:
            print("cut", n, how, "bad: resumed", after.saved, "not one of", allowed)
        else:
            print("cut", n, how, "ok")
        count += 1
print("done", count)
