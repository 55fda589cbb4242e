""""Your box": a layer added from a photo (issue 44, item 4), in Debian's chromium through the
page's controls (tests/web/box_photo.mjs, once for the file, about 15 s).

The photos are tests/photo_synth.py's of the printed layers of a small set (box_photo_fixture:
its colours in another order than the starter's); the page has the set open, uploaded as a file.
What the page shows is checked against the set's own layers and the reader's own answer.
"""

import json
import os

import pytest

import box_photo_fixture as fx
from layerlight import geometry
from layerlight_tools import firmware_files
from page_run import run_page

pytestmark = pytest.mark.browser  # headless Chromium: in make test, not in make quick

REPO = firmware_files.REPO
SCRIPT = os.path.join(REPO, "tests", "web", "box_photo.mjs")
BACKGROUND = "#f5f0e6"
FIX = {"x": 0, "y": 0}     # the cell the player corrects


def rgb(hex_):
    return "rgb(%d, %d, %d)" % tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))


def shown(rows):
    """The colours the page paints rows of cells in, row by row (a hole: the set's background)."""
    colours = dict(fx.COLOURS)
    return [rgb(colours.get(ch, BACKGROUND)) for row in rows for ch in row]


def corrected_rows():
    """Layer 0's front with FIX painted in colour 1, or colour 2 where it was colour 1."""
    rows = fx.rows(fx.grids()[0])
    ch = fx.COLOURS[1][0] if rows[FIX["y"]][FIX["x"]] == fx.COLOURS[0][0] else fx.COLOURS[0][0]
    rows[FIX["y"]] = rows[FIX["y"]][:FIX["x"]] + ch + rows[FIX["y"]][FIX["x"] + 1:]
    return rows, 1 + [c for c, _ in fx.COLOURS].index(ch)


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    out = tmp_path_factory.mktemp("photo")
    for which in fx.PHOTOS:
        (out / ("%s.jpg" % which)).write_bytes(fx.photo(which)[1])
    (out / "notes.txt").write_text("a shopping list, not a photo\n")
    _, colour = corrected_rows()
    plan = {"set": fx.set_text(), "clean": str(out / "clean.jpg"), "doubt": str(out / "doubt.jpg"),
            "bad": str(out / "notes.txt"), "fix": dict(FIX, colour=colour)}
    (out / "plan.json").write_text(json.dumps(plan))
    return run_page(SCRIPT, [out / "plan.json"], 300)


def test_the_set_is_open_as_the_fixture_has_it(seen):
    assert seen["before"] == fx.model()


def test_a_photo_of_a_layer_of_the_set_shows_that_layers_cells_and_says_it_is_in_the_set(seen):
    c = seen["clean"]
    assert c["msg"] is None
    got = c["reading"]
    assert got["colours"] == shown(fx.rows(fx.grids()[0]))
    assert got["preview"] == 640 and got["doubts"] == [] and got["marks"] == []
    assert got["doubtLine"] == "no cell in doubt"
    assert got["how"].startswith("clean.jpg: 6x6, found by its edge; ")
    assert got["same"] == "nearest layer of the set: card1, front up, turned 0 (the same cells): " \
                          "this layer is in the set already"


def test_the_cells_in_doubt_are_ringed_on_the_cells_and_on_the_picture(seen):
    d = seen["doubt"]["reading"]
    assert d["colours"] == shown(fx.rows(fx.grids()[1]))
    assert d["doubts"] == [[1, 2]]          # row 3, column 2: the reader's doubt (test_web_box_server)
    assert d["doubtLine"] == "1 cell in doubt (ringed): look at it on the card first"
    [mark] = d["marks"]
    cell = (600 - 40) / fx.SIZE / 640
    assert mark["shown"]
    assert abs(mark["left"] - (40 / 640 + 1 * cell)) < 0.01 and abs(mark["top"] - (40 / 640 + 2 * cell)) < 0.01
    assert abs(mark["width"] - cell) < 0.01


def test_a_corrected_cell_is_painted_and_added_with_the_back_turned_over(seen):
    rows, _ = corrected_rows()
    assert seen["clean"]["corrected"]["colours"] == shown(rows)
    a = seen["added"]
    card = a["model"]["cards"][-1]
    index = {ch: i + 1 for i, (ch, _) in enumerate(fx.COLOURS)}
    grid = bytes(index.get(ch, 0) for r in rows for ch in r)
    assert (card["id"], card["front"]) == ("layer4", rows)
    assert card["back"] == fx.rows(geometry.mirror(grid, fx.SIZE))
    assert a["model"]["cards"][:-1] == seen["before"]["cards"]
    assert a["reading"] is None and a["msg"] is None and a["setMsg"] is None and a["cardMsg"] is None


def test_adding_is_one_step_undo_takes_it_off_and_redo_puts_it_back(seen):
    assert seen["added"]["steps"] == 1
    assert seen["undone"] == seen["before"]
    assert seen["redone"] == seen["added"]["model"]


def test_a_file_that_is_not_a_photo_is_one_line_and_adds_nothing(seen):
    b = seen["bad"]
    assert b["msg"] == "notes.txt: not an image (JPEG, PNG, WebP, BMP or TIFF)"
    assert b["reading"] is None and b["cards"] == len(fx.model()["cards"]) and b["steps"] == 0


def test_no_stale_message_after_a_photo_is_read(seen):
    assert seen["bad"]["msg"] and seen["doubt"]["msg"] is None


def test_cancel_adds_nothing(seen):
    c = seen["cancel"]
    assert c["shown"] and c["after"]["reading"] is None and c["after"]["cards"] == c["after"]["before"]


def test_no_errors_in_the_browser(seen):
    refused = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    assert [e for e in seen["errors"] if e != refused] == []
