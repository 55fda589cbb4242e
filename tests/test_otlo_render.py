"""Printable OTLO cards and tiles (otlo_render), checked on the rendered pixels and the PDF."""

import base64
import re
import types
import zlib

import numpy as np
import pytest
from PIL import Image, ImageOps

from layerlight import otlo_tiles as T
from layerlight.otlo_deck import OtloDeck
from layerlight_tools import simcore
from layerlight_tools.layers import render
from layerlight_tools.otlo import deckpack as otlo_deckpack, render as otlo_render
from layerlight_tools.errors import UserError

R, B, Y, G = 1, 2, 3, 4
COLOURS = [("R", (209, 73, 91)), ("B", (29, 112, 184)), ("Y", (242, 193, 78)), ("G", (60, 160, 90))]
TABLE = (70, 60, 50)
DPI = 100
TWO_SETS = 2  # two players' sets: the six 2x2 tiles fit twice on one sheet


def tile(ident, front, back):
    return types.SimpleNamespace(id=ident, front=bytes(front), back=bytes(back))


# six 2x2 tiles, each back's holes the left-right mirror of its front's
TILES = [tile("t1", (R, 0, B, Y), (0, B, R, R)), tile("t2", (Y, Y, 0, B), (Y, Y, G, 0)),
         tile("t3", (B, B, B, 0), (B, B, 0, R)), tile("t4", (G, 0, 0, R), (0, G, Y, 0)),
         tile("t5", (R, G, Y, 0), (G, R, 0, B)), tile("t6", (0, Y, G, G), (B, 0, R, R))]


def make_set(tiles=TILES, size=(2, 2)):
    return types.SimpleNamespace(name="Stones", tile=size, table=TABLE, colours=COLOURS, tiles=tiles)


def challenge(ident, stars, solution, w, h, tiles=TILES):
    out = bytearray(w * h)
    T.compose(tiles, solution, w, h, out, 2, 2)
    return types.SimpleNamespace(id=ident, stars=stars, difficulty=0.3, solution_count=1, w=w, h=h,
                                 pattern=bytes(out), solution=solution)


# 11 cards: two sheets of nine; shapes with table cells, an L, a tall one, 1 to 3 stars
CHALLENGES = [
    challenge(1, 1, [(0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 2, 0), (2, 1, 1, 1, 1, 0)], 4, 2),
    challenge(2, 2, [(0, 0, 0, 0, 0, 0), (1, 0, 1, 0, 2, 0), (2, 0, 0, 1, 0, 2), (3, 1, 0, 0, 1, 1)], 4, 4),
    challenge(3, 3, [(0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 2, 0), (2, 0, 0, 0, 4, 0), (3, 0, 1, 2, 0, 2),
                     (4, 0, 1, 0, 2, 2), (5, 1, 0, 3, 3, 1)], 6, 4),
    challenge(4, 1, [(0, 0, 1, 0, 0, 0), (1, 0, 1, 1, 0, 2)], 2, 4),
] + [challenge(k, 1 + k % 3, [(k % 6, 0, k % 2, k % 4, 0, 0), ((k + 1) % 6, 0, 0, (k + 3) % 4, 2, 0),
                               ((k + 2) % 6, 1, 1, 0, 1, 0)], 4, 2) for k in range(5, 12)]


def open_deck(deck_set, challenges):
    data = otlo_deckpack.pack(deck_set, challenges)
    return OtloDeck(simcore.MemoryStorage({"d": data}), "d")


@pytest.fixture(scope="module")
def deck():
    return open_deck(make_set(), CHALLENGES)


@pytest.fixture(scope="module")
def sheets(deck):
    return otlo_render.pages(deck, TWO_SETS)


@pytest.fixture(scope="module")
def images(tmp_path_factory, sheets):
    folder = tmp_path_factory.mktemp("png")
    out = []
    for name in render.write_png(sheets, str(folder), DPI):
        with Image.open(name) as img:
            out.append(np.asarray(img.convert("RGB")).astype(int))
    return out


def px(mm, dpi=DPI):
    return int(round(mm * dpi / 25.4))


def at(img, x_mm, y_mm):
    return tuple(img[px(y_mm), px(x_mm)])


