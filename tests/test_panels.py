"""A matrix tiled from panels: the pixel map against a build described the way a person sees it.

Each physical panel is described by where its first LED (DIN) is, the way its
first row runs and the way the next rows follow; walking the data chain LED
by LED then says which logical pixel each strip index lights. That walk
knows nothing of strip_map.pixel_map's origins and rotations, so it checks
what those settings mean, not how they are computed.
"""

import json

import pytest

from layerlight import config, display, strip_map
from layerlight_tools import simcore
from mpy import run_micropython

# A 32x32 of four 16x16 panels, chained in an odd order, one turned a quarter,
# one upside down, one with rows all one way.
ODD = {"size": [16, 16], "across": 2, "down": 2, "chain": [3, 0, 2, 1],
       "layout": ["serpentine", "progressive", "serpentine", "serpentine"],
       "origin": "top-left", "rotation": [0, 90, 180, 0]}

# The same build as a person finds it with the panels in front of them, per
# position: (first LED as (x, y) on the panel, the first row's direction,
# the step to the next row, serpentine).
ODD_SEEN = {
    0: ((0, 0), (1, 0), (0, 1), True),        # top-left: as the defaults say
    1: ((0, 15), (0, -1), (1, 0), False),     # top-right, rotation 90: DIN bottom-left, first row up the left edge
    2: ((15, 15), (-1, 0), (0, -1), True),    # bottom-left, rotation 180: upside down
    3: ((0, 0), (1, 0), (0, 1), True),        # bottom-right
}


