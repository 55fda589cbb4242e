"""hardware/: the generated documents agree with the firmware's pin map, the BOM parses, the Wokwi
project is wired as boards.py says, and the enclosure and guide are there (no openscad needed)."""

import io
import json
import os
import re
import tomllib
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr

import pytest

from layerlight import boards
from layerlight_tools import cli, firmware_files, hwdocs, wiring

HW = hwdocs.HARDWARE
REPO = firmware_files.REPO
SVG = "{http://www.w3.org/2000/svg}"


def read(rel):
    with open(os.path.join(HW, rel), encoding="utf-8") as f:
        return f.read()


# --- one pin map -----------------------------------------------------------------

def test_generated_files_are_up_to_date():
    assert hwdocs.stale() == [], "out of date: run `make hardware` (or `layerlight hardware`)"


def test_hardware_check_command(capsys):
    assert cli.main(["hardware", "--check"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("name", list(boards.PROFILES))
def test_every_pin_of_a_profile_is_on_its_header_and_used_once(name):
    rows = wiring.connections(name)
    assert len(rows) == 1 + len(boards.BUTTON_NAMES) + 1
    pins = [r["pin"] for r in rows]
    assert len(set(pins)) == len(pins), "a pin is used twice in %s" % name
    positions = [r["at"] for r in rows]
    assert len(set(positions)) == len(positions)


def test_a_pin_off_the_header_is_an_error(monkeypatch):
    monkeypatch.setitem(boards.PROFILES, "pico", dict(boards.PROFILES["pico"], matrix_pin=23))
    with pytest.raises(wiring.PinMapError):
        wiring.connections("pico")
    with redirect_stderr(io.StringIO()):
        assert cli.main(["hardware", "--check"]) == 2


def test_header_maps_match_the_boards():
    assert wiring.header_position("pico", 16) == "pin 21"
    assert wiring.header_position("pico", 15) == "pin 20"
    assert wiring.header_position("esp32s3", 18) == "J1-11"
    assert wiring.header_position("rpi", "D18") == "pin 12"
    assert wiring.pin_label("rpi", "D18") == "GPIO18 (D18)"
    assert len(set(wiring.PICO_HEADER.values()) | set(wiring.PICO_GND)) == 26 + 8


@pytest.mark.parametrize("name", list(boards.PROFILES))
def test_wiring_svg_is_well_formed_and_names_every_pin(name):
    root = ET.fromstring(read("wiring-%s.svg" % name))
    assert root.tag == SVG + "svg"
    texts = [t.text or "" for t in root.iter(SVG + "text")]
    joined = "\n".join(texts)
    p = boards.PROFILES[name]
    assert p["label"] in joined
    for r in wiring.connections(name):
        assert r["label"] in texts, "%s: %s missing from the diagram" % (name, r["label"])
        assert r["at"] in texts
    for button in boards.BUTTON_NAMES:
        assert "button " + button in texts
    for part in ("74AHCT125", "330 ohm", "1000 uF", "piezo"):
        assert part in joined


@pytest.mark.parametrize("name", list(boards.PROFILES))
def test_pin_table_lists_every_pin(name):
    tables = read("pins.md")
    section = tables.split("### ")[list(boards.PROFILES).index(name) + 1]
    assert section.startswith(boards.PROFILES[name]["label"])
    for r in wiring.connections(name):
        assert "| %s | %s | %s |" % (r["function"], r["label"], r["at"]) in section


# --- bill of materials -------------------------------------------------------

def test_bom_parses_and_each_variant_is_complete():
    rows = hwdocs.read_bom()
    for variant in hwdocs.VARIANTS:
        mine = hwdocs.bom_rows(rows, variant)
        w, h = variant.split("x")
        leds = 0
        for r in mine:
            m = re.search(r"\((\d+) LEDs\)", r["part"])
            if m and "WS2812B" in r["part"]:
                leds += r["quantity"] * int(m.group(1))
        assert leds == int(w) * int(h), variant
        parts = " ".join(r["part"] for r in mine)
        for needed in ("Pico", "74AHCT125", "330 ohm", "1000 uF", "Schottky", "piezo", "supply", "jumper leads"):
            assert needed in parts, (variant, needed)
        buttons = sum(r["quantity"] for r in mine if "arcade button" in r["part"])
        assert buttons == len(boards.BUTTON_NAMES)
        assert hwdocs.bom_total(rows, variant) > 0


def test_bom_csv_rejects_bad_rows(tmp_path):
    bad = tmp_path / "bom.csv"
    bad.write_text("variant,part,quantity,example,price_usd,notes\n16x16,x,two,y,1.0,\n")
    with pytest.raises(hwdocs.BomError):
        hwdocs.read_bom(str(bad))
    bad.write_text("variant,part,quantity,example,price_usd,notes\n64x64,x,1,y,1.0,\n")
    with pytest.raises(hwdocs.BomError):
        hwdocs.read_bom(str(bad))


def test_readme_shows_every_bom_row_and_the_preview():
    readme = read("README.md")
    for r in hwdocs.read_bom():
        assert r["part"] in readme and r["example"] in readme
    assert "(enclosure/preview.png)" in readme and "(wiring-pico.svg)" in readme
    for heading in ("## Bill of materials", "## Wiring", "## Power", "## Try it in Wokwi", "## The enclosure"):
        assert heading in readme


def test_readme_blocks_must_be_known():
    with pytest.raises(KeyError):
        hwdocs.fill_blocks("<!-- generated: nope -->\n<!-- end: nope -->", {})
    text = hwdocs.fill_blocks("a\n<!-- generated: x -->\nold\n<!-- end: x -->\nb", {"x": "new"})
    assert text == "a\n<!-- generated: x -->\nnew\n<!-- end: x -->\nb"


def test_main_readme_points_here():
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Build one", 1)[1].split("\n## ", 1)[0]
    assert "hardware/README.md" in section
    assert "[four lanes](hardware/32x32.md)" in section, "a new 32x32 is built on four lanes"
    assert text.index("## Build one") < text.index("## Where the code is")  # before the code, near the top


# --- Wokwi -------------------------------------------------------------------

def _wokwi():
    return json.loads(read("wokwi/diagram.json"))


def _pairs(diagram):
    return {frozenset((c[0], c[1])) for c in diagram["connections"]}


def test_wokwi_parts_are_real_and_complete():
    d = _wokwi()
    assert d["version"] == 1
    parts = {p["id"]: p for p in d["parts"]}
    assert len(parts) == len(d["parts"]), "part ids must be unique"
    assert parts["pico"]["type"] == "wokwi-pi-pico"
    assert parts["pico"]["attrs"]["env"].startswith("micropython-")
    m = parts["matrix"]
    assert m["type"] == "wokwi-neopixel-matrix"
    assert m["attrs"]["rows"] == "16" and m["attrs"]["cols"] == "16"
    assert m["attrs"]["matrixLayout"] == "serpentine"
    for name in boards.BUTTON_NAMES:
        b = parts["btn_" + name.lower()]
        assert b["type"] == "wokwi-pushbutton" and b["attrs"]["label"] == name
    assert parts["buzzer"]["type"] == "wokwi-buzzer"
    # every wire ends on a pin that part type has
    for c in d["connections"]:
        assert len(c) == 4 and isinstance(c[3], list)
        for end in c[:2]:
            part, pin = end.split(":", 1)
            assert pin in wiring.WOKWI_PART_PINS[parts[part]["type"]], end


def test_wokwi_wiring_is_where_the_pin_map_says():
    """Checked against boards.py directly, not against the generator."""
    d = _wokwi()
    pairs = _pairs(d)
    pico = boards.PROFILES["pico"]

    def wired(a, b):
        return frozenset((a, b)) in pairs

    def to_ground(end):
        return any(end in pr and any(x.startswith("pico:GND.") for x in pr) for pr in pairs)

    assert wired("pico:GP%d" % pico["matrix_pin"], "matrix:DIN")
    # the matrix's 5 V from the supply as the wiring diagram says, never from the Pico's VBUS
    # (a PC's USB port when a builder copies the diagram)
    supplies = {p["id"] for p in d["parts"] if p["type"] == "wokwi-vcc"}
    assert any(wired("matrix:VCC", s + ":VCC") for s in supplies)
    assert not any("pico:VBUS" in pr for pr in pairs), "nothing may hang on the Pico's VBUS"
    assert to_ground("matrix:GND")
    for name in boards.BUTTON_NAMES:
        bid = "btn_" + name.lower()
        assert wired(bid + ":1.l", "pico:GP%d" % pico["buttons"][name]), name
        assert to_ground(bid + ":2.l"), name  # pressed = pulled to GND, as the firmware expects
    assert wired("buzzer:2", "pico:GP%d" % pico["buzzer_pin"])
    assert to_ground("buzzer:1")
    # and nothing else is wired to the Pico's GPIOs
    used = {"GP%d" % pico["matrix_pin"], "GP%d" % pico["buzzer_pin"]} | {"GP%d" % v for v in pico["buttons"].values()}
    for pr in pairs:
        for end in pr:
            if end.startswith("pico:GP"):
                assert end[5:] in used, end


def test_wokwi_toml_runs_micropython_on_the_pico():
    text = read("wokwi/wokwi.toml")
    cfg = tomllib.loads(text)["wokwi"]
    assert cfg["version"] == 1
    assert cfg["firmware"].endswith(".uf2") and cfg["firmware"].startswith("RPI_PICO-")
    assert cfg["elf"] == cfg["firmware"]
    assert isinstance(cfg["rfc2217ServerPort"], int)
    assert "micropython.org/resources/firmware/" + cfg["firmware"] in text
    # the copy command names the firmware's real files
    assert "fs cp -r layerlight decks main.py :" in text
    for rel in ("layerlight", "decks", "main.py"):
        assert os.path.exists(os.path.join(firmware_files.FIRMWARE, rel)), rel
    assert cfg["firmware"] in read("README.md")


# --- enclosure and guide -------------------------------------------------------

def test_enclosure_model_and_preview():
    scad = read("enclosure/layerlight.scad")
    for module in ("module base()", "module lid()", "module grid()", "module assembly()"):
        assert module in scad
    for param in ("cells = 16;", "pitch = 10;", "player_hole", "control_hole", 'part = "assembly";'):
        assert param in scad
    for picture in ("preview.png", "inside.png", "inside-32x32.png"):
        with open(os.path.join(HW, "enclosure", picture), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", picture
    with open(os.path.join(REPO, "Makefile"), encoding="utf-8") as f:
        make = f.read()
    assert re.search(r"^hardware:", make, re.M) and "openscad" in make and ".PHONY: hardware" in make


def test_the_enclosure_pictures_are_of_todays_model():
    """`make hardware` notes the .scad it rendered the pictures from: a model changed since
    then has pictures that show another box."""
    import hashlib
    with open(os.path.join(HW, "enclosure", "layerlight.scad"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(HW, "enclosure", "pictures.sha256"), encoding="utf-8") as f:
        rendered = f.read().split()[0]
    assert rendered == digest, "enclosure/*.png are older than layerlight.scad: run `make hardware`"


def test_assembly_guide_covers_the_pitfalls():
    guide = read("ASSEMBLY.md").lower()
    for topic in ("level shifting", "74ahct125", "1000 uf", "330 ohm", "pixel 0", "serpentine",
                  "power injection", "pull-up", "gnd"):
        assert topic in guide, topic


def test_the_build_docs_agree_on_where_each_part_goes():
    """The resistor and the capacitor at the matrix's input (Adafruit's NeoPixel Uberguide),
    the 74AHCT125's unused enables tied (TI's datasheet), in the BOM, the guide and the
    diagram alike."""
    guide = read("ASSEMBLY.md")
    step1 = guide.split("## 1.", 1)[1].split("\n## ", 1)[0]
    on_the_board = step1.split("\n\n")[1]   # the paragraph that lists what goes on the perfboard
    assert "74AHCT125" in on_the_board and "1N5819" in on_the_board
    assert "do **not** go there" in on_the_board and "matrix's end" in on_the_board
    rows = {r["part"]: r for r in hwdocs.read_bom()}
    perf = next(r for p, r in rows.items() if p.startswith("perfboard"))
    assert "resistor" not in perf["notes"] and "1000" not in perf["notes"]
    assert "matrix's end" in rows["330 ohm resistor 1/4 W"]["notes"]
    assert "matrix's power input" in rows["1000 uF electrolytic capacitor 16 V"]["notes"]
    # the unused buffers' enables 2OE, 3OE, 4OE are pins 4, 10, 13: named in the guide, the BOM, the diagram
    assert "2OE, 3OE, 4OE (pins 4, 10, 13)" in " ".join(step1.split())
    assert "4, 5, 9, 10, 12, 13" in rows["74AHCT125 quad buffer (DIP-14)"]["notes"]
    svg = " ".join(" ".join((t.text or "").split()) for t in ET.fromstring(read("wiring-pico.svg")).iter(SVG + "text"))
    assert "2OE/3OE/4OE (pins 4, 10, 13) to GND" in svg


@pytest.mark.parametrize("name", list(boards.PROFILES))
def test_the_wiring_diagram_puts_the_resistor_at_the_matrix_and_shows_every_note(name):
    """The picture a builder copies agrees with the text: the 330 ohm sits at the matrix's DIN, at
    the far end of the data wire from the 74AHCT125 (Adafruit's NeoPixel Uberguide), and every
    note under it (the unused enables to GND among them) is inside the picture."""
    root = ET.fromstring(read("wiring-%s.svg" % name))
    width, height = int(root.get("width")), int(root.get("height"))
    rects = list(root.iter(SVG + "rect"))
    resistor = next(r for r in rects if r.get("width") == "50" and r.get("height") == "16")
    buffer = next(r for r in rects if r.get("fill") == "#fff7e0")      # the 74AHCT125
    matrix = next(r for r in rects if r.get("fill") == "#20242c")
    r_left, r_right = int(resistor.get("x")), int(resistor.get("x")) + 50
    to_matrix = int(matrix.get("x")) - r_right
    from_buffer = r_left - (int(buffer.get("x")) + int(buffer.get("width")))
    assert 0 <= to_matrix < from_buffer / 3, "the 330 ohm is drawn at the controller's end of the data wire"
    texts = [t for t in root.iter(SVG + "text")]
    for t in texts:
        if t.get("text-anchor") == "start":
            # DejaVu Sans: about 0.6 em a character
            right = int(t.get("x")) + 0.6 * int(t.get("font-size")) * len(t.text or "")
            assert right <= width, "cut off at the right edge: %r" % t.text
        assert int(t.get("y")) <= height, "below the picture: %r" % t.text
    joined = " ".join(" ".join((t.text or "").split()) for t in texts)
    assert "enables 2OE/3OE/4OE (pins 4, 10, 13) to GND" in joined


def test_the_bom_wire_kit_agrees_with_the_32x32_gauges():
    """A note that says which wire carries the current names the 16 AWG run 32x32.md asks for,
    never "18 AWG for everything"."""
    for r in hwdocs.read_bom():
        if "AWG" in r["part"] and "carries" in r["notes"]:
            assert "everything" not in r["notes"], r["notes"]
            assert "16 AWG" in r["notes"] or "16 AWG" in r["part"], r["part"]


def test_the_bom_buzzer_is_passive_and_the_32x32_wire_is_listed():
    rows = hwdocs.read_bom()
    buzzer = next(r for r in rows if "piezo" in r["part"])
    # PUI's AI- series are audio indicators with their own driver (active): a passive part here
    assert "AI-1223" not in buzzer["example"] and "PS1240P02BT" in buzzer["example"]
    # every wire gauge 32x32.md asks for is in the 32x32 list
    doc = read("32x32.md")
    listed = " ".join(r["part"] + " " + r["notes"] for r in hwdocs.bom_rows(rows, "32x32"))
    for gauge in set(re.findall(r"\b(\d\d) AWG", doc)):
        assert "%s AWG" % gauge in listed, gauge
    fuse = [r for r in hwdocs.bom_rows(rows, "32x32") if re.search(r"\bfuse\b", r["part"])]
    assert fuse and "panel-mount" in fuse[0]["part"], "the box has a hole for the fuse holder"


# --- the 32x32 build from panels ----------------------------------------------------

def test_the_32x32_example_config_loads_clean_and_uses_every_led():
    from layerlight import config, display, strip_map
    from layerlight_tools import simcore
    logs = []
    storage = simcore.MemoryStorage({"layerlight.json": json.dumps(hwdocs.EXAMPLE_32).encode()})
    cfg = config.load(storage, logs.append)
    assert logs == []
    assert cfg["panels"] == hwdocs.EXAMPLE_32["panels"] and cfg["brightness"] == 0.25
    assert sorted(strip_map.config_map(cfg)) == list(range(1024))
    # the example is the one the document shows
    assert json.loads(read("32x32.md").split("<!-- generated: panel-config -->\n```json\n")[1].split("```")[0]) \
        == hwdocs.EXAMPLE_32


def test_panel_chain_picture_follows_the_pixel_map():
    """The DIN and DOUT dots sit where the firmware's map puts each panel's first and last LED."""
    root = ET.fromstring(read("panels-32x32.svg"))
    texts = [t.text or "" for t in root.iter(SVG + "text")]
    assert texts.count("DIN") == 4 and texts.count("DOUT") == 4
    for place in ("top left", "top right", "bottom left", "bottom right"):
        assert any(place in t for t in texts)
    assert any("first on the chain, rotation 0" in t for t in texts)
    assert any("fourth on the chain, rotation 180" in t for t in texts)
    dins = [(int(c.get("cx")), int(c.get("cy"))) for c in root.iter(SVG + "circle") if c.get("r") == "6"
            and c.get("stroke") is None]
    assert len(dins) == 4
    # the left column starts at the top of each panel, the right column (upside down) at the bottom:
    # from top to bottom the dots are left, right, left, right
    xs = [x for x, y in sorted(dins, key=lambda p: p[1])]
    assert xs[0] == xs[2] < xs[1] == xs[3]
    assert min(dins, key=lambda p: (p[1], p[0])) == min(dins), "the first DIN at the top-left corner"


def test_32x32_document_covers_wiring_power_and_the_setting():
    doc = read("32x32.md")
    for topic in ("DOUT", "DIN", "18 AWG", "16 AWG", "fuse", "1000 uF", '"supply_ma": 10000', "10 A",
                  "layerlight doctor", "panels-32x32.svg", "rotation", "chain"):
        assert topic in doc, topic
    readme = read("README.md")
    assert "(32x32.md)" in readme and "32x32.md" in read("ASSEMBLY.md")
    # the figures quoted from `layerlight power` that come from the model alone are today's
    from layerlight_tools import cmd_power
    from layerlight import power
    assert "brightness cap the firmware applies:         %.3f" % power.brightness_cap(1024, 10000) in doc
    assert "all white: %s" % cmd_power._amps(power.led_ma(256, 0.25)) in doc


# --- the 32x32 on four lanes ------------------------------------------------------------

def test_the_four_lane_example_loads_clean_and_drives_four_pins():
    from layerlight import config, strip_map
    from layerlight_tools import simcore
    logs = []
    example = hwdocs.EXAMPLE_32_LANES
    storage = simcore.MemoryStorage({"layerlight.json": json.dumps(example).encode()})
    cfg = config.load(storage, logs.append)
    assert logs == [] and cfg["pin_problems"] == []
    assert cfg["panels"] == example["panels"] and cfg["panels"]["lanes"] == [16, 17, 18, 19]
    assert cfg["matrix_pin"] == 16
    # the lanes are free on the Pico and the Pico 2: no button, no buzzer on them
    for name in ("pico", "pico2"):
        p = boards.PROFILES[name]
        taken = set(p["buttons"].values()) | {p["buzzer_pin"]}
        assert not taken & set(example["panels"]["lanes"]), name
        assert all(pin in p["gpio"] for pin in example["panels"]["lanes"]), name
    assert sorted(strip_map.config_map(cfg)) == list(range(1024))
    # every panel's DIN (its lane's first LED) is at the middle of the matrix: the leads are short
    table = list(strip_map.config_map(cfg))
    firsts = sorted((i % 32, i // 32) for i, led in enumerate(table) if led % 256 == 0)
    assert firsts == [(15, 15), (15, 16), (16, 15), (16, 16)]
    # the example is the one the document shows
    assert json.loads(read("32x32.md").split("<!-- generated: lanes-config -->\n```json\n")[1].split("```")[0]) \
        == example


def _rect(el):
    return int(el.get("x")), int(el.get("y")), int(el.get("width")), int(el.get("height"))


def test_the_four_lane_picture_follows_the_pixel_map():
    """Each lane's DIN dot sits on the panel and in the corner where the firmware's map puts the
    lane's first LED; its lead runs from the lane's pin through its buffer and a 330 ohm at the DIN."""
    from layerlight import strip_map
    example = hwdocs.EXAMPLE_32_LANES
    p = example["panels"]
    root = ET.fromstring(read("panels-32x32-lanes.svg"))
    width = int(root.get("width"))
    texts = [t.text or "" for t in root.iter(SVG + "text")]
    panels = sorted((_rect(r) for r in root.iter(SVG + "rect") if r.get("fill") == "#20242c" and r.get("rx") == "6"),
                    key=lambda r: (r[1], r[0]))
    assert len(panels) == 4
    table = list(strip_map.pixel_map(32, 32, panels=p))
    buffer = next(_rect(r) for r in root.iter(SVG + "rect") if r.get("fill") == "#fff7e0")   # the 74AHCT125
    dins = {c.get("fill"): (int(c.get("cx")), int(c.get("cy"))) for c in root.iter(SVG + "circle")
            if c.get("r") == "6" and c.get("fill") != "white"}
    for n, pin in enumerate(p["lanes"]):
        colour = wiring.LANE_COLOURS[n]
        x, y = dins[colour]
        at = next(i for i, (px, py, pw, ph) in enumerate(panels) if px <= x < px + pw and py <= y < py + ph)
        assert at == p["chain"][n], "lane %d drawn on another panel" % n
        first = table.index(n * 256)
        fx, fy = first % 32 % 16, first // 32 % 16
        px, py, pw, ph = panels[at]
        assert ((x - px) < pw / 2, (y - py) < ph / 2) == (fx < 8, fy < 8), "lane %d's DIN in another corner" % n
        assert "GP%d (%s)" % (pin, wiring.header_position("pico", pin)) in texts
        a, a_pin, out, out_pin, _, _ = wiring.AHCT125[n]
        assert "%s %d" % (a, a_pin) in texts and "%s %d" % (out, out_pin) in texts
        assert any(t.startswith("lane %d: GP%d, rotation" % (n, pin)) for t in texts)
        # the lead ends at the DIN, the 330 ohm in it near the DIN
        lead = [pl for pl in root.iter(SVG + "polyline") if pl.get("stroke") == colour]
        ends = [pl.get("points").split()[-1] for pl in lead]
        assert "%d,%d" % (x, y) in ends
        resistor = next(r for r in root.iter(SVG + "rect") if r.get("stroke") == colour)
        rx, ry, rw, rh = _rect(resistor)
        to_din = abs(x - (rx + rw)) + abs(y - (ry + rh // 2))
        assert 0 <= to_din < (rx - (buffer[0] + buffer[2])) / 3, "lane %d's 330 ohm is not at its DIN" % n
    assert texts.count("330 ohm") == 4 and texts.count("DIN") == 4 and texts.count("DOUT: free") == 4
    joined = " ".join(texts)
    assert "1OE 2OE 3OE 4OE" in joined and "(pins 1, 4, 10, 13) to GND" in joined and "VCC pin 14: 5 V" in joined
    for t in root.iter(SVG + "text"):
        if t.get("text-anchor") == "start":
            assert int(t.get("x")) + 0.6 * int(t.get("font-size")) * len(t.text or "") <= width, t.text
        assert int(t.get("y")) <= int(root.get("height")), t.text


def test_the_four_lane_build_is_documented_with_its_parts():
    doc = read("32x32.md")
    for topic in ("panels-32x32-lanes.svg", '"lanes": [16, 17, 18, 19]', "GP16", "GP19", "74AHCT125",
                  "1OE (pin 1) to GND", "4Y (pin 11)", "Cut the three DOUT -> DIN leads", "7.7 ms", "31 ms",
                  "A board built with one chain"):
        assert topic in doc, topic
    # four lanes: four 330 ohm resistors in the 32x32 list (one at each DIN), one for the others
    rows = hwdocs.read_bom()
    for variant, count in (("16x16", 1), ("32x32", 4)):
        assert sum(r["quantity"] for r in hwdocs.bom_rows(rows, variant) if "330 ohm" in r["part"]) == count
    assert "four lanes" in read("ASSEMBLY.md") and "panels-32x32-lanes.svg" in read("README.md")
