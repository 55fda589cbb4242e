""""Your box" on the web page: a set painted in the page, checked, turned, stacked and built.

A thin layer over what `layerlight cards` already has. The page keeps its set
as a small JSON model (kind, name, size or tile, colours, cards as rows of
colour characters); every answer here starts by writing that model as the
TOML file `cards build` reads (`to_toml`), so the page's checks are the set
loader's own one-line messages, and the file the person downloads is the
very text the page's deck was built from. The turns, flips and stacks come
from the firmware's geometry.py, stacking.py and otlo_tiles.py: the page has
no copy of them.
"""

import base64
import hashlib
import io
import json
import os
import re
import shlex
import tempfile
import threading

from layerlight import geometry, led_light, otlo_tiles, screens, stacking
from layerlight_tools import cmd_cards, firmware_files
from layerlight_tools.errors import UserError

SETS = os.path.join(firmware_files.REPO, "host_tools", "sets")
SHIPPED = ("default.toml", "otlo.toml")   # the sets the page offers to open
MAX_UPLOAD = 512 * 1024     # bytes of a set file or a model (255 layers of 16x16 are about 150 KB)
OTLO_BOARD = 6              # the stacking board for tiles: a challenge's largest box (otlo_search.MAX_BOX)
FILE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,80}$")


class BadRequest(Exception):
    """A request the page would never send (str: one line)."""


# --- the model and its TOML -------------------------------------------------

def _toml_str(value):
    # JSON's string escapes are TOML's (basic strings): quotes, backslashes, control characters.
    # Every other character is written as itself (UTF-8: a name stays readable in the file);
    # DEL is the one control character JSON leaves as it is and TOML does not take.
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value):
    if isinstance(value, bool) or not isinstance(value, (int, str, list)):
        return _toml_str(str(value))
    if isinstance(value, list):
        return "[%s]" % ", ".join(_toml_value(v) for v in value)
    return str(value) if isinstance(value, int) else _toml_str(value)


def _rows_block(rows):
    body = "\n".join(r.replace("\\", "\\\\").replace('"', '\\"') for r in rows)
    return '"""\n%s\n"""' % body


def check_model(model):
    """The model's shape (what the page sends); BadRequest if it is not one."""
    if not isinstance(model, dict) or model.get("kind") not in ("layers", "otlo"):
        raise BadRequest("not a set model")
    if not isinstance(model.get("colors"), list) or not isinstance(model.get("cards"), list):
        raise BadRequest("not a set model")
    for pair in model["colors"]:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, str) for v in pair)):
            raise BadRequest("not a set model: colours are [character, \"#rrggbb\"] pairs")
    for card in model["cards"]:
        if not isinstance(card, dict) or not isinstance(card.get("id"), str):
            raise BadRequest("not a set model: a card has no id")
        for side in ("front", "back"):
            rows = card.get(side)
            if not isinstance(rows, list) or not all(isinstance(r, str) and "\n" not in r for r in rows):
                raise BadRequest("not a set model: card %s %s is not rows" % (card["id"], side))
    return model


def to_toml(model):
    """The set file of a model, as `cards build` reads it."""
    otlo = model["kind"] == "otlo"
    out = ["# Made in the Layerlight web page (Your box): `layerlight cards build` reads it as it is.",
           "name = %s" % _toml_str(str(model.get("name", "")))]
    if otlo:
        out.append('kind = "otlo"')
        out.append("tile = %s" % _toml_value(model.get("tile")))
        out.append("table = %s" % _toml_value(model.get("table", "#303030")))
    else:
        out.append("size = %s" % _toml_value(model.get("size")))
        out.append("background = %s" % _toml_value(model.get("background", "#ffffff")))
    out.append("")
    out.append("[colors]")
    for ch, value in model["colors"]:
        out.append("%s = %s" % (_toml_str(ch), _toml_str(value)))
    stars = model.get("stars")
    if otlo and isinstance(stars, dict) and stars:
        out.append("")
        out.append("[stars]")
        for key in sorted(stars):
            out.append("%s = %s" % (_toml_str(str(key)), _toml_value(stars[key])))
    for card in model["cards"]:
        out.append("")
        out.append("[[tiles]]" if otlo else "[[layers]]")
        out.append("id = %s" % _toml_str(card["id"]))
        out.append("front = %s" % _rows_block(card["front"]))
        out.append("back = %s" % _rows_block(card["back"]))
    return "\n".join(out) + "\n"


