""""Your box" as a beginner meets it (issue 44), in Debian's chromium through the page's controls.

tests/web/box_editor.mjs drives the page once for the file (about 40 s): undo and redo, zoom,
the background, the previews at 16x16 and 2x2, a blank set and a first small set built and
played, Build clicked twice, a refusal after a build, a card's message and its line in the set
file, the builder's limits while painting, an odd file name and a name with umlauts (the
commands, the set file, the deck, the printed cards), and a reload in the middle of a build.
These tests check what it saw against the command line (`cards build`, `cards render`).
"""

import json
import os
import subprocess
import sys

import pytest

from layerlight_tools import firmware_files
from layerlight_tools.layers import cards, playable, stackings
from page_run import run_page

from test_layers_playable import layer_set_text
from test_layers_small_deck import SMALL

pytestmark = pytest.mark.browser  # headless Chromium: in make test, not in make quick

REPO = firmware_files.REPO
SCRIPT = os.path.join(REPO, "tests", "web", "box_editor.mjs")
PLAN = {"small": SMALL, "many": layer_set_text(stackings.MAX_LAYERS + 1, size=3),
        "most": layer_set_text(stackings.MAX_LAYERS, size=3), "background": "#123456",
        "odd_file": "weird name (v2).toml", "umlaut_name": "Grüße aus Köln"}


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    out = tmp_path_factory.mktemp("editor")
    (out / "plan.json").write_text(json.dumps(PLAN))
    got = run_page(SCRIPT, [out, out / "plan.json"], 500)
    got["dir"] = str(out)
    return got


def cli(folder, *argv):
    r = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", *argv], cwd=folder, capture_output=True,
                       text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


# --- an editor a player trusts -------------------------------------------------------------------------

def test_undo_takes_back_a_stroke_a_click_and_a_name_one_step_each(seen):
    u = seen["undo"]
    painted = u["painted"]["cards"][0]["front"]
    assert painted[0] == "RRR..." and painted[5] == ".....B" and u["painted"]["name"] == "Stroke test"
    assert u["name_undone"]["name"] == u["before"]["name"] and u["name_undone"]["cards"] == u["painted"]["cards"]
    assert u["click_undone"]["cards"][0]["front"][5] == "......" and u["click_undone"]["cards"][0]["front"][0] == "RRR..."
    assert u["stroke_undone"] == u["before"]          # the whole stroke in one step
    assert u["stroke_redone"]["cards"][0]["front"][0] == "RRR..."
    assert (u["add_undone"], u["add_redone"]) == (2, 3)


def test_zoom_makes_a_cards_cells_larger_and_back(seen):
    z = seen["zoom"]
    assert z["after"][1] >= 2 * z["before"][1] and z["after"][0] == z["before"][0]
    assert z["back"] == z["before"]


def test_the_background_shows_in_the_holes(seen):
    b = seen["background"]
    assert b["after"] == "rgb(18, 52, 86)" and b["before"] != b["after"]


@pytest.mark.parametrize("n, least", [(16, 6), (2, 20)])
def test_the_previews_stay_inside_their_card_and_readable(seen, n, least):
    got = seen["previews"][str(n)]
    leds = [p["led"] for p in got if "led" in p]
    assert len(leds) == 3 * 8     # three cards, eight orientations each
    assert min(leds) >= least
    assert all(p["inside"] for p in got), [p for p in got if not p["inside"]]


# --- what is built plays ----------------------------------------------------------------------------------

def test_a_blank_set_says_at_the_build_that_no_mode_can_play_it(seen):
    b = seen["blank"]
    assert b["line"], b
    assert b["line"].startswith("my-box.deck: 0 missions (no missions)")
    assert b["msg"] == "my-box.deck: no mode can play this deck: " + playable.NOTHING
    assert not b["play"] and not b["deck"] and not b["print"] and b["modes"] == []


def test_a_first_small_set_says_who_plays_it_and_play_starts_that_mode(seen, tmp_path):
    s = seen["small"]
    (tmp_path / "small.toml").write_text(SMALL)
    code, out, err = cli(str(tmp_path), "cards", "build", "small.toml", "-o", "small.deck", "-q")
    lines = out.strip().split("\n")
    assert code == 0 and s["plays"] == lines[1] == "plays in: LAYERS+ (level 2), TIME ATTACK+ (level 2)"
    assert s["whynot"] == [line.strip() for line in lines[2:]] and s["whynot"][0].startswith("LAYERS deals levels 3-5")
    assert s["modes"] == ["layers-plus", "time-attack-plus"] and s["play"] and s["msg"] is None
    assert s["device"] == "layers-plus"
    assert s["race"]["game"] == "layers-plus" and s["race"]["phase"] == "race" and s["race"]["mission"]["level"] == 2


