"""The server of `layerlight sim --web`: what it serves, with which types, and to whom."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from layerlight_tools import firmware_files
from layerlight_tools.web import server


@pytest.fixture(scope="module")
def site_url():
    srv = server.start_in_thread(server.Site(32, 32, 7, "layers", 3))
    yield server.url_of(srv)
    srv.shutdown()
    srv.server_close()


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers.get("Content-Type"), r.read()


def test_bound_to_localhost_only(site_url):
    assert site_url.startswith("http://127.0.0.1:")


@pytest.mark.parametrize("path, ctype", [
    ("", "text/html"),
    ("app.js", "text/javascript"),
    ("style.css", "text/css"),
    ("mpy/micropython.mjs", "text/javascript"),
    ("mpy/micropython.wasm", "application/wasm"),
    ("manifest.json", "application/json"),
])
def test_types(site_url, path, ctype):
    status, got, body = get(site_url + path)
    assert status == 200 and got.split(";")[0] == ctype and body


def test_the_wasm_is_the_npm_package(site_url):
    with open(os.path.join(server.WASM_PACKAGE, "micropython.wasm"), "rb") as f:
        assert get(site_url + "mpy/micropython.wasm")[2] == f.read()


def test_manifest_lists_the_firmware_the_simulator_and_the_flash(site_url):
    m = json.loads(get(site_url + "manifest.json")[2])
    assert m["device"] == {"width": 32, "height": 32, "seed": 7, "game": "layers", "players": 3}
    paths = {f["path"]: f["url"] for f in m["code"]}
    assert "/layerlight/app.py" in paths and "/layerlight/modes/layers.py" in paths
    assert "/lib/layerlight_tools/simcore.py" in paths and "/lib/layerlight_tools/web/webdevice.py" in paths
    for path, url in paths.items():
        body = get(site_url + url.lstrip("/"))[2]
        if path.startswith("/layerlight/"):
            with open(os.path.join(firmware_files.FIRMWARE, path[1:]), "rb") as f:
                assert body == f.read()
    flash = {f["name"]: f["url"] for f in m["flash"]}
    with open(firmware_files.DEFAULT_DECK, "rb") as f:
        assert get(site_url + flash["decks/default.deck"].lstrip("/"))[2] == f.read()


@pytest.mark.parametrize("path", ["nothing", "../README.md", "code/firmware/../../README.md",
                                  "%2e%2e/pyproject.toml", "code/firmware/layerlight/nope.py"])
def test_nothing_else(site_url, path):
    with pytest.raises(urllib.error.HTTPError) as e:
        get(site_url + path)
    assert e.value.code == 404


def test_port_0_picks_a_free_port_and_prints_the_url():
    p = subprocess.Popen([sys.executable, "-m", "layerlight_tools.cli", "sim", "--web", "--port", "0", "--no-open"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0/")
        assert get(url)[0] == 200
    finally:
        p.terminate()
        p.wait(timeout=10)
        p.stdout.close()
        p.stderr.close()


def test_web_and_headless_do_not_mix():
    r = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "sim", "--web", "--headless", "--no-open"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--web" in r.stderr


def test_the_table_config_goes_onto_the_page_devices_flash():
    """`sim --web --config FILE`: the settings become the simulated device's layerlight.json."""
    site = server.Site(config={"paper_tokens": {"2": [9, 1]}})
    body, ctype = site.get("/flash/layerlight.json")
    assert json.loads(body) == {"paper_tokens": {"2": [9, 1]}}
    manifest = json.loads(site.get("/manifest.json")[0])
    assert "layerlight.json" in [f["name"] for f in manifest["flash"]]


def test_the_page_gets_the_colour_model_for_every_brightness():
    from layerlight_tools import led_colour
    model = json.loads(server.Site().get("/led-colours.json")[0])
    assert model["default"] == "0.25"
    assert set(model["tables"]) == {"0.1", "0.25", "0.5", "1"}
    for cap, table in model["tables"].items():
        assert bytes(table) == led_colour.screen_table(float(cap))
