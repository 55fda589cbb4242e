"""Reading one side of a layer card from a photo: `read_layer(image bytes, size, colours)`.

The card is found and straightened by photo_card; this module reads what is printed on it:

- the light: the card's margin is unprinted, like its holes. A smooth surface fitted to the
  margin (a quadratic per colour channel, robust to the printed text and a glare spot on it)
  says how the light falls over the card; every cell is divided by it, which cancels uneven
  light and a colour cast (paper: the margin is the paper's white).
- holes: a hole looks like the margin, because both are unprinted: on paper the paper shows,
  on clear film the table shows in both. So "hole" is one more class beside the set's
  colours, whose colour is the margin's, and no rule about the table is needed.
- colours: on paper the margin is white, so a cell divided by it is its own colour. On film
  the margin is the table's colour, unknown; a per-channel gain is fitted so that the cells
  not read as holes match the set's colours best (a few rounds of assign-and-fit, starting
  from "the margin is white"). Cells are compared in CIELAB (CIE76, lightness weighted half),
  each class also tried washed toward white by a glare spot, at a cost.
- orientation: the printed card has "^ top" in the middle of its top margin and the layer's
  name at the left of its bottom margin; the straightened card is turned until the ink in its
  margins sits there. A card without them (a box's own plastic card) is read as it lay, and
  says so (turned is None).
- the grid's size: a card whose colour edges say another size than the set's is refused,
  not read into the wrong cells; so is one whose cells show two colours each here and there
  (its grid was not found where it is).
"""

import dataclasses

import cv2
import numpy as np

from layerlight import geometry
from layerlight_tools.layers import photo_card
from layerlight_tools.layers.photo_card import MARGIN, VIEW

# lightness counts half as much as hue and chroma: a glare spot or light the margin did not
# see moves a cell's lightness most, and leaves its hue
LAB_WEIGHT = np.array([0.5, 1.0, 1.0])
DOUBT = 0.25          # a cell read with less confidence than this is worth a look
EVEN, UNEVEN = 0.15, 0.35   # a cell's spread (_cells): up to EVEN it is one colour (a hole over a
                            # table's grain: 0.05-0.12), from UNEVEN it is surely two
STRADDLE = 0.04            # more cells than this share that show two colours: the grid is not
                            # where it was found, and the reading is refused, not guessed
SAMPLE = 0.5          # the middle half of a cell is read: the grid lines and the blur stay out


class PhotoError(Exception):
    """A photo that cannot be read; str() is one line saying why."""


