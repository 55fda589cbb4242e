"""Mission cards: the search against a NumPy brute force, the solver on PC and MicroPython, difficulty vs effort.

1. Every mission of host_tools/sets/bench8.toml (five 8x8 layers: 4,455,720
   stackings of 1 to 5 layers) found and graded by the search of
   `layerlight_tools.layers.stackings`, and by a plain NumPy brute force that
   composes every stacking, each in its own process (time, peak memory). Both
   must find the same missions with the same solution counts.
2. `cards build` of that set, whole (selection, second solve, deck written).
3. Every solution of each level-5 mission: the firmware's solver under CPython
   and under the WebAssembly MicroPython, scaled to an RP2040 by the
   calibration loop of bench_device (run from bench_device_entry.py itself).
4. Difficulty against a solver's effort for the missions of the shipped deck:
   docs/difficulty.png and rank correlations.
"""

import hashlib
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

from bench_device import RP2040_MS_PER_ITERATION
from mpy import REPO, run_micropython

BENCH_SET = os.path.join(REPO, "host_tools", "sets", "bench8.toml")
DEFAULT_SET = os.path.join(REPO, "host_tools", "sets", "default.toml")
DEFAULT_DECK = os.path.join(REPO, "firmware", "decks", "default.deck")
PLOT = os.path.join(REPO, "docs", "difficulty.png")
TARGET_S, TARGET_RATIO, TARGET_MB, TARGET_DEVICE_MS = 10.0, 3.0, 1024, 500
CALIBRATION = 300_000


# --- the two ways of finding every mission (each run in a child process) -----------

def brute_force(layers, size, max_level=5):
    """{level: (pattern rows as bytes, counts)}: compose every stacking, keep the patterns no fewer layers make."""
    n2 = size * size
    grids = np.array([[np.frombuffer(l.grid(o), np.uint8) for o in range(8)] for l in layers])
    row = "V%d" % n2
    lower = np.zeros(0, row)
    lower = np.concatenate([lower, np.zeros(1, np.uint8).repeat(n2).view(row)])  # no layer: the bare background
    out = {}
    for k in range(1, min(max_level, len(layers)) + 1):
        orients = np.indices((8,) * k).reshape(k, -1)        # every orientation of k layers
        blocks = []
        for picks in itertools.permutations(range(len(layers)), k):
            pattern = np.zeros((orients.shape[1], n2), np.uint8)
            for pos, li in enumerate(picks):                  # bottom first
                g = grids[li][orients[pos]]
                pattern = np.where(g != 0, g, pattern)
            blocks.append(pattern)
        rows = np.concatenate(blocks).view(row).ravel()
        del blocks
        uniq, counts = np.unique(rows, return_counts=True)
        del rows
        fresh = ~np.isin(uniq, lower)
        out[k] = (uniq[fresh], counts[fresh])
        lower = np.concatenate([lower, uniq[fresh]])
    return out


def search(layer_set):
    """{level: (pattern rows as bytes, counts)} and the grades, from the search the builder uses."""
    from layerlight_tools.layers import cards, stackings
    found = stackings.missions(layer_set.layers, layer_set.size, len(layer_set.colours))
    grades = {k: cards.difficulty(k, c.counts, c.visible) for k, c in found.items()}
    return found, grades


def digest(levels):
    """A fingerprint of {level: (rows, counts)}, independent of order."""
    h = hashlib.sha256()
    for k in sorted(levels):
        rows, counts = levels[k]
        order = np.argsort(rows, kind="stable")
        h.update(b"level %d %d" % (k, len(rows)))
        h.update(np.ascontiguousarray(rows[order]).tobytes())
        h.update(np.asarray(counts[order], np.int64).tobytes())
    return h.hexdigest()


