"""Layers read from a photo (layers/photo.py, `layerlight cards read-photo`): the project's own
printed layer cards, photographed by tests/photo_synth.py, read back cell for cell at every
grid size the set files take (2-16), on paper and on clear film.

What docs/decks.md claims, each checked here on a fixed seed a size:
- paper, on any of the cluttered tables, in the "claimed" light (tilt, up to 30 degrees askew
  and any way round, uneven light, a colour cast, glare, blur, noise, JPEG): every cell right
  and the card turned upright by its printed top mark;
- clear film on a white sheet, the same light: the same;
- clear film on a light table (wood, grey): never a wrong cell: read right (upright, or as it
  lay when the top mark does not show through), or refused with one line.

LAYERLIGHT_PHOTO_SWEEP=N (make soak) reads N seeds a size, material, table and condition and
prints the rates docs/decks.md quotes.
"""

import os

import numpy as np
import pytest

import photo_synth
from layerlight import geometry
from layerlight_tools import cli
from layerlight_tools.firmware_files import DEFAULT_SET
from layerlight_tools.layers import photo, sets

STARTER = sets.load(DEFAULT_SET)
COLOURS = [rgb for _, rgb in STARTER.colours]
CHARS = "".join(ch for ch, _ in STARTER.colours)
SIZES = range(2, 17)          # sets.parse takes 2 to 16


def shoot(n, seed, material, tables, condition="claimed"):
    """(the side photographed, degrees it lay turned, the photo's bytes)."""
    grid = photo_synth.random_layer(n, len(COLOURS), np.random.default_rng(1000 + seed))
    jpg, turned = photo_synth.photograph(grid, n, COLOURS, seed, material, condition, tables)
    return grid, turned, jpg


