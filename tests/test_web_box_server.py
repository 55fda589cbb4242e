"""The server behind "Your box": it answers only its own page, takes a set file up to a size,
runs one build at a time, and is a thin layer over `layerlight cards` (the page's TOML is the
file `cards build` reads, its messages are the loader's)."""

import http.client
import json
import os
import time

import pytest

from layerlight import geometry, otlo_tiles
from layerlight_tools import firmware_files
from layerlight_tools.otlo import sets as otlo_sets
from layerlight_tools.web import box, server

SETS = os.path.join(firmware_files.REPO, "host_tools", "sets")


@pytest.fixture(scope="module")
def port():
    srv = server.start_in_thread(server.Site())
    yield srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def request(port, method, path, body=None, host=None, origin=None, headers=None):
    """(status, JSON answer or None): an HTTP request with the Host and Origin given."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True)
        conn.putheader("Host", host or "127.0.0.1:%d" % port)
        if origin:
            conn.putheader("Origin", origin)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        if data is not None:
            conn.putheader("Content-Length", str(len(data)))
        conn.endheaders()
        if data:
            conn.send(data)
        r = conn.getresponse()
        raw = r.read()
        try:
            return r.status, json.loads(raw)
        except ValueError:
            return r.status, None
    finally:
        conn.close()


def shipped(name):
    return box.open_shipped(name)["model"]


# --- only its own page -------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example", "evil.example:%d", "127.0.0.1:1", "localhost", "0.0.0.0:%d"])
def test_a_request_for_another_host_is_refused(port, host):
    """A DNS-rebound name (evil.example pointing at 127.0.0.1) reaches the server with its own
    Host: refused, for a page as for a build."""
    host = host % port if "%d" in host else host
    status, answer = request(port, "GET", "/", host=host)
    assert status == 403 and "answers only http://127.0.0.1:%d/" % port in answer["error"]
    status, answer = request(port, "POST", "/box/check", {"model": shipped("default.toml")}, host=host)
    assert status == 403


def test_its_own_names_are_answered(port):
    for host in ("127.0.0.1:%d" % port, "localhost:%d" % port):
        assert request(port, "GET", "/box/shipped.json", host=host)[0] == 200
    assert request(port, "POST", "/box/check", {"model": shipped("default.toml")},
                   origin="http://localhost:%d" % port)[0] == 200


def test_on_port_80_its_own_page_is_answered():
    """A browser leaves HTTP's own port out of the Host and the Origin (`sim --web --port 80`, which
    binding port 80 needs an administrator for: the names the handler takes as its own)."""
    assert set(server.own_hosts(80)) == {"127.0.0.1:80", "localhost:80", "127.0.0.1", "localhost"}
    assert set(server.own_hosts(8765)) == {"127.0.0.1:8765", "localhost:8765"}


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1:%d"])
def test_a_request_from_another_sites_page_is_refused(port, origin):
    """Another tab's page may send a form or a fetch to 127.0.0.1: the browser names its Origin."""
    origin = origin % port if "%d" in origin else origin
    before = request(port, "GET", "/box/build")[1]
    status, answer = request(port, "POST", "/box/build", {"model": shipped("default.toml")}, origin=origin)
    assert status == 403 and answer["error"] == "this server answers only its own page, not a request from %s" % origin
    assert request(port, "GET", "/box/build")[1] == before   # no build started
    assert request(port, "GET", "/manifest.json", origin=origin)[0] == 403


def test_an_upload_has_a_size_limit(port):
    big = b"#" * (box.MAX_UPLOAD + 1)
    status, answer = request(port, "POST", "/box/open?name=huge.toml", big)
    assert status == 413
    assert answer["error"] == "huge.toml: %d bytes, more than a set file can be (at most 512 KB)" % len(big)
    # up to the limit, the set loader has its say
    status, answer = request(port, "POST", "/box/open?name=huge.toml", b"#" * box.MAX_UPLOAD)
    assert status == 400 and answer["error"] == "huge.toml: size is missing (size = N, the cells of a side, 2 to 16)"
    status, _ = request(port, "POST", "/box/check", b"x" * (box.MAX_UPLOAD + 1))
    assert status == 413


