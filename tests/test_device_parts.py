"""Geometry, solver, deck file, LED wiring, config and errors: the parts under the games."""

import json
import struct

import pytest

from layerlight import config, display, geometry, stacking, strip_map
from layerlight.deck import Deck, DeckError
from layerlight.solver import Solver
from layerlight_tools import simcore
from layerlight_tools.layers import cards, sets
from layerlight_tools.firmware_files import DEFAULT_DECK, DEFAULT_SET
from scenario_lib import device_files


# --- geometry ------------------------------------------------------------

def grid(rows):
    return bytes(0 if c == "." else ord(c) - 64 for row in rows for c in row)


def test_rotation_is_clockwise_and_four_turns_are_identity():
    g = grid(["AB.", "...", "..C"])
    turned = geometry.rotate_cw(g, 3)
    assert turned == grid(["..A", "..B", "C.."])
    x = g
    for _ in range(4):
        x = geometry.rotate_cw(x, 3)
    assert x == g


def test_back_side_is_used_as_written_and_holes_must_mirror():
    front = grid(["AA.", "A..", "..."])
    back = grid([".BB", "..B", "..."])
    assert stacking.holes_match(front, back, 3) is None
    layer = geometry.Layer("x", front, back, 3)
    assert layer.grid(geometry.orientation("back", 0)) == back
    assert layer.grid(geometry.orientation("back", 90)) == geometry.rotate_cw(back, 3)
    assert stacking.holes_match(front, grid(["BB.", "B..", "..."]), 3) == (0, 0)


def test_stacking_shows_the_topmost_opaque_cell():
    a = grid(["AA", ".."])
    b = grid([".B", ".B"])
    assert bytes(stacking.stack([a, b], 2)) == grid(["AB", ".B"])
    assert bytes(stacking.stack([b, a], 2)) == grid(["AA", ".B"])


# --- solver --------------------------------------------------------------

def brute_force(layers, pattern, level, n):
    """Every ordered choice of `level` distinct layers in every orientation."""
    from itertools import permutations, product
    found = []
    for picks in permutations(range(len(layers)), level):
        for orients in product(range(8), repeat=level):
            placement = list(zip(picks, orients))
            if bytes(stacking.compose(layers, placement, n)) == pattern:
                found.append(placement)
    return found


def test_solver_finds_exactly_the_brute_force_solutions_of_shipped_missions():
    s = sets.load(DEFAULT_SET)
    d = cards.open_deck(DEFAULT_DECK)
    solver = Solver(s.layers)
    for level in (2, 3):
        m = d.level_mission(level, 0)
        mine = sorted(map(tuple, solver.solutions(m.pattern, level)))
        assert mine == sorted(map(tuple, brute_force(s.layers, m.pattern, level, s.size)))
        assert len(mine) == m.solution_count


def test_shipped_deck_is_honest_about_every_level():
    assert cards.check(DEFAULT_DECK) == []
    d = cards.open_deck(DEFAULT_DECK)
    for level in (2, 3, 4, 5):
        assert d.level_count(level) == 60


def test_shipped_deck_is_what_make_cards_builds(tmp_path):
    out = tmp_path / "rebuilt.deck"
    s = sets.load(DEFAULT_SET)
    cards.write(s, cards.build(s, 60), str(out))
    assert out.read_bytes() == open(DEFAULT_DECK, "rb").read()


# --- deck file -----------------------------------------------------------

class Files:
    def __init__(self, data):
        self.data = data

    def open_read(self, name):
        import io
        return io.BytesIO(self.data)


def test_deck_reads_missions_one_at_a_time():
    data = open(DEFAULT_DECK, "rb").read()
    d = Deck(Files(data), "x")
    m = d.level_mission(5, 3)
    assert m.level == 5 and len(m.solution) == 5
    assert bytes(stacking.compose(d.layers, m.solution, d.size)) == m.pattern


