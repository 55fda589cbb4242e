"""hardware/: the generated files and the generated parts of hardware/README.md and 32x32.md.

`generated_files()` says what every generated file should contain now (from
boards.py, bom.csv, the power model and the pixel map); `write()` brings
hardware/ up to date (what `make hardware` runs) and `stale()` lists what is
out of date (what the tests check). The documents' generated parts sit
between `<!-- generated: NAME -->` and `<!-- end: NAME -->` lines; the rest
is written by hand.
"""

import csv
import json
import os
import re

from layerlight import boards
from layerlight import power as model

from layerlight_tools import firmware_files, wiring

HARDWARE = os.path.join(firmware_files.REPO, "hardware")
VARIANTS = ("8x8", "16x16", "32x32")
BOM_FIELDS = ("variant", "part", "quantity", "example", "price_usd", "notes")
SUPPLIES_MA = {"8x8": 3000, "16x16": 3000, "32x32": 10000}  # what the BOM lists for each variant

HAND_WRITTEN = ("README.md", "32x32.md")  # the documents with generated blocks in them

# The 32x32 build of hardware/32x32.md: four 16x16 panels in two columns. The
# data runs down the left column and up the right one, so every panel of the
# right column is mounted upside down (rotation 180) and each data lead is
# short but the one across the bottom. The example config, the chaining
# diagram and the tests all use this one.
EXAMPLE_32 = {"board": "pico", "width": 32, "height": 32, "supply_ma": 10000,
              "panels": {"size": [16, 16], "across": 2, "down": 2, "chain": [0, 2, 3, 1],
                         "rotation": [0, 180, 0, 180]}}

# The 32x32 built new, on four lanes (hardware/32x32.md): each panel on its own data pin,
# GP16-GP19, clockwise from the top-left (lanes[n] feeds position chain[n]). Every panel is
# turned so that its DIN corner is at the middle of the matrix, right over the perfboard
# under the bed: each of the four leads from the 74AHCT125 is a few centimetres.
EXAMPLE_32_LANES = {"board": "pico", "width": 32, "height": 32, "supply_ma": 10000,
                    "panels": {"size": [16, 16], "across": 2, "down": 2, "chain": [0, 1, 3, 2],
                               "rotation": [180, 90, 270, 0], "lanes": [16, 17, 18, 19]}}

_BLOCK = re.compile(r"(<!-- generated: ([a-z-]+) -->\n).*?(<!-- end: \2 -->)", re.S)


class BomError(ValueError):
    pass


def read_bom(path=None):
    """The rows of hardware/bom.csv, checked: quantity an int > 0, price a number, a known variant."""
    path = path or os.path.join(HARDWARE, "bom.csv")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != BOM_FIELDS:
            raise BomError("bom.csv columns must be %s" % ",".join(BOM_FIELDS))
        rows = []
        for n, row in enumerate(reader, 2):
            if row["variant"] not in ("all",) + VARIANTS:
                raise BomError("bom.csv line %d: unknown variant %r" % (n, row["variant"]))
            try:
                row["quantity"] = int(row["quantity"])
                row["price_usd"] = float(row["price_usd"])
            except ValueError:
                raise BomError("bom.csv line %d: quantity and price_usd must be numbers" % n)
            if row["quantity"] <= 0 or row["price_usd"] < 0 or not row["part"] or not row["example"]:
                raise BomError("bom.csv line %d: needs a part, an example, a quantity > 0 and a price" % n)
            rows.append(row)
    return rows


def bom_rows(rows, variant):
    return [r for r in rows if r["variant"] in ("all", variant)]


def bom_total(rows, variant):
    return sum(r["quantity"] * r["price_usd"] for r in bom_rows(rows, variant))


def bom_table(rows, variant):
    out = ["#### %s (%d LEDs): about %d USD" % (variant, _leds(variant), round(bom_total(rows, variant))), "",
           "| part | qty | widely sold example | rough price (USD each) | notes |", "|---|---|---|---|---|"]
    for r in bom_rows(rows, variant):
        out.append("| %s | %d | %s | %.2f | %s |" % (r["part"], r["quantity"], r["example"], r["price_usd"],
                                                       r["notes"]))
    return "\n".join(out) + "\n"


def _leds(variant):
    w, h = variant.split("x")
    return int(w) * int(h)


def power_table():
    """Worst cases and brightness caps of the three variants (the model's numbers only)."""
    out = ["| matrix | LEDs | all white at 1.0 | all white at 0.25 | supply | cap for any picture "
           "| cap the firmware applies | default 0.25 becomes |", "|---|---|---|---|---|---|---|---|"]
    for v in VARIANTS:
        n = _leds(v)
        for supply in sorted({3000, SUPPLIES_MA[v]}):
            any_cap = model.brightness_cap(n, supply, 1.0)
            fw_cap = model.brightness_cap(n, supply)
            out.append("| %s | %d | %.2f A | %.2f A | %.0f A | %.3f | %.3f | %.3f |" % (
                v, n, model.led_ma(n, 1.0) / 1000, model.led_ma(n, 0.25) / 1000, supply / 1000,
                any_cap, fw_cap, min(0.25, fw_cap)))
    return "\n".join(out) + "\n"


