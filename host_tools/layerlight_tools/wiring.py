"""Wiring documents generated from the firmware's one pin map (layerlight.boards).

The SVG diagrams, the pin tables and the Wokwi diagram in hardware/ all come
from here, so they cannot disagree with what the firmware drives: change a
pin in boards.py, run `make hardware`, and every document follows (the tests
fail until you do).
"""

import json
import textwrap
from xml.sax.saxutils import escape

from layerlight import boards

# --- where each GPIO sits on the board's header ---------------------------

# Raspberry Pi Pico and Pico 2 (same pinout): GPn -> physical pin 1..40
PICO_HEADER = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
               12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
               22: 29, 26: 31, 27: 32, 28: 34}
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)  # Wokwi calls them GND.1 .. GND.8 in this order

# ESP32-S3-DevKitC-1: left header J1 (USB ports at the bottom), GPIO -> J1 position
ESP32S3_J1 = {4: 4, 5: 5, 6: 6, 7: 7, 15: 8, 16: 9, 17: 10, 18: 11, 8: 12, 3: 13, 46: 14,
              9: 15, 10: 16, 11: 17, 12: 18, 13: 19, 14: 20}

# Raspberry Pi 40-pin header: BCM GPIO -> physical pin
RPI_HEADER = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31,
              13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24,
              7: 26, 12: 32, 16: 36, 20: 38, 21: 40}

SEATS = {"P1": "P1, the seat at the bottom edge", "P2": "P2, left", "P3": "P3, top", "P4": "P4, right",
         "A": "A: confirm / yes / next", "B": "B: cycle / no / back"}
BUTTON_COLOURS = {"P1": "#e0282e", "P2": "#1f5fd6", "P3": "#25a244", "P4": "#f0b400", "A": "#eeeeee", "B": "#333333"}
WOKWI_COLOURS = {"P1": "red", "P2": "blue", "P3": "green", "P4": "yellow", "A": "white", "B": "black"}
WOKWI_KEYS = {"P1": "1", "P2": "2", "P3": "3", "P4": "4", "A": "a", "B": "b"}


class PinMapError(ValueError):
    """A pin of boards.py that is not on the board's header."""


def pin_label(profile_name, pin):
    """How the board's silkscreen names a pin of boards.py, e.g. 'GP16', 'GPIO18', 'GPIO18 (D18)'."""
    if profile_name in ("pico", "pico2"):
        return "GP%d" % pin
    if profile_name == "esp32s3":
        return "GPIO%d" % pin
    if profile_name == "rpi":
        return "GPIO%d (%s)" % (_bcm(pin), pin)
    raise PinMapError("no header map for board %r" % profile_name)


def header_position(profile_name, pin):
    """Where that pin is on the header, e.g. 'pin 21' or 'J1-11'."""
    if profile_name in ("pico", "pico2"):
        table, fmt = PICO_HEADER, "pin %d"
    elif profile_name == "esp32s3":
        table, fmt = ESP32S3_J1, "J1-%d"
    elif profile_name == "rpi":
        table, fmt, pin = RPI_HEADER, "pin %d", _bcm(pin)
    else:
        raise PinMapError("no header map for board %r" % profile_name)
    if pin not in table:
        raise PinMapError("%s: GPIO %r is not on the header" % (profile_name, pin))
    return fmt % table[pin]


def _bcm(name):
    if not (isinstance(name, str) and name[:1] == "D" and name[1:].isdigit()):
        raise PinMapError("rpi: %r is not a board.Dn pin name" % (name,))
    return int(name[1:])


def power_pins(profile_name):
    """(5 V in, GND) of the board: names and header positions, and how the 5 V gets there."""
    if profile_name in ("pico", "pico2"):
        return {"vin": "VSYS", "vin_at": "pin 39", "gnd": "GND", "gnd_at": "pin 38",
                "vin_how": "from the 5 V rail through a 1N5819 Schottky diode (band towards the board), "
                           "so USB and the supply can be plugged in together"}
    if profile_name == "esp32s3":
        return {"vin": "5V", "vin_at": "J1-21", "gnd": "GND", "gnd_at": "J1-22",
                "vin_how": "from the 5 V rail through a 1N5819 Schottky diode (band towards the board), "
                           "so USB and the supply can be plugged in together"}
    if profile_name == "rpi":
        return {"vin": "GND only", "vin_at": "-", "gnd": "GND", "gnd_at": "pin 6",
                "vin_how": "the Pi keeps its own USB-C supply; never feed the matrix from the Pi's 5 V pins"}
    raise PinMapError("no header map for board %r" % profile_name)


def connections(profile_name):
    """Every wire of one board profile, in pin-table order: dicts with
    function, signal (the boards.py key), pin (boards.py value), label, at, to."""
    p = boards.PROFILES[profile_name]
    rows = [{
        "function": "matrix data",
        "signal": "matrix_pin",
        "pin": p["matrix_pin"],
        "to": "74AHCT125 1A (pin 2); its 1Y (pin 3) -> data wire -> 330 ohm at the matrix's end -> matrix DIN",
    }]
    for name in boards.BUTTON_NAMES:
        rows.append({
            "function": "button " + SEATS[name],
            "signal": "buttons." + name,
            "pin": p["buttons"][name],
            "to": "button %s, other contact to GND (internal pull-up: no resistor)" % name,
        })
    rows.append({
        "function": "buzzer",
        "signal": "buzzer_pin",
        "pin": p["buzzer_pin"],
        "to": "passive piezo +, piezo - to GND",
    })
    for r in rows:
        r["label"] = pin_label(profile_name, r["pin"])
        r["at"] = header_position(profile_name, r["pin"])
    return rows


