"""`layerlight doctor`: find wiring and settings mistakes without a multimeter.

The board runs firmware/layerlight/selftest.py: it lights the matrix in one
colour after another, draws lines along two edges, sweeps rows and columns,
waits for each button in turn and beeps. This side asks the person what they
see, and works out from the answers which settings of layerlight.json fix
what is wrong ("matrix mirrored: set flip_x"). The LED questions are
answered by looking at the matrix from P1's seat: P1's edge is the bottom,
P3's the top (far side), P2's the left, P4's the right.

`run(session, ui)` is the whole test; the console UI is one implementation of
`ui`, the tests have another that looks at the simulated board's LEDs.
"""

import json
import sys

from layerlight_tools import devicefs, flash
from layerlight_tools.errors import UserError

BUTTONS = ("P1", "P2", "P3", "P4", "A", "B")
WHERE = {"P1": "the player button at the bottom edge, nearest you",
         "P2": "the player button at the left edge",
         "P3": "the player button at the top edge, the far side",
         "P4": "the player button at the right edge",
         "A": "the control button A (confirm)",
         "B": "the control button B (cycle / no)"}
COLOURS = {"r": "R", "g": "G", "b": "B"}
COLOUR_CHOICES = {"r": "red", "g": "green", "b": "blue", "w": "white or mixed", "n": "nothing lit"}
EDGE_CHOICES = {"t": "top (far side, P3)", "b": "bottom (near side, P1)", "l": "left (P2)", "r": "right (P4)"}
YES_NO = {"y": "yes", "n": "no"}
ORIENTATION = ("rotation", "flip_x", "flip_y")
LOW_HEAP = 40 * 1024
LOW_FLASH = 64 * 1024


class ConsoleUI:
    """Questions on the terminal."""

    def __init__(self, inp=None, out=None):
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, question, choices):
        keys = "/".join(choices)
        hint = ", ".join("%s = %s" % kv for kv in choices.items())
        while True:
            self.out.write("%s\n  (%s) [%s] " % (question, hint, keys))
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise UserError("no answer (end of input): the doctor needs someone at the board")
            answer = line.strip().lower()[:1]
            if answer in choices:
                return answer

    def press(self, name, where):
        lit = "its side of the matrix is lit" if name.startswith("P") else "a dot in the middle is lit"
        self.say("Press %s: %s (%s) ..." % (name, where, lit))


class Session:
    """The self-test object on the board, called through the REPL."""

    def __init__(self, board):
        self.board = board

    def call(self, expr, timeout=10):
        return self.board.eval("_st." + expr, timeout=timeout)


# ---------------------------------------------------------------- the reasoning


def true_colour_order(configured, seen):
    """The strip's real colour order from what was seen for red, green, blue (each 'R', 'G' or 'B').

    Showing channel c puts its byte at position configured.index(c); the strip
    shows that byte as channel real[position]. So real[configured.index(c)] = seen[c].
    """
    real = [None, None, None]
    for c, s in zip("RGB", seen):
        real[configured.index(c)] = s
    return "".join(real)


def _edge(points, w, h):
    if all(y == 0 for _, y in points):
        return "t"
    if all(y == h - 1 for _, y in points):
        return "b"
    if all(x == 0 for x, _ in points):
        return "l"
    if all(x == w - 1 for x, _ in points):
        return "r"
    return None


def _transforms(w, h):
    """The 8 symmetries of the matrix as functions on (x, y) (those that swap x and y only if square)."""
    out = []
    for swap in (False, True):
        if swap and w != h:
            continue
        for mx in (False, True):
            for my in (False, True):
                def t(p, swap=swap, mx=mx, my=my):
                    x, y = p
                    if swap:
                        x, y = y, x
                    if mx:
                        x = w - 1 - x
                    if my:
                        y = h - 1 - y
                    return x, y
                out.append(t)
    return out