def model_of(kind, the_set):
    """The page's model of a parsed set (either kind)."""
    colours = [[ch, "#%02x%02x%02x" % rgb] for ch, rgb in the_set.colours]
    chars = ["."] + [ch for ch, _ in the_set.colours]
    if kind == "otlo":
        w, h = the_set.tile
        rows = lambda g: ["".join(chars[g[y * w + x]] for x in range(w)) for y in range(h)]
        return {"kind": "otlo", "name": the_set.name, "tile": [w, h], "table": "#%02x%02x%02x" % the_set.table,
                "colors": colours, "stars": {str(k): v for k, v in sorted(the_set.stars.items())},
                "cards": [{"id": t.id, "front": rows(t.front), "back": rows(t.back)} for t in the_set.tiles]}
    return {"kind": "layers", "name": the_set.name, "size": the_set.size,
            "background": "#%02x%02x%02x" % the_set.background, "colors": colours,
            "cards": [{"id": l.id, "front": the_set.rows(l.front), "back": the_set.rows(l.back)}
                      for l in the_set.layers]}


def file_name(name, toml=True):
    """The set file's name as the page gives it (only for messages and downloads); toml: made
    to end in .toml (the name the page saves under), else as uploaded."""
    name = os.path.basename(str(name or "")).strip()
    if not FILE_RE.match(name):
        return "my-box.toml" if toml else "the file"
    return name if name.endswith(".toml") or not toml else name + ".toml"


def open_file(name, raw):
    """{"model"} of an uploaded set file, or {"error"}: the one line `cards build` would print."""
    name = file_name(name, toml=False)
    try:
        kind, the_set = cmd_cards.load_set(name, raw)
    except UserError as e:
        return {"error": str(e)}
    return {"model": model_of(kind, the_set), "file": file_name(name)}


def open_shipped(name):
    if name not in SHIPPED:
        return None
    with open(os.path.join(SETS, name), "rb") as f:
        return open_file(name, f.read())


def limits():
    """GET /box/limits.json: every limit the builders have, from where they are kept (the page
    sets its inputs by them and says each one while the set is painted; it has no copy)."""
    from layerlight_tools.layers import cards
    from layerlight_tools.otlo import cards as otlo_cards, sets as otlo_sets
    return {"layers": cards.limits(),
            "otlo": {"tile": [1, 4], "colours": otlo_sets.MAX_COLOURS, "min_layers": 2,
                     "layers": otlo_sets.MAX_TILES, "per_level": [1, 200], "per_level_default": otlo_cards.PER_LEVEL}}


def shipped_list():
    out = []
    for name in SHIPPED:
        model = open_shipped(name)["model"]
        out.append({"file": name, "name": model["name"], "kind": model["kind"], "cards": len(model["cards"])})
    return out


# --- where a message belongs ------------------------------------------------------

CARD_RE = re.compile(r"\b(?:layer|tile) (\S+?)(?=[: ]|$)")
PLACE_RE = re.compile(r"\b(front|back)(?: row (\d+)(?:, column (\d+))?)?")
DUPLICATE_RE = re.compile(r"\((?:layer|tile) \d+ and (?:layer|tile) (\d+)\)")


def where(message, model):
    """What a set loader's message is about, for the page to show it there: {"card": index,
    "side", "row", "col"} (1-based rows and columns, as the message says), {"part": "colours"}
    or {"part": "set"}."""
    text = message.split(": ", 1)[1] if ": " in message else message
    ids = [c["id"] for c in model["cards"]]
    m = DUPLICATE_RE.search(text)
    card = None
    if m:
        card = int(m.group(1)) - 1
    else:
        m = CARD_RE.search(text)
        if m:
            key = m.group(1).strip("'\"")
            if key in ids:
                card = ids.index(key)
            elif key.isdigit() and 1 <= int(key) <= len(ids):
                card = int(key) - 1
    if card is not None:
        out = {"card": card}
        p = PLACE_RE.search(text[m.end():] if m else text)
        if p:
            out["side"] = p.group(1)
            if p.group(2):
                out["row"] = int(p.group(2))
            if p.group(3):
                out["col"] = int(p.group(3))
        return out
    if text.startswith("colour") or "[colors]" in text or "colours;" in text:
        return {"part": "colours"}
    return {"part": "set"}


# --- the firmware's geometry on the model -------------------------------------------

