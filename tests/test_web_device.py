"""The device behind the web page (web/webdevice.py), under CPython; the browser test runs it on MicroPython."""

import json

from layerlight import modes
from layerlight_tools import firmware_files
from layerlight_tools.web.webdevice import WebDevice, mode_names


def device(**kw):
    return WebDevice(firmware_files.device_files(), **kw)


def state(web):
    return json.loads(web.status())


def click(web, b):
    web.button(b, True)
    web.button(b, False)  # in the same instant: the device still sees a whole press
    web.advance(200)


def test_boots_to_the_menu_or_into_a_game():
    assert state(device())["game"] == "menu"
    s = state(device(game="layers", players=3))
    assert s["phase"] == "round_tile" and s["players"] == 3
    assert state(device(game="layers"))["phase"] == "join"


def test_a_click_faster_than_a_frame_is_a_whole_press():
    web = device(game="layers")
    for b in (0, 1, 0):   # P1 joins, P2 joins, P1 leaves again
        click(web, b)
    assert state(web)["players"] == 1


def test_advance_is_in_loop_passes_and_bounded():
    web = device()
    assert web.advance(25) == 20
    assert web.advance(10 ** 6) <= 1000
    assert state(web)["t"] == web.t


def test_frame_only_when_it_changed():
    web = device(width=8, height=8)
    first = web.frame()
    assert len(first) == 8 * 8 * 6
    assert web.frame() == ""


def test_tones_are_timed_and_drained():
    web = device()
    web.tones()
    click(web, 5)  # B in the menu: a tick
    items = [tuple(map(int, x.split(":"))) for x in web.tones().split(",")]
    assert items[0][1] > 0 and items[-1][1] == 0
    assert web.tones() == ""


def test_pulling_the_plug_keeps_the_flash_and_boots_to_the_menu():
    web = device(game="layers", players=2)
    web.dev.hw.storage.files["note.txt"] = b"kept"
    web.advance(500)
    web.pull_plug(5)
    assert web.t == 0 and state(web)["game"] == "menu"
    assert web.dev.hw.storage.files["note.txt"] == b"kept"
    web.reset(16, 16, 5)
    assert "note.txt" not in web.dev.hw.storage.files


def test_mode_names():
    assert mode_names().split(",") == modes.names()
