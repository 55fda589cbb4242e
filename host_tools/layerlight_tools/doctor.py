"""`layerlight doctor`: find wiring and settings mistakes without a multimeter.

The board runs firmware/layerlight/selftest.py: it lights the matrix in one
colour after another, draws lines along two edges, sweeps rows and columns,
waits for each button in turn and beeps. This side asks the person what they
see, and works out from the answers which settings of layerlight.json fix
what is wrong ("matrix mirrored: set flip_x"). The LED questions are
answered by looking at the matrix from P1's seat: P1's edge is the bottom,
P3's the top (far side), P2's the left, P4's the right. A matrix tiled from
panels (the "panels" setting) is checked one panel at a time instead: which
panel lights and how it is turned give the chain order and each panel's
settings. On four lanes (panels "lanes", each panel on its own pin) the n-th
panel of the chain is lane n's, so the same questions say which panel each
lane feeds; a lane that lights nothing, or the same panel as another, is
named with its pin and its 74AHCT125 buffer (wiring.AHCT125).

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
            answer = line.strip().lower()
            if answer not in choices and not answer.isdigit():
                answer = answer[:1]  # "yes" for y; a number must be one of the choices as it is
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
    from layerlight.strip_map import pixel_map

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


# ---------------------------------------------------------------- panels


PANEL_WIRING = ("layout", "origin", "rotation")


def panel_names(across, down):
    """Where each panel position is, as seen from P1's seat ('top-left', ...), numbered row by row."""
    names = []
    for i in range(across * down):
        row, col = divmod(i, across)
        if across <= 2 and down <= 2:
            parts = [("top", "bottom")[row] if down == 2 else "", ("left", "right")[col] if across == 2 else ""]
            names.append("-".join(p for p in parts if p) or "only")
        else:
            names.append("row %d, column %d" % (row + 1, col + 1))
    return names


def full_panels(wiring):
    """The panels setting with every default written out: chain, and a list by position for layout,
    origin and rotation (falling back to the layout and origin settings, rotation 0)."""
    from layerlight.strip_map import per_panel

    p = wiring["panels"]
    count = p["across"] * p["down"]
    full = {"size": list(p["size"]), "across": p["across"], "down": p["down"],
            "chain": list(p.get("chain") or range(count))}
    for key, fallback in (("layout", wiring["layout"]), ("origin", wiring["origin"]), ("rotation", 0)):
        full[key] = list(per_panel(p.get(key, fallback), count))
    if p.get("lanes"):
        full["lanes"] = list(p["lanes"])
    return full


def compact_panels(full, wiring):
    """The panels setting to write: one value where every panel agrees, none where that is the default."""
    out = {"size": full["size"], "across": full["across"], "down": full["down"], "chain": full["chain"]}
    for key, fallback in (("layout", wiring["layout"]), ("origin", wiring["origin"]), ("rotation", 0)):
        values = full[key]
        if any(v != values[0] for v in values):
            out[key] = values
        elif values[0] != fallback:
            out[key] = values[0]
    if full.get("lanes"):   # kept: a fix written without it would send the panels as one chain
        out["lanes"] = full["lanes"]
    return out


def _panel_wirings(pw, ph):
    """Every (layout, origin, rotation) a panel can have, with its pixel table as a list."""
    from layerlight.strip_map import pixel_map

    out = []
    for layout in ("serpentine", "progressive"):
        for origin in ("top-left", "top-right", "bottom-left", "bottom-right"):
            for rotation in (0, 90, 180, 270):
                if rotation % 180 == 0 or pw == ph:
                    out.append(((layout, origin, rotation), list(pixel_map(pw, ph, layout, origin, rotation))))
    return out