# --- pin tables ---------------------------------------------------------------

def pin_table(profile_name):
    """One board's pin table in Markdown."""
    p = boards.PROFILES[profile_name]
    pw = power_pins(profile_name)
    out = ["### %s (`\"board\": \"%s\"`)" % (p["label"], profile_name), "",
           "| function | pin | on the header | wire to |", "|---|---|---|---|"]
    for r in connections(profile_name):
        out.append("| %s | %s | %s | %s |" % (r["function"], r["label"], r["at"], r["to"]))
    if pw["vin"] != "GND only":
        out.append("| 5 V in | %s | %s | %s |" % (pw["vin"], pw["vin_at"], pw["vin_how"]))
    else:
        out.append("| power | - | - | %s |" % pw["vin_how"])
    out.append("| ground | %s | %s (or any GND) | the supply's GND, common with the matrix and the 74AHCT125 |"
               % (pw["gnd"], pw["gnd_at"]))
    return "\n".join(out) + "\n"


def pin_tables():
    """Every profile's pin table (hardware/pins.md)."""
    parts = ["# Pin tables", "",
             "Generated from `firmware/layerlight/boards.py` by `make hardware`; do not edit.",
             "Pins in `layerlight.json` (`matrix_pin`, `buttons`, `buzzer_pin`) override these.", ""]
    for name in boards.PROFILES:
        parts.append(pin_table(name))
    return "\n".join(parts)


# --- the SVG diagram ----------------------------------------------------------

def _text(x, y, s, size=13, anchor="start", weight="normal", fill="#222"):
    return '<text x="%d" y="%d" font-size="%d" text-anchor="%s" font-weight="%s" fill="%s">%s</text>' % (
        x, y, size, anchor, weight, fill, escape(str(s)))


def _line(points, colour, width=2.5):
    return '<polyline points="%s" fill="none" stroke="%s" stroke-width="%s" stroke-linejoin="round"/>' % (
        " ".join("%d,%d" % p for p in points), colour, width)


def _box(x, y, w, h, fill="#f4f4f4", stroke="#333"):
    return '<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="%s" stroke-width="2"/>' % (
        x, y, w, h, fill, stroke)


def _dot(x, y, colour="#222"):
    return '<circle cx="%d" cy="%d" r="4" fill="%s"/>' % (x, y, colour)


def _gnd(x, y):
    return _line([(x, y), (x, y + 8)], "#111", 2) + "".join(
        _line([(x - w, y + 8 + 4 * i), (x + w, y + 8 + 4 * i)], "#111", 2) for i, w in enumerate((10, 6, 2)))


def _svg_open(w, h):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">' % (w, h, w, h))


NOTE_CHARS = 140   # a line of the notes under a wiring diagram, in characters