def test_one_build_at_a_time(port):
    model = shipped("default.toml")
    status, answer = request(port, "POST", "/box/build", {"model": model, "file": "default.toml"})
    assert status == 202
    status, answer = request(port, "POST", "/box/build", {"model": model, "file": "other.toml"})
    assert status == 409 and answer["error"] == box.BUSY
    deadline = time.monotonic() + 60
    while request(port, "GET", "/box/build")[1]["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    state = request(port, "GET", "/box/build")[1]
    assert state["state"] == "done" and state["file"] == "default.toml"
    # the deck is the shipped one: the page's TOML of the starter set is what `cards build` reads
    import base64
    with open(os.path.join(firmware_files.FIRMWARE, "decks", "default.deck"), "rb") as f:
        assert base64.b64decode(state["result"]["deck"]) == f.read()
    # the build over, the next is taken
    status, _ = request(port, "POST", "/box/build", {"model": model, "file": "default.toml", "per_level": 1})
    assert status == 202


@pytest.mark.parametrize("body", [b"not json", b"[1]", b'{"model": 3}', b'{"model": {"kind": "layers"}}',
                                  b'{"model": {"kind": "layers", "colors": [], "cards": [{"id": "a", "front": 1}]}}'])
def test_a_request_the_page_never_sends_is_one_line(port, body):
    status, answer = request(port, "POST", "/box/check", body)
    assert status == 400 and "\n" not in answer["error"]


# --- a thin layer over the card tools ------------------------------------------------------------

def test_the_otlo_sets_toml_reads_as_the_shipped_file():
    text = box.to_toml(shipped("otlo.toml"))
    mine = otlo_sets.loads(text, "otlo.toml")
    theirs = otlo_sets.load(os.path.join(SETS, "otlo.toml"))
    assert (mine.name, mine.tile, mine.table, mine.colours, mine.stars) == \
        (theirs.name, theirs.tile, theirs.table, theirs.colours, theirs.stars)
    assert [(t.id, t.front, t.back) for t in mine.tiles] == [(t.id, t.front, t.back) for t in theirs.tiles]


def test_the_otlo_sets_toml_builds_the_shipped_otlo_deck():
    """The page's set file of the shipped tiles, built by the page's builder, is the shipped
    otlo.deck byte for byte (test_otlo_cards checks it is what `cards build` makes of otlo.toml)."""
    import base64
    builds = box.Builds()
    status, _ = builds.start({"model": shipped("otlo.toml"), "file": "otlo.toml"}, run_in_thread=False)
    state = builds.status()
    assert status == 202 and state["state"] == "done", state
    assert state["result"]["line"].startswith("72 challenges")
    with open(os.path.join(firmware_files.FIRMWARE, "decks", "otlo.deck"), "rb") as f:
        assert base64.b64decode(state["result"]["deck"]) == f.read()
    assert otlo_sets.loads(state["toml"], "otlo.toml").tiles   # the text it was built from


@pytest.mark.parametrize("options, line", [
    ({"per_level": 0}, "--per-level must be from 1 to 2000, not 0"),
    ({"max_level": 7}, "--max-level must be from 2 to 5, not 7"),
    ({"per_level": 2.5}, "--per-level must be a whole number"),
])
def test_a_build_option_out_of_range_is_the_line_cards_build_says(options, line):
    """Said as it is typed (the check) and when built, at the build's levels; no build starts."""
    model = shipped("default.toml")
    answer = box.check({"model": model, "file": "default.toml", **options})
    assert (answer["error"], answer["where"]) == (line, {"part": "levels"})
    builds = box.Builds()
    assert builds.start({"model": model, "file": "default.toml", **options}, run_in_thread=False) == \
        (400, {"error": line, "where": {"part": "levels"}})
    assert builds.status() == {"state": "idle"}


def test_odd_characters_survive_the_toml():
    model = shipped("default.toml")
    model["name"] = 'Quote " and \\ back'
    model["colors"][0][0] = '"'
    model["cards"] = [{"id": c["id"], "front": [r.replace("R", '"') for r in c["front"]],
                       "back": [r.replace("R", '"') for r in c["back"]]} for c in model["cards"]]
    answer = box.check({"model": model, "file": "odd.toml"})
    assert answer["error"] is None
    assert answer["views"][0]["orientations"][0] == model["cards"][0]["front"]


def test_a_message_goes_to_its_card_and_cell():
    model = shipped("default.toml")
    model["cards"][1]["back"][2] = "G" + model["cards"][1]["back"][2][1:]
    answer = box.check({"model": model, "file": "default.toml"})
    assert answer["error"].startswith("default.toml:") and "layer river: back row 3, column 1" in answer["error"]
    assert answer["where"] == {"card": 1, "side": "back", "row": 3, "col": 1}
    model = shipped("default.toml")
    model["cards"][3]["id"] = "sun"
    assert box.check({"model": model})["where"] == {"card": 3}
    model = shipped("default.toml")
    model["colors"][1][1] = "blue"
    assert box.check({"model": model})["where"] == {"part": "colours"}


def test_a_resized_card_is_still_a_card():
    for size in (8, 3, 16):
        model = box.resize({"model": shipped("default.toml"), "size": size})["model"]
        assert box.check({"model": model})["error"] is None, size
    model = shipped("otlo.toml")
    model["stars"] = {"1": 9, "2": 18, "3": 27}   # what 3 x 3 tiles can cover
    model = box.resize({"model": model, "size": [3, 3]})["model"]
    assert box.check({"model": model})["error"] is None


def test_front_to_back_is_the_card_turned_over():
    """The back the page copies from a front is the firmware's mirror (a tile not square: the
    mirror otlo_tiles.mirrored_holes asks for)."""
    model = shipped("default.toml")
    for card, view in zip(model["cards"], box.views(model)):
        index = {ch: i + 1 for i, (ch, _) in enumerate(model["colors"])}
        grid = bytes(index.get(ch, 0) for r in card["front"] for ch in r)
        assert box._grid(view["mirrored"], index) == geometry.mirror(grid, 6)
    model = box.resize({"model": shipped("otlo.toml"), "size": [3, 2]})["model"]
    index = {ch: i + 1 for i, (ch, _) in enumerate(model["colors"])}
    for card, view in zip(model["cards"], box.views(model)):
        front = box._grid(card["front"], index)
        assert otlo_tiles.mirrored_holes(front, box._grid(view["mirrored"], index), 3, 2)


def test_tiles_stack_on_the_board_as_otlo_tiles_lays_them():
    model = shipped("otlo.toml")
    # t1 at the bottom left, t2 on top of it turned a quarter, back up
    got = box.stack({"model": model, "stack": [[0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 0, 0]]})
    tile_set = otlo_sets.load(os.path.join(SETS, "otlo.toml"))
    out = bytearray(36)
    otlo_tiles.compose(tile_set.tiles, [(0, 0, 0, 0, 0, 0), (1, 1, 1, 1, 0, 0)], 6, 6, out, 2, 2)
    assert got["cells"] == list(out)
    # a tile off the board is one line
    got = box.stack({"model": model, "stack": [[0, 0, 0, 0, 5, 0]]})
    assert got["error"] == "tile t1 at column 6, row 1 runs off the 6 x 6 board"


# --- limits, builds a reloaded page finds, printing -------------------------------------------------------

def test_the_page_gets_the_builders_limits_from_the_builder(port):
    from layerlight_tools.layers import cards
    status, answer = request(port, "GET", "/box/limits.json")
    assert status == 200 and answer["layers"] == cards.limits()
    assert answer["otlo"]["layers"] == otlo_sets.MAX_TILES and answer["otlo"]["colours"] == otlo_sets.MAX_COLOURS


def test_a_build_keeps_its_set_and_number_and_only_its_decks_are_printed():
    """A page reloaded during a build compares the set file it was of with its own; the PDF is of
    a deck this server built (named by its sha-256), nothing else."""
    builds = box.Builds()
    model = shipped("default.toml")
    status, answer = builds.start({"model": model, "file": "default.toml", "per_level": 2}, run_in_thread=False)
    state = builds.status()
    assert status == 202 and state["state"] == "done" and state["build"] == answer["build"] == 1
    assert state["toml"] == box.to_toml(model) == state["result"]["toml"]
    pdf, name = builds.pdf(state["result"]["deck_sha"])
    assert pdf.startswith(b"%PDF") and name == "default-cards.pdf"
    assert builds.pdf("0" * 64) is None


def test_no_deck_no_pdf(port):
    status, answer = request(port, "GET", "/box/cards.pdf?deck=" + "0" * 64)
    assert status == 404 and answer["error"] == "no such deck here: build it again"


# --- a layer read from a photo (POST /box/photo) -----------------------------------------------------------

def photo_body(jpg, model=None):
    import base64
    import box_photo_fixture
    return {"model": model or box_photo_fixture.model(), "image": base64.b64encode(jpg).decode()}


def test_a_photo_is_read_with_the_sets_own_size_and_colours(port):
    """The route reads the set the page sends (its colours are in another order than the starter
    set's, one of them not the starter's): the cells are that set's layer, and the same layer is named."""
    import box_photo_fixture as fx
    k, jpg = fx.photo("clean")
    status, answer = request(port, "POST", "/box/photo?name=card.jpg", photo_body(jpg))
    assert status == 200, answer
    assert answer["rows"] == fx.rows(fx.grids()[k]) and answer["cells"] == list(fx.grids()[k])
    assert answer["back"] == fx.model()["cards"][k]["back"]
    assert answer["doubts"] == [] and answer["grid_box"] == [40, 600] and answer["preview_size"] == 640
    import base64
    assert base64.b64decode(answer["preview"]).startswith(b"\x89PNG")
    assert answer["same"] == {"card": k, "id": "card%d" % (k + 1), "side": "front", "rot": 0, "differ": 0,
                              "line": "nearest layer of the set: card1, front up, turned 0 (the same cells)"}
    assert answer["how"].startswith("6x6, found by its edge; ")


def test_a_photo_in_harsh_light_says_its_doubts(port):
    import box_photo_fixture as fx
    k, jpg = fx.photo("doubt")
    status, answer = request(port, "POST", "/box/photo?name=card.jpg", photo_body(jpg))
    assert status == 200 and answer["rows"] == fx.rows(fx.grids()[k])
    assert answer["doubts"] == [[3, 2]]


@pytest.mark.parametrize("image, line", [
    (b"hello, not a picture", "notes.txt: not an image (JPEG, PNG, WebP, BMP or TIFF)"),
    (b"", "notes.txt: an empty file"),
])
def test_a_file_that_is_not_a_photo_is_one_line(port, image, line):
    status, answer = request(port, "POST", "/box/photo?name=notes.txt", photo_body(image))
    assert (status, answer) == (400, {"error": line})


def test_a_photo_of_no_card_is_the_readers_line(port):
    import cv2
    import numpy as np
    blank = cv2.imencode(".png", np.full((300, 400, 3), 128, np.uint8))[1].tobytes()
    status, answer = request(port, "POST", "/box/photo?name=grey.png", photo_body(blank))
    assert status == 400 and answer["error"].startswith("grey.png: no layer card found: ")
    assert "\n" not in answer["error"]


def test_a_photo_of_tiles_or_of_no_set_is_refused_in_one_line(port):
    import box_photo_fixture as fx
    _, jpg = fx.photo("clean")
    status, answer = request(port, "POST", "/box/photo?name=card.jpg", photo_body(jpg, shipped("otlo.toml")))
    assert (status, answer["error"]) == (400, "card.jpg: a photo is read as a Layers layer, and this is an OTLO tile set")
    status, answer = request(port, "POST", "/box/photo", {"image": "AAAA"})
    assert (status, answer["error"]) == (400, "not a set model")


def test_a_photo_has_a_size_limit_of_its_own(port):
    """12 MB of photo (sent as base64 with the set) is taken; more is refused before it is read,
    in one line; a set file's route keeps its 512 KB."""
    from layerlight_tools.web import box_photo
    assert box_photo.MAX_PHOTO == 12 << 20
    big = b"x" * (box_photo.MAX_BODY + 1)
    status, answer = request(port, "POST", "/box/photo?name=huge.jpg", big)
    assert (status, answer) == (413, {"error": "huge.jpg: about 12 MB, more than a photo can be here (at most 12 MB): "
                                               "export it smaller"})
    import base64
    body = json_bytes({"model": shipped("default.toml"), "image": base64.b64encode(b"\xff" * (box_photo.MAX_PHOTO + 3)).decode()})
    assert len(body) <= box_photo.MAX_BODY
    status, answer = request(port, "POST", "/box/photo?name=huge.jpg", body)
    assert status == 400 and answer["error"] == "huge.jpg: %d bytes, more than a photo can be here (at most 12 MB): " \
        "export it smaller" % (box_photo.MAX_PHOTO + 3)
    status, _ = request(port, "POST", "/box/check", b"x" * (box.MAX_UPLOAD + 1))
    assert status == 413


def test_a_photo_of_too_many_pixels_is_refused_before_it_is_decoded(port):
    """Small PNGs whose headers say 20000 x 20000 (a decompression bomb: 1.2 GB decoded; Pillow
    calls it one) and 15000 x 10001 (just over the limit)."""
    import struct
    import zlib
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    def png(w, h):
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) \
            + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")
    status, answer = request(port, "POST", "/box/photo?name=bomb.png", photo_body(png(20000, 20000)))
    assert (status, answer) == (400, {"error": "bomb.png: too many pixels, more than a photo can be here "
                                               "(at most 150 million): export it smaller"})
    status, answer = request(port, "POST", "/box/photo?name=big.png", photo_body(png(15000, 10001)))
    assert (status, answer) == (400, {"error": "big.png: 15000 x 10001 pixels, more than a photo can be here "
                                               "(at most 150 million): export it smaller"})


def json_bytes(data):
    return json.dumps(data).encode()


@pytest.mark.parametrize("origin, host", [("http://evil.example", None), (None, "evil.example")])
def test_a_photo_from_another_sites_page_is_refused(port, origin, host):
    import box_photo_fixture as fx
    _, jpg = fx.photo("clean")
    status, answer = request(port, "POST", "/box/photo?name=card.jpg", photo_body(jpg), origin=origin, host=host)
    assert status == 403 and "cells" not in answer
