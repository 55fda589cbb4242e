"""Where a press's time goes on the chip: the loop's markers (app.py M_*, a store to the watchdog's
SCRATCH0 that the emulated Pico records with its instant: the loop runs as it does untraced).

A whole unpaced CO.OP game at 32x32 on the Layerlight UF2 (the slowest presses of any mode, issue
43), on the one chain and on four lanes: for every button event that changes the matrix, the time
from the pin's edge to the end of the first frame showing it (as bench_journal), cut into what the
loop was doing in between (from one marker to the next); then the slowest events, the release that
ends the game, and the share of each part over all events. LAYERLIGHT_BENCH_SIZES as in
bench_journal (the sizes played; a 32 plays both wirings).
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import pico_games  # noqa: E402
import scenario_lib  # noqa: E402
import wire_frames  # noqa: E402
from layerlight_tools import uf2 as uf2_tool  # noqa: E402

LAYERLIGHT_UF2 = os.path.join(uf2_tool.REPO, "build", "layerlight-pico.uf2")
LANES = [16, 17, 18, 19]
LANES_PANELS = {"size": [16, 16], "across": 2, "down": 2, "lanes": LANES}
SIZES = [int(n) for n in os.environ.get("LAYERLIGHT_BENCH_SIZES", "32").split(",") if n]

# what runs from a marker to the next (app.py's codes)
AFTER = {
    1: "buttons: events taken in and handled",
    2: "the mode's tick",
    3: "after the tick: a game that ended left",
    4: "sound, the loop, drawing",
    5: "the frame to the sender (wait for the wire, copy, start)",
    6: "after the frame: a game's end logged",
    7: "erase ahead (at a quiet moment)",
    8: "the loop: back to the samples",
    9: "waiting: console and the next sample",
    10: "the loop: samples taken in",
    11: "the save: the game's state to a journal record, on flash",
    12: "after the save, back in the step",
    13: "the loop: after a collection at idle",
}
WIRE = "on the wire"
BEFORE = "before the loop saw it (the wait)"


def play(rom, image, size, lanes, script):
    from layerlight_tools.pico import session, target
    os.environ["LAYERLIGHT_MARKS"] = "1"
    try:
        pico = target.power_on(LAYERLIGHT_UF2, rom, image, data_pin=LANES if lanes else 16)
    finally:
        del os.environ["LAYERLIGHT_MARKS"]
    settings = dict(pico_games.SHORT, width=size, height=size, **({"panels": LANES_PANELS} if lanes else {}))
    try:
        target.flash(pico, settings)
        pico.run_ms(500)
        game_on = session.Session(pico, bounce=False)
        origin = game_on.begin(1, "coop", 4)
        game_on.play(wire_frames.PinsOnly().read(script.split("\n")), lambda r, f, no: None)
        with pico.cond:
            frames = list(pico.frames)
            marks = list(pico.marks)
    finally:
        pico.close()
    events = wire_frames.event_changes(script, "coop", 4, 1, settings)
    return events, frames, marks, origin


def breakdown(at, frame, marks):
    """{part: us} of the time from `at` to the end of `frame`, the one showing the change: up
    to its first bit by the marker each stretch follows, then its time on the wire (the loop
    goes on meanwhile: the DMA sends it)."""
    end = frame["start_us"]
    parts = {}
    prev_us, prev_code = at, None
    for us, code in marks:
        if us <= at:
            prev_code = code
            continue
        if us >= end:
            break
        label = BEFORE if prev_code in (None, 9) and not parts.get("seen") else AFTER.get(prev_code, "?")
        parts[label] = parts.get(label, 0) + us - prev_us
        if code != 9:
            parts["seen"] = 1
        prev_us, prev_code = us, code
    tail = AFTER.get(prev_code, "?")
    parts[tail] = parts.get(tail, 0) + end - prev_us
    parts.pop("seen", None)
    parts[WIRE] = frame["end_us"] - frame["start_us"]
    return parts


def show(title, parts, total):
    print("    %s: %.1f ms" % (title, total / 1000))
    for label, us in sorted(parts.items(), key=lambda kv: -kv[1]):
        if us >= 200:
            print("      %6.1f ms  %s" % (us / 1000, label))


def main():
    from layerlight_tools.pico import target
    if not os.path.isfile(LAYERLIGHT_UF2):
        print("no build/layerlight-pico.uf2 (make uf2): not measured")
        return
    rom = target.chosen_files()[1] or target.shared_files()[1]
    script = scenario_lib.coop_game()[0]
    script = script.rstrip("\n").rsplit("\n", 1)[0]  # as test_emulated_journal: the final's last A left out
    for size in SIZES:
        for lanes in ([False, True] if size == 32 else [False]):
            with tempfile.TemporaryDirectory() as tmp:
                events, frames, marks, origin = play(rom, os.path.join(tmp, "flash.bin"), size, lanes, script)
            wiring = "four lanes" if lanes else "one chain"
            print("CO.OP, whole game unpaced, %dx%d, %s: %d events, %d markers" % (size, size, wiring, len(events),
                                                                                 len(marks)))
            rows = []
            total = {}
            for t, line, changes in events:
                at = origin + t * 1000
                us, frame = wire_frames.light(frames, at, changes)
                if us is None or us == 0:
                    continue
                parts = breakdown(at, frame, marks)
                rows.append((us, t, line, parts))
                for k, v in parts.items():
                    total[k] = total.get(k, 0) + v
            rows.sort(key=lambda r: r[0])
            print("  press to light: median %.1f ms, worst %.1f ms (%d events lit by a frame)" % (
                rows[len(rows) // 2][0] / 1000, rows[-1][0] / 1000, len(rows)))
            for us, t, line, parts in rows[-3:]:
                show("t=%d ms %s" % (t, line.strip()), parts, us)
            last = max(rows, key=lambda r: r[1])
            show("the last event, the release that ends the game (t=%d ms %s)" % (last[1], last[2].strip()),
                 last[3], last[0])
            whole = sum(total.values())
            print("    over every event: " + "; ".join("%s %.0f%%" % (k, 100.0 * v / whole)
                                                       for k, v in sorted(total.items(), key=lambda kv: -kv[1])))


if __name__ == "__main__":
    main()