def panel_power_table(example=EXAMPLE_32):
    """What a supply does to a 32x32 of panels: the cap, the current, and each panel's share."""
    p = example["panels"]
    count = p["across"] * p["down"]
    leds = example["width"] * example["height"]
    per = leds // count
    out = ["| supply | brightness cap the firmware applies | default 0.25 becomes | the device at the brightest "
           "frame allowed (%d%% of white) | one panel all white at that brightness |" % (100 * model.SCREEN_PEAK),
           "|---|---|---|---|---|"]
    for supply in (3000, example["supply_ma"]):
        cap = model.brightness_cap(leds, supply)
        used = min(0.25, cap)
        out.append("| %.0f A%s | %.3f | %.3f | %.2f A | %.2f A |" % (
            supply / 1000, " (the default supply_ma)" if supply == 3000 else "", cap, used,
            (model.led_ma(leds, used, model.SCREEN_PEAK) + model.CONTROLLER_MA) / 1000,
            model.led_ma(per, used, 1.0) / 1000))
    return "\n".join(out) + "\n"


def example_config(example=EXAMPLE_32):
    """The example layerlight.json of the 32x32 build, as a Markdown code block."""
    keys = ",\n ".join("%s: %s" % (json.dumps(k), json.dumps(v)) for k, v in example.items())
    return "```json\n{%s}\n```\n" % keys


def lanes_table(example=EXAMPLE_32_LANES):
    """Each lane of the four-lane example: its pin, its buffer of the 74AHCT125, the panel it feeds."""
    from layerlight_tools.doctor import panel_names

    p = example["panels"]
    names = panel_names(p["across"], p["down"])
    chain = p.get("chain", list(range(len(p["lanes"]))))
    out = ["| lane | pin | 74AHCT125 in | out | its enable | the lead goes to |", "|---|---|---|---|---|---|"]
    for n, pin in enumerate(p["lanes"]):
        a, a_pin, y, y_pin, oe, oe_pin = wiring.AHCT125[n]
        out.append("| %d | %s (%s) | %s (pin %d) | %s (pin %d) | %s (pin %d) to GND | the %s panel's DIN |" % (
            n, wiring.pin_label(example["board"], pin), wiring.header_position(example["board"], pin),
            a, a_pin, y, y_pin, oe, oe_pin, names[chain[n]]))
    return "\n".join(out) + "\n"


def readme_blocks():
    rows = read_bom()
    return {
        "bom": "\n".join(bom_table(rows, v) for v in VARIANTS),
        "power": power_table(),
        "pins": wiring.pin_table(boards.DEFAULT),
        "panel-power": panel_power_table(),
        "panel-config": example_config(),
        "lanes-config": example_config(EXAMPLE_32_LANES),
        "lanes-table": lanes_table(),
    }


def fill_blocks(text, blocks):
    """text with every generated block replaced by blocks[name] (unknown names are an error)."""
    def repl(m):
        name = m.group(2)
        if name not in blocks:
            raise KeyError("README.md has a generated block %r that nothing generates" % name)
        return m.group(1) + blocks[name].rstrip("\n") + "\n" + m.group(3)
    return _BLOCK.sub(repl, text)


def generated_files(root=HARDWARE):
    """{path relative to hardware/: the text it should hold}."""
    files = {}
    for name in boards.PROFILES:
        files["wiring-%s.svg" % name] = wiring.wiring_svg(name)
    files["pins.md"] = wiring.pin_tables()
    files["wokwi/diagram.json"] = wiring.wokwi_diagram_text("pico")
    files["panels-32x32.svg"] = wiring.panels_svg(EXAMPLE_32)
    files["panels-32x32-lanes.svg"] = wiring.lanes_svg(EXAMPLE_32_LANES)
    blocks = None
    for name in HAND_WRITTEN:
        path = os.path.join(root, name)
        if os.path.exists(path):
            blocks = blocks or readme_blocks()
            with open(path, encoding="utf-8") as f:
                files[name] = fill_blocks(f.read(), blocks)
    return files


def _current(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def stale(root=HARDWARE):
    """Generated files that are missing or differ from what the generators make now."""
    return sorted(rel for rel, text in generated_files(root).items()
                  if _current(os.path.join(root, rel)) != text)


def write(root=HARDWARE):
    """Bring every generated file up to date; returns the ones rewritten."""
    changed = []
    for rel, text in sorted(generated_files(root).items()):
        path = os.path.join(root, rel)
        if _current(path) == text:
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        changed.append(rel)
    return changed
