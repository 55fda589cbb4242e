"""`sim --web --flash DIR`: what the page's device writes reaches the folder, and only that."""

import base64
import json
import urllib.error
import urllib.request

from layerlight import playlog
from layerlight_tools.web import server, webdevice
from layerlight_tools.firmware_files import device_files

import pico_games


def post(url, body):
    req = urllib.request.Request(url + "flash-write", data=body.encode(), method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def play(web, script):
    """A script on the page's device, as the page drives it (buttons queued, time advanced)."""
    names = ["P1", "P2", "P3", "P4", "A", "B"]
    for line in script.strip().split("\n"):
        words = line.split()
        if words[0] == "press":
            b = names.index(words[1])
            web.button(b, 1)
            web.advance(80)
            web.button(b, 0)
            web.advance(80)
        elif words[0] == "hold":
            b = names.index(words[1])
            web.button(b, 1)
            for _ in range(int(words[2]) // 500 + 1):
                web.advance(500)
            web.button(b, 0)
            web.advance(80)
        elif words[0] == "wait":
            for _ in range(int(words[1]) // 500 + 1):
                web.advance(500)


def test_the_pages_writes_reach_the_folder_and_the_next_page_starts_from_them(tmp_path):
    config = dict(pico_games.SHORT)
    site = server.Site(16, 16, 1, "time-attack", 1, config=config, flash_dir=str(tmp_path))
    srv = server.start_in_thread(site)
    try:
        url = server.url_of(srv)
        manifest = json.loads(urllib.request.urlopen(url + "manifest.json").read())
        assert manifest["keep_flash"] is True
        web = webdevice.WebDevice(device_files(None, config), 16, 16, 1, "time-attack", 1)
        assert list(json.loads(web.flash_changes())) == ["game.json"]  # the game it started is saved
        assert web.flash_changes() == "{}"  # nothing new: nothing to send
        play(web, pico_games.time_attack("time-attack"))
        changes = web.flash_changes()
        assert playlog.LOG in json.loads(changes)
        assert post(url, changes) == 204
        assert web.flash_changes() == "{}"  # sent once
        records, bad = playlog.parse((tmp_path / playlog.LOG).read_bytes())
        assert [r["mode"] for r in records] == ["time-attack"] and bad == 0
        # the page may not write outside the device's own files
        for name in ("../x", "decks/default.deck", "layerlight.json"):
            assert post(url, json.dumps({name: base64.b64encode(b"x").decode()})) == 400
        assert post(url, "not json") == 400
        assert not (tmp_path.parent / "x").exists()
    finally:
        srv.shutdown()
    # a new page over the same folder starts with the log on its flash
    again = server.Site(16, 16, 1, None, 0, config=config, flash_dir=str(tmp_path))
    assert again.get("/flash/" + playlog.LOG)[0] == (tmp_path / playlog.LOG).read_bytes()
    # without --flash the page cannot write at all
    plain = server.start_in_thread(server.Site(16, 16, 1))
    try:
        assert post(server.url_of(plain), json.dumps({"bests.json": ""})) == 400
    finally:
        plain.shutdown()