@pytest.mark.parametrize("damage, message", [
    (lambda b: b[: len(b) // 2], "truncated"),
    (lambda b: b[:200] + bytes([b[200] ^ 0x10]) + b[201:], "checksum"),
    (lambda b: b[:-1] + bytes([b[-1] ^ 0x01]), "checksum"),
    (lambda b: b[:4] + bytes([9]) + b[5:], "newer"),
    (lambda b: b + b"\0", "trailing"),
    (lambda b: b"PK\x03\x04" + b[4:], "not a deck"),
    (lambda b: b"", "truncated"),
])
def test_damaged_decks_are_refused_with_a_clear_message(damage, message):
    data = damage(open(DEFAULT_DECK, "rb").read())
    with pytest.raises(DeckError) as e:
        Deck(Files(data), "decks/x.deck")
    assert message in str(e.value) and "decks/x.deck" in str(e.value)


def test_device_with_a_corrupt_deck_shows_the_error_glyph_and_keeps_running():
    files = device_files()
    files["decks/default.deck"] = files["decks/default.deck"][:-7]
    logs = []
    dev = simcore.make_device(files, 16, 16, 1, None, 2, logs.append)
    sim = simcore.Simulator(dev, frames=True)
    s = sim.state()
    assert s["phase"] == "error" and s["error"] == 1
    assert any("deck truncated" in line for line in logs)
    assert any(row.count("ff0000") for row in s["frame"])  # the red error glyph
    sim.run_line("wait 5000", 1)
    assert sim.state()["phase"] == "menu"  # still alive
    sim.run_line("press A", 2)  # try to start Layers: refused again, no crash
    assert sim.state()["phase"] == "error"


# --- LED wiring and brightness ---------------------------------------------

def test_serpentine_rows_alternate_direction():
    t = strip_map.pixel_map(4, 3, "serpentine", "top-left")
    assert list(t) == [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11]


def test_progressive_from_bottom_right():
    t = strip_map.pixel_map(3, 2, "progressive", "bottom-right")
    # physical row 0 is the bottom row, starting at the right
    assert list(t) == [5, 4, 3, 2, 1, 0]


def test_rotation_and_flip_move_pixel_zero():
    t = strip_map.pixel_map(4, 4, "progressive", "top-left", rotation=90)
    assert sorted(t) == list(range(16))
    assert t[0] != 0
    f = strip_map.pixel_map(4, 4, "progressive", "top-left", flip_x=True)
    assert f[0] == 3


def test_brightness_cap_scales_every_channel():
    fb = display.FrameBuffer(2, 1, strip_map.pixel_map(2, 1, "progressive", "top-right"), 0.25, "GRB")
    fb.pixel(0, 0, 0xFF8000)
    # logical (0, 0) is strip pixel 1 when the strip starts at the right; GRB order
    assert list(fb.buf) == [0, 0, 0, 32, 64, 0]
    assert fb.get(0, 0) == 0x402000


# --- config --------------------------------------------------------------

def test_missing_config_gives_defaults_and_says_so():
    logs = []
    cfg = config.load(simcore.MemoryStorage(), logs.append)
    assert cfg["timer_s"] == 30 and cfg["matrix_pin"] == 16
    assert "no layerlight.json" in logs[0]


def test_broken_config_falls_back_field_by_field():
    logs = []
    st = simcore.MemoryStorage({"layerlight.json": b'{"timer_s": 45, "brightness": 7, "wat": 1}'})
    cfg = config.load(st, logs.append)
    assert cfg["timer_s"] == 45 and cfg["brightness"] == 0.25
    assert any("brightness" in l for l in logs) and any("wat" in l for l in logs)
    logs = []
    cfg = config.load(simcore.MemoryStorage({"layerlight.json": b"{not json"}), logs.append)
    assert cfg["timer_s"] == 30 and "broken" in logs[0]


def test_timer_setting_reaches_the_game():
    files = device_files({"timer_s": 10})
    dev = simcore.make_device(files, 16, 16, 1, "layers", 2)
    sim = simcore.Simulator(dev)
    for i, line in enumerate(["press A", "press A", "press P1", "wait 9000"]):
        sim.run_line(line, i + 1)
    assert dev.state()["phase"] == "race"
    sim.run_line("wait 1100", 5)
    assert dev.state()["phase"] == "verify"