def child(kind, path):
    from layerlight_tools.layers import sets, stackings
    layer_set = sets.load(path)
    n2 = layer_set.size ** 2
    t0 = time.perf_counter()
    if kind == "search":
        found, grades = search(layer_set)
        seconds = time.perf_counter() - t0
        levels = {k: (stackings.to_grids(c.planes, n2).view("V%d" % n2).ravel(), c.counts) for k, c in found.items()}
    else:
        levels = brute_force(layer_set.layers, layer_set.size)
        seconds = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb, "digest": digest(levels),
                      "missions": {k: int(len(v[0])) for k, v in levels.items()}}))


def run_child(kind, path):
    r = subprocess.run([sys.executable, __file__, "--child", kind, path], capture_output=True, text=True,
                       cwd=REPO, env=dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(__file__)) + os.pathsep
                                          + os.path.join(REPO, "tests")))
    if r.returncode != 0:
        raise SystemExit("bench_cards %s failed:\n%s" % (kind, r.stderr))
    return json.loads(r.stdout.strip().splitlines()[-1])


# --- solving one pattern ----------------------------------------------------------

def solve_times_pc(deck_path, repeats=20):
    from layerlight.solver import Solver
    from layerlight_tools.layers import cards
    d = cards.open_deck(deck_path)
    solver = Solver(d.layers)
    out = []
    for k in range(d.level_count(5)):
        m = d.level_mission(5, k)
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(repeats):
                solver.solutions(m.pattern, 5)
            best = min(best, (time.perf_counter() - t0) / repeats)
        out.append((best * 1000, m.solution_count))
    return out


