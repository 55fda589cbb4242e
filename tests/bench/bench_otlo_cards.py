"""OTLO challenge cards: the deck build, the search against a plain brute force, one hard challenge, difficulty.

1. `cards build` of host_tools/sets/otlo.toml: time and peak memory
   (tracemalloc, in a second build), and whether the bytes are the shipped deck's.
2. Scoring every candidate pattern (the build's main work) with the search
   and with the plain brute force of tests/test_otlo_search.py (every tile
   unused or laid at every layer, side, turn and place inside the shape),
   on the first three tiles of the default set (8- and 12-cell shapes): with
   six tiles the brute force faces ~10^10 combinations a shape. The counts
   must be equal.
3. Every solution of the shipped deck's hardest challenge, counted on the PC.
4. Difficulty against the time the search takes on each challenge of the
   shipped deck: docs/otlo-difficulty.png and Spearman's rho.
Prints figures; never fails on speed.
"""

import os
import random
import sys
import time
import tracemalloc

import numpy as np

from mpy import REPO

sys.path.insert(0, os.path.join(REPO, "tests"))

SET = os.path.join(REPO, "host_tools", "sets", "otlo.toml")
DECK = os.path.join(REPO, "firmware", "decks", "otlo.deck")
PLOT = os.path.join(REPO, "docs", "otlo-difficulty.png")
TARGET_S, TARGET_RATIO, TARGET_MB = 30.0, 5.0, 1024


def ok(flag):
    return "OK" if flag else "MISSED"


def build_figures():
    from layerlight_tools.otlo import cards as otlo_cards, deckpack as otlo_deckpack, sets as otlo_sets
    s = otlo_sets.load(SET)
    t0 = time.perf_counter()
    cs = otlo_cards.build(s)
    data = otlo_deckpack.pack(s, cs)
    seconds = time.perf_counter() - t0
    tracemalloc.start()  # a second build for the memory: tracemalloc slows Python several times over
    otlo_cards.build(s)
    peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
    tracemalloc.stop()
    with open(DECK, "rb") as f:
        same = f.read() == data
    return seconds, peak, len(cs), same


def scoring_race():
    """(search s, brute force s, candidates, equal): every candidate of a 3-tile set counted both ways."""
    from layerlight_tools.otlo import cards as otlo_cards, search as otlo_search, sets as otlo_sets
    from test_otlo_search import brute_force
    s = otlo_sets.load(SET)
    s.tiles = s.tiles[:3]
    rng = random.Random(otlo_cards.seed_of(s))
    jobs = []
    for cells in (8, 12):
        box = otlo_search.box_for(s.tile, cells, 3)
        shapes = otlo_search.shapes(s.tile, cells, box, 3)
        for (w, h, p), k in sorted(otlo_cards.candidates(s, cells, rng).items()):
            jobs.append((w, h, p, shapes[k][2]))
    t0 = time.perf_counter()
    fast = [otlo_search.count(s, w, h, p)[0] for w, h, p, _ in jobs]
    t_search = time.perf_counter() - t0
    t0 = time.perf_counter()
    maps = {}
    slow = []
    for w, h, p, shape in jobs:
        key = (w, h, shape)
        if key not in maps:
            maps[key] = brute_force(s, w, h, shape)
        slow.append(maps[key].get(p, 0))
    t_brute = time.perf_counter() - t0
    return t_search, t_brute, len(jobs), fast == slow


def hardest():
    from layerlight_tools.otlo import cards as otlo_cards, search as otlo_search
    d = otlo_cards.open_deck(DECK)
    ds = otlo_cards.DeckSet(d)
    out = []
    for c in otlo_cards.challenges_of(d):
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            n, _ = otlo_search.count(ds, c.w, c.h, c.pattern)
            best = min(best, time.perf_counter() - t0)
        out.append((c.stars, c.difficulty, best * 1000, n, c.id))
    return out