def panels_fix(wiring, w, h, wanted):
    """The settings whose pixel table is `wanted`, for a matrix tiled from panels.

    wanted: logical pixel -> strip index, as seen. The search tries every
    mounting of the whole matrix (rotation, flip_x, flip_y); for each, the
    strip index of every pixel says which panel of the chain it is on (the
    chain order) and where on that panel (the panel's layout, origin and
    rotation). Of the settings that fit, the one changing the fewest values.
    Returns {key: value} to change ({} if nothing; "panels" is the whole new
    setting), or None if no setting makes it.
    """
    from layerlight.strip_map import mounted

    p = full_panels(wiring)
    pw, ph = p["size"]
    across = p["across"]
    count = across * p["down"]
    size = pw * ph
    wirings = _panel_wirings(pw, ph)
    best = None
    for rotation in (0, 90, 180, 270):
        if rotation % 180 and w != h:
            continue
        for flip_x in (False, True):
            for flip_y in (False, True):
                mount = {"rotation": rotation, "flip_x": flip_x, "flip_y": flip_y}
                chain = [None] * count
                local = [[None] * size for _ in range(count)]
                fits = True
                for y in range(h):
                    for x in range(w):
                        px, py = mounted(x, y, w, h, rotation, flip_x, flip_y)
                        at = (py // ph) * across + px // pw
                        n, i = divmod(wanted[y * w + x], size)
                        if n >= count or chain[n] not in (None, at):
                            fits = False
                            break
                        chain[n] = at
                        local[at][(py % ph) * pw + px % pw] = i
                    if not fits:
                        break
                if not fits or sorted(c for c in chain if c is not None) != list(range(count)):
                    continue
                new = {"chain": chain, "layout": [], "origin": [], "rotation": []}
                cost = sum(1 for k in mount if mount[k] != wiring[k]) + (chain != p["chain"])
                for at in range(count):
                    was = tuple(p[k][at] for k in PANEL_WIRING)
                    found = None
                    for settings, table in wirings:
                        if table != local[at]:
                            continue
                        changed = tuple(k for k, a, b in zip(PANEL_WIRING, settings, was) if a != b)
                        rank = (len(changed), "origin" in changed, "layout" in changed, settings[2])
                        if found is None or rank < found[0]:
                            found = (rank, settings)
                    if found is None:
                        fits = False
                        break
                    cost += found[0][0]
                    for k, v in zip(PANEL_WIRING, found[1]):
                        new[k].append(v)
                if not fits:
                    continue
                # on a tie, the whole matrix turned is the likelier story than the chain rewired
                rank = (cost, -sum(1 for k in mount if mount[k] != wiring[k]), rotation, flip_x, flip_y)
                if best is None or rank < best[0]:
                    best = (rank, mount, new)
    if best is None:
        return None
    _, mount, new = best
    changes = {k: v for k, v in mount.items() if v != wiring[k]}
    if any(new[k] != p[k] for k in new):
        full = dict(p)
        full.update(new)
        changes["panels"] = compact_panels(full, wiring)
    return changes


def describe_panels(wiring, changes):
    """Why, in words, one line per thing to change: the whole matrix's mounting, the chain, each panel."""
    lines = []
    mount = {k: changes[k] for k in ORIENTATION if k in changes}
    if mount:
        lines.append("the whole " + describe_orientation(mount))
    if "panels" not in changes:
        return lines
    was = full_panels(wiring)
    new = full_panels(dict(wiring, panels=changes["panels"]))
    names = panel_names(was["across"], was["down"])
    if new["chain"] != was["chain"] and was.get("lanes"):
        moved = [n for n in range(len(new["chain"])) if new["chain"][n] != was["chain"][n]]
        feeds = ", ".join("%s feeds the %s panel" % (lane_name(wiring, n), names[new["chain"][n]]) for n in moved)
        if len(moved) == 2:
            why = "the %s and %s panels are on each other's lanes (%s)" % (
                names[was["chain"][moved[0]]], names[was["chain"][moved[1]]], feeds)
            leads = "swap their two data leads"
        else:
            why = "the panels are on other lanes than set (%s)" % feeds
            leads = "move the data leads"
        lines.append("%s: set panels chain %s (the position each lane feeds, lane 0 first, positions numbered "
                     "row by row from the top-left), or %s" % (why, json.dumps(new["chain"]), leads))
    elif new["chain"] != was["chain"]:
        moved = sorted(a for a, b in zip(new["chain"], was["chain"]) if a != b)
        if len(moved) == 2:
            why = "the %s and %s panels are swapped on the data chain" % (names[moved[0]], names[moved[1]])
        else:
            why = "the panels are chained in another order"
        lines.append("%s: set panels chain %s (the position of the first, second, ... panel on the data "
                     "line, positions numbered row by row from the top-left)" % (why, json.dumps(new["chain"])))
    for at, name in enumerate(names):
        changed = [k for k in PANEL_WIRING if new[k][at] != was[k][at]]
        if not changed:
            continue
        settings = ", ".join("%s %s" % (k, new[k][at]) for k in changed)
        if changed == ["rotation"]:
            why = "the %s panel is turned" % name
        elif changed == ["layout"]:
            why = "the rows of the %s panel run %s" % (
                name, "all the same way" if new["layout"][at] == "progressive" else "back and forth")
        elif changed == ["origin"]:
            why = "the data of the %s panel starts in another corner" % name
        else:
            why = "the %s panel is wired or turned another way" % name
        lines.append("%s: set its %s (panels %s)" % (why, settings, ", ".join(
            "%s %s" % (k, json.dumps(new[k])) for k in changed)))
    return lines


def lane_name(wiring, n):
    """'lane 3 (GP19)': a lane as the builder finds it on the board."""
    return "lane %d (%s)" % (n, pin_name(wiring.get("board"), wiring["panels"]["lanes"][n]))


def pin_name(board, pin):
    """The pin as the board's silkscreen names it ('GP19'), else 'GPIO 19'."""
    from layerlight_tools import wiring as hw

    try:
        return hw.pin_label(board, pin)
    except hw.PinMapError:
        return "GPIO %s" % (pin,)


def lane_path(wiring, n, panel):
    """What lane n's data goes through, from the pin to the panel's DIN (hardware/32x32.md)."""
    from layerlight_tools.wiring import AHCT125

    pin = pin_name(wiring.get("board"), wiring["panels"]["lanes"][n])
    a, a_pin, y, y_pin = AHCT125[n][:4]
    return "%s -> 74AHCT125 %s/%s (pins %d/%d) -> the lead -> 330 ohm -> the %s panel's DIN" % (
        pin, a, y, a_pin, y_pin, panel)


def _panel_symmetry(pw, ph, green_edge, blue_edge):
    """The symmetry of a panel that puts its top row on green_edge and its left column on blue_edge."""
    top = [(x, 0) for x in range(pw)]
    left = [(0, y) for y in range(ph)]
    for t in _transforms(pw, ph):
        if _edge([t(p) for p in top], pw, ph) == green_edge and _edge([t(p) for p in left], pw, ph) == blue_edge:
            return t
    return None


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
    wiring["panels"] = cfg.get("panels")
    wiring["board"], wiring["matrix_pin"] = cfg["board"], cfg["matrix_pin"]
    if wiring["panels"]:
        p = wiring["panels"]
        names = panel_names(p["across"], p["down"])
        chain = full_panels(wiring)["chain"]
        if p.get("lanes"):
            how = "on %d lanes: %s" % (len(p["lanes"]), ", ".join(
                "%s %s" % (pin_name(cfg["board"], pin), names[chain[n]]) for n, pin in enumerate(p["lanes"])))
        else:
            how = "chained " + " -> ".join(names[i] for i in chain)
        ui.say("The matrix is %d x %d panels of %dx%d, %s." % (p["across"], p["down"], p["size"][0], p["size"][1],
                                                              how))

    if check_colours(session, ui, f, wiring, cfg):
        if wiring["panels"]:
            check_panels(session, ui, f, wiring, cfg["width"], cfg["height"])
        else:
            check_orientation(session, ui, f, wiring, cfg["width"], cfg["height"])
        check_sweep(session, ui, f, cfg)
    check_buttons(session, ui, f, cfg, button_timeout)
    check_sound(session, ui, f, cfg)
    session.call("off()")
    check_memory(ui, f, info)
    return f


def _remap(session, wiring):
    session.call("remap(%r, %r, %r, %r, %r, %r, %r)" % tuple(
        wiring.get(k) for k in ("layout", "origin", "rotation", "flip_x", "flip_y", "color_order", "panels")))


def check_colours(session, ui, f, wiring, cfg):
    """Red, green, blue in turn: the colour order, or a dark matrix. False if nothing lights."""
    seen = []
    for name, colour in (("red", "RED"), ("green", "GREEN"), ("blue", "BLUE")):
        session.call("fill(%d)" % {"RED": 0xFF0000, "GREEN": 0x00FF00, "BLUE": 0x0000FF}[colour])
        answer = ui.ask("The matrix should all be lit in one colour. Which colour is it?", COLOUR_CHOICES)
        if answer == "n" and (wiring.get("panels") or {}).get("lanes"):
            # four lanes dark at once: what they share, not one lane's lead
            f.problems.append(
                "the matrix stays dark on all four lanes (%s): check what they share: the 74AHCT125's VCC "
                "(pin 14) at 5 V, its GND (pin 7) and its enables 1OE-4OE (pins 1, 4, 10, 13) at GND, the "
                "controller's GND joined to the bus, and the panels' 5 V and GND" % ", ".join(
                    pin_name(cfg["board"], pin) for pin in wiring["panels"]["lanes"]))
            return False
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


def check_panels(session, ui, f, wiring, w, h):
    """One panel at a time: where it shows, whether its rows run the right way, how it is turned.

    From the answers, where every pixel really is (the wanted pixel table);
    panels_fix turns that into the chain order and each panel's settings (or
    the mounting of the whole matrix), which are tried on the board and
    confirmed by the person.
    """
    from layerlight.strip_map import config_map

    before = dict(wiring)
    p = full_panels(wiring)
    pw, ph = p["size"]
    across = p["across"]
    count = across * p["down"]
    names = panel_names(across, p["down"])
    where = {str(i + 1): names[i] for i in range(count)}
    where["n"] = "nothing lit"

    def corner(i):
        return (i % across) * pw, (i // across) * ph

    def table():
        return list(config_map(dict(wiring, width=w, height=h)))

    current = table()
    wanted = [None] * (w * h)
    dark = {}  # chain index -> the position drawn on it, for panels that stay dark
    lit_by = {}  # position seen lit -> the chain indices (lanes) that lit it
    for tile in range(count):
        x0, y0 = corner(tile)
        session.call("panel_marks(%d)" % tile)
        if ui.ask("Only the %s panel should be lit: a green line along its top edge and a blue line down its "
                  "left edge, meeting at a white corner. Is it so?" % names[tile], YES_NO) == "y":
            at, green, blue = tile, "t", "l"
        else:
            answer = ui.ask("Which panel is lit, looking from P1's seat?", where)
            if answer == "n":
                dark[current[y0 * w + x0] // (pw * ph)] = tile
                continue
            at = int(answer) - 1
            if ui.ask("Is its blue line straight, along one edge of that panel?",
                      {"y": "yes", "n": "no, it zig-zags"}) == "n":
                # try the other layout for the panel this tile is drawn on
                p = full_panels(wiring)
                pos = p["chain"][current[y0 * w + x0] // (pw * ph)]
                p["layout"][pos] = "progressive" if p["layout"][pos] == "serpentine" else "serpentine"
                wiring["panels"] = p
                _remap(session, wiring)
                session.call("panel_marks(%d)" % tile)
                if ui.ask("And now: is the blue line straight?", YES_NO) == "n":
                    f.problems.append("the LEDs of the panel lit for the %s one are wired in an order neither "
                                      "layout describes: check its layout and origin against its data arrows"
                                      % names[tile])
                    return
                current = table()
            green = ui.ask("Along which edge of that panel is the green line?", EDGE_CHOICES)
            blue = ui.ask("Along which edge of that panel is the blue line?", EDGE_CHOICES)
        lit_by.setdefault(at, []).append(current[y0 * w + x0] // (pw * ph))
        turn = _panel_symmetry(pw, ph, green, blue)
        if turn is None:
            f.problems.append("a panel with its green line along %s and its blue line along %s cannot be set "
                              "right by rotation and mirroring" % (EDGE_CHOICES[green], EDGE_CHOICES[blue]))
            return
        ax, ay = corner(at)
        for y in range(ph):
            for x in range(pw):
                sx, sy = turn((x, y))
                wanted[(ay + sy) * w + ax + sx] = current[(y0 + y) * w + x0 + x]
    lanes = wiring["panels"].get("lanes")
    if lanes:
        if dark or any(len(n) > 1 for n in lit_by.values()):
            f.problems.extend(lane_faults(wiring, names, dark, lit_by))
            return
    elif dark:
        first = min(dark)
        f.problems.append(
            "nothing lights on %s: the data stops before panel %d of the chain (drawn as the %s one): check the "
            "wire from the DOUT of the panel before it to its DIN, and its 5 V and GND" % (
                " and ".join("the %s panel" % names[dark[n]] for n in sorted(dark)), first + 1, names[dark[first]]))
        if count == 4 and sorted(dark) == [1, 2, 3] and isinstance(wiring.get("matrix_pin"), int):
            # the first panel lights, and nothing follows it: a board on four lanes without the setting
            f.problems.append("if each panel has its own data pin (four lanes, hardware/32x32.md), the setting "
                              "misses them: set panels lanes %s" % json.dumps(
                                  [wiring["matrix_pin"] + n for n in range(4)]))
        return
    if None in wanted:
        f.problems.append("two panels were seen in the same place: check the answers, or whether two panels "
                          "get the same data")
        return
    changes = panels_fix(before, w, h, wanted)
    if changes is None:
        f.problems.append("no panels setting shows the picture right: check size, across and down of panels "
                          "against the build")
        return
    if not changes:
        f.ok.append("panels")
        return
    wiring.update(before)
    wiring.update(changes)
    _remap(session, wiring)
    session.call("panel_marks(-1)")
    marks = ui.ask("With the fix: does every panel show its green line along its top edge and its blue line "
                   "down its left edge?", YES_NO)
    session.call("lines()")
    lines = ui.ask("And across the whole matrix: is the green line along the top (far side) and the blue along "
                   "the left?", YES_NO)
    if marks == lines == "y":
        f.problems.extend(describe_panels(before, changes))
        f.fixes.update(changes)
    else:
        f.problems.append("could not find the panel settings (%s did not help): check panels by hand "
                          "(hardware/32x32.md)" % json.dumps(changes, sort_keys=True))


def lane_faults(wiring, names, dark, lit_by):
    """The lines for lanes that light no panel or the same panel as another lane.

    dark: lane -> the position drawn on it (as set); lit_by: position -> the lanes seen lighting it.
    The positions no lane lit are the panels whose DIN gets nothing.
    """
    chain = full_panels(wiring)["chain"]
    unlit = [at for at in range(len(names)) if at not in lit_by]
    lines = []
    for n in sorted(dark):
        # the panel that stays dark is the one no lane lit; if several do, the one the setting names
        panel = names[unlit[0]] if len(dark) == len(unlit) == 1 else names[dark[n]]
        lines.append("%s shows nothing: check %s, and that panel's 5 V and GND" % (
            lane_name(wiring, n), lane_path(wiring, n, panel)))
    if sorted(dark) == [1, 2, 3]:
        lines.append("only %s lights a panel: if the panels are still chained DOUT -> DIN, take \"lanes\" out of "
                     "panels (one chain works as before), or finish the four lanes (hardware/32x32.md)"
                     % lane_name(wiring, 0))
    for at in sorted(lit_by):
        both = lit_by[at]
        if len(both) < 2:
            continue
        line = "the %s panel gets the data of %s" % (names[at], " and of ".join(lane_name(wiring, n) for n in both))
        owed = [q for q in unlit if chain.index(q) in both]
        if owed:
            q = owed[0]
            n = chain.index(q)
            line += (", and the %s panel none: one of their leads belongs at the %s panel's DIN (as set, %s's: "
                     "%s)" % (names[q], names[q], lane_name(wiring, n), lane_path(wiring, n, names[q])))
        else:
            line += ": two leads go to its DIN, move one to the panel that stays dark"
        lines.append(line)
    return lines


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


def open_session(board, frozen=False):
    """Imports the self-test from the installed firmware (frozen in the Layerlight UF2; else the
    slot main.py runs, else sys.path)."""
    board.load_helpers()
    slot = None if frozen else flash.active_slot(board.read_text("/main.py"))
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


def versions(board, info):
    """Which Layerlight and which MicroPython the board runs, in words."""
    micropython = "MicroPython %s" % ".".join(str(v) for v in info["version"])
    frozen = board.layerlight_uf2()
    if frozen is not None:
        return "Layerlight %s (the Layerlight UF2, frozen in), %s" % (frozen, micropython)
    board.load_helpers()
    slot = flash.active_slot(board.read_text("/main.py"))
    if slot is not None:
        return "Layerlight put on by `layerlight flash` (in %s/%s), %s" % (flash.SLOT_DIR, slot, micropython)
    return "no Layerlight firmware started by main.py, %s" % micropython


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
        ui.say("Layerlight doctor on %s: %s" % (port, versions(board, info)))
        session = open_session(board, board.layerlight_uf2() is not None)
        ui.say("Look at the matrix from P1's seat.")
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