def _grid(rows, index):
    return bytes(index.get(ch, 0) for row in rows for ch in row)


def _rows(grid, w, h, chars):
    return ["".join(chars[v] if v < len(chars) else "?" for v in grid[y * w:(y + 1) * w]) for y in range(h)]


def _dims(model):
    """(w, h) of a card, or None when the model's size is not one yet."""
    if model["kind"] == "otlo":
        tile = model.get("tile")
        if isinstance(tile, list) and len(tile) == 2 and all(isinstance(v, int) and 1 <= v <= 4 for v in tile):
            return tile[0], tile[1]
        return None
    n = model.get("size")
    return (n, n) if isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 16 else None


def _fits(card, w, h):
    return all(len(card[s]) == h and all(len(r) == w for r in card[s]) for s in ("front", "back"))


def mirror_rows(rows, w, h, index, chars):
    """A side copied to the other, left and right swapped (a card turned over)."""
    grid = _grid(rows, index)
    if w == h:
        return _rows(geometry.mirror(grid, w), w, h, chars)
    # a tile that is not square: each row read backwards, which is what otlo_tiles.mirrored_holes asks
    return [row[::-1] for row in rows]


def _resize(rows, w, h):
    return [((rows[y] if y < len(rows) else "") + "." * w)[:w] for y in range(h)]


def resize(body):
    """POST /box/resize {model, size} (Layers: N; OTLO: [w, h]): the model with its cards cut or
    padded with holes at the right and bottom of the front; the back keeps matching it (its rows
    mirrored, resized, mirrored back), so a resized card is still a card."""
    model = check_model(body.get("model"))
    size = body.get("size")
    if model["kind"] == "otlo":
        ok = isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and 1 <= v <= 4 for v in size)
    else:
        ok = isinstance(size, int) and not isinstance(size, bool) and 2 <= size <= 16
    if not ok:
        raise BadRequest("not a grid size")
    w, h = (size[0], size[1]) if model["kind"] == "otlo" else (size, size)
    index = {ch: i + 1 for i, (ch, _) in enumerate(model["colors"])}
    chars = ["."] + [ch for ch, _ in model["colors"]]
    for card in model["cards"]:
        old = (len(card["front"][0]) if card["front"] else 0, len(card["front"]))
        back = card["back"]
        if old[0] == old[1] and all(len(r) == old[0] for r in back) and len(back) == old[0] and old[0] >= 1:
            turned = _rows(geometry.mirror(_grid(back, index), old[0]), old[0], old[0], chars)
        else:
            turned = [r[::-1] for r in back]
        turned = _resize(turned, w, h)
        card["front"] = _resize(card["front"], w, h)
        card["back"] = (_rows(geometry.mirror(_grid(turned, index), w), w, h, chars) if w == h
                        else [r[::-1] for r in turned])
    if model["kind"] == "otlo":
        model["tile"] = [w, h]
    else:
        model["size"] = w
    return {"model": model}


def views(model):
    """For each card: its 8 orientations as the table sees them (geometry.oriented; for tiles
    otlo_tiles.oriented: the front then the back, each turned 0, 90, 180, 270 degrees clockwise)
    and its front mirrored (for "copy front to back"); None for a card not of the set's size."""
    dims = _dims(model)
    chars = ["."] + [ch for ch, _ in model["colors"]]
    index = {ch: i + 1 for i, (ch, _) in enumerate(model["colors"])}
    out = []
    for card in model["cards"]:
        if dims is None or not _fits(card, *dims):
            out.append(None)
            continue
        w, h = dims
        front, back = _grid(card["front"], index), _grid(card["back"], index)
        turned = []
        if model["kind"] == "otlo":
            for side in (front, back):
                for rot in range(4):
                    g, tw, th = otlo_tiles.oriented(side, w, h, rot)
                    turned.append(_rows(g, tw, th, chars))
        else:
            for o in range(geometry.ORIENTATIONS):
                turned.append(_rows(geometry.oriented(front, back, w, o), w, h, chars))
        out.append({"orientations": turned, "mirrored": mirror_rows(card["front"], w, h, index, chars)})
    return out