def spearman(a, b):
    def ranks(v):
        v = np.asarray(v, float)
        r = np.empty(len(v))
        r[np.argsort(v, kind="stable")] = np.arange(len(v))
        for x in np.unique(v):
            r[v == x] = r[v == x].mean()
        return r
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def plot(points, path, rho):
    """Solve time (ms, log scale) against difficulty, one colour a star level, drawn with Pillow."""
    from PIL import Image, ImageDraw, ImageFont
    w, h, left, right, top, bottom = 900, 560, 80, 170, 50, 60
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=15)
    small = ImageFont.load_default(size=13)
    ts = [p[2] for p in points]
    lo, hi = np.floor(np.log10(min(ts))), np.log10(max(ts)) + 0.05

    def xy(g, t):
        return left + g * (w - left - right), h - bottom - (np.log10(t) - lo) / (hi - lo) * (h - top - bottom)

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
                d.line([left - 5, y, w - right, y], fill=(190, 190, 190) if m == 1 else (225, 225, 225))
                d.text((left - 8, y), "%g" % v, fill=(40, 40, 40), font=small, anchor="rm")
        decade *= 10
    colours = {1: (47, 168, 79), 2: (31, 111, 209), 3: (224, 58, 62)}
    for stars, g, t, _, _ in points:
        x, y = xy(g, t)
        d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colours[stars])
    for k, stars in enumerate(sorted(colours)):
        y = top + 10 + 24 * k
        d.ellipse([w - right + 20, y - 4, w - right + 28, y + 4], fill=colours[stars])
        d.text((w - right + 36, y), "%d star%s" % (stars, "" if stars == 1 else "s"), fill=(40, 40, 40), font=font,
               anchor="lm")
    d.text((w - right + 20, top + 100), "Spearman's rho", fill=(40, 40, 40), font=small, anchor="lm")
    d.text((w - right + 20, top + 118), "all: %.2f" % rho["all"], fill=(40, 40, 40), font=small, anchor="lm")
    for k, stars in enumerate(sorted(colours)):
        d.text((w - right + 20, top + 136 + 18 * k), "%d star%s: %.2f" % (stars, "" if stars == 1 else "s", rho[stars]),
               fill=(40, 40, 40), font=small, anchor="lm")
    d.text(((left + w - right) / 2, h - 18), "difficulty (cards build: rank of the search's nodes)", fill=(20, 20, 20),
           font=font, anchor="mm")
    d.text((left, top - 28), "OTLO: ms to find every solution of the challenge on the PC (best of 3)",
           fill=(20, 20, 20), font=font, anchor="lm")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    img.save(path)


def main():
    seconds, peak, n, same = build_figures()
    print("cards build of %s: %d challenges in %.2f s, peak %.1f MB (tracemalloc); bytes = shipped deck: %s" % (
        os.path.relpath(SET, REPO), n, seconds, peak, "yes" if same else "NO (rebuild it: make cards)"))
    print("  under %.0f s: %s;  under %d MB: %s" % (TARGET_S, ok(seconds < TARGET_S), TARGET_MB, ok(peak < TARGET_MB)))
    t_search, t_brute, jobs, equal = scoring_race()
    ratio = t_brute / max(t_search, 1e-9)
    print("scoring %d candidate patterns of the first 3 tiles (8 and 12 cells):" % jobs)
    print("  search %.2f s, plain brute force %.2f s: %.0fx (target >= %.0fx): %s;  same counts: %s" % (
        t_search, t_brute, ratio, TARGET_RATIO, ok(ratio >= TARGET_RATIO), "yes" if equal else "NO (bug)"))
    points = hardest()
    worst = max(points, key=lambda p: p[2])
    print("every solution of the hardest challenge (by time): challenge %d, %d stars, %d solutions: %.2f ms on the PC" % (
        worst[4], worst[0], worst[3], worst[2]))
    rho = {"all": spearman([p[1] for p in points], [p[2] for p in points])}
    for stars in (1, 2, 3):
        sel = [p for p in points if p[0] == stars]
        rho[stars] = spearman([p[1] for p in sel], [p[2] for p in sel])
    plot(points, PLOT, rho)
    print("difficulty against solve time, %d challenges -> %s: Spearman's rho all %.2f; 1 star %.2f, 2 stars %.2f, "
          "3 stars %.2f" % (len(points), os.path.relpath(PLOT, REPO), rho["all"], rho[1], rho[2], rho[3]))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