@dataclasses.dataclass
class LayerReading:
    """One side of a layer as read from a photo.

    cells: N*N colour indices row by row from the top row, 0 a hole, i the set's colour i
    (colours[i - 1]); confidence: N*N numbers in [0, 1] (1: the cell matched one class and no
    other; 0: two classes fit equally); turned: how many degrees clockwise the card lay turned
    in the photo, found from its printed top mark (None: no mark, the cells are as the card
    lay); outline: "card" (the card's edge was found) or "frame" (its grid's frame, clear film);
    preview_png: the card straightened and turned upright, PREVIEW px square, its grid from
    GRID_BOX[0] to GRID_BOX[1] px on both axes.
    """
    size: int
    cells: list
    confidence: list
    turned: object
    outline: str
    preview_png: bytes

    def doubts(self, below=DOUBT):
        """(row, column), from 1, of the cells read with confidence below `below`."""
        n = self.size
        return [(i // n + 1, i % n + 1) for i, c in enumerate(self.confidence) if c < below]

    def rows(self, chars):
        """The cells as rows of the set file's notation: chars[i - 1] for colour i, '.' a hole."""
        n = self.size
        return ["".join("." if c == 0 else chars[c - 1] for c in self.cells[y * n:(y + 1) * n]) for y in range(n)]


PREVIEW = VIEW
GRID_BOX = (MARGIN, VIEW - MARGIN)


def read_layer(image, size, colours):
    """Read one side of a layer card from the bytes of a photo (JPEG, PNG, WebP, BMP, TIFF).

    size: the set's grid (N); colours: the set's colours as (r, g, b) or "#rrggbb", colour i+1
    at i. Returns a LayerReading; raises PhotoError (one line) when the bytes are not an image,
    no card is found, the card's grid is not N x N or was not found where it is.
    """
    if not 2 <= size <= 16:
        raise PhotoError("size must be 2 to 16, not %r" % (size,))
    if not colours:
        raise PhotoError("the set has no colours to read")
    colours = [_rgb(c) for c in colours]
    img = photo_card.decode(image)
    if img is None:
        raise PhotoError("not an image (JPEG, PNG, WebP, BMP or TIFF)")
    found = photo_card.find(img, size)
    if found is None:
        raise PhotoError("no layer card found: the whole card, flat, on its own, with its grid's "
                         "dark frame in view")
    view, outline = found
    light = _light(view)
    turns = _upright_turns(view, light)
    if turns:
        view, light = np.rot90(view, turns).copy(), np.rot90(light, turns).copy()
    other = _grid_size(view, size)
    if other is not None:
        raise PhotoError("the card's grid is %dx%d, the set's is %dx%d" % (other, other, size, size))
    seen, spread = _cells(view, light, size)
    straddle = int((spread >= UNEVEN).sum())
    if straddle > max(2, STRADDLE * size * size):
        raise PhotoError("the card's grid did not line up (%d cells show two colours): photograph it flatter, "
                         "nearer, on a plain light surface" % straddle)
    cells, confidence = _classify(seen, colours)
    # a cell whose middle is not one colour straddles two (a grid not lined up) or lies under
    # an edge of glare: whatever it was read as, it is in doubt
    confidence = [round(c * float(np.clip((UNEVEN - s) / (UNEVEN - EVEN), 0, 1)), 3) for c, s in zip(confidence, spread)]
    png = cv2.imencode(".png", view)[1].tobytes()
    return LayerReading(size, cells, confidence, None if turns is None else 90 * turns, outline, png)


def _rgb(colour):
    """(r, g, b) of a colour given as (r, g, b) or "#rrggbb" (the set file's and the page's)."""
    if isinstance(colour, str) and len(colour) == 7 and colour.startswith("#"):
        try:
            return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        except ValueError:
            pass
    elif len(colour) == 3 and all(isinstance(v, int) and 0 <= v <= 255 for v in colour):
        return tuple(colour)
    raise PhotoError("a colour must be (r, g, b) or \"#rrggbb\", not %r" % (colour,))


def closest_layer(cells, layers):
    """(layer, orientation, cells that differ) of the set's layer, in any of its 8 orientations
    (geometry's), that the cells read are nearest to; None for no layers. 0 cells differing
    says the card photographed is that layer, seen in that orientation: the way to tell a
    box's card, or the way up of one whose top mark did not show."""
    best = None
    for layer in layers:
        for o in range(geometry.ORIENTATIONS):
            differ = sum(1 for a, b in zip(cells, layer.grid(o)) if a != b)
            if best is None or differ < best[2]:
                best = (layer, o, differ)
    return best


# --- the light ------------------------------------------------------------------------------

def _terms(x, y):
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1)


def _light(view):
    """VIEW x VIEW x 3 float: the margin's colour (the unprinted card under this light) over the
    whole card, a quadratic surface per channel fitted to the margin's patches."""
    inner, outer = 6, MARGIN - 6
    step = 20
    pts, vals = [], []
    for t in range(MARGIN, VIEW - MARGIN, step):
        for x0, y0, w, h in ((t, inner, step, outer - inner), (t, VIEW - outer, step, outer - inner),
                             (inner, t, outer - inner, step), (VIEW - outer, t, outer - inner, step)):
            patch = view[y0:y0 + h, x0:x0 + w].reshape(-1, 3).astype(np.float32)
            vals.append(np.percentile(patch, 70, axis=0))    # above the text's ink
            pts.append((x0 + w / 2, y0 + h / 2))
    pts = np.array(pts, np.float32) / VIEW
    vals = np.array(vals, np.float32)
    a = _terms(pts[:, 0], pts[:, 1])
    keep = np.ones(len(pts), bool)
    for _ in range(3):   # drop the patches a glare spot, a shadow or a stray object spoils
        coef, *_ = np.linalg.lstsq(a[keep], vals[keep], rcond=None)
        resid = np.abs(a @ coef - vals).max(axis=1)
        mad = np.median(resid[keep]) + 1.0
        keep = resid < 3 * mad
    yy, xx = np.mgrid[0:VIEW, 0:VIEW].astype(np.float32) / VIEW
    return np.clip(_terms(xx, yy) @ coef, 8, None)


# --- which way up ---------------------------------------------------------------------------

def _upright_turns(view, light):
    """Quarter turns anticlockwise (np.rot90) that put the card's printed "^ top" at the top,
    or None when the margins show no such mark.

    Ink is what is thinly darker than its surroundings (a black-hat: the text's strokes, not
    a table's grain or a shadow), relative to the light there, so it shows on a dark table
    through clear film as on white paper, only fainter."""
    grey = view.astype(np.float32).mean(axis=2)
    hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, np.ones((9, 9), np.uint8))
    ink = hat / light.mean(axis=2) > 0.12
    lo, hi = 6, MARGIN - 6
    marks, scores = [], []
    for k in range(4):
        m = np.rot90(ink, k)
        top, bottom = m[lo:hi], m[VIEW - hi:VIEW - lo]
        mark = top[:, 270:370].mean() + bottom[:, MARGIN + 4:MARGIN + 100].mean()
        stray = top[:, 60:230].mean() + top[:, 410:580].mean() + bottom[:, 460:600].mean()
        marks.append(mark)
        scores.append(mark - stray)
    k = int(np.argmax(scores))
    others = max(marks[j] for j in range(4) if j != k)
    if marks[k] < 0.004 or marks[k] < 3 * others:
        return None
    return k


