"""Printable mission cards and layers, fronts and backs, at real size with cut marks.

Each page is drawn once into a small display list (rectangles, lines, text,
in millimetres from the top-left corner of an A4 sheet); reportlab turns it
into a vector PDF page and Pillow into a PNG. Pages come in pairs: fronts,
then backs placed for duplex printing (flip on the long edge), so each back
lands behind its front:

- mission cards (63 x 88 mm, nine a sheet): the pattern and the mission
  number on the front, the level on the back;
- layers (80 x 80 mm, six a sheet): the front side, then the back side as
  written in the set file (the card seen turned over). Printed on
  transparency film, the holes stay clear.
"""

import functools
import os

from layerlight import geometry

PAGE_W, PAGE_H = 210.0, 297.0          # A4, mm
MISSION_W, MISSION_H = 63.0, 88.0      # poker-size cards
LAYER_SIZE = 80.0
GAP = 4.0                              # between cards, room for the cut marks
MARK = 3.0                             # cut mark length
MARK_OFF = 1.0                         # gap between a card corner and its marks
INK = (40, 40, 40)
PAPER = (255, 255, 255)
GRID_LINE = (150, 150, 150)
LEVEL_COLOURS = {1: (120, 120, 120), 2: (47, 168, 79), 3: (31, 111, 209), 4: (224, 58, 62), 5: (40, 40, 40)}


class Page:
    """One sheet as a display list: ('rect', x, y, w, h, fill, stroke, width), ('line', ...), ('text', ...),
    ('circle', cx, cy, r, fill, stroke, width), ('polygon', points, fill, stroke, width)."""

    def __init__(self, title):
        self.title = title
        self.ops = []

    def rect(self, x, y, w, h, fill=None, stroke=None, width=0.2):
        self.ops.append(("rect", x, y, w, h, fill, stroke, width))

    def line(self, x1, y1, x2, y2, colour=INK, width=0.2):
        self.ops.append(("line", x1, y1, x2, y2, colour, width))

    def text(self, x, y, s, size, colour=INK, anchor="left", upside_down=False):
        """Text with its baseline at y (size in points)."""
        self.ops.append(("text", x, y, s, size, colour, anchor, upside_down))

    def circle(self, cx, cy, r, fill=None, stroke=None, width=0.2):
        self.ops.append(("circle", cx, cy, r, fill, stroke, width))

    def polygon(self, points, fill=None, stroke=None, width=0.2):
        """A closed polygon through points [(x, y), ...]."""
        self.ops.append(("polygon", tuple(points), fill, stroke, width))


def grid_slots(card_w, card_h, cols, rows):
    """Top-left corners of the cards of a sheet, centred."""
    total_w = cols * card_w + (cols - 1) * GAP
    total_h = rows * card_h + (rows - 1) * GAP
    x0 = (PAGE_W - total_w) / 2
    y0 = (PAGE_H - total_h) / 2
    return [(x0 + c * (card_w + GAP), y0 + r * (card_h + GAP)) for r in range(rows) for c in range(cols)]


def mirror_slot(slot, w):
    """Where a card's back goes on the back sheet (duplex, long-edge flip)."""
    x, y = slot
    return (PAGE_W - x - w, y)


def cut_marks(page, x, y, w, h):
    """Short marks on the extensions of a card's edges, outside the card."""
    for cx, dx in ((x, -1), (x + w, 1)):
        for cy, dy in ((y, -1), (y + h, 1)):
            page.line(cx + dx * MARK_OFF, cy, cx + dx * (MARK_OFF + MARK), cy, width=0.15)
            page.line(cx, cy + dy * MARK_OFF, cx, cy + dy * (MARK_OFF + MARK), width=0.15)


def draw_grid(page, grid, n, x, y, size, colours, holes_clear=False):
    """An N x N grid of cells; colour 0 is the background (a pattern) or a hole (a layer: left unprinted)."""
    cell = size / n
    for gy in range(n):
        for gx in range(n):
            c = grid[gy * n + gx]
            if c == 0 and holes_clear:
                continue
            page.rect(x + gx * cell, y + gy * cell, cell, cell, fill=colours[c])
    for k in range(n + 1):
        page.line(x + k * cell, y, x + k * cell, y + size, GRID_LINE, 0.1)
        page.line(x, y + k * cell, x + size, y + k * cell, GRID_LINE, 0.1)
    page.rect(x, y, size, size, stroke=INK, width=0.3)