def near(a, b, tol=12):
    return max(abs(p - q) for p, q in zip(a, b)) <= tol


def runs(mask):
    """How many separate stretches of True a 1-D mask has."""
    m = np.concatenate(([False], mask, [False])).astype(int)
    return int((np.diff(m) == 1).sum())


def test_pages_cards_then_tiles_fronts_and_backs(deck, sheets, images):
    # 11 cards = 2 sheets of 9, each with its backs; six 2x2 tiles at 25 mm
    # (50 mm, 15 to a sheet) = 1 sheet holding two whole sets, with its backs
    assert len(sheets) == len(images) == 2 * 2 + 2
    assert images[0].shape == (px(297), px(210), 3)
    tiles_on_sheet = otlo_render.tile_sheets(deck, TWO_SETS)
    assert len(tiles_on_sheet) == 1 and [t.id for t, k, s in tiles_on_sheet[0]] == [t.id for t in TILES] * 2


@pytest.mark.parametrize("size, count, tile_pages", [
    ((4, 4), 3, 4),   # 100 mm tiles: two to a sheet, so three tiles take two sheets
    ((3, 3), 6, 2),   # 75 mm tiles: six to a sheet, one set
    ((1, 2), 5, 2),   # 25 x 50 mm tiles: thirty to a sheet
])
def test_any_tile_size_fits_the_sheet_at_playing_size(size, count, tile_pages):
    w, h = size
    tiles = [tile("s%d" % k, [1 + (k + i) % 4 for i in range(w * h)], [1 + (k + 2 * i) % 4 for i in range(w * h)])
             for k in range(count)]
    sol = [(0, 0, 0, 0, 0, 0)]
    out = bytearray(w * h)
    T.compose(tiles, sol, w, h, out, w, h)
    ch = types.SimpleNamespace(id=1, stars=1, difficulty=0.1, solution_count=1, w=w, h=h, pattern=bytes(out),
                               solution=sol)
    d = open_deck(make_set(tiles, size), [ch])
    sheets = otlo_render.pages(d, 1)
    assert len(sheets) == 2 + tile_pages
    for sheet in otlo_render.tile_sheets(d, 1):
        for t, k, (x, y) in sheet:  # every tile inside the printable area
            assert x >= otlo_render.SHEET_MARGIN - 1e-9 and x + w * 25 <= 210 - otlo_render.SHEET_MARGIN + 1e-9
            assert y >= otlo_render.SHEET_MARGIN - 1e-9 and y + h * 25 <= 297 - otlo_render.SHEET_MARGIN + 1e-9


