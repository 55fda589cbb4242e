"""The firmware on the rp2 port, on an emulated RP2040 (rp2040js, the stock MicroPython v1.23.0
UF2 kept beside the repository): flash and boot times, every mode's busiest frames in emulated time, and
the heap as the Pico's own gc counts it. The same session of every mode is played on the
Layerlight UF2 (`make uf2`: MicroPython v1.28.0, the firmware frozen in) and set beside it:
peak heap, free heap at the menu and the busiest first drawing, frozen against .mpy.

Frames are timed by the firmware itself (`LL time 1`, layerlight.host_link) with ticks_us, in the
emulator's time at 125 MHz: drawing apart from the strip write, whose time the WS2812 protocol
sets (24 bits of 1.25 us a LED). The emulator counts cycles pessimistically: a plain Python loop
runs slower on it than on a real RP2040, by a ratio measured here in the same run, so each
drawing time is printed as measured (a pessimistic bound) and divided by that ratio (an
optimistic one); the real chip sits between. The wasm-calibrated estimates of bench_keepers are
printed beside them.
"""

import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import bench_keepers
import pico_games
import scenario_lib
from bench_device import FRAME_TARGET_MS, RP2040_MS_PER_ITERATION
from bench_memory import MPY_TARGET
from layerlight_tools import uf2 as uf2_tool
from layerlight_tools import devicefs
from layerlight_tools.pico import session, target
from layerlight_tools.pico.bridge import SerialBridge

SIZE = 16
FROZEN_TARGET = 48 * 1024  # every mode's peak heap on the Layerlight UF2 (issue 27)
LAYERLIGHT_UF2 = os.path.join(uf2_tool.REPO, "build", "layerlight-pico.uf2")
SETTINGS = dict(pico_games.SHORT, width=SIZE, height=SIZE)
CALIBRATION = 100_000  # iterations of bench_device's loop on the emulated chip (about 10 s of wall time)
# the wasm-calibrated estimates of the same modes (bench_keepers: whole games, every screen timed)
WASM = {"layers": bench_keepers.REFERENCE, "coop": (scenario_lib.coop_game, 1),
        "paper-world": (scenario_lib.paper_world_game, 1), "otlo": (scenario_lib.otlo_game, 5)}


def files():
    uf2, rom = target.chosen_files()
    shared_uf2, shared_rom = target.shared_files()
    return uf2 or shared_uf2, rom or shared_rom


def lit(frame):
    return any(frame)


def flash_and_boot(uf2, rom, image):
    """First flash onto a blank chip, boot to the menu, an unchanged re-flash: wall and emulated s."""
    f = {}
    pico = target.power_on(uf2, rom, image)
    try:
        t = time.monotonic()
        first = target.flash(pico, SETTINGS)
        f["first_flash"] = (time.monotonic() - t, first["emulated_s"], len(first["sent"]))
    finally:
        pico.close(keep=True)
    pico = target.power_on(uf2, rom, image)
    try:
        pico.run_until(lambda: any(lit(fr["data"]) for fr in pico.frames), "the menu", step_ms=20)
        f["boot_ms"] = next(fr["start_us"] for fr in pico.frames if lit(fr["data"])) / 1000
        t = time.monotonic()
        second = target.flash(pico, SETTINGS)
        f["reflash"] = (time.monotonic() - t, second["emulated_s"], len(second["sent"]) + len(second["copied"]))
    finally:
        pico.close(keep=True)
    return f


def uf2_image(rom, image):
    """The Layerlight UF2 on a blank chip, then the short-game settings put on by `layerlight flash`."""
    pico = target.power_on(LAYERLIGHT_UF2, rom, image)
    try:
        pico.run_ms(500)
        target.flash(pico, SETTINGS)
    finally:
        pico.close(keep=True)