def orientation_fix(wiring, w, h, green_edge, blue_edge):
    """The orientation settings that put the green line on top and the blue one on the left.

    wiring: the current layout, origin, rotation, flip_x, flip_y. The green line
    is the top row as drawn, the blue one the left column; the person saw them
    on green_edge and blue_edge (t, b, l, r). What they saw is a symmetry D of
    the drawing: the wanted pixel table shows each pixel p where the current
    one shows D^-1(p). Returns {key: value} of the settings to change ({} if
    nothing), or None if no setting can do it.
    """
    from layerlight.display import pixel_map

    top = [(x, 0) for x in range(w)]
    left = [(0, y) for y in range(h)]
    seen = None
    for t in _transforms(w, h):
        if _edge([t(p) for p in top], w, h) == green_edge and _edge([t(p) for p in left], w, h) == blue_edge:
            seen = t
            break
    if seen is None:
        return None
    current = pixel_map(w, h, wiring["layout"], wiring["origin"], wiring["rotation"], wiring["flip_x"],
                        wiring["flip_y"])
    wanted = [0] * (w * h)
    for y in range(h):
        for x in range(w):
            sx, sy = seen((x, y))
            wanted[sy * w + sx] = current[y * w + x]
    best = None
    for rotation in (0, 90, 180, 270):
        for flip_x in (False, True):
            for flip_y in (False, True):
                try:
                    table = pixel_map(w, h, wiring["layout"], wiring["origin"], rotation, flip_x, flip_y)
                except ValueError:
                    continue
                if list(table) != wanted:
                    continue
                cand = {"rotation": rotation, "flip_x": flip_x, "flip_y": flip_y}
                changes = {k: v for k, v in cand.items() if v != wiring[k]}
                score = (len(changes), changes.get("flip_y", False), rotation)
                if best is None or score < best[0]:
                    best = (score, changes)
    return None if best is None else best[1]


def describe_orientation(changes):
    """Why, in words: 'matrix mirrored left-right: set flip_x'."""
    parts = []
    if "rotation" in changes:
        parts.append("set rotation %d" % changes["rotation"])
    for key, what in (("flip_x", "left-right"), ("flip_y", "top-bottom")):
        if key in changes:
            parts.append("%s %s" % ("set" if changes[key] else "clear", key))
    if set(changes) == {"flip_x"}:
        why = "matrix mirrored left-right"
    elif set(changes) == {"flip_y"}:
        why = "matrix mirrored top-bottom"
    elif set(changes) == {"rotation"}:
        why = "matrix turned"
    else:
        why = "matrix turned or mirrored"
    return "%s: %s" % (why, ", ".join(parts))


def button_fix(pins, got):
    """The buttons setting from which button registered for each one asked (None: timed out).

    pins: {name: pin} now; got: {asked name: name it registered as, or None}.
    Returns the new {name: pin} if a swap explains it, else None.
    """
    new = {name: pins[name] for name in BUTTONS}
    for asked, seen in got.items():
        if seen is not None:
            new[asked] = pins[seen]
    if new == pins:
        return None
    if sorted(map(str, new.values())) != sorted(map(str, pins.values())):
        return None  # two asked buttons on one pin: not a swap, a wiring fault
    return new


# ---------------------------------------------------------------- the test


class Findings:
    def __init__(self):
        self.fixes = {}       # layerlight.json key -> value
        self.problems = []    # lines for the person
        self.ok = []

    def fix(self, text, **settings):
        self.problems.append(text)
        self.fixes.update(settings)


def run(session, ui, button_timeout=15.0):
    """The whole self-test; returns the Findings."""
    f = Findings()
    info = session.call("info()")
    cfg = info["config"]
    ui.say("Board profile %s: %dx%d matrix on GPIO %s (%s from %s, %s), buttons %s, buzzer GPIO %s."
           % (cfg["board"], cfg["width"], cfg["height"], cfg["matrix_pin"], cfg["layout"], cfg["origin"],
              cfg["color_order"], " ".join("%s=%s" % (b, cfg["buttons"][b]) for b in BUTTONS),
              cfg["buzzer_pin"]))
    for line in info["log"]:
        if "no layerlight.json" not in line:
            f.problems.append("settings: " + line)
    wiring = {k: cfg[k] for k in ("layout", "origin", "rotation", "flip_x", "flip_y", "color_order")}

    if check_colours(session, ui, f, wiring, cfg):
        check_orientation(session, ui, f, wiring, cfg["width"], cfg["height"])
        check_sweep(session, ui, f, cfg)
    check_buttons(session, ui, f, cfg, button_timeout)
    check_sound(session, ui, f, cfg)
    session.call("off()")
    check_memory(ui, f, info)
    return f


def _remap(session, wiring):
    session.call("remap(%r, %r, %r, %r, %r, %r)" % tuple(
        wiring[k] for k in ("layout", "origin", "rotation", "flip_x", "flip_y", "color_order")))


