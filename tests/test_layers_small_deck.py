"""A small deck of the table's own (four layers on 2x2: only level-2 missions) on the device.

Layers deals levels 3-5: started with such a deck it says so at once, on the matrix (the error
glyph, E3) and on the console with the levels the deck has, before anyone joins, then the menu
comes back; it never takes the table through joining and the first player to drop to the menu.
Layers+ (levels 2-5) plays the same deck. The same script gives the same trace on CPython and
on the real MicroPython (WebAssembly).
"""

import json

import pytest

from layerlight_tools import simcore
from layerlight_tools.layers import cards, deckpack, sets
from mpy import run_micropython
from scenario_lib import check_invariants

MOUNTS = ["firmware:/", "host_tools/layerlight_tools:/lib/layerlight_tools"]
CONFIG = {"deck": "decks/small.deck"}

SMALL = """name = "Small"
size = 2

[colors]
R = "#e03a3e"
B = "#1f6fd1"
""" + "".join("""
[[layers]]
id = "l%d"
front = %s
back = %s
""" % (k, json.dumps(f), json.dumps(b)) for k, (f, b) in enumerate([
    (["..", ".."], ["..", ".."]), (["R.", ".."], [".B", ".."]), ([".R", ".."], ["B.", ".."]),
    (["RR", ".."], ["BB", ".."])]))


@pytest.fixture(scope="module")
def small_deck(tmp_path_factory):
    layer_set = sets.loads(SMALL, "small.toml")
    data = deckpack.pack(layer_set, cards.build(layer_set))
    folder = tmp_path_factory.mktemp("small") / "decks"
    folder.mkdir()
    (folder / "small.deck").write_bytes(data)
    return folder


def run_cpython(folder, script, game):
    from layerlight_tools import firmware_files
    files = dict(firmware_files.device_files())
    files["decks/small.deck"] = (folder / "small.deck").read_bytes()
    files["layerlight.json"] = json.dumps(CONFIG).encode()
    dev = simcore.make_device(files, 16, 16, 3, game, 2)
    out = []
    simcore.Simulator(dev, frames=False).run(script.split("\n"), out.append)
    return out


def run_both(folder, script, game):
    cpy = run_cpython(folder, script, game)
    res = run_micropython("tests/wasm/scenario_entry.py", args=[game, "2", "3", "16", "16", "0", json.dumps(CONFIG)],
                          mounts=MOUNTS + ["%s:/decks" % folder], stdin=script)
    assert res.returncode == 0, res.stderr
    mpy = res.stdout.rstrip("\n").split("\n")
    assert mpy == cpy
    check_invariants(mpy)
    return [json.loads(x) for x in mpy]


def test_the_small_deck_has_only_level_2(small_deck):
    deck = cards.open_deck(str(small_deck / "small.deck"))
    assert [m.level for m in cards.missions_of(deck)] and {m.level for m in cards.missions_of(deck)} == {2}


def test_layers_says_at_once_that_the_deck_has_no_level_it_deals(small_deck):
    out = run_both(small_deck, "wait 100\nwait 4000\n", "layers")
    first = out[0]
    assert (first["game"], first["phase"], first["error"]) == ("menu", "error", 3)
    assert first["players"] == 0 and first["round"] is None   # nobody asked to join first
    assert (out[1]["game"], out[1]["phase"]) == ("menu", "menu")


def test_the_console_names_the_levels(small_deck):
    from layerlight_tools import firmware_files
    files = dict(firmware_files.device_files())
    files["decks/small.deck"] = (small_deck / "small.deck").read_bytes()
    files["layerlight.json"] = json.dumps(CONFIG).encode()
    lines = []
    dev = simcore.make_device(files, 16, 16, 3, None, 0, log=lines.append)
    dev.start_game("layers")
    assert "error E3: layers deals levels 3-5; the deck has no missions of them (its levels: 2)" in lines


def test_layers_plus_plays_the_same_deck(small_deck):
    out = run_both(small_deck, "wait 100\npress A\n", "layers-plus")
    assert out[0]["phase"] == "choose_deck" and out[0].get("error") is None
    assert out[1]["phase"] == "race" and out[1]["mission"]["level"] == 2