def wiring_svg(profile_name, width=16, height=16):
    """The wiring diagram of one board profile as an SVG document (text)."""
    p = boards.PROFILES[profile_name]
    rows = connections(profile_name)
    pw = power_pins(profile_name)
    GREEN, RED, BLACK, ORANGE = "#1a9641", "#d7191c", "#111111", "#e66101"
    W, H = 1080, 720
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           _svg_open(W, H),
           '<title>Layerlight wiring: %s</title>' % escape(p["label"]),
           '<rect width="100%" height="100%" fill="white"/>',
           _text(30, 36, "Layerlight wiring: " + p["label"], 20, weight="bold"),
           _text(30, 58, "generated from firmware/layerlight/boards.py (\"board\": \"%s\") by make hardware"
                 % profile_name, 12, fill="#666")]

    # the controller, its pins on the right edge
    cx, cy, cw = 40, 100, 250
    row_y = [cy + 50 + 46 * i for i in range(len(rows))]
    vin_y = row_y[-1] + 46
    gnd_y = vin_y + 30
    out.append(_box(cx, cy, cw, gnd_y + 24 - cy, "#e8f0e8"))
    out.append(_text(cx + cw // 2, cy + 26, p["label"], 14 if len(p["label"]) <= 28 else 12, "middle", "bold"))
    for r, y in zip(rows, row_y):
        out.append(_text(cx + cw - 12, y - 4, r["label"], 14, "end", "bold"))
        out.append(_text(cx + cw - 12, y + 12, r["at"], 11, "end", fill="#555"))
        out.append(_text(cx + 12, y + 4, r["function"].split(",")[0].split(":")[0], 12, fill="#444"))
    if pw["vin"] != "GND only":
        out.append(_text(cx + cw - 12, vin_y + 4, "%s  %s" % (pw["vin"], pw["vin_at"]), 13, "end", "bold"))
    out.append(_text(cx + cw - 12, gnd_y + 4, "GND  %s" % pw["gnd_at"], 13, "end", "bold"))

    x0 = cx + cw   # the wires start here
    sw = 600       # the buttons' left contact
    gnd_x = 740    # the ground rail of the buttons and the buzzer
    route_x = 1050  # the 5 V wire down the right edge to the controller

    # data: pin -> 74AHCT125 -> the data wire -> 330 ohm right at the matrix's DIN (Adafruit NeoPixel
    # Uberguide, "Best Practices": the resistor "at the NeoPixel end of the wire"), drawn there
    y = row_y[0]
    mx, my, mw, mh = 800, row_y[0] - 50, 200, 170
    rx = mx - 110   # the resistor's left end: near DIN, its label clear of the matrix
    out.append(_line([(x0, y), (350, y)], GREEN))
    out.append(_box(350, y - 30, 130, 56, "#fff7e0"))
    out.append(_text(415, y - 12, "74AHCT125", 13, "middle", "bold"))
    out.append(_text(415, y + 4, "1A pin 2 -> 1Y pin 3", 11, "middle"))
    out.append(_text(415, y + 19, "1OE pin 1 to GND", 11, "middle", fill="#555"))
    out.append(_line([(480, y), (rx, y)], GREEN))
    out.append(_text(600, y - 8, "data wire (under 30 cm)", 11, "middle", fill=GREEN))
    out.append('<rect x="%d" y="%d" width="50" height="16" fill="white" stroke="#333" stroke-width="2"/>'
               % (rx, y - 8))
    out.append(_text(rx + 25, y + 24, "330 ohm at DIN", 11, "middle"))
    out.append(_line([(rx + 50, y), (mx, y)], GREEN))
    out.append(_text(mx - 4, y - 8, "DIN", 12, "end", fill=GREEN))

    # the matrix
    out.append(_box(mx, my, mw, mh, "#20242c"))
    for i in range(8):
        for j in range(8):
            colour = "#3a3f4a" if (i + j) % 3 else "#6b7280"
            out.append('<circle cx="%d" cy="%d" r="5" fill="%s"/>' % (mx + 44 + 16 * j, my + 30 + 14 * i, colour))
    out.append(_text(mx + mw // 2, my + mh + 18, "%dx%d WS2812B matrix (GRB, serpentine)" % (width, height),
                     12, "middle", "bold"))
    out.append(_text(mx + mw // 2, my + mh + 34, "pixel 0 = DIN corner = top-left seen from P1", 11, "middle",
                     fill="#555"))
    out.append(_dot(mx, row_y[0], GREEN))
    out.append(_line([(mx + mw - 20, my + mh), (mx + mw - 20, my + mh + 44)], BLACK))
    out.append(_gnd(mx + mw - 20, my + mh + 44))
    out.append(_text(mx + mw - 26, my + mh + 60, "GND", 11, "end"))

    # the 5 V supply feeds the matrix (with its capacitor), the 74AHCT125 and the controller
    sx, sy = 560, 76
    out.append(_box(sx, sy - 22, 200, 40, "#fde0e0"))
    out.append(_text(sx + 100, sy + 4, "5 V supply (USB-C, 3 A)", 13, "middle", "bold"))
    out.append(_line([(sx + 200, sy), (mx + 60, sy), (mx + 60, my)], RED))
    out.append(_text(mx + 66, my - 6, "5V", 12, fill=RED))
    out.append(_line([(sx, sy), (415, sy), (415, row_y[0] - 30)], RED))
    out.append(_text(421, row_y[0] - 36, "VCC pin 14", 11, fill=RED))
    capx = mx + 150
    out.append(_line([(mx + 60, sy), (capx, sy), (capx, sy + 14)], RED))
    out.append(_line([(capx - 14, sy + 14), (capx + 14, sy + 14)], "#333", 3))
    out.append(_line([(capx - 14, sy + 20), (capx + 14, sy + 20)], "#333", 3))
    out.append(_line([(capx, sy + 20), (capx, my)], BLACK))
    out.append(_text(capx + 18, sy + 22, "1000 uF", 12))

    # buttons and buzzer to the ground rail
    for r, y in zip(rows[1:], row_y[1:]):
        name = r["signal"].split(".")[-1]
        if r["signal"] == "buzzer_pin":
            out.append(_line([(x0, y), (sw, y)], ORANGE))
            out.append('<circle cx="%d" cy="%d" r="26" fill="#222" stroke="#555" stroke-width="2"/>' % (sw + 30, y))
            out.append(_text(sw + 30, y + 4, "piezo", 11, "middle", fill="white"))
            out.append(_text(sw - 6, y - 8, "+", 14, "middle", "bold", ORANGE))
            out.append(_line([(sw + 56, y), (gnd_x, y)], BLACK))
            out.append(_text(500, y - 8, "buzzer (PWM)", 12, fill=ORANGE))
            continue
        colour = BUTTON_COLOURS[name]
        ink = colour if name not in ("A", "B") else "#555"
        out.append(_line([(x0, y), (sw, y)], ink))
        out.append(_text(500, y - 8, "button " + name, 12, weight="bold", fill=ink))
        # a push button: two contacts, the bar above them and its cap
        out.append(_dot(sw, y))
        out.append(_dot(sw + 60, y))
        out.append(_line([(sw - 4, y - 14), (sw + 64, y - 14)], "#333", 3))
        out.append(_line([(sw + 30, y - 14), (sw + 30, y - 24)], "#333", 3))
        out.append('<circle cx="%d" cy="%d" r="7" fill="%s" stroke="#333"/>' % (sw + 30, y - 30, colour))
        out.append(_line([(sw + 60, y), (gnd_x, y)], BLACK))
    out.append(_line([(gnd_x, row_y[1]), (gnd_x, gnd_y + 40)], BLACK, 3))
    out.append(_text(gnd_x + 8, row_y[1] + 4, "GND rail", 12))
    out.append(_gnd(gnd_x, gnd_y + 40))
    out.append(_line([(x0, gnd_y), (gnd_x, gnd_y)], BLACK))
    if pw["vin"] != "GND only":
        # 5 V down the right edge and back to the controller through the diode (band towards the board)
        out.append(_line([(capx, sy), (route_x, sy), (route_x, vin_y), (360, vin_y)], RED))
        out.append('<polygon points="360,%d 360,%d 340,%d" fill="#333"/>' % (vin_y - 9, vin_y + 9, vin_y))
        out.append(_line([(340, vin_y - 9), (340, vin_y + 9)], "#333", 3))
        out.append(_line([(340, vin_y), (x0, vin_y)], RED))
        out.append(_text(350, vin_y + 26, "1N5819", 11, "middle"))
        note = "5 V in: " + pw["vin_how"] + "."
    else:
        note = "Power: " + pw["vin_how"] + "; join the Pi's GND and the supply's GND."
    notes = [note,
             "Buttons: one contact to the pin, the other to GND (arcade microswitch: COM to GND, NO to the pin).",
             "Matrix: 5 V and GND straight from the supply, not through the controller; 1000 uF across them and "
             "the 330 ohm in DIN, both at the matrix's input.",
             "74AHCT125: VCC (pin 14) 5 V, GND (pin 7), 0.1 uF across them; the unused buffers' inputs 2A/3A/4A "
             "(pins 5, 9, 12) and enables 2OE/3OE/4OE (pins 4, 10, 13) to GND: no input left floating."]
    # wrapped to the picture's width (about 7 px a character at 12 px)
    lines = [line for n in notes for line in textwrap.wrap(n, NOTE_CHARS, subsequent_indent="  ")]
    ny = gnd_y + 84
    for i, n in enumerate(lines):
        out.append(_text(30, ny + 17 * i, n, 12, fill="#333"))
    out.append("</svg>")
    H2 = max(H, ny + 17 * len(lines))
    out[1] = _svg_open(W, H2)   # the notes decide the height
    return "\n".join(out) + "\n"


# --- the panel chain of a tiled matrix --------------------------------------------

def panels_svg(example):
    """How the panels of a tiled matrix are chained and fed, as an SVG document (text).

    The strip order is read from the firmware's pixel map for the example's
    settings (strip_map.pixel_map), so the picture shows what those settings
    mean: where each panel's data comes in and goes out, and how its LEDs run.
    """
    from layerlight.strip_map import pixel_map

    p = example["panels"]
    w, h = example["width"], example["height"]
    pw, ph = p["size"]
    across, down = p["across"], p["down"]
    count = across * down
    table = pixel_map(w, h, example.get("layout", "serpentine"), example.get("origin", "top-left"),
                      example.get("rotation", 0), example.get("flip_x", False), example.get("flip_y", False), p)
    where = [None] * (w * h)   # strip index -> logical (x, y)
    for i, led in enumerate(table):
        where[led] = (i % w, i // w)
    GREEN, RED, BLACK = "#1a9641", "#d7191c", "#111111"
    pitch = 13
    gap = 40
    gx, gy = 330, 120   # the grid's top-left corner
    size_x, size_y = pw * pitch, ph * pitch
    W = gx + across * size_x + (across - 1) * gap + 220
    H = gy + down * size_y + (down - 1) * gap + 110

    def panel_at(x, y):
        return x // pw, y // ph

    def centre(x, y):
        col, row = panel_at(x, y)
        return (gx + col * (size_x + gap) + (x % pw) * pitch + pitch // 2,
                gy + row * (size_y + gap) + (y % ph) * pitch + pitch // 2)

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">' % (W, H, W, H),
           '<title>Layerlight %dx%d from %d panels: data chain and power</title>' % (w, h, count),
           '<rect width="100%" height="100%" fill="white"/>',
           _text(30, 36, "Layerlight %dx%d: %d x %d panels of %dx%d, seen from P1's seat (P3's edge at the top)"
                 % (w, h, across, down, pw, ph), 20, weight="bold"),
           _text(30, 58, "generated by make hardware from the panels setting below through the firmware's pixel "
                         "map; grey: the LEDs in data order", 12, fill="#666")]
    names = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    n_leds = pw * ph
    for n in range(count):
        at = p.get("chain", list(range(count)))[n]
        col, row = at % across, at // across
        x0, y0 = gx + col * (size_x + gap), gy + row * (size_y + gap)
        out.append(_box(x0, y0, size_x, size_y, "#20242c"))
        path = [centre(*where[n * n_leds + i]) for i in range(n_leds)]
        out.append(_line(path, "#8b93a1", 1.2))
        rotation = p.get("rotation", 0)
        rotation = rotation[at] if isinstance(rotation, list) else rotation
        place = ("%s %s" % (("top", "bottom")[row] if down == 2 else "row %d" % row,
                            ("left", "right")[col] if across == 2 else "column %d" % col))
        out.append(_text(x0 + size_x // 2, y0 + size_y // 2 - 6, "position %d (%s)" % (at, place), 13, "middle",
                         "bold", "white"))
        out.append(_text(x0 + size_x // 2, y0 + size_y // 2 + 12, "%s on the chain, rotation %d" % (
            names[n] if n < len(names) else "#%d" % (n + 1), rotation), 12, "middle", fill="white"))
        din, dout = path[0], path[-1]
        out.append('<circle cx="%d" cy="%d" r="6" fill="%s"/>' % (din[0], din[1], GREEN))
        out.append('<circle cx="%d" cy="%d" r="6" fill="white" stroke="%s" stroke-width="2"/>' % (
            dout[0], dout[1], GREEN))
        out.append(_text(din[0] + 9, din[1] - 8, "DIN", 11, weight="bold", fill="#7fe0a0"))
        out.append(_text(dout[0] + 9, dout[1] - 8, "DOUT", 11, fill="#7fe0a0"))
        # power injection: a red/black pair from the bus on the left to every panel
        if col == 0:
            out.append(_line([(200, y0 + 40), (x0, y0 + 40)], RED, 2))
            out.append(_line([(215, y0 + 48), (x0, y0 + 48)], BLACK, 2))
        else:  # above the panel row, then down to the panel's top edge
            out.append(_line([(200, y0 - 26 + 6 * col), (x0 + 40, y0 - 26 + 6 * col), (x0 + 40, y0)], RED, 2))
            out.append(_line([(215, y0 - 20 + 6 * col), (x0 + 48, y0 - 20 + 6 * col), (x0 + 48, y0)], BLACK, 2))
        if n + 1 < count:
            nxt = centre(*where[(n + 1) * n_leds])
            out.append(_lead(dout, nxt, gx, gy, across * size_x + (across - 1) * gap,
                             down * size_y + (down - 1) * gap, GREEN))
    # the data comes in from the controller's 74AHCT125 and 330 ohm
    din = centre(*where[0])
    out.append(_line([(30, din[1] - 40), (din[0] - 14, din[1] - 40), (din[0], din[1] - 8)], GREEN))
    out.append(_text(30, din[1] - 48, "data from the 330 ohm (after the 74AHCT125)", 12, fill=GREEN))
    # the 5 V bus
    bus_top = gy
    bus_bottom = gy + down * size_y + (down - 1) * gap
    out.append(_line([(200, bus_top - 20), (200, bus_bottom)], RED, 4))
    out.append(_line([(215, bus_top - 20), (215, bus_bottom + 8)], BLACK, 4))
    out.append(_box(40, bus_top + 40, 140, 84, "#fde0e0"))
    out.append(_text(110, bus_top + 66, "5 V %d A supply" % (example["supply_ma"] // 1000), 13, "middle", "bold"))
    out.append(_text(110, bus_top + 86, "through a %d A fuse" % (example["supply_ma"] // 1000), 12, "middle"))
    out.append(_text(110, bus_top + 104, "to the 5 V / GND bus", 12, "middle"))
    out.append(_line([(180, bus_top + 60), (200, bus_top + 60)], RED, 3))
    out.append(_line([(180, bus_top + 100), (215, bus_top + 100)], BLACK, 3))
    ny = bus_bottom + 40
    notes = ["P1's seat is below this edge. Green: the data, DOUT of one panel to DIN of the next (only the data is "
             "chained).",
             "Red/black: an 18 AWG pair from the bus to every panel's own 5 V and GND; the controller's GND joins "
             "the bus.",
             "The bus: 16 AWG from the DC jack through the 10 A fuse (both in the box's back wall); it carries the "
             "whole current.",
             "layerlight.json: %s" % json.dumps({"panels": p})]
    for i, n in enumerate(notes):
        out.append(_text(30, ny + 18 * i, n, 12, fill="#333"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _lead(a, b, gx, gy, gw, gh, colour):
    """A data lead from a to b, outside the panels when they are not next to each other."""
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) < 80:
        return _line([a, b], colour)
    if abs(a[0] - b[0]) < 60 or abs(a[1] - b[1]) < 60:
        # along the nearest outer edge of the grid
        if abs(a[1] - b[1]) < 60:
            edge = gy - 16 if a[1] - gy < gy + gh - a[1] else gy + gh + 16
            return _line([a, (a[0], edge), (b[0], edge), b], colour)
        edge = gx - 16 if a[0] - gx < gx + gw - a[0] else gx + gw + 16
        return _line([a, (edge, a[1]), (edge, b[1]), b], colour)
    return _line([a, b], colour)


# --- four panels on four lanes -------------------------------------------------------

# The 74AHCT125's four buffers, one per lane (TI SN74AHCT125, SCLS264, pin out of the
# DIP-14): lane n goes in at A, out at Y, and its enable OE is tied to GND (active low).
AHCT125 = (("1A", 2, "1Y", 3, "1OE", 1), ("2A", 5, "2Y", 6, "2OE", 4),
           ("3A", 9, "3Y", 8, "3OE", 10), ("4A", 12, "4Y", 11, "4OE", 13))
LANE_COLOURS = ("#1a9641", "#2b6fd6", "#e66101", "#8e3bb8")


def buffer_channel(n):
    """'4A/4Y (pins 12/11)': the 74AHCT125 buffer that carries lane n."""
    a, a_pin, y, y_pin, _, _ = AHCT125[n]
    return "%s/%s (pins %d/%d)" % (a, y, a_pin, y_pin)


def lanes_svg(example):
    """Four panels each fed by its own lane (four GPIOs through the 74AHCT125's four buffers),
    as an SVG document (text).

    As panels_svg: each panel's LED order comes from the firmware's pixel map
    for the example's settings, in which lane n's LEDs are the n-th block of
    the wire order (the n-th panel of a chain), so the DIN drawn for a lane is
    where that setting says the lane's data comes in.
    """
    from layerlight.strip_map import pixel_map

    board = example["board"]
    p = example["panels"]
    lanes = p["lanes"]
    w, h = example["width"], example["height"]
    pw, ph = p["size"]
    across, down = p["across"], p["down"]
    count = across * down
    chain = p.get("chain", list(range(count)))
    table = pixel_map(w, h, example.get("layout", "serpentine"), example.get("origin", "top-left"),
                      example.get("rotation", 0), example.get("flip_x", False), example.get("flip_y", False), p)
    where = [None] * (w * h)   # wire index -> logical (x, y)
    for i, led in enumerate(table):
        where[led] = (i % w, i // w)
    RED, BLACK = "#d7191c", "#111111"
    pitch, gap_x, gap_y = 13, 40, 120   # the gap between the panel rows carries the four leads
    size_x, size_y = pw * pitch, ph * pitch
    gx, gy = 560, 130
    grid_w, grid_h = across * size_x + (across - 1) * gap_x, down * size_y + (down - 1) * gap_y
    bus_x = gx + grid_w + 40
    W = bus_x + 200
    n_leds = pw * ph

    def centre(x, y):
        col, row = x // pw, y // ph
        return (gx + col * (size_x + gap_x) + (x % pw) * pitch + pitch // 2,
                gy + row * (size_y + gap_y) + (y % ph) * pitch + pitch // 2)

    out = ['<?xml version="1.0" encoding="UTF-8"?>', None,
           '<title>Layerlight %dx%d from %d panels on %d lanes: data and power</title>' % (w, h, count, len(lanes)),
           '<rect width="100%" height="100%" fill="white"/>',
           _text(30, 36, "Layerlight %dx%d: %d panels of %dx%d, each on its own data pin (four lanes), seen from "
                 "P1's seat" % (w, h, count, pw, ph), 20, weight="bold"),
           _text(30, 58, "generated by make hardware from the panels setting below through the firmware's pixel "
                         "map; grey: each panel's LEDs in data order, from its DIN", 12, fill="#666")]
    # the panels, each with its LED order, DIN and (free) DOUT
    dins = []
    for n in range(count):
        at = chain[n]
        col, row = at % across, at // across
        x0, y0 = gx + col * (size_x + gap_x), gy + row * (size_y + gap_y)
        out.append(_box(x0, y0, size_x, size_y, "#20242c"))
        path = [centre(*where[n * n_leds + i]) for i in range(n_leds)]
        out.append(_line(path, "#8b93a1", 1.2))
        rotation = p.get("rotation", 0)
        rotation = rotation[at] if isinstance(rotation, list) else rotation
        place = "%s %s" % (("top", "bottom")[row] if down == 2 else "row %d" % row,
                           ("left", "right")[col] if across == 2 else "column %d" % col)
        mid_x, mid_y = x0 + size_x // 2, y0 + size_y // 2
        out.append('<rect x="%d" y="%d" width="170" height="44" rx="4" fill="#20242c" opacity="0.85"/>'
                   % (mid_x - 85, mid_y - 26))
        out.append(_text(mid_x, mid_y - 8, "position %d (%s)" % (at, place), 13, "middle", "bold", "white"))
        out.append(_text(mid_x, mid_y + 10, "lane %d: %s, rotation %d" % (n, pin_label(board, lanes[n]), rotation),
                         12, "middle", fill="white"))
        din, dout = path[0], path[-1]
        dins.append((n, din, row, mid_x, mid_y))
        colour = LANE_COLOURS[n % len(LANE_COLOURS)]
        out.append('<circle cx="%d" cy="%d" r="6" fill="%s" stroke="white" stroke-width="1.5"/>'
                   % (din[0], din[1], colour))
        out.append('<circle cx="%d" cy="%d" r="6" fill="white" stroke="#7fe0a0" stroke-width="2"/>'
                   % (dout[0], dout[1]))
        # the labels inside the panel, towards its middle, clear of the leads outside it
        for (x, y), label, ink, weight in ((din, "DIN", "white", "bold"), (dout, "DOUT: free", "#7fe0a0", "normal")):
            anchor = "start" if x < mid_x else "end"
            dx = 10 if x < mid_x else -10
            dy = 18 if y < mid_y else -10
            out.append(_text(x + dx, y + dy, label, 11, anchor, weight, ink))
        # power: an 18 AWG pair from the bus on the right to every panel
        if col == across - 1:
            out.append(_line([(bus_x, y0 + 40), (x0 + size_x, y0 + 40)], RED, 2))
            out.append(_line([(bus_x + 15, y0 + 48), (x0 + size_x, y0 + 48)], BLACK, 2))
        else:   # round the outside of the grid, above the top row and below the bottom one
            edge, step = (y0, -1) if row == 0 else (y0 + size_y, 1)
            out.append(_line([(bus_x, edge + step * 26), (x0 + 40, edge + step * 26), (x0 + 40, edge)], RED, 2))
            out.append(_line([(bus_x + 15, edge + step * 20), (x0 + 48, edge + step * 20), (x0 + 48, edge)],
                             BLACK, 2))
    # the leads run in the gap between the rows: those rising to the top row above those going down,
    # each group ordered so that no two cross
    top = sorted((d for d in dins if d[1][1] < gy + size_y + gap_y // 2), key=lambda d: d[1][0])
    bottom = sorted((d for d in dins if d[1][1] >= gy + size_y + gap_y // 2), key=lambda d: -d[1][0])
    order = top + bottom
    gap_top = gy + size_y
    chan = {d[0]: gap_top + 24 + 24 * i for i, d in enumerate(order)}
    # the controller and the 74AHCT125 on the left, one row per lane in the order of the leads
    rows = [chan[n] for n in range(count)]
    cx, cw = 30, 170
    bx, bw = 285, 150
    box_top, box_bottom = min(rows) - 36, max(rows) + 30
    out.append(_box(cx, box_top - 30, cw, box_bottom - box_top + 60, "#e8f1e4"))
    out.append(_text(cx + cw // 2, box_top - 10, "Pico / Pico 2" if board in ("pico", "pico2")
                     else boards.PROFILES[board]["label"], 13, "middle", "bold"))
    out.append(_box(bx, box_top - 30, bw, box_bottom - box_top + 60, "#fff7e0"))
    out.append(_text(bx + bw // 2, box_top - 10, "74AHCT125", 13, "middle", "bold"))
    for n in range(count):
        y = chan[n]
        colour = LANE_COLOURS[n % len(LANE_COLOURS)]
        a, a_pin, yy, y_pin, _, _ = AHCT125[n]
        out.append(_text(cx + 10, y + 4, "%s (%s)" % (pin_label(board, lanes[n]), header_position(board, lanes[n])),
                         12, weight="bold", fill=colour))
        out.append(_line([(cx + cw, y), (bx, y)], colour))
        out.append(_text(bx + 8, y + 4, "%s %d" % (a, a_pin), 11))
        out.append(_text(bx + bw - 8, y + 4, "%s %d" % (yy, y_pin), 11, "end"))
        # from Y along the gap, through the 330 ohm right at the panel, up or down into its DIN
        din = next(d[1] for d in dins if d[0] == n)
        out.append(_line([(bx + bw, y), (din[0] - 56, y)], colour))
        out.append('<rect x="%d" y="%d" width="36" height="12" fill="white" stroke="%s" stroke-width="2"/>'
                   % (din[0] - 56, y - 6, colour))
        out.append(_text(din[0] - 60, y - 5, "330 ohm", 10, "end", fill="#333"))
        out.append(_line([(din[0] - 20, y), (din[0], y), din], colour))
        out.append(_text((bx + bw + gx) // 2 - 40, y - 5, "lane %d" % n, 11, "middle", fill=colour))
    out.append(_text(bx + bw // 2, box_bottom + 12, "1OE 2OE 3OE 4OE", 11, "middle"))
    out.append(_text(bx + bw // 2, box_bottom + 26, "(pins 1, 4, 10, 13) to GND", 11, "middle"))
    out.append(_text(bx + bw // 2, box_top - 50, "VCC pin 14: 5 V, GND pin 7", 11, "middle", fill="#333"))
    out.append(_text(cx + cw // 2, box_bottom + 12, "GND (pin 23)", 11, "middle"))
    out.append(_text(cx + cw // 2, box_bottom + 26, "to the bus's GND", 11, "middle"))
    # the 5 V bus on the right, from the supply through the fuse
    bus_top, bus_bottom = gy - 34, gy + grid_h + 34
    out.append(_line([(bus_x, bus_top), (bus_x, bus_bottom)], RED, 4))
    out.append(_line([(bus_x + 15, bus_top), (bus_x + 15, bus_bottom)], BLACK, 4))
    sx, sy = bus_x + 40, gy + size_y + 10
    out.append(_box(sx, sy, 150, 84, "#fde0e0"))
    out.append(_text(sx + 75, sy + 26, "5 V %d A supply" % (example["supply_ma"] // 1000), 13, "middle", "bold"))
    out.append(_text(sx + 75, sy + 46, "through a %d A fuse" % (example["supply_ma"] // 1000), 12, "middle"))
    out.append(_text(sx + 75, sy + 64, "to the 5 V / GND bus", 12, "middle"))
    out.append(_line([(bus_x, sy + 20), (sx, sy + 20)], RED, 3))
    out.append(_line([(bus_x + 15, sy + 60), (sx, sy + 60)], BLACK, 3))
    notes = ["P1's seat is below this edge. Each lane: its GPIO -> its buffer of the 74AHCT125 (A in, Y out) -> a "
             "lead under 30 cm (a GND wire along it if longer than 10 cm) -> 330 ohm at the panel's DIN.",
             "No lead from one panel's DOUT to the next: each DOUT stays free. Every panel's DIN corner is at the "
             "middle of the matrix, over the perfboard: every lead is a few cm. (The panels touch in the box: the "
             "gap here only makes room for the leads.)",
             "74AHCT125: VCC (pin 14) to 5 V, GND (pin 7), 100 nF across them; all four enables 1OE-4OE "
             "(pins 1, 4, 10, 13) to GND.",
             "Red/black: an 18 AWG pair from the bus to every panel's own 5 V and GND; the 1000 uF across the bus; "
             "the controller's GND joins the bus.",
             "layerlight.json: %s" % json.dumps({"panels": p})]
    lines = [line for n in notes for line in textwrap.wrap(n, NOTE_CHARS + 20, subsequent_indent="  ")]
    ny = bus_bottom + 36
    for i, n in enumerate(lines):
        out.append(_text(30, ny + 18 * i, n, 12, fill="#333"))
    out.append("</svg>")
    out[1] = _svg_open(W, ny + 18 * len(lines))
    return "\n".join(out) + "\n"


# --- the Wokwi diagram (reference build: Pico, 16x16) ------------------------------

WOKWI_PICO_ENV = "micropython-20250415-v1.25.0"
WOKWI_PICO_PINS = (["GP%d" % n for n in PICO_HEADER] +
                   ["GND.%d" % (i + 1) for i in range(len(PICO_GND))] +
                   ["VBUS", "VSYS", "3V3", "3V3_EN", "RUN", "ADC_VREF"])
WOKWI_PART_PINS = {
    "wokwi-pi-pico": WOKWI_PICO_PINS,
    "wokwi-neopixel-matrix": ["GND", "VCC", "DIN", "DOUT"],
    "wokwi-pushbutton": ["1.l", "2.l", "1.r", "2.r"],
    "wokwi-buzzer": ["1", "2"],  # 1: minus (black lead), 2: plus (red lead)
    "wokwi-vcc": ["VCC"],        # a 5 V supply symbol: the box's own supply
}
# where the buttons sit around the matrix: each player's button faces their seat
_WOKWI_PLACES = {"P1": (380, 460), "P2": (60, 170), "P3": (380, -110), "P4": (700, 170),
                 "A": (560, 520), "B": (660, 520)}


def wokwi_diagram(profile_name="pico", width=16, height=16):
    """diagram.json (as a dict) of the build on Wokwi: Pico, matrix, six buttons, piezo."""
    p = boards.PROFILES[profile_name]
    if profile_name not in ("pico", "pico2"):
        raise PinMapError("the Wokwi project is the Pico build")
    gnds = ["pico:GND.%d" % (i + 1) for i in range(len(PICO_GND))]
    parts = [
        {"type": "wokwi-pi-pico", "id": "pico", "top": 640, "left": 380, "rotate": 90,
         "attrs": {"env": WOKWI_PICO_ENV}},
        {"type": "wokwi-neopixel-matrix", "id": "matrix", "top": 40, "left": 200,
         "attrs": {"rows": str(height), "cols": str(width), "matrixLayout": "serpentine"}},
    ]
    # the matrix takes its 5 V from the supply, as the wiring diagram says, never from the
    # Pico's VBUS (which a builder copying the diagram would feed from a PC's USB port)
    parts.append({"type": "wokwi-vcc", "id": "supply_5v", "top": -60, "left": 330, "attrs": {}})
    conns = [
        ["pico:GP%d" % p["matrix_pin"], "matrix:DIN", "green", []],
        ["matrix:VCC", "supply_5v:VCC", "red", []],
        ["matrix:GND", gnds[7], "black", []],
    ]
    for i, name in enumerate(boards.BUTTON_NAMES):
        left, top = _WOKWI_PLACES[name]
        bid = "btn_" + name.lower()
        parts.append({"type": "wokwi-pushbutton", "id": bid, "top": top, "left": left,
                      "attrs": {"color": WOKWI_COLOURS[name], "label": name, "key": WOKWI_KEYS[name]}})
        conns.append([bid + ":1.l", "pico:GP%d" % p["buttons"][name], WOKWI_COLOURS[name]
                      if name not in ("A", "B") else "gray", []])
        conns.append([bid + ":2.l", gnds[i % 4], "black", []])
    parts.append({"type": "wokwi-buzzer", "id": "buzzer", "top": 560, "left": 800, "attrs": {"volume": "0.1"}})
    conns.append(["buzzer:2", "pico:GP%d" % p["buzzer_pin"], "orange", []])
    conns.append(["buzzer:1", gnds[4], "black", []])
    return {"version": 1, "author": "Layerlight (generated from firmware/layerlight/boards.py)",
            "editor": "wokwi", "parts": parts, "connections": conns, "dependencies": {}}


def wokwi_diagram_text(profile_name="pico"):
    return json.dumps(wokwi_diagram(profile_name), indent=2) + "\n"