def check_colours(session, ui, f, wiring, cfg):
    """Red, green, blue in turn: the colour order, or a dark matrix. False if nothing lights."""
    seen = []
    for name, colour in (("red", "RED"), ("green", "GREEN"), ("blue", "BLUE")):
        session.call("fill(%d)" % {"RED": 0xFF0000, "GREEN": 0x00FF00, "BLUE": 0x0000FF}[colour])
        answer = ui.ask("The matrix should all be lit in one colour. Which colour is it?", COLOUR_CHOICES)
        if answer == "n":
            f.problems.append(
                "the matrix stays dark: check its 5 V and GND, that the data line goes from GPIO %s through "
                "the level shifter and the 330 ohm resistor to DIN (the arrow on the strip points away from "
                "DIN), and that matrix_pin is right" % cfg["matrix_pin"])
            return False
        seen.append(COLOURS.get(answer))
    if None in seen or sorted(seen) != ["B", "G", "R"]:
        f.problems.append("the colours are not clean (%s for red, green, blue): a colour line of the LEDs is "
                          "dead, or they are not 3-colour WS2812B LEDs" % ", ".join(s or "?" for s in seen))
        return True
    real = true_colour_order(wiring["color_order"], seen)
    if real != wiring["color_order"]:
        f.fix("colour order: set color_order %s (not %s)" % (real, wiring["color_order"]), color_order=real)
        wiring["color_order"] = real
        _remap(session, wiring)
    else:
        f.ok.append("colour order %s" % real)
    return True


def check_orientation(session, ui, f, wiring, w, h):
    """Lines along two edges: serpentine/progressive, rotation and mirroring."""
    session.call("lines()")
    straight = ui.ask("A green and a blue line meet at a white corner. Is the blue line straight, "
                      "along one edge?", {"y": "yes", "n": "no, it zig-zags"})
    if straight == "n":
        other = "progressive" if wiring["layout"] == "serpentine" else "serpentine"
        wiring["layout"] = other
        _remap(session, wiring)
        session.call("lines()")
        if ui.ask("And now: is the blue line straight?", YES_NO) == "n":
            f.problems.append("the LEDs are wired in an order neither layout describes: check layout and origin "
                              "against the matrix's data arrows")
            return
        f.fix("rows of the matrix run %s: set layout %s" % (
            "all the same way" if other == "progressive" else "back and forth", other), layout=other)
    green = ui.ask("Look from P1's seat. Along which edge is the green line?", EDGE_CHOICES)
    blue = ui.ask("Along which edge is the blue line?", EDGE_CHOICES)
    changes = orientation_fix(wiring, w, h, green, blue)
    if changes is None:
        f.problems.append("the green line along %s and the blue along %s cannot be fixed by rotation and "
                          "mirroring%s" % (EDGE_CHOICES[green], EDGE_CHOICES[blue],
                                           "" if w == h else " (a non-square matrix turned by 90: swap width and height)"))
        return
    if not changes:
        f.ok.append("orientation")
        return
    wiring.update(changes)
    _remap(session, wiring)
    session.call("lines()")
    if ui.ask("With the fix: is the green line along the top (far side) and the blue along the left?",
              YES_NO) == "y":
        f.fix(describe_orientation(changes), **changes)
    else:
        f.problems.append("could not find the orientation (%s did not help): check origin, rotation, flip_x "
                          "and flip_y by hand" % describe_orientation(changes))


def check_sweep(session, ui, f, cfg):
    session.call("sweep()", timeout=30)
    if ui.ask("Each row lit in turn, then each column, then all. Did every LED light up?", YES_NO) == "n":
        f.problems.append(
            "some LEDs stay dark: if everything after one LED stays dark, the data line breaks there (re-solder "
            "that LED's DOUT/DIN joint); one dark LED alone is a dead LED; if a whole part of the matrix "
            "never lights, width and height (%dx%d) may be bigger than the matrix" % (cfg["width"], cfg["height"]))
    else:
        f.ok.append("every LED")


def check_buttons(session, ui, f, cfg, timeout):
    pins = cfg["buttons"]
    down = session.call("buttons_down()")
    stuck = [b for i, b in enumerate(BUTTONS) if down & (1 << i)]
    for b in stuck:
        f.problems.append("button %s (GPIO %s) reads pressed while nobody presses it: a wire touching GND, or "
                          "the wrong pin in buttons" % (b, pins[b]))
    got = {}
    for i, name in enumerate(BUTTONS):
        session.call("seat(%d)" % i)
        ui.press(name, WHERE[name])
        res = session.call("wait_press(%d)" % int(timeout * 1000), timeout=timeout + 10)
        got[name] = BUTTONS[res] if res >= 0 else None
        if res < 0:
            ui.say("  nothing pressed")
        elif res != i:
            ui.say("  that was the button set up as %s" % BUTTONS[res])
    new = button_fix(pins, got)
    if new is not None:
        swapped = sorted(n for n in BUTTONS if new[n] != pins[n])
        f.fix("buttons %s are swapped: set buttons %s" % (" and ".join(swapped), json.dumps(new)), buttons=new)
    for name in BUTTONS:
        if got[name] is None and name not in stuck:
            f.problems.append("no press of %s seen on GPIO %s in %g s: check its two wires, one to GPIO %s, the "
                              "other to GND" % (name, pins[name], timeout, pins[name]))
    if new is None and all(got[n] == n for n in BUTTONS):
        f.ok.append("all six buttons")