def test_build_clicked_twice_is_one_build_and_no_error(seen):
    t = seen["twice"]
    assert t["msg"] is None and t["result"] and t["stage"] == "built"


def test_a_refusal_after_a_build_does_not_say_built(seen):
    r = seen["refused"]
    assert r["levels"] == "--max-level must be from 2 to 5, not 7"
    assert r["stage"] in (None, "") and r["msg"] is None


def test_a_cards_message_links_to_its_line_and_the_builds_goes_once_fixed(seen):
    b = seen["bad"]
    assert b["card"].startswith("weird name (v2).toml:") and "layer l0: back row 2, column 1 is opaque" in b["card"]
    assert b["build"] == b["card"]
    line = int(b["card"].split(":")[1])
    assert b["link"]["open"] and int(b["link"]["number"]) == line
    assert b["link"]["line"].strip() == "R."    # back row 2 of l0, as the set file has it
    assert b["fixed"] == {"card": None, "build": None}


def test_the_builders_limits_are_shown_while_painting(seen, tmp_path):
    lim = cards.limits()
    status = seen["limits"]["status"]
    assert "4 layers (%d to %d)" % (lim["min_layers"], lim["layers"]) in status
    assert "(at most %d)" % lim["colours"] in status and "(%d to %d a side)" % tuple(lim["size"]) in status
    many = seen["limits"]["many"]
    (tmp_path / "many.toml").write_text(PLAN["many"])
    code, _, err = cli(str(tmp_path), "cards", "build", "many.toml", "-o", "many.deck", "-q")
    assert code == 2 and "Traceback" not in err
    assert many["levels"] == err.strip()[len("layerlight: "):]     # the command line's line, before any build
    assert many["levels"] == "many.toml: %d layers; the builder takes at most %d: remove 1" % (
        lim["layers"] + 1, lim["layers"])
    assert many["add"] and many["status"].startswith("%d layers" % (lim["layers"] + 1))
    most = seen["limits"]["most"]
    assert most["add"] and most["levels"].endswith("use --max-level 2")


# --- commands, text, printing ---------------------------------------------------------------------------

def test_the_commands_are_quoted_for_a_shell_and_make_the_same_deck(seen):
    o = seen["odd"]
    assert o["command"] == "layerlight cards build 'weird name (v2).toml' -o 'weird name (v2).deck'"
    assert o["render"] == "layerlight cards render 'weird name (v2).deck' -o 'weird name (v2)-cards.pdf'"
    folder = os.path.dirname(o["toml"])
    bin_dir = os.path.dirname(sys.executable)
    r = subprocess.run(["bash", "-c", o["command"].replace("layerlight", os.path.join(bin_dir, "layerlight"), 1)
                        + " -q -o shell.deck"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(folder, "shell.deck"), "rb") as f, open(o["deck"], "rb") as g:
        assert f.read() == g.read()


def test_the_saved_set_keeps_its_text_as_written(seen):
    with open(seen["odd"]["toml"], "rb") as f:
        raw = f.read()
    assert 'name = "Grüße aus Köln"'.encode("utf-8") in raw and b"\\u00" not in raw


def test_print_your_box_is_what_cards_render_makes(seen):
    o = seen["odd"]
    assert os.path.basename(o["pdf"]) == "weird name (v2)-cards.pdf"
    folder = os.path.dirname(o["deck"])
    code, out, err = cli(folder, "cards", "render", os.path.basename(o["deck"]), "-o", "cli.pdf")
    assert code == 0, err
    with open(os.path.join(folder, "cli.pdf"), "rb") as f, open(o["pdf"], "rb") as g:
        assert f.read() == g.read()


def test_a_reload_in_the_middle_of_a_build_finds_it(seen):
    r = seen["reload"]
    assert r["after"]["result"] and r["after"]["msg"] is None
    assert r["after"]["line"].startswith("default.deck: 240 missions")
    assert r["again"]["result"] and r["again"]["msg"] is None and r["again"]["stage"] == "built"


def test_no_errors_in_the_browser(seen):
    refused = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    assert [e for e in seen["errors"] if e != refused] == []