def calibrate(uf2, rom, image):
    """Emulated ms for CALIBRATION iterations of the loop the RP2040 figure was measured with,
    run at the REPL (module level: globals), as on a board."""
    pico = target.power_on(uf2, rom, image)
    try:
        with SerialBridge(pico) as bridge:
            board = devicefs.Board(bridge.port)
            try:
                out = board.exec("import time\np = [0, 1, 2]\nt0 = time.ticks_us()\n"
                                 "for i in range(%d):\n    C = p[1] + p[2]\n"
                                 "print(time.ticks_diff(time.ticks_us(), t0))\n" % CALIBRATION, timeout=600)
            finally:
                board.close()
        return int(out.decode().strip()) / 1000
    finally:
        pico.close()


def session_of_every_mode(uf2, rom, image):
    """Every mode's short game in turn on one Pico, frames timed and the heap read after every line."""
    pico = target.power_on(uf2, rom, image)
    modes = []
    try:
        pico.run_ms(500)
        game_on = session.Session(pico)
        pico.write(b"LL time 1\nLL mem 1\n")
        for name, script, game, players, seed in pico_games.games():
            m = {"name": name, "first": (0, ""), "steady": (0, ""), "strip": 0, "peak": (0, ""), "alloc": [],
                 "behind": (0, "")}
            origin = game_on.begin(seed, game, players)

            def on_line(report, frame, no, m=m, origin=origin):
                first, steady, strip = report["frames_us"]
                phase = report["phase"]
                m["first"] = max(m["first"], (first, phase))
                m["steady"] = max(m["steady"], (steady, phase))
                m["strip"] = max(m["strip"], strip)
                m["peak"] = max(m["peak"], (report["alloc"], phase))
                m["alloc"].append(report["alloc"])
                # how long after its instant the device answered: behind the table by that much
                m["behind"] = max(m["behind"], ((report["_us"] - origin) / 1000 - report["t"], phase))
            game_on.play(session.Timeline().read(script.split("\n")), on_line)
            m["menu_after"] = m["alloc"][-1]  # the last line of every game is back at the menu
            modes.append(m)
        pico.write(b"LL mem 0\nLL mem\n")
        menu = game_on._wait_answer(lambda a: "free" in a, "the heap at the menu")
    finally:
        pico.close()
    return modes, menu


RACES_PER_SIZE = 4  # per size: Layers and Layers+, two each (pico_games.close_race)


def lit_by_presses(script, game, players, seed, size):
    """For every `down Pn` of the script: (instant, seat, the wire bytes' positions its press
    changes and their values), from the simulator's frames just before and just after it."""
    import wire_frames
    return wire_frames.press_changes(script, game, players, seed, dict(SETTINGS, width=size, height=size))


def press_timing(uf2, rom, image, size, ratio_holder):
    """Close races (four seats within 300 ms, pins only) on one Pico at `size`: for every press,
    how long until the frame showing it left the wire; races in order; the strip write's CPU
    time; the longest stretches with interrupts off during the races."""
    import random
    pico = target.power_on(uf2, rom, image)
    out = {"latency": [], "in_order": 0, "tried": 0, "strip": 0, "irq": (0, 0)}
    try:
        target.flash(pico, dict(SETTINGS, width=size, height=size))
        pico.run_ms(500)
        game_on = session.Session(pico, bounce=False)
        pico.write(b"LL time 1\n")
        rng = random.Random(1000 + size)
        pico.irq_off()
        for k in range(RACES_PER_SIZE):
            game, seed = (("layers", 4), ("layers-plus", 8))[k % 2]
            script, order = pico_games.close_race(game, seed, rng)
            origin = game_on.begin(seed, game, 4)
            reports = []
            game_on.play(session.Timeline().read(script.split("\n")), lambda r, f, no: reports.append(r))
            race_end = [r for r in reports if r["phase"] == "verify"][0]
            out["tried"] += 1
            out["in_order"] += race_end["finish_order"] == order
            out["strip"] = max([out["strip"]] + [r["frames_us"][2] for r in reports])
            with pico.cond:
                frames = list(pico.frames)
            for t, seat, changes in lit_by_presses(script, game, 4, seed, size):
                at = origin + t * 1000
                us, shown = wire_frames.light(frames, at, changes)
                if shown is not None:
                    out["latency"].append((us, max(0, shown["start_us"] - at), shown["end_us"] - shown["start_us"]))
        out["irq"] = pico.irq_off()
    finally:
        pico.close()
    return out