def led_palette(model):
    """The LED value (0xRRGGBB, what the firmware writes) of each cell value of the set's pictures:
    Layers: 0 the background (screens.BACKGROUND_LED), then the colours as the mission screen
    writes them; OTLO: 0 outside (dark), the colours as otlo_screens writes them, 15 the table."""
    rgb = [tuple(int(v[i:i + 2], 16) for i in (1, 3, 5)) if re.match(r"^#[0-9a-fA-F]{6}$", v) else (0, 0, 0)
           for _, v in model["colors"]]
    if model["kind"] == "otlo":
        out = [0] * 16
        for i, (r, g, b) in enumerate(rgb[:14]):
            out[i + 1] = led_light.led_value(r, g, b)
        out[otlo_tiles.TABLE] = screens.DIM
        return out
    return [screens.BACKGROUND_LED] + [(r << 16) | (g << 8) | b for r, g, b in rgb]


def matrix_error(model, width, height):
    """A set whose pattern cannot show on a width x height matrix: one line (cards.pattern_too_big,
    as `sim --deck` says it), else None."""
    if model["kind"] != "layers":
        return None  # tiles are at most 4 x 4 and challenges 6 x 6: every matrix shows them
    dims = _dims(model)
    if dims is None:
        return None
    return cmd_cards.pattern_too_big(dims[0], width, height)


DEFAULT_MAX_LEVEL = 5   # `cards build --max-level`'s default


def _whole(value, what):
    """A whole number the page sends, or None (the default); UserError if it is not one."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise UserError("%s must be a whole number" % what)
    return value


def build_check(body, kind, the_set, name):
    """(per_level, max_level) of a build, or the UserError `cards build` stops with before any work
    on them: --per-level or --max-level out of range, a set the builder does not take on."""
    per_level = _whole(body.get("per_level"), "--per-level")
    max_level = _whole(body.get("max_level"), "--max-level")
    max_level = DEFAULT_MAX_LEVEL if max_level is None else max_level
    per_level = cmd_cards.build_options(kind, per_level, max_level)
    why = cmd_cards.build_refusal(kind, the_set, max_level, name)
    if why:
        raise UserError(why)
    return per_level, max_level


def check(body):
    """POST /box/check {model, file, matrix, per_level, max_level}: the TOML, the set loader's
    message (and where it belongs), else what `cards build` would refuse before any work (its
    options, too many stackings: "where": {"part": "levels"}), each card's 8 orientations and
    mirror, the LED palette, the matrix's verdict."""
    model = check_model(body.get("model"))
    name = file_name(body.get("file"))
    text = to_toml(model)
    out = {"toml": text, "file": name, "error": None, "views": views(model), "palette": led_palette(model)}
    try:
        kind, the_set = cmd_cards.load_set(name, text.encode())
    except UserError as e:
        out["error"] = str(e)
        out["where"] = where(str(e), model)
    else:
        try:
            build_check(body, kind, the_set, name)
        except UserError as e:
            out["error"] = str(e)
            out["where"] = {"part": "levels"}
    matrix = body.get("matrix")
    if isinstance(matrix, list) and len(matrix) == 2 and all(isinstance(v, int) for v in matrix):
        out["matrix_error"] = matrix_error(model, matrix[0], matrix[1])
    return out


