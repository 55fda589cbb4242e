"""`layerlight doctor`: wiring mistakes found from what a person sees.

A simulated person looks at a simulated matrix that is really mounted or
wired some way (turned, mirrored, another colour order, rows all one way,
buttons swapped) and answers the doctor's questions honestly; the doctor must
name the settings that make the picture right (for a 32x32 of four panels
too: a panel turned, two swapped, the chain in another order; and on four lanes, each panel on its own
pin: a dead lane, swapped lanes, two lanes' leads on one panel). First with the firmware's
selftest.py driving fake hardware under CPython (every wiring), then end to
end on the MicroPython board behind a pty, through mpremote.
"""

import json

import pytest

from layerlight import selftest
from layerlight.config import defaults
from layerlight.display import FrameBuffer
from layerlight.strip_map import config_map, pixel_map
from layerlight_tools import doctor, flash, simcore
from layerlight_tools.errors import UserError
from wasm.pty_device import PtyDevice

PINS = {"P1": 2, "P2": 3, "P3": 4, "P4": 5, "A": 6, "B": 7}
WIRING = ("layout", "origin", "rotation", "flip_x", "flip_y", "color_order")


class Person:
    """Looks at the matrix as it really is and answers; presses the buttons as they are really wired."""

    def __init__(self, leds, press, tones, w=16, h=16, pins=None, **really):
        self.leds, self._press, self.tones, self.w, self.h = leds, press, tones, w, h
        self.really = dict(layout="serpentine", origin="top-left", rotation=0, flip_x=False, flip_y=False,
                           color_order="GRB")
        self.really.update(really)
        r = self.really
        table = pixel_map(w, h, r["layout"], r["origin"], r["rotation"], r["flip_x"], r["flip_y"], r.get("panels"))
        self.place = {table[i]: (i % w, i // w) for i in range(w * h)}   # strip index -> where it is
        self.pins = pins or PINS
        self.said = []
        self.asked = []

    def picture(self):
        buf = self.leds()
        order = self.really["color_order"]
        seen = {}
        for i in range(len(buf) // 3):
            rgb = tuple(buf[i * 3 + order.index(c)] for c in "RGB")
            if any(rgb):
                on = [c for c, v in zip("rgb", rgb) if v]
                seen.setdefault(on[0] if len(on) == 1 else "w", []).append(self.place[i])
        return seen

    def edge(self, points):
        return doctor._edge(points, self.w, self.h) if points else None

    def say(self, text):
        self.said.append(text)

    def press(self, name, where):
        self._press(self.pins[name])

    def panel_of(self, points):
        """The panel position all these points are on (None if several or none), and where on it."""
        p = self.really["panels"]
        pw, ph = p["size"]
        at = {(y // ph) * p["across"] + x // pw for x, y in points}
        if len(at) != 1:
            return None, []
        return at.pop(), [(x % pw, y % ph) for x, y in points]

    def panel_edge(self, points):
        pw, ph = self.really["panels"]["size"]
        local = self.panel_of(points or [])[1]
        return doctor._edge(local, pw, ph) if local else None

    def panels_right(self, seen, only=None):
        """Every panel (or only that one) shows green along its top, blue down its left."""
        p = self.really["panels"]
        pw, ph = p["size"]
        for at in range(p["across"] * p["down"]):
            if only is not None and at != only:
                continue
            ax, ay = (at % p["across"]) * pw, (at // p["across"]) * ph
            mine = {c: [(x, y) for x, y in seen.get(c, []) if ax <= x < ax + pw and ay <= y < ay + ph]
                    for c in "gb"}
            if self.panel_edge(mine["g"]) != "t" or self.panel_edge(mine["b"]) != "l":
                return False
        return True

    def ask(self, question, choices):
        seen = self.picture()
        lit = [pt for pts in seen.values() for pt in pts]
        if question.startswith("Only the "):
            at, _ = self.panel_of(lit)
            named = question[len("Only the "):question.index(" panel")]
            p = self.really["panels"]
            answer = "y" if (at is not None and doctor.panel_names(p["across"], p["down"])[at] == named
                             and self.panels_right(seen, at)) else "n"
        elif "Which panel is lit" in question:
            at, _ = self.panel_of(lit)
            answer = "n" if at is None else str(at + 1)
        elif "straight" in question and self.really.get("panels"):
            answer = "y" if self.panel_edge(seen.get("b")) else "n"
        elif "edge of that panel is the green" in question:
            answer = self.panel_edge(seen.get("g"))
        elif "edge of that panel is the blue" in question:
            answer = self.panel_edge(seen.get("b"))
        elif "does every panel show" in question:
            answer = "y" if self.panels_right(seen) else "n"
        elif "across the whole matrix" in question:
            answer = "y" if self.edge(seen.get("g")) == "t" and self.edge(seen.get("b")) == "l" else "n"
        elif "Which colour" in question:
            answer = "n" if not seen else (list(seen)[0] if len(seen) == 1 else "w")
        elif "straight" in question:
            answer = "y" if self.edge(seen.get("b")) else "n"
        elif "green line?" in question:
            answer = self.edge(seen.get("g"))
        elif "blue line?" in question:
            answer = self.edge(seen.get("b"))
        elif "With the fix" in question:
            answer = "y" if self.edge(seen.get("g")) == "t" and self.edge(seen.get("b")) == "l" else "n"
        elif "every LED" in question:
            answer = "y" if sum(len(v) for v in seen.values()) == self.w * self.h else "n"
        elif "beeps" in question:
            answer = "y" if any(self.tones()) else "n"
        else:
            raise AssertionError("unexpected question: " + question)
        assert answer in choices, (question, answer)
        self.asked.append((question, answer))
        return answer


# ---------------------------------------------------------------- selftest.py on fake hardware


class FakeHardware(simcore.SimHardware):
    """The simulator's hardware, wired like a real matrix (the config's mapping, colour
    order and cap), with a clock that ticks on every read and buttons pressed by pin."""

    def __init__(self, cfg, connected=True, buzzer=True, dark_from=None, lanes_wired=None):
        simcore.SimHardware.__init__(self, cfg["width"], cfg["height"], simcore.MemoryStorage())
        self.cfg = cfg
        self.buf = bytes(self.width * self.height * 3)
        self.connected, self.buzzer = connected, buzzer
        self.dark_from = dark_from  # the data line breaks before this LED
        # four lanes as really soldered: lane n's lead reaches the DIN of the panel block
        # lanes_wired[n] is shown on (the really-chain's n-th panel when right), None: reaches nothing
        self.lanes_wired = lanes_wired
        self.clock = 0
        self.down = []            # (pin, from, to) of presses
        self.heard = []

    def framebuffer(self):
        c = self.cfg
        return FrameBuffer(self.width, self.height, config_map(c), c["brightness"], c["color_order"])

    def show(self, fb):
        if self.connected:
            self.buf = bytes(fb.buf)
            if self.dark_from is not None:
                self.buf = self.buf[:self.dark_from * 3] + bytes(len(self.buf) - self.dark_from * 3)
            if self.lanes_wired is not None:
                block = len(self.buf) // len(self.lanes_wired)
                out = bytearray(len(self.buf))
                for n, to in enumerate(self.lanes_wired):
                    if to is not None:   # two leads on one DIN: either one's high shows
                        for i in range(block):
                            out[to * block + i] |= self.buf[n * block + i]
                self.buf = bytes(out)

    def ticks_ms(self):
        self.clock += 1
        return self.clock

    def read_buttons(self):
        bits = 0
        for i, name in enumerate(doctor.BUTTONS):
            for pin, start, end in self.down:
                if pin == self.cfg["buttons"][name] and start <= self.clock < end:
                    bits |= 1 << i
        return bits

    def press(self, pin):
        self.down.append((pin, self.clock + 30, self.clock + 130))

    def tone(self, f):
        if self.buzzer:
            self.heard.append(f)

    def tones(self):
        t, self.heard = self.heard, []
        return t


class FakeSession:
    def __init__(self, st):
        self.st = st

    def call(self, expr, timeout=10):
        return eval("st." + expr, {"st": self.st})


def fake_doctor(config=None, connected=True, buzzer=True, pins=None, dark_from=None, lanes_wired=None, **really):
    cfg = defaults()
    cfg.update(matrix_pin=16, buttons=dict(PINS), buzzer_pin=15)
    cfg.update(config or {})
    hw = FakeHardware(cfg, connected, buzzer, dark_from, lanes_wired)
    st = selftest.SelfTest.__new__(selftest.SelfTest)
    st.log, st.cfg, st.hw = [], cfg, hw
    st.fb = hw.framebuffer()
    st.w, st.h = st.fb.width, st.fb.height
    st.info = lambda: {"heap_free": 150000, "heap_used": 40000, "flash_free": 1200000, "flash_total": 1400000,
                       "config": {k: cfg[k] for k in selftest.SHOWN}, "log": []}
    person = Person(lambda: hw.buf, hw.press, hw.tones, cfg["width"], cfg["height"], pins, **really)
    return doctor.run(FakeSession(st), person, button_timeout=2), person, cfg


def table_of(settings, w=16, h=16):
    return list(pixel_map(w, h, settings["layout"], settings["origin"], settings["rotation"], settings["flip_x"],
                          settings["flip_y"]))


def test_a_right_board_is_all_ok():
    f, person, _ = fake_doctor()
    assert f.fixes == {} and f.problems == []
    assert f.ok == ["colour order GRB", "orientation", "every LED", "all six buttons", "buzzer"]


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("flip_x", [False, True])
def test_every_mounting_is_fixed(rotation, flip_x):
    f, person, cfg = fake_doctor(rotation=rotation, flip_x=flip_x)
    fixed = {k: cfg[k] for k in WIRING}
    fixed.update(f.fixes)
    assert table_of(fixed) == table_of(person.really), f.problems
    if (rotation, flip_x) == (0, True):
        assert f.problems == ["matrix mirrored left-right: set flip_x"]
    assert set(f.fixes) <= {"rotation", "flip_x", "flip_y"}


def test_mirrored_top_bottom_on_a_non_square_matrix():
    f, person, cfg = fake_doctor(config={"width": 16, "height": 8}, flip_y=True)
    assert f.fixes == {"flip_y": True} and f.problems == ["matrix mirrored top-bottom: set flip_y"]


@pytest.mark.parametrize("order", ["RGB", "GRB", "BRG", "RBG", "GBR", "BGR"])
def test_every_colour_order_is_found(order):
    f, _, _ = fake_doctor(color_order=order)
    assert f.fixes == ({} if order == "GRB" else {"color_order": order})


def test_rows_all_one_way_and_turned():
    f, person, cfg = fake_doctor(layout="progressive", rotation=180)
    assert f.fixes["layout"] == "progressive"
    fixed = {k: cfg[k] for k in WIRING}
    fixed.update(f.fixes)
    assert table_of(fixed) == table_of(person.really)
    assert "rows of the matrix run all the same way: set layout progressive" in f.problems


def test_swapped_and_dead_buttons():
    f, person, _ = fake_doctor(pins={"P1": 3, "P2": 2, "P3": 4, "P4": 5, "A": 6, "B": 7})
    assert f.fixes == {"buttons": {"P1": 3, "P2": 2, "P3": 4, "P4": 5, "A": 6, "B": 7}}
    assert f.problems[0].startswith("buttons P1 and P2 are swapped: set buttons")
    f, person, _ = fake_doctor(pins={"P1": 2, "P2": 3, "P3": 4, "P4": 5, "A": 6, "B": 27})
    assert f.fixes == {}
    assert f.problems == ["no press of B seen on GPIO 7 in 2 s: check its two wires, one to GPIO 7, the other to GND"]


def test_dark_matrix_and_silent_buzzer():
    f, person, _ = fake_doctor(connected=False, buzzer=False, config={"sound": False})
    assert f.problems[0].startswith("the matrix stays dark: check its 5 V and GND")
    assert any(p.startswith("no sound: check the piezo between GPIO 15 and GND") for p in f.problems)
    assert f.fixes == {"sound": True}
    assert len([q for q, _ in person.asked if "Which colour" in q]) == 1  # no more LED questions


def test_colour_order_reasoning():
    assert doctor.true_colour_order("GRB", ["R", "G", "B"]) == "GRB"
    assert doctor.true_colour_order("GRB", ["G", "R", "B"]) == "RGB"
    assert doctor.orientation_fix({"layout": "serpentine", "origin": "top-left", "rotation": 0, "flip_x": False,
                                   "flip_y": False}, 16, 16, "t", "t") is None


# ---------------------------------------------------------------- a 32x32 of four 16x16 panels

# the usual 2 x 2 build: the data snakes top-left, top-right, bottom-right, bottom-left, and the
# bottom row is mounted upside down so that its data wires are short
PANELS = {"size": [16, 16], "across": 2, "down": 2, "chain": [0, 1, 3, 2], "rotation": [0, 0, 180, 180]}


def panel_doctor(really_panels, config_panels=PANELS, **really):
    config = {"width": 32, "height": 32, "supply_ma": 10000, "panels": json.loads(json.dumps(config_panels))}
    return fake_doctor(config=config, panels=really_panels, **really)


def fixed_table(cfg, fixes):
    settings = {k: cfg[k] for k in WIRING + ("panels",)}
    settings.update(fixes)
    return list(pixel_map(32, 32, settings["layout"], settings["origin"], settings["rotation"], settings["flip_x"],
                          settings["flip_y"], settings["panels"]))


def really_table(person):
    r = person.really
    return list(pixel_map(32, 32, r["layout"], r["origin"], r["rotation"], r["flip_x"], r["flip_y"], r["panels"]))


def test_panels_wired_as_set_are_all_ok():
    f, person, _ = panel_doctor(PANELS)
    assert f.fixes == {} and f.problems == []
    assert f.ok == ["colour order GRB", "panels", "every LED", "all six buttons", "buzzer"]
    assert "The matrix is 2 x 2 panels of 16x16, chained top-left -> top-right -> bottom-right -> bottom-left." \
        in person.said
    assert len([q for q, _ in person.asked if q.startswith("Only the ")]) == 4


def test_a_turned_panel_gets_its_rotation():
    f, person, cfg = panel_doctor(dict(PANELS, rotation=[0, 180, 180, 180]))
    assert f.fixes == {"panels": dict(PANELS, rotation=[0, 180, 180, 180])}
    assert f.problems == ["the top-right panel is turned: set its rotation 180 (panels rotation [0, 180, 180, 180])"]
    assert fixed_table(cfg, f.fixes) == really_table(person)


def test_a_swapped_pair_gets_the_chain_order():
    f, person, cfg = panel_doctor(dict(PANELS, chain=[0, 1, 2, 3]))
    assert f.fixes == {"panels": dict(PANELS, chain=[0, 1, 2, 3])}
    assert f.problems == ["the bottom-left and bottom-right panels are swapped on the data chain: set panels chain "
                          "[0, 1, 2, 3] (the position of the first, second, ... panel on the data line, positions "
                          "numbered row by row from the top-left)"]
    assert fixed_table(cfg, f.fixes) == really_table(person)


def test_the_whole_matrix_turned_is_one_setting():
    f, person, cfg = panel_doctor(PANELS, rotation=180)
    assert f.fixes == {"rotation": 180}
    assert f.problems == ["the whole matrix turned: set rotation 180"]


def test_odd_chain_with_turned_and_progressive_panels_from_the_defaults():
    really = {"size": [16, 16], "across": 2, "down": 2, "chain": [3, 0, 2, 1],
              "layout": ["serpentine", "progressive", "serpentine", "serpentine"], "rotation": [0, 90, 180, 0]}
    f, person, cfg = panel_doctor(really, config_panels={"size": [16, 16], "across": 2, "down": 2})
    assert fixed_table(cfg, f.fixes) == really_table(person)
    assert set(f.fixes) == {"panels"}
    assert f.fixes["panels"]["chain"] == [3, 0, 2, 1]
    assert any(line.startswith("the top-right panel is wired or turned another way: set its layout progressive, "
                               "rotation 90") for line in f.problems), f.problems
    assert any(line.startswith("the bottom-left panel is turned: set its rotation 180") for line in f.problems)


def test_every_random_miswiring_of_panels_is_fixed():
    import random
    rnd = random.Random(14)
    for _ in range(12):
        chain = list(range(4))
        rnd.shuffle(chain)
        really = {"size": [16, 16], "across": 2, "down": 2, "chain": chain,
                  "layout": [rnd.choice(["serpentine", "progressive"]) for _ in range(4)],
                  "origin": [rnd.choice(["top-left", "top-right", "bottom-left", "bottom-right"]) for _ in range(4)],
                  "rotation": [rnd.choice([0, 90, 180, 270]) for _ in range(4)]}
        mount = {"rotation": rnd.choice([0, 90, 180, 270]), "flip_x": rnd.choice([False, True])}
        f, person, cfg = panel_doctor(really, **mount)
        assert fixed_table(cfg, f.fixes) == really_table(person), (really, mount, f.problems)
        assert not any(p.startswith("could not") for p in f.problems)


def test_dark_panels_name_where_the_data_stops():
    f, person, cfg = panel_doctor(PANELS, dark_from=512)   # the third and fourth panels on the chain stay dark
    assert f.fixes == {}
    assert f.problems[0] == ("nothing lights on the bottom-right panel and the bottom-left panel: the data stops "
                             "before panel 3 of the chain (drawn as the bottom-right one): check the wire from the "
                             "DOUT of the panel before it to its DIN, and its 5 V and GND")
    assert any(p.startswith("some LEDs stay dark") for p in f.problems)


# ---------------------------------------------------------------- four lanes: each panel on its own pin

# the same build on four lanes: GP16 feeds the top-left panel, GP17 the top-right, GP18 the
# bottom-right and GP19 the bottom-left (chain: the position each lane feeds)
LANES = dict(PANELS, lanes=[16, 17, 18, 19])


def test_lanes_wired_as_set_are_all_ok():
    f, person, _ = panel_doctor(LANES, config_panels=LANES)
    assert f.fixes == {} and f.problems == []
    assert f.ok == ["colour order GRB", "panels", "every LED", "all six buttons", "buzzer"]
    assert "The matrix is 2 x 2 panels of 16x16, on 4 lanes: GP16 top-left, GP17 top-right, GP18 bottom-right, " \
        "GP19 bottom-left." in person.said


def test_a_dead_lane_names_its_pin_its_buffer_and_its_panel():
    f, person, _ = panel_doctor(LANES, config_panels=LANES, lanes_wired=[0, 1, 2, None])
    assert f.fixes == {}
    assert f.problems[0] == ("lane 3 (GP19) shows nothing: check GP19 -> 74AHCT125 4A/4Y (pins 12/11) -> the lead "
                             "-> 330 ohm -> the bottom-left panel's DIN, and that panel's 5 V and GND")
    assert len([p for p in f.problems if "shows nothing" in p]) == 1
    # the first lane dead, the others lit: its buffer is the first one
    f, person, _ = panel_doctor(LANES, config_panels=LANES, lanes_wired=[None, 1, 2, 3])
    assert f.problems[0] == ("lane 0 (GP16) shows nothing: check GP16 -> 74AHCT125 1A/1Y (pins 2/3) -> the lead "
                             "-> 330 ohm -> the top-left panel's DIN, and that panel's 5 V and GND")


def test_a_dead_lane_on_swapped_leads_names_the_panel_that_stays_dark():
    # lanes 1 and 2 swapped at the panels, and lane 1's lead (now at the bottom-right) broken
    really = dict(LANES, chain=[0, 3, 1, 2])
    f, person, _ = panel_doctor(really, config_panels=LANES, lanes_wired=[0, None, 2, 3])
    assert f.problems[0] == ("lane 1 (GP17) shows nothing: check GP17 -> 74AHCT125 2A/2Y (pins 5/6) -> the lead "
                             "-> 330 ohm -> the bottom-right panel's DIN, and that panel's 5 V and GND")


def test_swapped_lanes_get_the_chain_and_keep_the_lanes():
    really = dict(LANES, chain=[0, 3, 1, 2])
    f, person, cfg = panel_doctor(really, config_panels=LANES)
    assert f.fixes == {"panels": really}, "the fix keeps lanes, or --apply would make the panels one chain"
    assert f.problems == ["the top-right and bottom-right panels are on each other's lanes (lane 1 (GP17) feeds the "
                          "bottom-right panel, lane 2 (GP18) feeds the top-right panel): set panels chain [0, 3, 1, 2] "
                          "(the position each lane feeds, lane 0 first, positions numbered row by row from the "
                          "top-left), or swap their two data leads"]
    assert fixed_table(cfg, f.fixes) == really_table(person)


def test_two_lanes_on_one_panel():
    # lane 1's lead soldered to the top-left panel's DIN with lane 0's: the top-right panel gets nothing
    f, person, _ = panel_doctor(LANES, config_panels=LANES, lanes_wired=[0, 0, 2, 3])
    assert f.fixes == {}
    assert f.problems[0] == ("the top-left panel gets the data of lane 0 (GP16) and of lane 1 (GP17), and the "
                             "top-right panel none: one of their leads belongs at the top-right panel's DIN (as set, "
                             "lane 1 (GP17)'s: GP17 -> 74AHCT125 2A/2Y (pins 5/6) -> the lead -> 330 ohm -> the "
                             "top-right panel's DIN)")


def test_all_four_lanes_dark_points_at_what_they_share():
    f, person, _ = panel_doctor(LANES, config_panels=LANES, lanes_wired=[None] * 4)
    assert f.problems[0] == ("the matrix stays dark on all four lanes (GP16, GP17, GP18, GP19): check what they "
                             "share: the 74AHCT125's VCC (pin 14) at 5 V, its GND (pin 7) and its enables 1OE-4OE "
                             "(pins 1, 4, 10, 13) at GND, the controller's GND joined to the bus, and the panels' 5 V "
                             "and GND")


def test_a_chained_board_set_up_for_lanes_and_a_lane_board_set_up_as_a_chain():
    # still chained DOUT -> DIN: lane 0 lights the first panel, nothing reaches the others
    f, person, _ = panel_doctor(LANES, config_panels=LANES, lanes_wired=[0, None, None, None])
    assert [p for p in f.problems if p.startswith("only ")] == [
        "only lane 0 (GP16) lights a panel: if the panels are still chained DOUT -> DIN, take \"lanes\" out of "
        "panels (one chain works as before), or finish the four lanes (hardware/32x32.md)"]
    # wired on four lanes, set as one chain: the chain's first 256 LEDs reach GP16's panel only
    f, person, _ = panel_doctor(PANELS, dark_from=256)
    assert f.problems[1] == ("if each panel has its own data pin (four lanes, hardware/32x32.md), the setting misses "
                             "them: set panels lanes [16, 17, 18, 19]")


# ---------------------------------------------------------------- end to end on the pty board


def test_doctor_on_the_board_finds_the_fixes_and_applies_them():
    with PtyDevice() as dev:
        flash.flash(port=dev.port, board_name="pico", watch_s=0.2)
        person = Person(dev.leds, lambda pin: dev.press(pin, after_ms=30, hold_ms=100), dev.tones,
                        pins={"P1": 3, "P2": 2, "P3": 4, "P4": 5, "A": 6, "B": 7}, flip_x=True, color_order="RGB")
        f = doctor.doctor(port=dev.port, ui=person, button_timeout=3, apply=True)
        assert f.fixes == {"color_order": "RGB", "flip_x": True,
                           "buttons": {"P1": 3, "P2": 2, "P3": 4, "P4": 5, "A": 6, "B": 7}}
        assert "matrix mirrored left-right: set flip_x" in f.problems
        assert "colour order: set color_order RGB (not GRB)" in f.problems
        said = "\n".join(person.said)
        assert "Free heap:" in said and "Flash:" in said and "Board profile pico: 16x16" in said
        cfg = json.loads(dev.read("/layerlight.json"))
        assert cfg == dict(f.fixes, board="pico")
        assert dev.status()["running"], "the firmware runs again after the doctor"

        # with the fixes written, the same board is all right
        person = Person(dev.leds, lambda pin: dev.press(pin, after_ms=30, hold_ms=100), dev.tones,
                        pins={"P1": 3, "P2": 2, "P3": 4, "P4": 5, "A": 6, "B": 7}, flip_x=True, color_order="RGB")
        f = doctor.doctor(port=dev.port, ui=person, button_timeout=3)
        assert f.problems == [] and f.fixes == {}

        # a pin the board cannot use: the board's own pin is tested, and the setting named
        dev.write("/layerlight.json", json.dumps({"board": "pico", "buttons": dict(PINS, P1=99)}).encode())
        person = Person(dev.leds, lambda pin: dev.press(pin, after_ms=30, hold_ms=100), dev.tones)
        f = doctor.doctor(port=dev.port, ui=person, button_timeout=3)
        assert f.problems == ["settings: config buttons.P1: 99 is not a pin of the Raspberry Pi Pico (RP2040), "
                              "the board's pin 2 is used"]


def test_console_takes_panel_numbers_above_nine():
    import io
    names = doctor.panel_names(4, 3)
    assert names[0] == "row 1, column 1" and names[11] == "row 3, column 4"
    assert doctor.panel_names(2, 2) == ["top-left", "top-right", "bottom-left", "bottom-right"]
    choices = {str(i + 1): n for i, n in enumerate(names)}
    ui = doctor.ConsoleUI(io.StringIO("13\n12\n"), io.StringIO())
    assert ui.ask("Which panel is lit?", choices) == "12"   # 13 is no panel: asked again
    ui = doctor.ConsoleUI(io.StringIO("yes\n"), io.StringIO())
    assert ui.ask("Is it so?", doctor.YES_NO) == "y"


def test_doctor_on_the_board_finds_a_turned_panel_of_a_32x32():
    with PtyDevice() as dev:
        flash.flash(port=dev.port, board_name="pico", watch_s=0.2)
        config = {"board": "pico", "width": 32, "height": 32, "supply_ma": 10000, "panels": PANELS}
        dev.write("/layerlight.json", json.dumps(config).encode())
        really = dict(PANELS, rotation=[0, 180, 180, 90])
        person = Person(dev.leds, lambda pin: dev.press(pin, after_ms=30, hold_ms=100), dev.tones, 32, 32,
                        panels=really)
        f = doctor.doctor(port=dev.port, ui=person, button_timeout=3, apply=True)
        assert f.fixes == {"panels": really}
        assert f.problems == [
            "the top-right panel is turned: set its rotation 180 (panels rotation [0, 180, 180, 90])",
            "the bottom-right panel is turned: set its rotation 90 (panels rotation [0, 180, 180, 90])"]
        assert json.loads(dev.read("/layerlight.json")) == dict(config, panels=really)


def test_doctor_without_firmware_says_flash_first(capsys):
    from layerlight_tools import cli
    with PtyDevice() as dev:
        code = cli.main(["doctor", "--port", dev.port])
    out, err = capsys.readouterr()
    assert code == 2
    assert err == "layerlight: no Layerlight firmware with a self-test on the board: run `layerlight flash` first\n"


def test_doctor_on_the_board_finds_two_swapped_lanes_of_a_32x32_and_keeps_the_lanes():
    """End to end through mpremote, as test_doctor_on_the_board_finds_a_turned_panel_of_a_32x32:
    a 32x32 set up for four lanes whose leads to two panels are swapped; --apply writes the
    chain that puts them right and keeps "lanes" (without it the board would send one chain)."""
    with PtyDevice() as dev:
        flash.flash(port=dev.port, board_name="pico", watch_s=0.2)
        config = {"board": "pico", "width": 32, "height": 32, "supply_ma": 10000, "panels": LANES}
        dev.write("/layerlight.json", json.dumps(config).encode())
        really = dict(LANES, chain=[0, 3, 1, 2])
        person = Person(dev.leds, lambda pin: dev.press(pin, after_ms=30, hold_ms=100), dev.tones, 32, 32,
                        panels=really)
        f = doctor.doctor(port=dev.port, ui=person, button_timeout=3, apply=True)
        assert f.fixes == {"panels": really}
        assert json.loads(dev.read("/layerlight.json")) == dict(config, panels=really)