def print_press_timing(timing, ratio):
    print("every press at its instant (pins only; close races of 4 seats within 300 ms, the first while the "
          "reveal is saved):")
    print("  %-6s %-30s %-30s %-14s %-12s %s" % ("size", "press to light, median / worst", "scaled by the ratio",
                                                 "races in order", "strip (CPU)", "longest with interrupts off"))
    for size in sorted(timing):
        m = timing[size]
        lat = sorted(m["latency"])
        if not lat:
            print("  %dx%d: no press seen lit" % (size, size))
            continue
        med, worst = lat[len(lat) // 2], lat[-1]
        scaled = sorted(start / ratio + wire for _end, start, wire in lat)
        print("  %-6s %5.1f / %5.1f ms (emulated)      %5.1f / %5.1f ms               %d / %d          %5.2f ms"
              "     %.2f ms (%.1f ms with a flash write)" % (
                  "%dx%d" % (size, size), med[0] / 1000, worst[0] / 1000, scaled[len(scaled) // 2] / 1000,
                  scaled[-1] / 1000, m["in_order"], m["tried"], m["strip"] / 1000, m["irq"][1] / 1000,
                  m["irq"][0] / 1000))
    print("  target: within one frame (40 ms) plus the wire (1.9 / 7.7 / 30.7 ms at 8x8 / 16x16 / 32x32);"
          " scaled: the time to the frame's start divided by the emulator's ratio, plus the wire")


def main():
    uf2, rom = files()
    if not (uf2 and rom):
        print("no UF2 and boot ROM (../shared/rp2, or LAYERLIGHT_UF2 and LAYERLIGHT_BOOTROM): nothing measured")
        return
    frozen = os.path.isfile(LAYERLIGHT_UF2)
    with tempfile.TemporaryDirectory() as tmp:
        image = os.path.join(tmp, "flash.bin")
        fb = flash_and_boot(uf2, rom, image)
        images = []
        for i in range(2):
            images.append(os.path.join(tmp, "copy%d.bin" % i))
            shutil.copyfile(image, images[-1])
        frozen_image = os.path.join(tmp, "uf2.bin")
        if frozen:
            uf2_image(rom, frozen_image)
        with ThreadPoolExecutor(max_workers=2) as pool:
            cal = pool.submit(calibrate, uf2, rom, images[0])
            played = pool.submit(session_of_every_mode, uf2, rom, images[1])
            wasm = {name: bench_keepers.measure(*how) for name, how in WASM.items()}
            cal_ms = cal.result()
            frozen_played = pool.submit(session_of_every_mode, LAYERLIGHT_UF2, rom, frozen_image) if frozen else None
            modes, menu = played.result()
            if frozen_played is not None:
                frozen_modes, frozen_menu = frozen_played.result()
        timing = {}
        with ThreadPoolExecutor(max_workers=2) as pool:
            jobs = {}
            for size in (8, 16, 32):
                # on the product: the Layerlight UF2 when it is built, else the stock one
                copy = os.path.join(tmp, "race%d.bin" % size)
                shutil.copyfile(frozen_image if frozen else image, copy)
                jobs[size] = pool.submit(press_timing, LAYERLIGHT_UF2 if frozen else uf2, rom, copy, size, None)
            for size, job in jobs.items():
                timing[size] = job.result()
    ratio = cal_ms / (RP2040_MS_PER_ITERATION * CALIBRATION)
    print("stock MicroPython v1.23.0 (rp2 port) on rp2040js, firmware flashed with `layerlight flash` as .mpy files")
    print("first flash onto a blank chip: %.1f s wall, %.1f s of the Pico's time, %d modules sent" % fb["first_flash"])
    print("power on to the menu's first frame: %.0f ms of the Pico's time (boot ROM, MicroPython, LittleFS, boot)"
          % fb["boot_ms"])
    print("unchanged re-flash: %.1f s wall, %.1f s of the Pico's time, %d files sent or copied" % fb["reflash"])
    print("calibration loop: %d iterations in %.0f ms emulated; a real RP2040 takes %.0f ms: the emulator is %.2fx "
          "pessimistic" % (CALIBRATION, cal_ms, RP2040_MS_PER_ITERATION * CALIBRATION, ratio))
    print("every mode's short game (tests/pico_games.py) in turn on one Pico, 16x16, cap 0.25; drawing in ms,")
    print("emulated (pessimistic) / divided by the ratio (optimistic) / wasm-calibrated estimate (bench_keepers):")
    print("  %-17s %-32s %-32s %8s %-26s" % ("mode", "busiest first drawing", "busiest steady drawing", "strip",
                                             "peak heap (rp2, .mpy)"))
    worst = 0.0
    for m in modes:
        w = wasm.get(m["name"])
        cells = []
        for kind, i in (("first", 2), ("steady", 1)):
            us, phase = m[kind]
            est = "%5.2f" % bench_keepers.busiest(w, i)[0] if w else "  -  "
            cells.append("%5.2f / %5.2f / %s %-9s" % (us / 1000, us / 1000 / ratio, est, phase))
            worst = max(worst, us / 1000 / ratio)
        peak, at = m["peak"]
        print("  %-17s %-32s %-32s %5.1f ms %6.1f KB %-9s %s" % (
            m["name"], cells[0], cells[1], m["strip"] / 1000, peak / 1024, at,
            "OK" if peak < MPY_TARGET else "OVER"))
    print("  targets: drawing < %.1f ms on the real chip (optimistic bound over every mode: %.2f ms, %s); peak heap"
          " < %d KB" % (FRAME_TARGET_MS, worst, "OK" if worst < FRAME_TARGET_MS else "OVER", MPY_TARGET // 1024))
    print("  (heap: gc.mem_alloc after a collection at every script line, host_link's own few KB included;")
    print("   the strip write is the wire's time plus copying the frame: it does not scale with the chip)")
    print("the device behind the table (a line's report after its instant; saves are 100-200 ms of flash writes):")
    print("  " + ", ".join("%s %.0f ms (%s)" % (m["name"], m["behind"][0], m["behind"][1]) for m in modes))
    print_press_timing(timing, ratio)
    print("heap at the menu after the session: %.1f KB in use, %.1f KB free (of %.1f KB)" % (
        menu["alloc"] / 1024, menu["free"] / 1024, (menu["alloc"] + menu["free"]) / 1024))
    print("  at the menu after each game: " + ", ".join("%s %.1f KB" % (m["name"], m["menu_after"] / 1024)
                                                         for m in modes))
    if not frozen:
        print("no build/layerlight-pico.uf2 (make uf2): frozen against .mpy not measured")
        return
    print()
    print("the same session on the Layerlight UF2 (MicroPython v1.28.0, the firmware frozen in, decks in ROMFS)")
    print("against the stock v1.23.0 UF2 with .mpy files, same Pico, same scripts; drawing as emulated (pessimistic):")
    print("  %-17s %-24s %-30s %s" % ("mode", "peak heap .mpy / frozen", "busiest first drawing .mpy / frozen",
                                      "frozen target"))
    for m, f in zip(modes, frozen_modes):
        print("  %-17s %6.1f / %5.1f KB %-6s %6.2f / %5.2f ms %-14s %s" % (
            m["name"], m["peak"][0] / 1024, f["peak"][0] / 1024, "", m["first"][0] / 1000, f["first"][0] / 1000,
            "(%s)" % f["first"][1], "OK" if f["peak"][0] <= FROZEN_TARGET else "OVER"))
    print("  target: every mode's peak heap at most %d KB frozen: %s" % (
        FROZEN_TARGET // 1024, "OK" if all(f["peak"][0] <= FROZEN_TARGET for f in frozen_modes) else "OVER"))
    print("heap at the menu after the session: .mpy %.1f KB in use, %.1f KB free; frozen %.1f KB in use, %.1f KB free"
          % (menu["alloc"] / 1024, menu["free"] / 1024, frozen_menu["alloc"] / 1024, frozen_menu["free"] / 1024))


if __name__ == "__main__":
    main()