def check_sound(session, ui, f, cfg):
    session.call("beep()")
    if ui.ask("Did you hear three rising beeps?", YES_NO) == "n":
        f.problems.append("no sound: check the piezo between GPIO %s and GND; it must be a passive piezo (an "
                          "active buzzer only clicks)" % cfg["buzzer_pin"])
    else:
        f.ok.append("buzzer")
    if not cfg["sound"]:
        f.fix("sound is switched off in the settings: set sound true to hear the game", sound=True)


def check_memory(ui, f, info):
    ui.say("Free heap: %s (%s in use with the self-test loaded)." % (flash.kb(info["heap_free"]),
                                                                      flash.kb(info["heap_used"])))
    if info["flash_free"] is not None:
        ui.say("Flash: %s free of %s." % (flash.kb(info["flash_free"]), flash.kb(info["flash_total"])))
        if info["flash_free"] < LOW_FLASH:
            f.problems.append("little flash left (%s): remove old decks from /decks" % flash.kb(info["flash_free"]))
    if info["heap_free"] < LOW_HEAP:
        f.problems.append("little free heap (%s): a board with more RAM (Pico 2) or a frozen build "
                          "(manifest.py) helps" % flash.kb(info["heap_free"]))


# ---------------------------------------------------------------- the command


def open_session(board):
    """Imports the self-test from the installed firmware (the slot main.py runs, else sys.path)."""
    board.load_helpers()
    slot = flash.active_slot(board.read_text("/main.py"))
    prefix = "import sys\nsys.path.insert(0, %r)\n" % ("%s/%s" % (flash.SLOT_DIR, slot)) if slot else ""
    try:
        board.exec(prefix + "from layerlight.selftest import SelfTest")
    except devicefs.BoardError as e:
        if "ImportError" in e.traceback or "no module" in str(e):
            raise UserError("no Layerlight firmware with a self-test on the board: run `layerlight flash` first")
        raise
    try:
        board.exec("_st = SelfTest()")
    except devicefs.BoardError as e:
        raise UserError("the board cannot open its hardware with its settings: %s (fix layerlight.json: "
                        "`layerlight flash --board ...` writes the board profile)" % e)
    return Session(board)


def report(ui, f):
    ui.say("")
    for line in f.ok:
        ui.say("ok: " + line)
    for line in f.problems:
        ui.say("PROBLEM: " + line)
    if f.fixes:
        ui.say("Settings that fix this (layerlight.json): %s" % json.dumps(f.fixes, sort_keys=True))
    elif not f.problems:
        ui.say("Everything works.")


def apply_fixes(board, fixes):
    """Merges the fixes into the board's layerlight.json (written to a new file, then renamed)."""
    text = board.read_text("/" + flash.CONFIG)
    try:
        cfg = json.loads(text) if text else {}
        if not isinstance(cfg, dict):
            cfg = {}
    except ValueError:
        cfg = {}
    cfg.update(fixes)
    board.put_atomic("/" + flash.CONFIG, (json.dumps(cfg, indent=1) + "\n").encode())


def doctor(port=None, ui=None, button_timeout=15.0, apply=False, restart=True):
    """Runs the self-test on the board at port; returns the Findings."""
    ui = ui or ConsoleUI()
    port = port or devicefs.find_port()
    with devicefs.Board(port) as board:
        info = board.info()
        devicefs.check_version(info)
        session = open_session(board)
        ui.say("Layerlight doctor on %s (MicroPython %s). Look at the matrix from P1's seat."
               % (port, ".".join(str(v) for v in info["version"])))
        f = run(session, ui, button_timeout)
        report(ui, f)
        if apply and f.fixes:
            apply_fixes(board, f.fixes)
            ui.say("Written into layerlight.json on the board.")
        elif f.fixes:
            ui.say("Run `layerlight doctor --apply` to write them, or edit layerlight.json.")
        if restart:
            flash.restart(board, 0.2)
    return f


def main(args):
    f = doctor(port=args.port, button_timeout=args.button_timeout, apply=args.apply)
    return 1 if f.problems else 0
