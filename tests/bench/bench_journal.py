"""The game journal (firmware/layerlight/journal.py), the running game's saves on the Layerlight UF2.

1. Wear and cost, on the simulator's NOR flash model (simcore.SimFlash, the journal's own code):
   every mode's short game (tests/pico_games.py, at the simulator's pace) played once to learn
   what it saves and when the device is quiet; then a season, 500 games of every mode back to
   back (as bench_history models a season), through one journal: the erases of each of its
   sectors, and the flash commands (page programs, erases) per record the table confirmed.
2. On the emulated Pico with the Layerlight UF2 (build/layerlight-pico.uf2, `make uf2`): whole
   CO.OP and Paper World games entered at the simulator's pace, and close races of Layers, at
   every size: press to light, median and worst, per mode and size (the flash chip's typical
   times, and its slowest where the emulator has them: LAYERLIGHT_FLASH_TIMES=max); the
   longest the flash kept the chip busy, and what it was doing.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import pico_games  # noqa: E402
import scenario_lib  # noqa: E402
import wire_frames  # noqa: E402
from layerlight import journal  # noqa: E402
from layerlight_tools import firmware_files, simcore  # noqa: E402
from layerlight_tools import uf2 as uf2_tool  # noqa: E402

LAYERLIGHT_UF2 = os.path.join(uf2_tool.REPO, "build", "layerlight-pico.uf2")
TARGET_MS = {8: 80, 16: 80, 32: 120}  # press to light (issue 33: a frame, emulated time, unscaled)
# the sizes played on the emulated Pico (LAYERLIGHT_BENCH_SIZES=16,32 to play fewer: each game is
# minutes of the machine's time)
SIZES = [int(n) for n in os.environ.get("LAYERLIGHT_BENCH_SIZES", "8,16,32").split(",") if n]

SEASON = 500          # games of every mode (bench_history's full play log)
CYCLES = 100_000      # a sector's erase cycles (W25Q16JV datasheet 9.6, Endurance: min 100,000)


def calls_of(name, script, game, players, seed):
    """What a game asks of its saves, in order: ("save", obj) / ("clear",) / ("tidy",), and how
    many of its script lines confirmed something (a record made)."""
    flash = simcore.SimFlash()
    settings = dict(pico_games.SHORT, width=16, height=16)
    dev = simcore.make_device(firmware_files.device_files(None, settings), 16, 16, seed, None, players, flash=flash)
    saves = dev.saves
    calls = []
    save, clear, tidy = saves.save, saves.clear, saves.tidy

    def saved(obj, grown=()):
        calls.append(("save", journal.unflatten(journal.flatten(obj)), grown))
        save(obj, grown)

    def cleared():
        calls.append(("clear",))
        clear()

    def tidied():
        calls.append(("tidy",))
        tidy()
    saves.save, saves.clear, saves.tidy = saved, cleared, tidied
    saves.wants_tidy = lambda: True  # every quiet moment is noted (the season's journal decides)
    dev.start_game(game, list(range(players)), 0)
    sim = simcore.Simulator(dev)
    for no, line in enumerate(script.split("\n"), 1):
        sim.run_line(line, no)
    return calls, saves.written


def season(games):
    """Every game's calls SEASON times, mode after mode, through one journal on one area."""
    flash = simcore.SimFlash()
    records = []  # (kind, pages) of every record programmed, in order
    program = flash.program

    def counted(offset, data):
        first = next(k for k, b in enumerate(data) if b != 0xFF)  # the record's first byte: its kind
        records.append((data[first], len(data) // flash.PAGE))
        program(offset, data)
    flash.program = counted
    j = journal.Journal(flash)
    j.load()
    per_mode = {}
    pages = {}
    for name, calls, _records in games:
        p0, e0, w0 = j.programs, j.erases, j.written
        r0 = len(records)
        for _ in range(SEASON):
            for call in calls:
                if call[0] == "save":
                    j.save(call[1], call[2])
                elif call[0] == "clear":
                    j.clear()
                elif j.wants_tidy():
                    j.tidy()
        per_mode[name] = (j.written - w0, j.programs - p0, j.erases - e0)
        pages[name] = records[r0:]
    sectors = [0] * (flash.size // journal.SECTOR)
    for kind, off in flash.ops:
        if kind == "erase":
            sectors[off // journal.SECTOR] += 1
    return sectors, per_mode, pages, j


# W25Q16JV datasheet 9.6, AC electrical characteristics: tPP, page program time, typ 0.4 ms, max 3 ms
PAGE_MS = {"typical": 0.4, "slowest": 3.0}


def save_costs(pages):
    """What an entry (a delta record) and a whole game at a block's start (a base) cost each mode
    over the season: pages programmed, median and most, and the time the flash holds the chip for
    the most, at the chip's typical and slowest page-program times."""
    print("what a save costs, per mode over the season: pages programmed per record, median / most;"
          " the flash holds the chip for the most (W25Q16JV tPP %.1f ms typical, %.0f ms slowest)"
          % (PAGE_MS["typical"], PAGE_MS["slowest"]))
    print("  %-18s %-7s %8s %14s %22s %12s" % ("mode", "record", "count", "pages", "typical / slowest", "over 1 page"))
    for name, recs in pages.items():
        for kind, label in ((journal.DELTA, "entry"), (journal.BASE, "base")):
            n = sorted(p for k, p in recs if k == kind)
            if not n:
                continue
            print("  %-18s %-7s %8d %9d / %-4d %9.1f / %5.1f ms %11.1f%%" % (
                name, label, len(n), n[len(n) // 2], n[-1], n[-1] * PAGE_MS["typical"],
                n[-1] * PAGE_MS["slowest"], 100.0 * sum(1 for p in n if p > 1) / len(n)))


def keeper_games():
    """[(name, script, game, players, seed)]: whole CO.OP and Paper World games at the simulator's pace."""
    return [("coop", scenario_lib.coop_game()[0], "coop", 4, 1),
            ("paper-world", scenario_lib.paper_world_game()[0], "paper-world", 4, 1)]


def lit_after(events, frames, origin):
    """For every event (instant, line, changes): (us from the event until the strip shows its
    changes, or None if it never did, the line): wire_frames.light."""
    out = []
    for t, line, changes in events:
        at = origin + t * 1000
        out.append((wire_frames.light(frames, at, changes)[0], line))
    return out


LANES = [16, 17, 18, 19]
LANES_PANELS = {"size": [16, 16], "across": 2, "down": 2, "lanes": LANES}  # hardware/32x32.md's four lanes


def play_timed(rom, image, size, name, script, game, players, seed, times=None, lanes=False):
    """One whole game on a fresh Pico over `image` (the UF2 and short settings at `size` on it):
    (press to light per event, the game's reports, the flash's ops {n: {us, kind, busy_us}},
    the instant-0 us)."""
    from layerlight_tools.pico import session, target
    env = dict(os.environ)
    if times:
        os.environ["LAYERLIGHT_FLASH_TIMES"] = times
    try:
        pico = target.power_on(LAYERLIGHT_UF2, rom, image, data_pin=LANES if lanes else 16)
    finally:
        os.environ.clear()
        os.environ.update(env)
    settings = dict(pico_games.SHORT, width=size, height=size, **({"panels": LANES_PANELS} if lanes else {}))
    try:
        target.flash(pico, settings)
        pico.run_ms(500)
        game_on = session.Session(pico, bounce=False)
        origin = game_on.begin(seed, game, players)
        reports = []
        game_on.play(wire_frames.PinsOnly().read(script.split("\n")), lambda r, f, no: reports.append(r))
        with pico.cond:
            frames = list(pico.frames)
            ops = dict(pico.flash_ops)
    finally:
        pico.close()
    events = wire_frames.event_changes(script, game, players, seed, settings)
    wire = sorted(f["end_us"] - f["start_us"] for f in frames if f["start_us"] >= origin)
    return lit_after(events, frames, origin), reports, ops, origin, wire


def pico_part():
    import tempfile
    from layerlight_tools.pico import target
    if not os.path.isfile(LAYERLIGHT_UF2):
        print("no build/layerlight-pico.uf2 (make uf2): the emulated Pico's figures not measured")
        return
    _uf2, rom = target.chosen_files()
    rom = rom or target.shared_files()[1]
    # LAYERLIGHT_BENCH_FLASH=max plays the slowest times alone (LAYERLIGHT_BENCH_MAX=0: typical alone)
    profiles = [None if p == "typical" else p for p in os.environ.get("LAYERLIGHT_BENCH_FLASH", "typical,max").split(",")]
    if os.environ.get("LAYERLIGHT_BENCH_MAX", "1") == "0" or not flash_times_known("max"):
        profiles = [p for p in profiles if p != "max"]
    print("the emulated Pico, Layerlight UF2 (journal on): whole games at the simulator's pace on the pins (the"
          " state asked for once, at the end), every button event that changes the matrix, to the end of the"
          " first frame showing it")
    print("  %-8s %-12s %-12s %-26s %-8s %-22s %-8s %s" % (
        "flash", "mode", "size", "press to light, median / worst", "target", "a frame on the wire, median / most",
        "unseen", "longest the flash held the chip in the game"))
    for times in profiles:
        for name, script, game, players, seed in keeper_games():
            for size, lanes in [(s, False) for s in SIZES] + ([(32, True)] if 32 in SIZES else []):
                with tempfile.TemporaryDirectory() as tmp:
                    image = os.path.join(tmp, "flash.bin")
                    lat, reports, ops, origin, wire = play_timed(rom, image, size, name, script, game, players,
                                                                 seed, times, lanes)
                seen = sorted(us for us, _line in lat if us is not None)
                unseen = sum(1 for us, _line in lat if us is None)
                in_game = [op for op in ops.values() if op["us"] >= origin]
                longest = max(in_game, key=lambda op: (op["busy_us"], op["us"])) if in_game else None
                print("  %-8s %-12s %-12s %6.1f / %6.1f ms          %-8s %5.1f / %5.1f ms        %-8d %s" % (
                    times or "typical", name, "%dx%d%s" % (size, size, " lanes" if lanes else ""),
                    seen[len(seen) // 2] / 1000, seen[-1] / 1000, "%d ms" % (80 if lanes else TARGET_MS[size]),
                    wire[len(wire) // 2] / 1000, wire[-1] / 1000, unseen,
                    "-" if longest is None else "%s %.1f ms (%s)" % (longest["kind"], longest["busy_us"] / 1000,
                                                                      where(longest, reports, origin))))


JOURNAL = (0x98000, 0xA0000)  # the save journal's flash on the Pico (uf2/boards/LAYERLIGHT_PICO)


def where(op, reports, origin):
    """What a flash op was for: the journal (its erase ahead, an entry) or LittleFS (a file), and when."""
    at = op.get("at")
    part = "journal" if at is not None and JOURNAL[0] <= at < JOURNAL[1] else "LittleFS"
    when = "before the game" if op["us"] < origin else "t=%d ms" % ((op["us"] - origin) // 1000)
    return "%s, %s" % (part, when)


def flash_times_known(name):
    """Whether the emulator knows the flash profile `name` (LAYERLIGHT_FLASH_TIMES, pico.mjs)."""
    path = os.path.join(uf2_tool.REPO, "host_tools", "layerlight_tools", "pico", "pico.mjs")
    with open(path) as f:
        return "LAYERLIGHT_FLASH_TIMES" in f.read()


def main():
    games = []
    for name, script, game, players, seed in pico_games.games():
        calls, records = calls_of(name, script, game, players, seed)
        games.append((name, calls, records))
    sectors, per_mode, pages, j = season(games)
    print("a season on the save journal (%d games of each of %d modes, the short games of tests/pico_games.py;"
          " simcore.SimFlash, %d KB: %d blocks of %d sectors):"
          % (SEASON, len(games), j.flash.size // 1024, j.blocks, journal.BLOCK_SECTORS))
    print("  erases per sector: %s  (the most worn: %d of its %d cycles, %.2f%%)"
          % (" ".join(str(n) for n in sectors), max(sectors), CYCLES, 100.0 * max(sectors) / CYCLES))
    print("  %-18s %10s %18s %18s" % ("mode", "records", "page programs / rec.", "erases / record"))
    for name, (records, programs, erases) in per_mode.items():
        print("  %-18s %10d %18.2f %18.3f%s" % (name, records, programs / max(1, records), erases / max(1, records),
                                               "" if erases * 8 <= records else "  (over 1 per 8)"))
    print("  a record is one page-program command per 256-byte page it spans; an erase is one 4 KB sector")
    save_costs(pages)
    pico_part()


if __name__ == "__main__":
    main()
