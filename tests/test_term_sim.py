"""The terminal simulator's picture (`make sim`): round LEDs two columns wide, the seats on their
sides, the colours of the one colour model, and an 80x24 terminal is enough at 16x16."""

import re

import pytest

from layerlight import screens
from layerlight_tools import led_colour, simcore, term
import scenario_lib

FG = re.compile(r"\x1b\[38;2;(\d+);(\d+);(\d+)m")


def device(size=(16, 16), game="coop", players=4, script=("press A", "press A")):
    dev = simcore.make_device(scenario_lib.device_files(), size[0], size[1], 1, game, players)
    sim = simcore.Simulator(dev)
    for no, line in enumerate(script, 1):
        sim.run_line(line, no)
    return dev


def plain(line):
    return term.ESC.sub("", line)


@pytest.mark.parametrize("size", [(8, 8), (16, 16), (32, 32)])
def test_the_whole_view_fits_80_columns(size):
    dev = device(size)
    text = term.screen_text(dev.hw.frame, dev.state(), dev.hw.cap, "a console line " * 10)
    assert all(term.visible_width(line) <= 80 for line in text)
    if size == (16, 16):
        assert len(text) <= 24


def test_each_led_is_a_round_cell_two_columns_wide_one_row_an_led():
    dev = device()
    lines = term.frame_lines(dev.hw.frame, dev.hw.cap)
    matrix = lines[1:-1]
    assert len(matrix) == 16
    for line in matrix:
        cells = plain(line).strip().split(" ")
        cells = [c for c in cells if c.startswith("\u25cf")]
        assert len(cells) == 16
    assert all(len(plain(line).rstrip()) <= 3 + 32 + 3 for line in matrix)


def test_the_seats_sit_on_their_sides():
    lines = [plain(line) for line in term.frame_lines(device().hw.frame)]
    assert lines[0].strip() == "P3" and lines[-1].strip() == "P1"
    middle = lines[1 + 8]
    assert middle.startswith("P2 ") and middle.rstrip().endswith(" P4")
    # P3 and P1 centred over and under the matrix
    assert abs(lines[0].index("P3") - (3 + 15)) <= 1 and abs(lines[-1].index("P1") - (3 + 15)) <= 1


def test_the_leds_are_shown_as_the_colour_model_sees_them():
    """Each LED's colour is led_colour's for that value at the device's brightness (not the value
    as a screen colour): CO.OP's yellow board and a seat's grey total look as on the matrix."""
    dev = device()
    fb = dev.hw.frame
    assert dev.hw.cap == 0.25  # the firmware set its default brightness
    lines = term.frame_lines(fb, dev.hw.cap)
    seen = 0
    for y in range(16):
        colours = [tuple(int(v) for v in m.groups()) for m in FG.finditer(lines[1 + y])]
        colours = colours[1:17] if y == 8 else colours[:16]  # the middle row starts with P2's label
        for x in range(16):
            value = fb.get(x, y)
            want = led_colour.screen_rgb(value, 0.25) if value else term.OFF
            assert colours[x] == want, (x, y, "%06x" % value)
            seen += bool(value)
    assert seen > 10


def test_the_seat_labels_are_in_their_colours():
    line = term.seat_label(1)
    (r, g, b), = [tuple(int(v) for v in m.groups()) for m in FG.finditer(line)]
    assert (r, g, b) == led_colour.screen_rgb(screens.SEAT_COLOURS[1], 1.0)


def test_32x32_uses_half_blocks_to_fit():
    lines = term.frame_lines(device((32, 32)).hw.frame)
    assert len(lines) == 16 + 2 and "\u2580" in lines[1]
