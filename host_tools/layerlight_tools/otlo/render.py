"""Printable OTLO Stones challenge cards and tiles, at real size with cut lines.

The same display-list pages as layers/render.py (so render.write_pdf / write_png
print them), in pairs for duplex printing (flip on the long edge):

- challenge cards (63 x 88 mm, nine a sheet): the pattern with its gems as
  round stones, `_` cells as the hatched table, the card's stars and its id;
  a plain back, so the whole file prints double-sided;
- the tiles at playing size (CELL_MM = 25 mm a cell, a 2 x 2 tile is 50 mm
  square): fronts on one sheet, backs on the next, each back in the mirrored
  slot so it lands behind its own front; holes are dashed circles to punch
  out, and they line up through the paper because the set's holes mirror.

Geometry (turns, what shows) is otlo_tiles'; this module only lays it out.
"""

import math

from layerlight import otlo_tiles
from layerlight_tools.layers import render
from layerlight_tools.errors import UserError
from layerlight_tools.layers.render import GAP, GRID_LINE, INK, PAGE_H, PAGE_W, PAPER, Page

CARD_W, CARD_H = render.MISSION_W, render.MISSION_H
CARD_COLS, CARD_ROWS = 3, 3
CELL_MM = 25.0            # a tile cell at playing size
STONE_D = 18.0            # a gem on a tile, mm across
HOLE_D = 19.0             # a hole: a 19 mm (3/4 inch) circle punch; a little wider than a stone
SHEET_MARGIN = 10.0       # what most printers cannot reach, and room for the cut marks
TILE_BODIES = ((238, 232, 220), (222, 232, 242), (242, 226, 230), (226, 240, 226))  # one tint a set
TILE_BODY = TILE_BODIES[0]
STAR_FILL = (240, 180, 0)
STAR_EDGE = (170, 120, 0)
CARD_BACK = (52, 62, 80)
PATTERN_TOP = 15.0        # the card's header (stars, id) is above this
PATTERN_BOTTOM = 21.0     # room for the solution under the pattern: a small picture and a line
SOLUTION_CELL = 2.4       # a cell of the solution's picture, mm
TINT_NAMES = ("cream", "blue", "pink", "green")
PATTERN_MARGIN = 5.0
MAX_PATTERN_CELL = 13.0


def card_slots():
    """Top-left corners of the challenge cards of a sheet (fronts)."""
    return render.grid_slots(CARD_W, CARD_H, CARD_COLS, CARD_ROWS)


def tile_size(deck):
    """(width, height) of a tile in mm, at playing size."""
    return deck.tile_w * CELL_MM, deck.tile_h * CELL_MM