def walk_chain(chain, seen, pw=16, ph=16, across=2):
    """{strip index: logical (x, y)}, walking the LEDs along the data line."""
    lit = {}
    index = 0
    for position in chain:
        (sx, sy), (dx, dy), (ex, ey), serpentine = seen[position]
        left, top = (position % across) * pw, (position // across) * ph
        rows = ph if (ex, ey) in ((0, 1), (0, -1)) else pw
        length = pw * ph // rows
        for row in range(rows):
            for step in range(length):
                col = length - 1 - step if serpentine and row % 2 else step
                lit[index] = (left + sx + col * dx + row * ex, top + sy + col * dy + row * ey)
                index += 1
    return lit


def test_odd_chain_turned_panels_light_where_the_walk_says():
    table = strip_map.pixel_map(32, 32, panels=ODD)
    assert sorted(table) == list(range(1024)), "every LED used exactly once"
    lit = walk_chain(ODD["chain"], ODD_SEEN)
    assert sorted(lit.values()) == [(x, y) for x in range(32) for y in range(32)]
    for index, (x, y) in lit.items():
        assert table[y * 32 + x] == index, "LED %d should light logical %s" % (index, (x, y))
    # the first LED on the line is at the top-left of the bottom-right panel (chain[0] = 3)
    assert table[16 * 32 + 16] == 0


@pytest.mark.parametrize("rotation, first, row, step", [
    (0, (0, 0), (1, 0), (0, 1)),
    (90, (0, 15), (0, -1), (1, 0)),
    (180, (15, 15), (-1, 0), (0, -1)),
    (270, (15, 0), (0, 1), (-1, 0)),
])
@pytest.mark.parametrize("origin, mirror", [("top-left", False), ("top-right", True)])
def test_what_each_panel_rotation_means(rotation, first, row, step, origin, mirror):
    """origin top-right is the same panel wired from its other top corner: mirrored left-right before turning."""
    if mirror:
        # the panel's own top-right corner, its first row running left: turned like the rest
        turn = {0: lambda x, y: (x, y), 90: lambda x, y: (y, 15 - x), 180: lambda x, y: (15 - x, 15 - y),
                270: lambda x, y: (15 - y, x)}[rotation]
        a, b = turn(15, 0), turn(14, 0)
        c = turn(15, 1)
        first, row, step = a, (b[0] - a[0], b[1] - a[1]), (c[0] - a[0], c[1] - a[1])
    panels = {"size": [16, 16], "across": 1, "down": 1, "origin": origin, "rotation": rotation,
              "layout": "progressive"}
    table = strip_map.pixel_map(16, 16, panels=panels)
    lit = walk_chain([0], {0: (first, row, step, False)}, across=1)
    assert all(table[y * 16 + x] == i for i, (x, y) in lit.items())


def test_one_panel_is_the_single_matrix_map():
    for layout in ("serpentine", "progressive"):
        for origin in ("top-left", "bottom-right"):
            single = strip_map.pixel_map(16, 16, layout, origin, 90, True, False)
            one = strip_map.pixel_map(16, 16, layout, origin, 90, True, False,
                                    {"size": [16, 16], "across": 1, "down": 1})
            assert list(one) == list(single)


def test_whole_matrix_rotation_turns_the_tiled_picture():
    base = strip_map.pixel_map(32, 32, panels=ODD)
    turned = strip_map.pixel_map(32, 32, rotation=180, panels=ODD)
    mirrored = strip_map.pixel_map(32, 32, flip_x=True, panels=ODD)
    for y in range(32):
        for x in range(32):
            assert turned[y * 32 + x] == base[(31 - y) * 32 + 31 - x]
            assert mirrored[y * 32 + x] == base[y * 32 + 31 - x]


def test_wide_strip_of_panels_and_the_default_chain():
    """Three 8x8 panels in a row, chained left to right (the default chain), rows all one way."""
    panels = {"size": [8, 8], "across": 3, "down": 1, "layout": "progressive"}
    table = strip_map.pixel_map(24, 8, panels=panels)
    assert table[0] == 0 and table[8] == 64 and table[16] == 128
    assert table[24] == 8 and table[24 + 8] == 72  # the second row of each panel follows its first
    assert sorted(table) == list(range(192))


def test_panels_not_filling_the_matrix_are_an_error():
    with pytest.raises(ValueError) as e:
        strip_map.config_map(dict(config.defaults(), panels=ODD))  # 16x16 by default
    assert str(e.value) == "config: panels: 2 x 2 panels of 16x16 are not 16x16"


def test_framebuffer_on_panels_writes_the_chained_led():
    fb = display.FrameBuffer(32, 32, strip_map.pixel_map(32, 32, panels=ODD), 1.0, "RGB")
    fb.pixel(16, 16, 0x102030)   # top-left of the bottom-right panel: LED 0
    fb.pixel(31, 0, 0x0000FF)    # top-right corner of the top-right panel
    assert bytes(fb.buf[:3]) == b"\x10\x20\x30"
    # the top-right panel is last on the chain (LEDs 768..1023), turned 90: its DIN at the bottom-left,
    # rows running up, so its top-right corner is the last LED of its last row
    assert fb.buf[(768 + 255) * 3 + 2] == 0xFF
    assert sum(fb.buf) == 0x10 + 0x20 + 0x30 + 0xFF


# --- config ------------------------------------------------------------------

def load(data):
    logs = []
    cfg = config.load(simcore.MemoryStorage({"layerlight.json": json.dumps(data).encode()}), logs.append)
    return cfg, logs


def test_a_good_panels_setting_is_kept_and_the_default_is_one_matrix():
    cfg, logs = load({"width": 32, "height": 32, "supply_ma": 10000, "panels": ODD})
    assert cfg["panels"] == ODD and logs == []
    assert list(strip_map.config_map(cfg)) == list(strip_map.pixel_map(32, 32, panels=ODD))
    cfg, logs = load({})
    assert cfg["panels"] is None
    assert list(strip_map.config_map(cfg)) == list(strip_map.pixel_map(16, 16))


@pytest.mark.parametrize("panels, problem", [
    ([16, 16], 'expected an object like {"size": [16, 16], "across": 2, "down": 2}'),
    (dict(ODD, size=[16]), "size must be [columns, rows] of one panel"),
    (dict(ODD, size=[16, 0]), "size must be [columns, rows] of one panel"),
    (dict(ODD, across=True), "across and down must be the number of panels in a row and in a column"),
    (dict(ODD, across=4), "4 x 2 panels of 16x16 make 64x32, not the 32x32 of width and height"),
    (dict(ODD, size=[8, 8]), "2 x 2 panels of 8x8 make 16x16, not the 32x32 of width and height"),
    (dict(ODD, chain=[0, 1, 1, 2]), "chain must list each panel position 0..3 once"),
    (dict(ODD, chain=[0, 1, 2]), "chain must list each panel position 0..3 once"),
    (dict(ODD, chain=[0, 1, 2, "3"]), "chain must list each panel position 0..3 once"),
    (dict(ODD, chain=[0, 1, 2, 4]), "chain must list each panel position 0..3 once"),
    (dict(ODD, rotation=[0, 90, 180]), "rotation must be one value or a list of 4, one per panel"),
    (dict(ODD, rotation=45), "rotation 45 is not one of 0, 90, 180, 270"),
    (dict(ODD, rotation=90.0), "rotation 90.0 is not one of 0, 90, 180, 270"),
    (dict(ODD, layout="zigzag"), "layout 'zigzag' is not one of serpentine, progressive"),
    (dict(ODD, origin=["top-left"] * 3 + ["middle"]),
     "origin 'middle' is not one of top-left, top-right, bottom-left, bottom-right"),
    (dict(ODD, flip_x=True), "unknown key 'flip_x'"),
])
def test_a_bad_panels_setting_is_one_line_and_ignored(panels, problem):
    cfg, logs = load({"width": 32, "height": 32, "supply_ma": 10000, "panels": panels})
    assert cfg["panels"] is None and cfg["width"] == 32
    assert logs == ["config: bad value for 'panels' ignored (%s), the matrix is mapped as one panel" % problem]
    strip_map.config_map(cfg)  # the device still opens its matrix


def test_only_square_panels_turn_a_quarter():
    panels = {"size": [16, 8], "across": 1, "down": 2, "rotation": [0, 90]}
    assert config.panels_problem(panels, 16, 16) == "only a square panel can be turned by 90 or 270"
    assert config.panels_problem(dict(panels, rotation=[0, 180]), 16, 16) is None


# --- the real MicroPython ------------------------------------------------------

ENTRY = """\
import json
from layerlight import config, display, strip_map


class Storage:
    def read_text(self, name):
        return STDIN


logs = []
cfg = config.load(Storage(), logs.append)
print(json.dumps(logs))
print(json.dumps(list(strip_map.config_map(cfg))))
"""


def test_micropython_maps_the_panels_like_cpython(tmp_path):
    entry = tmp_path / "panels_entry.py"
    entry.write_text(ENTRY)
    for data in ({"width": 32, "height": 32, "supply_ma": 10000, "panels": ODD},
                 {"width": 32, "height": 32, "supply_ma": 10000, "rotation": 90, "panels": ODD},
                 {"width": 32, "height": 32, "supply_ma": 10000, "panels": dict(ODD, chain=[0, 0, 1, 2])}):
        res = run_micropython(str(entry), mounts=["firmware:/"], stdin=json.dumps(data))
        assert res.returncode == 0, res.stderr
        logs, table = [json.loads(line) for line in res.stdout.splitlines()]
        cfg, expected_logs = load(data)
        assert logs == expected_logs
        assert table == list(strip_map.config_map(cfg))


DRAW_ENTRY = """\
import micropython
from layerlight import display, strip_map

P = %r


def draw(fb):
    for y in range(32):
        for x in range(32):
            fb.pixel(x, y, 0x123456)
    fb.rect(3, 5, 20, 9, 0xFF0000)


fb = display.FrameBuffer(32, 32, strip_map.pixel_map(32, 32, panels=P), 0.25, "GRB")
allocates = "no"
micropython.heap_lock()  # any allocation from here on raises MemoryError
try:
    draw(fb)
except MemoryError:
    allocates = "yes"
micropython.heap_unlock()
print(allocates, fb.get(31, 31), fb.get(4, 6))
"""


def test_drawing_on_panels_allocates_nothing_on_micropython(tmp_path):
    entry = tmp_path / "draw_entry.py"
    entry.write_text(DRAW_ENTRY % (ODD,))
    res = run_micropython(str(entry), mounts=["firmware:/"])
    assert res.returncode == 0, res.stderr
    scale = display.brightness_table(0.25)
    assert res.stdout.split() == ["no", str((scale[0x12] << 16) | (scale[0x34] << 8) | scale[0x56]), str(scale[0xFF] << 16)]