def test_every_card_shows_its_pattern_stars_and_id(deck, sheets, images):
    slots = otlo_render.card_slots()
    for i in range(deck.count):
        ch = deck.challenge(i)
        sheet, (x, y) = 2 * (i // len(slots)), slots[i % len(slots)]
        img = images[sheet]
        # stars: count the gold shapes along the line through their middles, over the header
        sy = otlo_render.star_centres(x, y, 1)[0][1]
        row = img[px(sy), px(x):px(x + otlo_render.CARD_W * 0.6)]
        gold = np.abs(row - np.array(otlo_render.STAR_FILL)).max(axis=1) <= 20
        assert runs(gold) == ch.stars, "card #%d" % ch.id
        assert "#%d" % ch.id in [op[3] for op in sheets[sheet].ops if op[0] == "text"]
        left, top, cell = otlo_render.pattern_box(ch, x, y)
        for gy in range(ch.h):
            for gx in range(ch.w):
                v = ch.pattern[gy * ch.w + gx]
                seen = at(img, left + (gx + 0.5) * cell, top + (gy + 0.5) * cell)
                if v == T.OUTSIDE:
                    assert seen == render.PAPER
                elif v == T.TABLE:  # the table's colour, or one of its hatch lines
                    assert near(seen, TABLE, 4) or near(seen, otlo_render.hatch_colour(TABLE), 4)
                else:
                    assert near(seen, deck.colours[v], 2), "card #%d cell %d,%d" % (ch.id, gx, gy)


def test_tiles_at_25_mm_a_cell_in_the_png_at_any_dpi(deck, tmp_path):
    sheet = otlo_render.tile_sheets(deck, TWO_SETS)[0]
    page = otlo_render.pages(deck, TWO_SETS)[-2]
    for dpi in (72, 150, 300):
        img = np.asarray(render.render_png(page, dpi).convert("RGB")).astype(int)
        for t, k, (x, y) in sheet[:4]:
            # a line just under the top edge: from the cut line on the left to the one on the right
            row = img[px(y + 1.5, dpi), px(x - 2, dpi):px(x + 52, dpi)]
            printed = np.nonzero((row != 255).any(axis=1))[0]
            width = (printed[-1] - printed[0] + 1) * 25.4 / dpi
            assert abs(width - 50.0) <= 2 * 25.4 / dpi, (dpi, width)


def _pdf_streams(data):
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        raw = m.group(1).strip()
        yield zlib.decompress(base64.a85decode(raw[:-2] if raw.endswith(b"~>") else raw))


def test_tiles_at_25_mm_a_cell_in_the_pdf(deck, sheets, tmp_path):
    pdf = tmp_path / "otlo.pdf"
    render.write_pdf(sheets, str(pdf))
    data = pdf.read_bytes()
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in data  # A4 in points, every page
    contents = list(_pdf_streams(data))
    assert len(contents) == len(sheets)
    fifty_mm = 50 / 25.4 * 72
    for content in contents[-2:]:
        squares = [(float(w), float(h)) for w, h in re.findall(rb"[-\d.]+ [-\d.]+ ([-\d.]+) ([-\d.]+) re", content)
                   if abs(float(w) - fifty_mm) < 0.01]
        # each tile on the sheet: its body and its cut line, 50 x 50 mm
        assert len(squares) == 2 * len(otlo_render.tile_sheets(deck)[0])
        assert all(abs(h - fifty_mm) < 0.01 for w, h in squares)


def paper_or_grey(pixels):
    """White or a light neutral grey: no tile tint, no gem."""
    return (pixels.min(axis=2) >= 140) & (pixels.max(axis=2) - pixels.min(axis=2) <= 6)


def test_each_back_prints_behind_its_own_front(deck, images):
    front, back = images[-2], images[-1]
    seen_through = np.asarray(ImageOps.mirror(Image.fromarray(back.astype(np.uint8)))).astype(int)
    sheet = otlo_render.tile_sheets(deck, TWO_SETS)[0]
    hole_front = np.zeros(front.shape[:2], bool)
    hole_back = np.zeros(front.shape[:2], bool)
    for t, k, (x, y) in sheet:
        for gy in range(2):
            for gx in range(2):
                cx, cy = x + (gx + 0.5) * 25, y + (gy + 0.5) * 25
                f, b = t.front[gy * 2 + gx], t.back[gy * 2 + 1 - gx]  # the cell behind, seen from the back
                assert (at(front, cx, cy) == render.PAPER) == (f == T.HOLE)
                assert (at(seen_through, cx, cy) == render.PAPER) == (b == T.HOLE)
                if f != T.HOLE:
                    assert near(at(front, cx, cy), deck.colours[f], 2)
                    assert near(at(seen_through, cx, cy), deck.colours[b], 2), (t.id, gx, gy)
        # the holes overlaid: paper inside the tile on one side (white, or the grey words
        # "cut out") is paper on the other; above the strip with the tile's id
        box = (slice(px(y) + 2, px(y + 47.5)), slice(px(x) + 2, px(x + 50) - 2))
        hole_front[box] = paper_or_grey(front[box])
        hole_back[box] = paper_or_grey(seen_through[box])
    # the sheet is not a whole number of pixels wide: the mirror may land a pixel off
    for a, b in ((hole_front, hole_back), (hole_back, hole_front)):
        near_b = b | np.roll(b, 1, axis=1) | np.roll(b, -1, axis=1)
        assert a.sum() > 0 and (a & near_b).sum() / a.sum() > 0.995


def test_tile_ids_on_both_sides(deck, sheets):
    for page in sheets[-2:]:
        labels = [op[3].split()[0] for op in page.ops if op[0] == "text" and op[3].startswith("t")]
        assert sorted(labels) == sorted([t.id for t in TILES] * 2)


def test_a_colour_the_deck_does_not_define_is_one_line():
    """Our deck writer refuses such a deck (test_otlo_deck.py); one from another tool is still
    one line here, not a traceback."""
    d = open_deck(make_set(), CHALLENGES[:1])
    d.tiles[0].front = bytes((R, 0, B, 9))
    with pytest.raises(UserError, match=r"^d: tile t1 front uses colour 9, the deck has 4$"):
        otlo_render.pages(d)
    d = open_deck(make_set(), CHALLENGES[:1])
    card = d.challenge(0)
    card.pattern = bytes((R, 7)) + card.pattern[2:]
    d.challenge = lambda i: card
    with pytest.raises(UserError, match=r"^d: challenge 1 uses colour 7, the deck has 4$"):
        otlo_render.pages(d)


def test_cards_render_prints_the_shipped_otlo_deck(tmp_path, capsys):
    """The command a player runs: the shipped deck as a PDF and PNG pages, the cards then the tiles."""
    from layerlight_tools import cli
    shipped = "firmware/decks/otlo.deck"
    d = OtloDeck(simcore.MemoryStorage({"d": open(shipped, "rb").read()}), "d")
    assert cli.main(["cards", "render", shipped, "-o", str(tmp_path / "otlo.pdf"), "--png", str(tmp_path / "png"),
                     "--dpi", "40"]) == 0
    out = capsys.readouterr().out
    pngs = sorted((tmp_path / "png").iterdir())
    card_sheets = -(-d.count // 9)  # nine cards to an A4 sheet, each with its back
    assert len(pngs) == 2 * card_sheets + 4  # then four players' tiles: two sheets, fronts and backs
    assert "%d pages" % len(pngs) in out and "%d cards" % d.count in out
    assert b"/Count %d" % len(pngs) in (tmp_path / "otlo.pdf").read_bytes()  # the PDF has the same pages


def test_four_players_sets_each_on_its_own_tint(deck):
    """By default four sets, one a player: cream, blue, pink and green, whole sets on a sheet, so
    no two players' tiles look alike; the tint fills each tile's body on both sides."""
    sheets = otlo_render.tile_sheets(deck)
    assert [sorted({k for _, k, _ in sheet}) for sheet in sheets] == [[0, 1], [2, 3]]
    pages = otlo_render.pages(deck)
    for n, sheet in enumerate(sheets):
        front = np.asarray(render.render_png(pages[-4 + 2 * n], DPI).convert("RGB")).astype(int)
        for t, k, (x, y) in sheet:
            assert near(at(front, x + 1.5, y + 12.5), otlo_render.TILE_BODIES[k], 2), (t.id, k)
    assert len({otlo_render.TILE_BODIES[k] for k in range(4)}) == 4
    with pytest.raises(UserError, match="--sets must be 1 to 4"):
        otlo_render.tile_sheets(deck, 5)


def test_each_card_shows_its_solution_as_a_picture_of_the_tiles_laid(deck, sheets, images):
    """Under the pattern, the stored solution as laid: the bottom layer's tiles, then the top
    layer's, each cell in the colour of the gem the tile shows there (white for a hole)."""
    slots = otlo_render.card_slots()
    for i in range(deck.count):
        ch = deck.challenge(i)
        img = images[2 * (i // len(slots))]
        x, y = slots[i % len(slots)]
        for layer, left, top, cell in otlo_render.solution_boxes(ch, x, y):
            laid = bytearray(ch.w * ch.h)
            T.compose(deck.tiles, [p for p in ch.solution if p[1] == layer], ch.w, ch.h, laid, 2, 2)
            for gy in range(ch.h):
                for gx in range(ch.w):
                    v = laid[gy * ch.w + gx]
                    if layer == T.TOP and not any(p[1] == T.TOP and p[4] <= gx < p[4] + 2 and p[5] <= gy < p[5] + 2
                                                  for p in ch.solution):
                        continue  # no top tile here
                    seen = at(img, left + (gx + 0.5) * cell, top + (gy + 0.5) * cell, )
                    if v in (T.OUTSIDE,):
                        continue
                    want = render.PAPER if v == T.TABLE else deck.colours[v]
                    assert near(seen, want, 30), "card #%d layer %d cell %d,%d: %s, not %s" % (
                        ch.id, layer, gx, gy, seen, want)