def stack(body):
    """POST /box/stack {model, stack}: the picture a stacking shows from above, as rows.

    Layers: stack is [[card, orientation 0-7], ...], bottom first (stacking.compose).
    OTLO: [[card, layer 0 bottom / 1 top, side 0/1, quarter turns 0-3, x, y], ...] on a 6 x 6
    board (otlo_tiles.compose)."""
    model = check_model(body.get("model"))
    placements = body.get("stack")
    dims = _dims(model)
    ncards = len(model["cards"])
    if dims is None or not isinstance(placements, list) or not all(
            isinstance(p, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in p) for p in placements):
        raise BadRequest("not a stacking")
    w, h = dims
    if not all(_fits(c, w, h) for c in model["cards"]):
        return {"error": "a card is not %d x %d yet" % (w, h)}
    chars = ["."] + [ch for ch, _ in model["colors"]]
    index = {ch: i + 1 for i, (ch, _) in enumerate(model["colors"])}
    used = [p[0] for p in placements]
    if len(set(used)) != len(used) or any(not 0 <= c < ncards for c in used):
        raise BadRequest("a stacking uses each card at most once")
    if model["kind"] == "otlo":
        tiles = [otlo_tiles_tile(_grid(c["front"], index), _grid(c["back"], index)) for c in model["cards"]]
        for p in placements:
            if len(p) != 6 or p[1] not in (0, 1) or p[2] not in (0, 1) or not 0 <= p[3] <= 3:
                raise BadRequest("not a tile placement")
            tw, th = otlo_tiles.turned_size(w, h, p[3])
            if not (0 <= p[4] <= OTLO_BOARD - tw and 0 <= p[5] <= OTLO_BOARD - th):
                return {"error": "tile %s at column %d, row %d runs off the %d x %d board" % (
                    model["cards"][p[0]]["id"], p[4] + 1, p[5] + 1, OTLO_BOARD, OTLO_BOARD)}
        out = bytearray(OTLO_BOARD * OTLO_BOARD)
        otlo_tiles.compose(tiles, [tuple(p) for p in placements], OTLO_BOARD, OTLO_BOARD, out, w, h)
        ochars = ["."] * 16
        for i, ch in enumerate(chars[1:15]):
            ochars[i + 1] = ch
        ochars[otlo_tiles.TABLE] = "_"
        return {"rows": _rows(out, OTLO_BOARD, OTLO_BOARD, ochars), "w": OTLO_BOARD, "h": OTLO_BOARD,
                "cells": list(out)}
    layers = [geometry.Layer(c["id"], _grid(c["front"], index), _grid(c["back"], index), w) for c in model["cards"]]
    for p in placements:
        if len(p) != 2 or not 0 <= p[1] < geometry.ORIENTATIONS:
            raise BadRequest("not a layer placement")
    grid = stacking.compose(layers, [tuple(p) for p in placements], w)
    return {"rows": _rows(grid, w, w, chars), "w": w, "h": w, "cells": list(grid)}


class otlo_tiles_tile:
    """What otlo_tiles.compose reads of a tile: its front and back."""

    def __init__(self, front, back):
        self.front = front
        self.back = back


# --- building, one at a time ---------------------------------------------------------

BUSY = "a build is already running: one at a time, wait for it to finish"


class Builds:
    """The one build the server runs at a time, and what the page polls of it. The state keeps
    the set file's text and a number for each build, so a page reloaded while a build ran (or
    after it ended) finds it again and knows whether it is of the set it has."""

    def __init__(self):
        self.lock = threading.Lock()
        self.state = {"state": "idle"}
        self.count = 0
        self.decks = {}     # sha-256 of a deck built here -> (its bytes, its file name): for printing

    def status(self):
        with self.lock:
            return dict(self.state)

    def start(self, body, run_in_thread=True):
        """POST /box/build {model, file, per_level, max_level, matrix}: (HTTP status, answer)."""
        model = check_model(body.get("model"))
        name = file_name(body.get("file"))
        text = to_toml(model)
        matrix = body.get("matrix")
        if isinstance(matrix, list) and len(matrix) == 2 and all(isinstance(v, int) for v in matrix):
            bad = matrix_error(model, matrix[0], matrix[1])
            if bad:
                return 400, {"error": "%s: %s" % (name, bad), "where": {"part": "size"}}
        try:
            kind, the_set = cmd_cards.load_set(name, text.encode())
        except UserError as e:
            return 400, {"error": str(e), "where": where(str(e), model)}
        try:
            per_level, max_level = build_check(body, kind, the_set, name)
        except UserError as e:
            return 400, {"error": str(e), "where": {"part": "levels"}}
        with self.lock:
            if self.state["state"] == "running":
                return 409, {"error": BUSY, "where": {"part": "build"}, "build": self.state["build"]}
            self.count += 1
            self.state = {"state": "running", "stage": "", "done": 0, "total": 0, "file": name, "toml": text,
                          "build": self.count}
            number = self.count
        args = (kind, the_set, per_level, max_level, name, text, model, number)
        if run_in_thread:
            threading.Thread(target=self._run, args=args, daemon=True).start()
        else:
            self._run(*args)
        return 202, {"state": "running", "build": number}

    def _progress(self, stage, done, total):
        with self.lock:
            self.state.update(stage=stage, done=done, total=total)

    def _run(self, kind, the_set, per_level, max_level, name, text, model, number):
        ended = {"file": name, "toml": text, "build": number}
        try:
            reach = {}
            items = cmd_cards.build_items(kind, the_set, per_level, max_level, self._progress, name, reach)
            data = cmd_cards.pack_deck(kind, the_set, items)
            result = summary(kind, the_set, items, data, name, per_level, model, max_level, reach)
            result["toml"] = text
        except UserError as e:
            ended.update(state="failed", error=str(e), where={"part": "build"})
        except Exception as e:  # a bug, not the person's set: still one line in the page
            ended.update(state="failed", error="%s: the build failed: %s" % (name, e), where={"part": "build"})
        else:
            ended.update(state="done", result=result)
            with self.lock:
                self.decks[result["deck_sha"]] = (data, result["deck_file"])
        with self.lock:
            self.state = ended

    def pdf(self, sha, sets=4):
        """(PDF bytes, file name) of a deck built here: what `layerlight cards render DECK -o
        NAME.pdf` writes; None for a deck this server did not build."""
        with self.lock:
            found = self.decks.get(sha)
        if found is None:
            return None
        data, deck_file = found
        from layerlight_tools.layers import render
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, deck_file)
            with open(path, "wb") as f:
                f.write(data)
            _, pages = cmd_cards.deck_pages(path, sets)
            out = io.BytesIO()
            render.write_pdf(pages, out)
        return out.getvalue(), pdf_name(deck_file)