def mission_front(page, deck, m, x, y):
    page.rect(x, y, MISSION_W, MISSION_H, fill=PAPER, stroke=GRID_LINE, width=0.1)
    level_colour = LEVEL_COLOURS.get(m.level, INK)
    page.rect(x, y, MISSION_W, 9, fill=level_colour)
    page.text(x + 4, y + 6.3, "LEVEL %d" % m.level, 9, PAPER)
    page.text(x + MISSION_W - 4, y + 6.3, "#%d" % m.id, 9, PAPER, anchor="right")
    size = MISSION_W - 12
    draw_grid(page, m.pattern, deck.size, x + 6, y + 15, size, deck.colours)
    for k in range(m.level):  # one pip per layer
        page.rect(x + 6 + k * 5, y + 18 + size, 3.5, 3.5, fill=level_colour)
    page.text(x + MISSION_W - 6, y + 21.2 + size, "difficulty %.2f" % m.difficulty, 6, INK, anchor="right")
    # the shown solution, small and upside down, for checking at the table
    words = ["%s %s %d" % (deck.layers[li].id, geometry.side_of(o), geometry.rot_of(o)) for li, o in m.solution]
    lines = [" > ".join(words[:3]), " > ".join(words[3:])] if len(words) > 3 else [" > ".join(words)]
    for k, text in enumerate(lines):
        page.text(x + MISSION_W / 2, y + MISSION_H - 4 - 3 * (len(lines) - 1 - k), text, 5, GRID_LINE,
                  anchor="center", upside_down=True)


def mission_back(page, deck, m, x, y):
    level_colour = LEVEL_COLOURS.get(m.level, INK)
    page.rect(x, y, MISSION_W, MISSION_H, fill=level_colour)
    page.rect(x + 4, y + 4, MISSION_W - 8, MISSION_H - 8, stroke=PAPER, width=0.6)
    page.text(x + MISSION_W / 2, y + 52, str(m.level), 72, PAPER, anchor="center")
    page.text(x + MISSION_W / 2, y + 64, "LEVEL", 12, PAPER, anchor="center")
    page.text(x + MISSION_W / 2, y + MISSION_H - 9, deck.name, 7, PAPER, anchor="center")


def layer_side(page, deck, layer, side, x, y):
    grid = layer.front if side == "front" else layer.back
    margin = 5.0
    page.rect(x, y, LAYER_SIZE, LAYER_SIZE, stroke=GRID_LINE, width=0.1)
    draw_grid(page, grid, deck.size, x + margin, y + margin, LAYER_SIZE - 2 * margin, deck.colours, holes_clear=True)
    page.text(x + margin, y + LAYER_SIZE - 1.4, "%s  %s" % (layer.id, side), 6, INK)
    # an arrow at the top edge: rotation 0 is with this edge away from you
    page.text(x + LAYER_SIZE / 2, y + 3.8, "^ top", 6, INK, anchor="center")


def pages(deck):
    """Every sheet of a deck: mission fronts and backs, then layer fronts and backs."""
    out = []
    missions = [deck.mission(i) for i in range(deck.count)]
    slots = grid_slots(MISSION_W, MISSION_H, 3, 3)
    for start in range(0, len(missions), len(slots)):
        batch = missions[start:start + len(slots)]
        front = Page("missions %d-%d front" % (batch[0].id, batch[-1].id))
        back = Page("missions %d-%d back" % (batch[0].id, batch[-1].id))
        for m, slot in zip(batch, slots):
            mission_front(front, deck, m, *slot)
            cut_marks(front, slot[0], slot[1], MISSION_W, MISSION_H)
            bx, by = mirror_slot(slot, MISSION_W)
            mission_back(back, deck, m, bx, by)
            cut_marks(back, bx, by, MISSION_W, MISSION_H)
        out += [front, back]
    slots = grid_slots(LAYER_SIZE, LAYER_SIZE, 2, 3)
    for start in range(0, len(deck.layers), len(slots)):
        batch = deck.layers[start:start + len(slots)]
        front = Page("layers front")
        back = Page("layers back")
        for layer, slot in zip(batch, slots):
            layer_side(front, deck, layer, "front", *slot)
            cut_marks(front, slot[0], slot[1], LAYER_SIZE, LAYER_SIZE)
            bx, by = mirror_slot(slot, LAYER_SIZE)
            layer_side(back, deck, layer, "back", bx, by)
            cut_marks(back, bx, by, LAYER_SIZE, LAYER_SIZE)
        out += [front, back]
    for page in out:
        page.text(PAGE_W / 2, PAGE_H - 5, "%s: %s  (print at 100%%, duplex, flip on the long edge)" % (
            deck.name, page.title), 6, GRID_LINE, anchor="center")
    return out


# --- PDF (reportlab) -----------------------------------------------------------

