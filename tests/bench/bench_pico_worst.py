"""The Layerlight UF2 on the emulated Pico with the flash chip at its typical and at its
slowest times (LAYERLIGHT_FLASH_TIMES=typical|max, pico.mjs): how far the loop falls
behind the button samples (the ring keeps rp2_pio.KEPT of them), what held it, and press to
light at every size. `python tests/bench/run.py pico_worst` runs it alone.

The loop's lag comes from the firmware itself (`LL lag`: the most samples between the latest
taken and the latest taken in, since the last ask), asked after every game; its cause is read
from the flash chip's commands in that game (the longest run of program/erase commands one
after the other, the chip busy throughout: a save) and from the frames' timing.
"""

import os
import shutil
import tempfile

import pico_games
import wire_frames
from bench_pico import LAYERLIGHT_UF2, SETTINGS, files, lit_by_presses
from layerlight_tools.pico import session, target

RACES_PER_SIZE = 2
SIZES = (8, 16, 32)
RING_KEPT_MS = 4096 - 64  # firmware/layerlight/backends/rp2_pio.py: RING - MARGIN


def longest_write_run(ops, start_us, end_us):
    """The longest stretch (ms) of flash commands back to back (each begun before the last
    ended, give or take 1 ms) between two instants, and how many commands it held."""
    best = (0.0, 0)
    run_start = run_end = None
    n = 0
    for k in sorted(ops):
        op = ops[k]
        if not start_us <= op["us"] <= end_us:
            continue
        if run_end is not None and op["us"] <= run_end + 1000:
            run_end = max(run_end, op["us"] + op["busy_us"])
            n += 1
        else:
            run_start, run_end, n = op["us"], op["us"] + op["busy_us"], 1
        if (run_end - run_start) / 1000 > best[0]:
            best = ((run_end - run_start) / 1000, n)
    return best


def play(rom, image, size, profile, games):
    """Games on one Pico under a flash times profile: per game (name, lag samples, lost ms, the
    longest flash run (ms, commands), press-to-light latencies in us, finish order right)."""
    pico = target.power_on(LAYERLIGHT_UF2, rom, image, times=profile)
    out = []
    try:
        pico.run_ms(500)
        game_on = session.Session(pico, bounce=False)
        for name, script, game, players, seed, order in games:
            origin = game_on.begin(seed, game, players)
            pico.write(b"LL lag\n")
            game_on._wait_answer(lambda a: "lag" in a, "the lag")
            reports = []
            game_on.play(session.Timeline().read(script.split("\n")), lambda r, f, no: reports.append(r))
            pico.write(b"LL lag\n")
            lag = game_on._wait_answer(lambda a: "lag" in a, "the lag")
            with pico.cond:
                frames = list(pico.frames)
                ops = dict(pico.flash_ops)
            latency = []
            right = None
            if order is not None:
                right = [r for r in reports if r["phase"] == "verify"][0]["finish_order"] == order
                for t, _seat, changes in lit_by_presses(script, game, players, seed, size):
                    at = origin + t * 1000
                    us = wire_frames.light(frames, at, changes)[0]
                    if us is not None:
                        latency.append(us)
            out.append((name, lag["lag"], lag["lost_ms"], longest_write_run(ops, origin, pico.us), latency, right))
    finally:
        pico.close()
    return out


def sized_image(rom, base, size, image):
    """The base image with the settings for `size` put on (at typical times)."""
    shutil.copyfile(base, image)
    pico = target.power_on(LAYERLIGHT_UF2, rom, image)
    try:
        pico.run_ms(500)
        target.flash(pico, dict(SETTINGS, width=size, height=size))
    finally:
        pico.close(keep=True)


def main():
    _uf2, rom = files()
    if not rom or not os.path.isfile(LAYERLIGHT_UF2):
        print("no build/layerlight-pico.uf2 (make uf2) or boot ROM: nothing measured")
        return
    import random
    from bench_pico import uf2_image
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "uf2.bin")
        uf2_image(rom, base)
        keeper = [g for g in pico_games.games() if g[0] == "paper-world"][0]
        results = {}
        sized = {}
        for size in SIZES:
            sized[size] = os.path.join(tmp, "size%d.bin" % size)
            sized_image(rom, base, size, sized[size])
        for profile in ("typical", "max"):
            for size in SIZES:
                rng = random.Random(2000 + size)
                games = []
                for k in range(RACES_PER_SIZE):
                    game, seed = (("layers", 4), ("layers-plus", 8))[k % 2]
                    script, order = pico_games.close_race(game, seed, rng)
                    games.append(("%s race" % game, script, game, 4, seed, order))
                if size == 16:
                    games.append(("paper-world game",) + keeper[1:] + (None,))
                image = os.path.join(tmp, "%s%d.bin" % (profile, size))
                shutil.copyfile(sized[size], image)
                results[profile, size] = play(rom, image, size, profile, games)
    print("the loop behind the button samples (the ring keeps %d ms), flash at typical and at max times:" % RING_KEPT_MS)
    print("  %-8s %-6s %-22s %-10s %-9s %-34s %s" % ("flash", "size", "game", "lag (ms)", "lost", "longest flash run",
                                                     "press to light median / worst"))
    worst = {}
    for (profile, size), games in sorted(results.items()):
        for name, lag, lost, (run_ms, run_n), latency, right in games:
            lat = sorted(latency)
            cell = "%5.1f / %5.1f ms" % (lat[len(lat) // 2] / 1000, lat[-1] / 1000) if lat else "-"
            print("  %-8s %-6s %-22s %-10d %-9s %-34s %s%s" % (
                profile, "%dx%d" % (size, size), name, lag, "%d ms" % lost,
                "%.0f ms (%d commands)" % (run_ms, run_n), cell,
                "" if right is None else ("  in order" if right else "  OUT OF ORDER")))
            w = worst.get(profile)
            if w is None or lag > w[0]:
                worst[profile] = (lag, name, size, run_ms, run_n)
    for profile, (lag, name, size, run_ms, run_n) in sorted(worst.items()):
        cause = ("a save: %d flash commands back to back, %.0f ms" % (run_n, run_ms) if run_ms >= lag * 0.5
                 else "drawing and collection (no long flash run)")
        print("  longest stall at %s flash times: %d ms (%s at %dx%d; %s); the ring keeps %d ms: %.1fx room" % (
            profile, lag, name, size, size, cause, RING_KEPT_MS, RING_KEPT_MS / max(lag, 1)))