def solve_times_wasm(deck_path, repeats=10):
    """(ms per pattern under the wasm MicroPython, solutions), and the RP2040 scale."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "decks"))
        with open(deck_path, "rb") as src, open(os.path.join(tmp, "decks", "bench.deck"), "wb") as dst:
            dst.write(src.read())
        res = run_micropython("tests/wasm/bench_cards_entry.py", args=["decks/bench.deck", CALIBRATION, repeats],
                              mounts=["firmware:/", "host_tools/layerlight_tools:/lib/layerlight_tools",
                                      "tests/wasm:/bench", tmp + ":/"])
    if res.returncode != 0:
        raise SystemExit("bench_cards (wasm) failed:\n" + res.stderr)
    times = []
    cal_ms = None
    for line in res.stdout.splitlines():
        parts = line.split()
        if parts[0] == "solve":
            times.append((int(parts[3]) / 1000, int(parts[2])))
        elif parts[0] == "calibration_ms":
            cal_ms = int(parts[2])
    scale = RP2040_MS_PER_ITERATION * CALIBRATION / max(cal_ms, 1)
    return times, scale


# --- difficulty against effort -------------------------------------------------------

def expected_effort(solver, pattern, level):
    """Placements a solver checks, on average, before it finds a solution, trying cards and turns in random order.

    The solver peels the stack from the top like the firmware's; at each depth
    it tries the unused (layer, orientation) pairs in a random order: a pair
    that does not fit costs one look, a pair that fits but leads nowhere costs
    its whole subtree. The expectation over all orders is computed exactly.
    """
    wrong, shown = solver.prepare(pattern)
    nl = len(wrong)

    def walk(open_bits, used, depth):
        # -> (has a solution, expected looks to the first one, looks to exhaust it)
        if depth == level:
            return open_bits & shown == 0, 0.0, 0
        tries = 0
        good, bad = [], []
        exhaust = 0
        for li in range(nl):
            if used >> li & 1:
                continue
            for o in range(8):
                tries += 1
                opaque, w = wrong[li][o]
                if w & open_bits or not opaque & open_bits:
                    continue
                ok, e, x = walk(open_bits & ~opaque, used | (1 << li), depth + 1)
                exhaust += x
                (good if ok else bad).append((e, x))
        exhaust += tries
        if not good:
            return False, 0.0, exhaust
        g = len(good)
        # non-good pairs tried before the first good one: (tries - g) / (g + 1) on average;
        # the bad ones among them cost their subtrees too
        e = 1 + (tries - g) / (g + 1) + sum(x for _, x in bad) / (g + 1) + sum(e for e, _ in good) / g
        return True, e, exhaust

    return walk((1 << len(pattern)) - 1, 0, 0)[1]


def ranks(a):
    """Ranks with ties averaged (for Spearman's rho)."""
    a = np.asarray(a, float)
    order = np.argsort(a, kind="stable")
    r = np.empty(len(a))
    r[order] = np.arange(len(a))
    for v in np.unique(a):
        tie = a == v
        r[tie] = r[tie].mean()
    return r


def spearman(a, b):
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def plot(points, path, rho):
    """Effort (log scale) against grade, one colour a level, drawn with Pillow."""
    from PIL import Image, ImageDraw, ImageFont
    w, h, left, right, top, bottom = 900, 560, 80, 150, 50, 60
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=15)
    small = ImageFont.load_default(size=13)
    efforts = [e for _, _, e in points]
    lo, hi = np.log10(max(1, min(efforts))), np.log10(max(efforts)) + 0.05
    lo = np.floor(lo)

    def xy(g, e):
        return (left + g * (w - left - right), h - bottom - (np.log10(e) - lo) / (hi - lo) * (h - top - bottom))

    d.rectangle([left, top, w - right, h - bottom], outline=(60, 60, 60))
    for g in np.arange(0, 1.01, 0.1):
        x, _ = xy(g, 10 ** lo)
        d.line([x, h - bottom, x, h - bottom + 5], fill=(60, 60, 60))
        d.text((x, h - bottom + 8), "%.1f" % g, fill=(40, 40, 40), font=small, anchor="mt")
    decade = 10 ** lo
    while decade <= 10 ** hi:
        for m in (1, 2, 5):
            v = decade * m
            if lo <= np.log10(v) <= hi:
                _, y = xy(0, v)
                d.line([left - 5, y, w - right, y], fill=(225, 225, 225) if m != 1 else (190, 190, 190))
                d.text((left - 8, y), "%g" % v, fill=(40, 40, 40), font=small, anchor="rm")
        decade *= 10
    colours = {2: (47, 168, 79), 3: (31, 111, 209), 4: (224, 58, 62), 5: (120, 60, 160)}
    for level, g, e in points:
        x, y = xy(g, e)
        d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colours.get(level, (0, 0, 0)))
    for k, level in enumerate(sorted(colours)):
        y = top + 10 + 24 * k
        d.ellipse([w - right + 20, y - 4, w - right + 28, y + 4], fill=colours[level])
        d.text((w - right + 36, y), "level %d" % level, fill=(40, 40, 40), font=font, anchor="lm")
    d.text((w - right + 20, top + 120), "Spearman's rho", fill=(40, 40, 40), font=small, anchor="lm")
    d.text((w - right + 20, top + 138), "all: %.2f" % rho["all"], fill=(40, 40, 40), font=small, anchor="lm")
    for k, level in enumerate(sorted(colours)):
        d.text((w - right + 20, top + 156 + 18 * k), "level %d: %.2f" % (level, rho[level]), fill=(40, 40, 40),
               font=small, anchor="lm")
    d.text(((left + w - right) / 2, h - 18), "difficulty grade (cards build)", fill=(20, 20, 20), font=font, anchor="mm")
    d.text((left, top - 28), "placements a random-order solver looks at before its first solution (expected)",
           fill=(20, 20, 20), font=font, anchor="lm")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    img.save(path)


def difficulty_figures():
    from layerlight.solver import Solver
    from layerlight_tools.layers import cards
    d = cards.open_deck(DEFAULT_DECK)
    solver = Solver(d.layers)
    points = []
    for m in cards.missions_of(d):
        points.append((m.level, m.difficulty, expected_effort(solver, m.pattern, m.level)))
    rho = {"all": spearman([p[1] for p in points], [p[2] for p in points])}
    for level in (2, 3, 4, 5):
        sel = [p for p in points if p[0] == level]
        rho[level] = spearman([p[1] for p in sel], [p[2] for p in sel])
    plot(points, PLOT, rho)
    return points, rho