def as_it_lay(grid, n, turned):
    """The side as it lay on the table, turned clockwise by `turned` degrees."""
    for _ in range(turned // 90):
        grid = geometry.rotate_cw(grid, n)
    return list(grid)


def wrong_cells(reading, grid, n, turned):
    """The cells read wrong: against the upright side when the top mark was read, else against
    the side as it lay."""
    expected = list(grid) if reading.turned is not None else as_it_lay(grid, n, turned)
    return [(i // n + 1, i % n + 1) for i, (a, b) in enumerate(zip(reading.cells, expected)) if a != b]


@pytest.mark.parametrize("n", SIZES)
def test_a_paper_card_on_a_cluttered_table_reads_back_cell_for_cell(n):
    grid, turned, jpg = shoot(n, n, "paper", photo_synth.CLUTTERED)
    reading = photo.read_layer(jpg, n, COLOURS)
    assert reading.turned == turned, "the top mark was read as %r, the card lay turned %d" % (reading.turned, turned)
    assert wrong_cells(reading, grid, n, turned) == []
    assert reading.doubts() == []


@pytest.mark.parametrize("n", SIZES)
def test_clear_film_on_a_white_sheet_reads_back_cell_for_cell(n):
    grid, turned, jpg = shoot(n, 100 + n, "plastic", ("white sheet",))
    reading = photo.read_layer(jpg, n, COLOURS)
    assert reading.turned == turned
    assert wrong_cells(reading, grid, n, turned) == []


def test_clear_film_on_a_light_table_is_read_right_or_refused_never_wrong():
    """The holes show the wood or the grey through them: the hole is told from a colour by
    looking like the margin, which shows the same table."""
    read = 0
    for n in (3, 6, 9, 12, 16):
        for seed in (1, 2):
            grid, turned, jpg = shoot(n, 200 + 10 * n + seed, "plastic", photo_synth.LIGHT_TABLES)
            try:
                reading = photo.read_layer(jpg, n, COLOURS)
            except photo.PhotoError as e:
                assert str(e).startswith("no layer card found"), e
                continue
            assert wrong_cells(reading, grid, n, turned) == [], (n, seed)
            assert reading.turned in (None, turned)
            read += 1
    assert read >= 6, "only %d of 10 photos of clear film on a light table were read" % read


def test_a_photo_is_the_same_photo_for_the_same_seed():
    assert shoot(5, 7, "plastic", photo_synth.CLUTTERED)[2] == shoot(5, 7, "plastic", photo_synth.CLUTTERED)[2]
    assert shoot(5, 7, "plastic", photo_synth.CLUTTERED)[2] != shoot(5, 8, "plastic", photo_synth.CLUTTERED)[2]


def test_the_reading_says_where_a_hole_and_each_colour_are():
    """The API the web page calls: cells (0 a hole, i the set's colour i), a confidence a cell,
    the rows in the set's notation and a straightened PNG of the card."""
    grid, turned, jpg = shoot(6, 3, "paper", photo_synth.CLUTTERED)
    reading = photo.read_layer(jpg, 6, COLOURS)
    assert reading.size == 6 and len(reading.cells) == 36 and len(reading.confidence) == 36
    assert all(0 <= c <= 1 for c in reading.confidence)
    assert reading.rows(CHARS) == STARTER.rows(grid)
    assert reading.preview_png.startswith(b"\x89PNG")
    assert reading.outline in ("card", "frame")
    # the page may pass the set's colours as the set file writes them
    assert photo.read_layer(jpg, 6, [sets.rgb_hex(c) for c in COLOURS]).cells == reading.cells
    with pytest.raises(photo.PhotoError, match="^a colour must be"):
        photo.read_layer(jpg, 6, ["red"])


@pytest.mark.parametrize("side", ["front", "back"])
def test_a_layer_of_the_set_is_recognised_in_its_orientation(side):
    """The starter set's own layer, printed by `cards render` and photographed: the set's
    nearest layer is it, and the orientation named turns it into exactly the cells read."""
    layer = STARTER.layers[2]
    grid = layer.front if side == "front" else layer.back
    jpg, turned = photo_synth.photograph(grid, STARTER.size, COLOURS, 31, "plastic", "claimed", ("white sheet",))
    reading = photo.read_layer(jpg, STARTER.size, COLOURS)
    found, o, differ = photo.closest_layer(reading.cells, STARTER.layers)
    assert (found.id, differ) == (layer.id, 0)
    assert list(found.grid(o)) == reading.cells and geometry.side_of(o) == side


@pytest.mark.parametrize("pixels", [(4000, 3000), (800, 600)])
def test_a_phone_sized_photo_and_a_small_one_read_the_same(pixels):
    """A phone's 12-megapixel photo is read shrunk (photo_card.MAX_SIDE); a small one as it is."""
    import io
    from PIL import Image
    grid, turned, jpg = shoot(10, 3, "paper", photo_synth.CLUTTERED)
    resized = io.BytesIO()
    Image.open(io.BytesIO(jpg)).resize(pixels, Image.LANCZOS).save(resized, "JPEG", quality=90)
    reading = photo.read_layer(resized.getvalue(), 10, COLOURS)
    assert reading.turned == turned and wrong_cells(reading, grid, 10, turned) == []


@pytest.mark.parametrize("card, size", [(8, 6), (4, 8), (12, 6)])
def test_a_card_of_another_grid_size_is_refused_not_misread(card, size):
    _, _, jpg = shoot(card, 5, "paper", photo_synth.CLUTTERED)
    with pytest.raises(photo.PhotoError) as e:
        photo.read_layer(jpg, size, COLOURS)
    assert str(e.value) == "the card's grid is %dx%d, the set's is %dx%d" % (card, card, size, size)


def test_what_is_not_a_card_is_one_line(tmp_path):
    from PIL import Image
    import io
    for data in (b"", b"not a photo at all", b"\x89PNG\r\n\x1a\n broken"):
        with pytest.raises(photo.PhotoError, match="^not an image"):
            photo.read_layer(data, 6, COLOURS)
    table = io.BytesIO()
    Image.fromarray(photo_synth._table(np.random.default_rng(1), ("wood",)).astype(np.uint8)).save(table, "PNG")
    with pytest.raises(photo.PhotoError, match="^no layer card found"):
        photo.read_layer(table.getvalue(), 6, COLOURS)


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_read_photo_prints_the_set_notation_and_the_doubts(capsys, tmp_path):
    grid, turned, jpg = shoot(6, 4, "paper", photo_synth.CLUTTERED)
    path = tmp_path / "card.jpg"
    path.write_bytes(jpg)
    code, out, err = run(capsys, "cards", "read-photo", DEFAULT_SET, str(path), "--preview", str(tmp_path / "p.png"))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("# %s: 6x6, found by its " % path)
    assert lines[1:7] == STARTER.rows(grid)
    assert lines[7] == "# no cell in doubt"
    assert lines[8].startswith("# nearest layer of the set: ")
    # what it prints is a pattern `solve` reads: the # lines are comments
    assert sets.parse_pattern(out, STARTER) == bytes(grid)
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")


def test_read_photo_bad_input_is_one_line(capsys, tmp_path):
    card = tmp_path / "card.jpg"
    card.write_bytes(shoot(8, 5, "paper", photo_synth.CLUTTERED)[2])
    text = tmp_path / "notes.jpg"
    text.write_text("hello")
    bench8 = os.path.join(os.path.dirname(DEFAULT_SET), "bench8.toml")
    otlo = os.path.join(os.path.dirname(DEFAULT_SET), "otlo.toml")
    cases = [
        ((DEFAULT_SET, str(text)), "%s: not an image" % text),
        ((DEFAULT_SET, str(tmp_path / "none.jpg")), "%s: cannot read: No such file" % (tmp_path / "none.jpg")),
        ((DEFAULT_SET, str(card)), "%s: the card's grid is 8x8, the set's is 6x6" % card),
        ((otlo, str(card)), "%s: read-photo reads Layers layers" % otlo),
        ((str(text), str(card)), "%s:" % text),
    ]
    for args, start in cases:
        code, out, err = run(capsys, "cards", "read-photo", *args)
        assert code == 2 and out == "", args
        assert err.startswith("layerlight: " + start) and err.count("\n") == 1, err
    code, out, err = run(capsys, "cards", "read-photo", bench8, str(card))
    assert code == 0, err     # the same card against an 8x8 set is read


# --- the sweep behind docs/decks.md's rates (make soak) ----------------------------------------

SWEEP = int(os.environ.get("LAYERLIGHT_PHOTO_SWEEP", "0"))


def sweep_rates():
    """Read SWEEP photos a size for each material, table and condition; print the rates (make soak
    collects it as a test, with LAYERLIGHT_PHOTO_SWEEP=N; make test does not: nothing skipped)."""
    rows = []
    cases = [("paper", "cluttered", photo_synth.CLUTTERED), ("paper", "white sheet", ("white sheet",)),
             ("plastic", "white sheet", ("white sheet",)), ("plastic", "light table", photo_synth.LIGHT_TABLES),
             ("plastic", "green or dark table", ("green", "dark"))]
    silent = 0
    for condition in ("clean", "claimed", "harsh"):
        for material, where, tables in cases:
            counts = dict(photos=0, exact=0, upright=0, refused=0, wrong_cells=0, wrong_flagged=0, cells=0)
            by_size = []
            for n in SIZES:
                exact = 0
                for seed in range(SWEEP):
                    grid, turned, jpg = shoot(n, 5000 + 37 * n + seed, material, tables, condition)
                    counts["photos"] += 1
                    counts["cells"] += n * n
                    try:
                        reading = photo.read_layer(jpg, n, COLOURS)
                    except photo.PhotoError:
                        counts["refused"] += 1
                        continue
                    wrong = wrong_cells(reading, grid, n, turned)
                    doubts = set(reading.doubts())
                    counts["wrong_cells"] += len(wrong)
                    counts["wrong_flagged"] += sum(1 for w in wrong if w in doubts)
                    if reading.turned is not None and reading.turned != turned:
                        silent += 1
                    if not wrong:
                        exact += 1
                        counts["exact"] += 1
                        counts["upright"] += reading.turned == turned
                by_size.append("%d:%d" % (n, exact))
            c = counts
            rows.append("%-8s %-7s %-20s exact %3d/%3d, upright %3d, refused %3d, cells wrong %d of %d (%d flagged as "
                        "doubts); exact by size %s" % (condition, material, where, c["exact"], c["photos"], c["upright"],
                                                       c["refused"], c["wrong_cells"], c["cells"], c["wrong_flagged"],
                                                       " ".join(by_size)))
            print(rows[-1], flush=True)
    assert silent == 0, "%d photos turned upright the wrong way" % silent


if SWEEP:
    test_sweep_rates = sweep_rates