def write_pdf(pages_, path):
    """A vector PDF, one A4 page a sheet, real size."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(path, pagesize=(PAGE_W * mm, PAGE_H * mm), invariant=1)
    c.setTitle("Layerlight cards")

    def paint(fill, stroke, width):
        if fill is not None:
            c.setFillColorRGB(*[v / 255 for v in fill])
        if stroke is not None:
            c.setStrokeColorRGB(*[v / 255 for v in stroke])
            c.setLineWidth(width * mm)
        return {"stroke": 1 if stroke is not None else 0, "fill": 1 if fill is not None else 0}

    for page in pages_:
        for op in page.ops:
            kind = op[0]
            if kind == "circle":
                _, cx, cy, r, fill, stroke, width = op
                c.circle(cx * mm, (PAGE_H - cy) * mm, r * mm, **paint(fill, stroke, width))
            elif kind == "polygon":
                _, points, fill, stroke, width = op
                path_ = c.beginPath()
                path_.moveTo(points[0][0] * mm, (PAGE_H - points[0][1]) * mm)
                for x, y in points[1:]:
                    path_.lineTo(x * mm, (PAGE_H - y) * mm)
                path_.close()
                c.drawPath(path_, **paint(fill, stroke, width))
            elif kind == "rect":
                _, x, y, w, h, fill, stroke, width = op
                if fill is not None:
                    c.setFillColorRGB(*[v / 255 for v in fill])
                if stroke is not None:
                    c.setStrokeColorRGB(*[v / 255 for v in stroke])
                    c.setLineWidth(width * mm)
                c.rect(x * mm, (PAGE_H - y - h) * mm, w * mm, h * mm,
                       stroke=1 if stroke is not None else 0, fill=1 if fill is not None else 0)
            elif kind == "line":
                _, x1, y1, x2, y2, colour, width = op
                c.setStrokeColorRGB(*[v / 255 for v in colour])
                c.setLineWidth(width * mm)
                c.line(x1 * mm, (PAGE_H - y1) * mm, x2 * mm, (PAGE_H - y2) * mm)
            else:
                _, x, y, s, size, colour, anchor, upside_down = op
                c.saveState()
                c.setFillColorRGB(*[v / 255 for v in colour])
                c.setFont("Helvetica", size)
                c.translate(x * mm, (PAGE_H - y) * mm)
                if upside_down:
                    c.rotate(180)
                draw = {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[anchor]
                draw(0, 0, s)
                c.restoreState()
        c.showPage()
    c.save()


# --- PNG (Pillow) ----------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _font(size_px):
    from PIL import ImageFont
    return ImageFont.load_default(size=max(6, size_px))


def render_png(page, dpi):
    """One sheet as a Pillow image."""
    from PIL import Image, ImageDraw

    k = dpi / 25.4

    def px(v):
        return int(round(v * k))

    img = Image.new("RGB", (px(PAGE_W), px(PAGE_H)), PAPER)
    draw = ImageDraw.Draw(img)
    for op in page.ops:
        kind = op[0]
        if kind == "circle":
            _, cx, cy, r, fill, stroke, width = op
            draw.ellipse([px(cx - r), px(cy - r), px(cx + r) - 1, px(cy + r) - 1], fill=fill,
                         outline=stroke, width=max(1, px(width)) if stroke is not None else 0)
        elif kind == "polygon":
            _, points, fill, stroke, width = op
            draw.polygon([(px(x), px(y)) for x, y in points], fill=fill,
                         outline=stroke, width=max(1, px(width)) if stroke is not None else 0)
        elif kind == "rect":
            _, x, y, w, h, fill, stroke, width = op
            draw.rectangle([px(x), px(y), px(x + w) - 1, px(y + h) - 1], fill=fill,
                           outline=stroke, width=max(1, px(width)) if stroke is not None else 0)
        elif kind == "line":
            _, x1, y1, x2, y2, colour, width = op
            draw.line([px(x1), px(y1), px(x2), px(y2)], fill=colour, width=max(1, px(width)))
        else:
            _, x, y, s, size, colour, anchor, upside_down = op
            font = _font(int(round(size / 72 * dpi)))
            a = {"left": "ls", "center": "ms", "right": "rs"}[anchor]
            if not upside_down:
                draw.text((px(x), px(y)), s, fill=colour, font=font, anchor=a)
            else:
                box = draw.textbbox((0, 0), s, font=font, anchor=a)
                tile = Image.new("RGBA", (box[2] - box[0] + 2, box[3] - box[1] + 2), (0, 0, 0, 0))
                ImageDraw.Draw(tile).text((-box[0] + 1, -box[1] + 1), s, fill=colour, font=font, anchor=a)
                tile = tile.rotate(180)
                # the anchor point turns about itself: the box lands mirrored around (x, y)
                img.paste(tile, (px(x) - (box[2] + 1), px(y) - (box[3] + 1)), tile)
    return img


def write_png(pages_, folder, dpi=150):
    """Each sheet as page-NN.png in folder (real size at `dpi`); returns the file names."""
    names = []
    for i, page in enumerate(pages_):
        name = os.path.join(folder, "page-%02d.png" % (i + 1))
        render_png(page, dpi).save(name, dpi=(dpi, dpi), compress_level=3)
        names.append(name)
    return names
