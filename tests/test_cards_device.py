"""Decks on the device: the real MicroPython reads them and refuses damaged ones; the device keeps its deck."""

import pytest

from layerlight import startup
from layerlight_tools import simcore
from layerlight_tools.layers import cards
from layerlight_tools.firmware_files import DEFAULT_DECK
from mpy import run_micropython
from scenario_lib import device_files

GOOD = open(DEFAULT_DECK, "rb").read()
DAMAGED = {
    "truncated.deck": (GOOD[:-50], "deck truncated"),
    "flipped.deck": (GOOD[:500] + bytes([GOOD[500] ^ 0x20]) + GOOD[501:], "deck checksum wrong"),
    "newer.deck": (GOOD[:4] + bytes([GOOD[4] + 1]) + GOOD[5:], "is newer than this firmware reads"),
    "empty.deck": (b"", "deck truncated"),
    "photo.deck": (b"\xff\xd8\xff\xe0" + bytes(100), "not a deck file"),
}


def test_the_real_micropython_reads_the_deck_and_refuses_damaged_ones(tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "good.deck").write_bytes(GOOD)
    for name, (data, _) in DAMAGED.items():
        (decks / name).write_bytes(data)
    res = run_micropython("tests/wasm/deck_entry.py", mounts=["firmware:/", "%s:/" % tmp_path])
    assert res.returncode == 0, res.stderr
    lines = dict(line.split(" ", 1) for line in res.stdout.splitlines())
    m = cards.open_deck(DEFAULT_DECK).level_mission(5, 0)
    assert lines["good.deck"] == "ok 240 60 %s %s" % ("".join(str(c) for c in m.pattern),
                                                       ",".join("%d:%d" % s for s in m.solution))
    for name, (_, words) in DAMAGED.items():
        assert lines[name].startswith("DeckError: ") and words in lines[name] and "decks/" + name in lines[name]


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_the_device_shows_the_error_glyph_and_keeps_the_deck_it_had(name):
    files = device_files()
    files["decks/" + name] = DAMAGED[name][0]
    logs = []
    dev = simcore.make_device(files, 16, 16, 1, None, 2, logs.append)
    had = dev.deck_path
    assert had is not None
    assert startup.check_deck(dev, "decks/" + name) is False
    assert dev.deck_path == had
    sim = simcore.Simulator(dev, frames=True)
    s = sim.state()
    assert s["phase"] == "error" and s["error"] == 1
    assert any(DAMAGED[name][1] in line for line in logs)
    assert any(row.count("ff0000") for row in s["frame"])  # the red error glyph
    sim.run_line("wait 5000", 1)
    assert sim.state()["phase"] == "menu"
    dev.start_game("layers", [0, 1], 0)
    sim.run_line("press A", 2)
    assert dev.state()["phase"] not in ("menu", "error")  # playing with the deck it had


def test_a_deck_too_big_for_the_matrix_is_refused_and_the_deck_it_had_plays(tmp_path):
    """A 12x12 deck on an 8x8 matrix would be drawn past the matrix's edge: the error glyph and a
    line saying what and where, and Layers goes on with the deck the device had."""
    from test_flash import _big_deck
    _big_deck(tmp_path / "big.deck", 12)
    files = device_files()
    files["decks/big.deck"] = (tmp_path / "big.deck").read_bytes()
    logs = []
    dev = simcore.make_device(files, 8, 8, 1, None, 2, logs.append)
    had = dev.deck_path
    assert startup.check_deck(dev, "decks/big.deck") is False
    assert dev.deck_path == had
    s = simcore.Simulator(dev, frames=True).state()
    assert s["phase"] == "error" and s["error"] == 1
    assert any("decks/big.deck: size 12: a 12x12 pattern is too big for the 8x8 matrix" in line for line in logs)
    # the same deck on a 16x16 matrix is taken
    dev = simcore.make_device(files, 16, 16, 1, None, 2, logs.append)
    assert startup.check_deck(dev, "decks/big.deck") is True