# --- the grid -------------------------------------------------------------------------------

def _grid_size(view, size):
    """The grid's size when its cell edges clearly say another than `size`, else None."""
    scores = photo_card.grid_scores(view)
    top = max(scores.values())
    if top < SIZE_EDGES or scores[size] >= 0.6 * top:
        return None
    # every divisor of the true size sees cell edges only where the true grid has them, and
    # scores as well: the largest size that scores near the top is the grid
    return max(n for n in scores if scores[n] >= 0.6 * top)


SIZE_EDGES = 20.0     # below this the cells hardly differ (a card of one colour): no verdict (a card: 100-170)


def _cells(view, light, n):
    """(colours, spreads): each cell's colour divided by the light there (1, 1, 1: looks like the
    margin), N*N x 3 RGB, and how unevenly coloured its middle is (the 75th percentile of its
    pixels' largest channel difference from that colour, in the same units)."""
    cell = (VIEW - 2 * MARGIN) / n
    half = max(1, int(cell * SAMPLE / 2))
    out = np.zeros((n * n, 3), np.float32)
    spread = np.zeros(n * n, np.float32)
    for y in range(n):
        for x in range(n):
            cx, cy = int(MARGIN + (x + 0.5) * cell), int(MARGIN + (y + 0.5) * cell)
            box = (slice(cy - half, cy + half), slice(cx - half, cx + half))
            px = view[box].reshape(-1, 3).astype(np.float32) / light[box].reshape(-1, 3)
            out[y * n + x] = np.median(px, axis=0)
            spread[y * n + x] = np.percentile(np.abs(px - out[y * n + x]).max(axis=1), 75)
    return out[:, ::-1], spread     # BGR -> RGB


# --- colours --------------------------------------------------------------------------------

def lab(rgb):
    """CIELAB (D65) of sRGB values in 0-1 (not clipped: a cell brighter than the margin too)."""
    c = np.clip(np.asarray(rgb, np.float64), 0, None)
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = linear @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                             [0.0193, 0.1192, 0.9505]]).T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


GLARE = np.linspace(0, 0.6, 7)     # how far toward white a glare spot may wash a cell
GLARE_COST = 20.0                  # ... and what it costs, in delta E per unit: a cell is not
                                   # called washed out when its own colour fits as well


def _distances(true, refs):
    """cells x classes: the weighted CIELAB distance from each cell to each class's colour washed
    toward white by the glare that fits best, plus that glare's cost."""
    seen = lab(true) * LAB_WEIGHT
    best = None
    for b in GLARE:
        washed = lab(refs + b * (1 - refs)) * LAB_WEIGHT
        d = np.linalg.norm(seen[:, None, :] - washed[None, :, :], axis=2) + GLARE_COST * b
        best = d if best is None else np.minimum(best, d)
    return best


def _classify(seen, colours):
    """(cells, confidence): each cell the nearest of hole (the margin's colour) and the set's
    colours, after the gain that best maps the margin-relative cells onto the set's colours."""
    refs = np.array(colours, np.float64) / 255
    gain = np.ones(3)
    for _ in range(4):
        # class 0 is a hole: the margin itself, whatever gain turns it into
        dist = _distances(seen * gain, np.vstack([gain[None, :], refs]))
        pick = dist.argmin(axis=1)
        opaque = pick > 0
        if opaque.sum() < 2:
            break
        target, got = refs[pick[opaque] - 1], seen[opaque]
        # least squares per channel: gain * got ~ target
        gain = np.clip((got * target).sum(axis=0) / np.maximum((got * got).sum(axis=0), 1e-9), 0.25, 1.25)
    ordered = np.sort(dist, axis=1)
    confidence = (ordered[:, 1] - ordered[:, 0]) / (ordered[:, 1] + ordered[:, 0] + 1e-9)
    return [int(p) for p in pick], [round(float(c), 3) for c in confidence]