# --- the report ----------------------------------------------------------------------------

def ok(flag):
    return "OK" if flag else "MISSED"


def main():
    from layerlight_tools.layers import cards, sets
    s = run_child("search", BENCH_SET)
    b = run_child("brute", BENCH_SET)
    ratio = b["seconds"] / s["seconds"]
    print("every mission of %s (5 layers, 8x8: 4,455,720 stackings of 1-5 layers):" % os.path.relpath(BENCH_SET, REPO))
    print("  missions per level: %s" % ", ".join("%s: %d" % kv for kv in sorted(s["missions"].items())))
    print("  search (cards build):   %6.2f s   peak %5.0f MB" % (s["seconds"], s["peak_mb"]))
    print("  NumPy brute force:      %6.2f s   peak %5.0f MB" % (b["seconds"], b["peak_mb"]))
    print("  same missions and solution counts: %s" % ("yes" if s["digest"] == b["digest"] else "NO (bug)"))
    print("  %.1fx faster than the brute force (target >= %.0fx): %s;  under %.0f s: %s;  under %d MB: %s" % (
        ratio, TARGET_RATIO, ok(ratio >= TARGET_RATIO), TARGET_S, ok(s["seconds"] < TARGET_S),
        TARGET_MB, ok(s["peak_mb"] < TARGET_MB)))

    layer_set = sets.load(BENCH_SET)
    with tempfile.TemporaryDirectory() as tmp:
        deck8 = os.path.join(tmp, "bench8.deck")
        t0 = time.perf_counter()
        cards.write(layer_set, cards.build(layer_set), deck8)
        print("  `cards build` whole (pick 4 x 60, solve each again, write): %.2f s" % (time.perf_counter() - t0))
        print()
        print("every solution of one level-5 pattern (the firmware's solver):")
        for name, path in (("default deck (6x6)", DEFAULT_DECK), ("bench8 deck (8x8)", deck8)):
            pc = solve_times_pc(path)
            wasm, scale = solve_times_wasm(path)
            pc_ms = sorted(t for t, _ in pc)
            wasm_ms = sorted(t for t, _ in wasm)
            worst = max(wasm, key=lambda x: x[0])
            print("  %s, %d missions: PC median %.2f ms, worst %.2f ms;  wasm MicroPython median %.1f ms, worst %.1f ms" % (
                name, len(pc), pc_ms[len(pc_ms) // 2], pc_ms[-1], wasm_ms[len(wasm_ms) // 2], wasm_ms[-1]))
            print("    RP2040 estimate (x%.1f): median %.0f ms, worst %.0f ms (%d solutions)   target < %d ms: %s" % (
                scale, wasm_ms[len(wasm_ms) // 2] * scale, worst[0] * scale, worst[1], TARGET_DEVICE_MS,
                ok(worst[0] * scale < TARGET_DEVICE_MS)))
    print()
    points, rho = difficulty_figures()
    print("difficulty against a solver's effort, %d missions of the shipped deck -> %s" % (
        len(points), os.path.relpath(PLOT, REPO)))
    print("  Spearman's rho: all %.2f; within level 2: %.2f, 3: %.2f, 4: %.2f, 5: %.2f" % (
        rho["all"], rho[2], rho[3], rho[4], rho[5]))
    for level in (2, 3, 4, 5):
        sel = sorted((g, e) for lv, g, e in points if lv == level)
        third = max(1, len(sel) // 3)
        easy = np.mean([e for _, e in sel[:third]])
        hard = np.mean([e for _, e in sel[-third:]])
        print("  level %d: mean effort of the easiest third %.0f, of the hardest third %.0f" % (level, easy, hard))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        main()