def tile_sheets(deck, sets=len(TILE_BODIES)):
    """The tile sheets, each a list of (tile, set number, top-left corner of its front).

    `sets` whole sets (one per player, up to four), each on its own tint
    (cream, blue, pink, green) so the players' tiles never mix; a sheet holds
    as many tiles as fit inside the margins, and the sets run on over as many
    sheets as they need.
    """
    if not 1 <= sets <= len(TILE_BODIES):
        raise UserError("--sets must be 1 to %d (one tint a player: %s)" % (len(TILE_BODIES), ", ".join(TINT_NAMES)))
    w, h = tile_size(deck)
    cols = int((PAGE_W - 2 * SHEET_MARGIN + GAP) // (w + GAP))
    rows = int((PAGE_H - 2 * SHEET_MARGIN + GAP) // (h + GAP))
    per_sheet = cols * rows
    # whole sets on a sheet where a set fits, so one player's tiles come off one sheet
    step = per_sheet // len(deck.tiles) * len(deck.tiles) or per_sheet
    items = [(tile, k) for k in range(sets) for tile in deck.tiles]
    out = []
    for start in range(0, len(items), step):
        batch = items[start:start + step]
        slots = render.grid_slots(w, h, cols, (len(batch) + cols - 1) // cols)
        out.append([(tile, k, slot) for (tile, k), slot in zip(batch, slots)])
    return out


def pattern_box(ch, x, y):
    """(left, top, cell size) of a challenge's pattern on a card whose corner is x, y."""
    room_w = CARD_W - 2 * PATTERN_MARGIN
    room_h = CARD_H - PATTERN_TOP - PATTERN_BOTTOM
    cell = min(room_w / ch.w, room_h / ch.h, MAX_PATTERN_CELL)
    return (x + (CARD_W - cell * ch.w) / 2, y + PATTERN_TOP + (room_h - cell * ch.h) / 2, cell)


def star_centres(x, y, stars):
    """Where a card's stars go (its corner at x, y)."""
    return [(x + 7.0 + 7.5 * k, y + 7.5) for k in range(stars)]


# --- drawing pieces ----------------------------------------------------------------

def _shade(rgb, k):
    """rgb moved towards black (k < 0) or white (k > 0) by |k| of the way."""
    target = 255 if k > 0 else 0
    return tuple(int(round(v + (target - v) * abs(k))) for v in rgb)


def _light(rgb):
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 128


def hatch_colour(table):
    """The hatch lines over a table cell: a little darker on a light table, lighter on a dark one."""
    return _shade(table, -0.3 if _light(table) else 0.3)


def stone(page, cx, cy, d, colour):
    """A round gem: the colour, a darker rim and a small shine off the centre
    (the centre keeps the pure colour)."""
    r = d / 2
    page.circle(cx, cy, r, fill=colour, stroke=_shade(colour, -0.35), width=max(0.15, d / 40))
    page.circle(cx - 0.38 * r, cy - 0.38 * r, 0.2 * r, fill=_shade(colour, 0.55))


def star(page, cx, cy, r, fill=STAR_FILL, stroke=STAR_EDGE):
    points = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else 0.45 * r
        points.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    page.polygon(points, fill=fill, stroke=stroke, width=0.15)


def hatch(page, x, y, size, colour, step):
    """45-degree lines across a square cell, inside it (half a step off its centre)."""
    s = step / 2
    while s < 2 * size:
        page.line(x + min(s, size), y + max(0.0, s - size), x + max(0.0, s - size), y + min(s, size), colour, 0.15)
        s += step


def dashed_circle(page, cx, cy, r, colour=INK, dashes=16):
    """Dashes centred on even angles: the circle mirrored left-right has its dashes in the same places
    (a hole's ring on the back lies on the front's)."""
    for k in range(dashes):
        a0 = 2 * math.pi * k / dashes - math.pi / (2 * dashes)
        a1 = a0 + math.pi / dashes
        page.line(cx + r * math.cos(a0), cy + r * math.sin(a0), cx + r * math.cos(a1), cy + r * math.sin(a1),
                  colour, 0.25)


# --- challenge cards -------------------------------------------------------------

def _solution_lines(deck, ch):
    """The card's shown solution in words, bottom tiles then top ones."""
    out = []
    for layer, word in ((otlo_tiles.BOTTOM, "under"), (otlo_tiles.TOP, "over")):
        parts = ["%s %s%d %d,%d" % (deck.tiles[t].id, "B" if side == otlo_tiles.BACK else "F", rot * 90, px, py)
                 for t, lay, side, rot, px, py in ch.solution if lay == layer]
        if parts:
            out.append("%s: %s" % (word, "  ".join(parts)))
    return out


def card_front(page, deck, ch, x, y):
    page.rect(x, y, CARD_W, CARD_H, fill=PAPER, stroke=GRID_LINE, width=0.1)
    for cx, cy in star_centres(x, y, ch.stars):
        star(page, cx, cy, 3.2)
    page.text(x + CARD_W - 5, y + 10, "#%d" % ch.id, 10, INK, anchor="right")
    left, top, cell = pattern_box(ch, x, y)
    table = deck.colours[0]
    w, h = ch.w, ch.h

    def inside(gx, gy):
        return 0 <= gx < w and 0 <= gy < h and ch.pattern[gy * w + gx] != otlo_tiles.OUTSIDE

    for gy in range(h):
        for gx in range(w):
            v = ch.pattern[gy * w + gx]
            cx, cy = left + gx * cell, top + gy * cell
            if v == otlo_tiles.OUTSIDE:
                continue
            if v == otlo_tiles.TABLE:
                page.rect(cx, cy, cell, cell, fill=table, stroke=GRID_LINE, width=0.1)
                hatch(page, cx, cy, cell, hatch_colour(table), cell / 5)
            else:
                page.rect(cx, cy, cell, cell, fill=TILE_BODY, stroke=GRID_LINE, width=0.1)
                stone(page, cx + cell / 2, cy + cell / 2, cell * 0.74, deck.colours[v])
    # the shape's outline, so a table cell on the edge still reads as part of it
    for gy in range(h):
        for gx in range(w):
            if not inside(gx, gy):
                continue
            cx, cy = left + gx * cell, top + gy * cell
            if not inside(gx, gy - 1):
                page.line(cx, cy, cx + cell, cy, INK, 0.4)
            if not inside(gx, gy + 1):
                page.line(cx, cy + cell, cx + cell, cy + cell, INK, 0.4)
            if not inside(gx - 1, gy):
                page.line(cx, cy, cx, cy + cell, INK, 0.4)
            if not inside(gx + 1, gy):
                page.line(cx + cell, cy, cx + cell, cy + cell, INK, 0.4)
    # a solution for checking at the table: a small picture of the tiles as laid, the bottom
    # layer then the top one, and the same in words, small and upside down (not for peeking)
    solution_picture(page, deck, ch, x, y)
    lines = _solution_lines(deck, ch)
    for k, text in enumerate(lines):
        page.text(x + CARD_W / 2, y + CARD_H - 2.5 - 2.4 * (len(lines) - 1 - k), text, 4, GRID_LINE,
                  anchor="center", upside_down=True)


def solution_boxes(ch, x, y):
    """Where a card's solution picture goes: [(layer, left, top, cell)], bottom layer first."""
    cell = SOLUTION_CELL
    w, h = ch.w * cell, ch.h * cell
    gap = 6.0
    left = x + (CARD_W - 2 * w - gap) / 2
    top = y + CARD_H - PATTERN_BOTTOM + 1.5 + max(0, (12.5 - h) / 2)
    return [(otlo_tiles.BOTTOM, left, top, cell), (otlo_tiles.TOP, left + w + gap, top, cell)]


def solution_picture(page, deck, ch, x, y):
    """The card's stored solution as laid: for each layer, the shape (faint), each tile of that
    layer on it with the gems of the side that is up, turned as laid, holes left white, the tile
    outlined and its id beside the layer's name."""
    for layer, left, top, cell in solution_boxes(ch, x, y):
        page.text(left, top - 0.4, "under" if layer == otlo_tiles.BOTTOM else "over", 4, GRID_LINE)
        for gy in range(ch.h):
            for gx in range(ch.w):
                if ch.pattern[gy * ch.w + gx] != otlo_tiles.OUTSIDE:
                    page.rect(left + gx * cell, top + gy * cell, cell, cell, stroke=GRID_LINE, width=0.05)
        ids = []
        for t, lay, side, rot, px, py in ch.solution:
            if lay != layer:
                continue
            grid = otlo_tiles.side_of(deck.tiles[t], side)
            tw, th = otlo_tiles.turned_size(deck.tile_w, deck.tile_h, rot)
            for dy in range(th):
                for dx in range(tw):
                    v = otlo_tiles.cell(grid, deck.tile_w, deck.tile_h, rot, dx, dy)
                    cx, cy = left + (px + dx) * cell, top + (py + dy) * cell
                    page.rect(cx, cy, cell, cell, fill=deck.colours[v] if v != otlo_tiles.HOLE else PAPER)
            page.rect(left + px * cell, top + py * cell, tw * cell, th * cell, stroke=INK, width=0.25)
            ids.append(deck.tiles[t].id)
        if ids:
            page.text(left + ch.w * cell + 0.5, top + 1.6, " ".join(ids), 3.5, GRID_LINE)


def card_back(page, deck, x, y):
    page.rect(x, y, CARD_W, CARD_H, fill=CARD_BACK)
    page.rect(x + 4, y + 4, CARD_W - 8, CARD_H - 8, stroke=PAPER, width=0.6)
    gems = deck.colours[1:6]
    for k, colour in enumerate(gems):
        stone(page, x + CARD_W / 2 + (k - (len(gems) - 1) / 2) * 9, y + 36, 7, colour)
    page.text(x + CARD_W / 2, y + 54, deck.name, 16, PAPER, anchor="center")
    page.text(x + CARD_W / 2, y + 62, "CHALLENGE", 8, PAPER, anchor="center")


# --- tiles -----------------------------------------------------------------------

def tile_side(page, deck, tile, side, x, y, body=TILE_BODY):
    """One side of a tile at (x, y), as seen when it lies that side up."""
    grid = otlo_tiles.side_of(tile, side)
    tw, th = deck.tile_w, deck.tile_h
    w, h = tile_size(deck)
    page.rect(x, y, w, h, fill=body)
    for k in range(1, tw):
        page.line(x + k * CELL_MM, y, x + k * CELL_MM, y + h, _shade(body, -0.12), 0.15)
    for k in range(1, th):
        page.line(x, y + k * CELL_MM, x + w, y + k * CELL_MM, _shade(body, -0.12), 0.15)
    for gy in range(th):
        for gx in range(tw):
            v = grid[gy * tw + gx]
            cx, cy = x + (gx + 0.5) * CELL_MM, y + (gy + 0.5) * CELL_MM
            if v == otlo_tiles.HOLE:
                page.circle(cx, cy, HOLE_D / 2, fill=PAPER)
                dashed_circle(page, cx, cy, HOLE_D / 2)
                page.text(cx, cy + HOLE_D / 4 + 1, "cut out", 5, GRID_LINE, anchor="center")
            else:
                stone(page, cx, cy, STONE_D, deck.colours[v])
    page.rect(x, y, w, h, stroke=INK, width=0.3)  # the cut line
    # the top edge (turn 0 in the card's solution) and the id, small, on both sides
    page.polygon([(x + w / 2 - 1.2, y + 2.2), (x + w / 2 + 1.2, y + 2.2), (x + w / 2, y + 0.9)], fill=GRID_LINE)
    page.text(x + 1.3, y + h - 1.3, "%s %s" % (tile.id, "back" if side == otlo_tiles.BACK else "front"), 5,
              GRID_LINE)


# --- sheets ------------------------------------------------------------------------

def _check_colours(deck, challenges):
    """A colour the deck does not define is one line naming the tile or card (the reader leaves it to us)."""
    top = len(deck.colours) - 1
    for t in deck.tiles:
        for name, grid in (("front", t.front), ("back", t.back)):
            bad = [v for v in grid if v > top]
            if bad:
                raise UserError("%s: tile %s %s uses colour %d, the deck has %d" % (deck.path, t.id, name, bad[0], top))
    for ch in challenges:
        bad = [v for v in ch.pattern if top < v != otlo_tiles.TABLE]
        if bad:
            raise UserError("%s: challenge %d uses colour %d, the deck has %d" % (deck.path, ch.id, bad[0], top))


def pages(deck, sets=len(TILE_BODIES)):
    """Every sheet of an OTLO deck: challenge cards front and back, then the tiles of `sets`
    players (one tint each) front and back."""
    out = []
    challenges = [deck.challenge(i) for i in range(deck.count)]
    _check_colours(deck, challenges)
    slots = card_slots()
    sheets = (len(challenges) + len(slots) - 1) // len(slots)
    for start in range(0, len(challenges), len(slots)):
        batch = challenges[start:start + len(slots)]
        n = start // len(slots) + 1
        front = Page("challenge cards %d of %d" % (n, sheets))
        back = Page("challenge cards %d of %d, backs" % (n, sheets))
        for ch, slot in zip(batch, slots):
            card_front(front, deck, ch, *slot)
            render.cut_marks(front, slot[0], slot[1], CARD_W, CARD_H)
            bx, by = render.mirror_slot(slot, CARD_W)
            card_back(back, deck, bx, by)
            render.cut_marks(back, bx, by, CARD_W, CARD_H)
        out += [front, back]
    w, h = tile_size(deck)
    for sheet in tile_sheets(deck, sets):
        tints = ", ".join(sorted({TINT_NAMES[k] for _, k, _ in sheet}, key=TINT_NAMES.index))
        front = Page("tiles, fronts (%d mm cells; %s)" % (CELL_MM, tints))
        back = Page("tiles, backs (%d mm cells; %s)" % (CELL_MM, tints))
        for tile, k, slot in sheet:
            body = TILE_BODIES[k % len(TILE_BODIES)]
            tile_side(front, deck, tile, otlo_tiles.FRONT, slot[0], slot[1], body)
            render.cut_marks(front, slot[0], slot[1], w, h)
            bx, by = render.mirror_slot(slot, w)
            tile_side(back, deck, tile, otlo_tiles.BACK, bx, by, body)
            render.cut_marks(back, bx, by, w, h)
        out += [front, back]
    for page in out:
        page.text(PAGE_W / 2, PAGE_H - 5, "%s: %s  (print at 100%%, duplex, flip on the long edge)" % (
            deck.name, page.title), 6, GRID_LINE, anchor="center")
    return out