def pdf_name(deck_file):
    """my-box.deck -> my-box-cards.pdf"""
    return (deck_file[:-5] if deck_file.endswith(".deck") else deck_file) + "-cards.pdf"


SAMPLES = 2   # missions (challenges) shown of each level


def summary(kind, the_set, items, data, name, per_level, model, max_level=DEFAULT_MAX_LEVEL, reach=None):
    """What the page shows of a built deck, and the deck itself (base64): the modes that play it
    (playable.plays: each mode's levels, or why not), the commands that make, print and flash
    it, quoted for a shell."""
    from layerlight_tools.layers import playable
    stem = name[:-5] if name.endswith(".toml") else name
    deck_name = stem + ".deck"
    counts = cmd_cards.level_counts(kind, items)
    option = "" if per_level == (24 if kind == "otlo" else 60) else " --per-level %d" % per_level
    if kind != "otlo" and max_level != DEFAULT_MAX_LEVEL:
        option += " --max-level %d" % max_level
    plays = cmd_cards.deck_plays(kind, the_set, items, reach, max_level)
    lines = playable.summary_lines(plays)
    q = shlex.quote
    out = {"kind": kind, "deck": base64.b64encode(data).decode(), "deck_file": deck_name, "bytes": len(data),
           "deck_sha": hashlib.sha256(data).hexdigest(),
           "line": cmd_cards.build_summary(kind, items),
           "counts": [[k, v] for k, v in sorted(counts.items())],
           "plays": plays, "plays_line": lines[0],
           "nobody": None if any(p["levels"] for p in plays) else " ".join(l.strip() for l in lines),
           "build_command": "layerlight cards build %s -o %s%s" % (q(name), q(deck_name), option),
           "render_command": "layerlight cards render %s -o %s" % (q(deck_name), q(pdf_name(deck_name))),
           "pdf_file": pdf_name(deck_name),
           "flash_command": "layerlight flash --deck %s" % q(deck_name),
           "samples": []}
    by_level = {}
    for m in items:
        by_level.setdefault(m.stars if kind == "otlo" else m.level, []).append(m)
    chars = ["."] + [ch for ch, _ in the_set.colours]
    for level, ms in sorted(by_level.items()):
        picks = [ms[int((j + 0.5) * len(ms) / SAMPLES)] for j in range(min(SAMPLES, len(ms)))]
        for m in picks:
            if kind == "otlo":
                ochars = the_set.chars()
                out["samples"].append({
                    "id": m.id, "level": level, "difficulty": m.difficulty, "solutions": m.solution_count,
                    "w": m.w, "h": m.h, "rows": _rows(m.pattern, m.w, m.h, ochars),
                    "solution": [{"card": the_set.tiles[p[0]].id, "layer": "top" if p[1] else "bottom",
                                  "side": "back" if p[2] else "front", "rot": p[3] * 90, "x": p[4], "y": p[5]}
                                 for p in m.solution]})
            else:
                n = the_set.size
                out["samples"].append({
                    "id": m.id, "level": level, "difficulty": m.difficulty, "solutions": m.solution_count,
                    "w": n, "h": n, "rows": _rows(m.pattern, n, n, chars),
                    "solution": [{"card": the_set.layers[li].id, "side": geometry.side_of(o),
                                  "rot": geometry.rot_of(o),
                                  "rows": _rows(the_set.layers[li].grid(o), n, n, chars)}
                                 for li, o in m.solution]})
    return out
