"""The simulator page end to end, in a real headless browser.

Debian's chromium (driven by Playwright, tests/web/play_round.mjs) loads the
page from our own server, the page runs the firmware on the MicroPython
WebAssembly build, and a 2-player round of Layers is played by clicking the
page's buttons. The LEDs are read back from the page twice, from the canvas
and from a screenshot of it, and compared with the mission in the deck.
Screenshots are kept in test-artifacts/.
"""

import json
import os
import shutil
import subprocess

import pytest
from PIL import Image

from layerlight import modes, screens
from layerlight.deck import Deck
from layerlight_tools import firmware_files, led_colour, simcore
from layerlight_tools.web import server

pytestmark = pytest.mark.browser  # headless Chromium: in make test, not in make quick

REPO = firmware_files.REPO
ARTIFACTS = os.path.join(REPO, "test-artifacts")
SCRIPT = os.path.join(REPO, "tests", "web", "play_round.mjs")
CHROMIUM = os.environ.get("LAYERLIGHT_CHROMIUM", "/usr/bin/chromium")


def rgb(c):
    return "%06x" % ((c[0] << 16) | (c[1] << 8) | c[2]) if isinstance(c, tuple) else "%06x" % c


def cells(rows):
    """Rows of 'RRGGBB...' -> {(x, y): 'rrggbb'}."""
    return {(x, y): row[6 * x:6 * x + 6] for y, row in enumerate(rows) for x in range(len(row) // 6)}


def open_deck():
    storage = simcore.MemoryStorage({"decks/default.deck": open(firmware_files.DEFAULT_DECK, "rb").read()})
    return Deck(storage, "decks/default.deck")


def mission_by_id(deck, ident):
    for i in range(deck.count):
        m = deck.mission(i)
        if m.id == ident:
            return m
    raise AssertionError("mission %d is not in the deck" % ident)


def seen(rows, cap):
    """Frame rows as the page must show them: through the colour model (led_colour)."""
    return ["".join(rgb(c) for c in row) for row in led_colour.frame_screen_rgb(rows, cap)]


def expected_pattern(deck, mission, width, height):
    """{(x, y): 'rrggbb'} of the LEDs the mission pattern covers, placed as the race screen
    promises (test_layers_scenarios.pattern_place, not the firmware's screens.Layout), in the
    values the firmware writes; the page shows them through the colour model."""
    from test_layers_scenarios import pattern_place
    s, x0, y0 = pattern_place(width, height, deck.size)
    colours = [screens.BACKGROUND_LED] + [(r << 16) | (g << 8) | b for r, g, b in deck.colours[1:]]
    out = {}
    n = deck.size
    for cy in range(n):
        for cx in range(n):
            c = rgb(colours[mission.pattern[cy * n + cx]])
            for dy in range(s):
                for dx in range(s):
                    out[(x0 + cx * s + dx, y0 + cy * s + dy)] = c
    return out


def expected_scores(state_before, finish_order, level):
    """Scores after a 2-player round in which every finisher was right (rewards in finishing order)."""
    scores = dict(zip(state_before["seats"], state_before["scores"]))
    for place, seat in enumerate(finish_order):
        reward = state_before["round_tile"][place]
        if reward == "M":
            scores[seat] += level
        elif reward == "S":
            victims = [s for s in scores if s != seat and scores[s] >= 1]
            if victims:
                scores[victims[0]] -= 1
                scores[seat] += 1
        else:
            scores[seat] += reward
    return [scores[s] for s in state_before["seats"]]


@pytest.fixture(scope="module")
def played():
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is not on PATH (it drives the browser)")
    if not os.path.isdir(os.path.join(REPO, "node_modules", "playwright-core")):
        pytest.fail("node_modules/playwright-core is missing: run `make test` (npm ci)")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail("%s is missing: `make test` installs it (apt-get install chromium)" % CHROMIUM)
    srv = server.start_in_thread(server.Site())
    url = server.url_of(srv)
    try:
        r = subprocess.run([node, SCRIPT, url, ARTIFACTS], cwd=REPO, capture_output=True, text=True, timeout=300)
    finally:
        srv.shutdown()
        srv.server_close()
    assert r.returncode == 0, "the browser run failed:\n" + r.stderr[-4000:]
    out = json.loads(r.stdout.strip().split("\n")[-1])
    out["url"] = url
    return out


def test_everything_comes_from_our_server(played):
    assert played["requests"], "no requests seen"
    foreign = [u for u in played["requests"] if not (u.startswith(played["url"]) or u.startswith("data:"))]
    assert foreign == []
    assert played["url"] + "mpy/micropython.wasm" in played["requests"]
    assert played["errors"] == []


def test_the_mode_list_comes_from_the_firmware(played):
    assert played["modes"] == [""] + modes.names()


def test_leds_read_back_from_the_page_show_the_mission_of_the_deck(played):
    race = played["states"]["race"]
    assert race["phase"] == "race" and race["mission"] is not None
    geo = played["geometry"]
    w, h = geo["width"], geo["height"]
    assert (w, h) == (16, 16)
    deck = open_deck()
    mission = mission_by_id(deck, race["mission"]["id"])
    assert mission.level == race["mission"]["level"]
    want = expected_pattern(deck, mission, w, h)
    frame = cells(played["frame"])
    assert {xy: frame[xy] for xy in want} == want
    # every LED on the canvas is the firmware's frame as the eye sees the LEDs (the colour model
    # at the firmware's brightness), pattern or not
    canvas = cells(played["leds"])
    assert played["leds"] == seen(played["frame"], 0.25)
    # and the screenshot shows the same colours at the centre of each LED
    img = Image.open(os.path.join(ARTIFACTS, "web-race-matrix.png")).convert("RGB")
    px, py = geo["css_pitch_x"] * geo["dpr"], geo["css_pitch_y"] * geo["dpr"]
    assert img.size == (round(px * w), round(py * h))
    shot = {(x, y): rgb(img.getpixel((int((x + 0.5) * px), int((y + 0.5) * py)))) for y in range(h) for x in range(w)}
    assert shot == canvas


def test_the_round_was_played_by_clicking(played):
    st = played["states"]
    assert st["boot"]["game"] == "menu"
    assert st["round_tile"]["phase"] == "round_tile" and st["round_tile"]["players"] == 2
    assert st["verify"]["finish_order"] == [2, 1]
    scores = st["scores"]
    assert scores["phase"] == "scores" and scores["round"] == 1
    assert scores["scores"] == expected_scores(st["round_tile"], [2, 1], st["race"]["mission"]["level"])
    # the buzzer sounded (ticks, the reveal, the finish) and reached WebAudio
    assert played["notes"] > 0
    assert played["audio"] == "running"
    assert os.path.getsize(os.path.join(ARTIFACTS, "web-race.png")) > 10000


def test_pulling_the_plug_keeps_the_flash(played):
    assert all(v == "000000" for v in cells(played["dark"]).values())
    after = played["states"]["after_unplug"]
    assert after["game"] == "menu" and after["t"] < 1000
    assert set(played["flash_before"]) <= set(played["flash_after"])
    if "game.json" in played["flash_before"]:
        # the firmware saved the game: the menu offers it and A resumes it
        resumed = played["states"]["resumed"]
        before = played["states"]["scores"]
        for key in ("game", "round", "scores", "mission", "seats"):
            assert resumed[key] == before[key], key


def test_time_speed_up(played):
    s = played["speedup"]
    assert s["virtual_ms"] > 4 * s["real_ms"]


def test_other_matrix_sizes(played):
    for size, got in played["sizes"].items():
        w, h = map(int, size.split("x"))
        assert (got["width"], got["height"]) == (w, h)
        assert len(got["frame"]) == h and all(len(row) == 6 * w for row in got["frame"])
        assert got["leds"] == seen(got["frame"], 0.25)
        assert any(v != "000000" for v in cells(got["frame"]).values())
        assert got["status"]["t"] < 2000


def test_the_page_shows_coops_six_colours_as_the_leds_do(played):
    """Each of CO.OP's six colours, as the page renders it (a screenshot of the matrix, at the
    centre of an LED), is within 10 CIEDE2000 of what the colour model says the eye sees on the
    LEDs, at the brightness the firmware set: yellow no longer looks orange, nor orange and pink
    like P1's red."""
    from layerlight.modes import coop
    got = played["coop"]
    assert got["status"]["phase"] == "cards" and got["cap"] == "0.25"
    frame = cells(got["frame"])
    geo = played["geometry"]
    img = Image.open(os.path.join(ARTIFACTS, "web-coop-matrix.png")).convert("RGB")
    px, py = img.size[0] / 16, img.size[1] / 16
    for value in coop.LED:
        where = [xy for xy, v in frame.items() if v == rgb(value)]
        assert where, "%06x is not on the cards screen" % value
        x, y = where[0]
        page = img.getpixel((int((x + 0.5) * px), int((y + 0.5) * py)))
        model = led_colour.Color("srgb", [v / 255 for v in led_colour.screen_rgb(value, 0.25)])
        diff = led_colour.Color("srgb", [v / 255 for v in page]).delta_e(model, method="2000")
        assert diff <= 10, "%06x: the page shows %s, the model %s (%.1f apart)" % (value, page, model, diff)
    # the check has teeth: the value itself as a screen colour is further than that for yellow
    yellow = led_colour.Color("srgb", [0xFF / 255, 0xA0 / 255, 0])
    assert yellow.delta_e(led_colour.Color("srgb", [v / 255 for v in led_colour.screen_rgb(0xFFA000, 0.25)]),
                          method="2000") > 10
    assert geo["width"] == 16
