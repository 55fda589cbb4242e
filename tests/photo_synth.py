"""A synthetic photographer for layer cards: the PNG that `cards render` draws for one side of a
layer, laid on a cluttered table and photographed badly, as JPEG bytes.

The card comes from the real render path (render.layer_side into a Page, render.render_png),
so a change to the printed card is a change to what the tests read. Two materials:

- "paper": the card as printed, opaque, with a soft shadow on the table;
- "plastic": the card printed on clear film: every unprinted pixel (the holes and the
  margin) lets the table show through, lightened a little by the film's sheen, and the
  film's cut edge catches a faint line of light.

Then the camera: a rotation (up to 30 degrees either way), a perspective tilt, uneven light
(a gradient and a warm colour cast), a glare spot on the card, blur, sensor noise and JPEG.
Everything comes from one seed: the same seed, the same photo, byte for byte.

Clutter (shapes, a book, coins) lies on the table around the card, never on it: the reader's
docs ask for a card lying on its own.
"""

import io
import math
import types

import cv2
import numpy as np
from PIL import Image

from layerlight import geometry
from layerlight_tools.layers import render

CARD_DPI = 200                     # the render's resolution: 80 mm -> 630 px
PHOTO_W, PHOTO_H = 1280, 960

# Each condition's range of every effect; "clean" is the card at an angle and nothing else.
CONDITIONS = {
    "clean": dict(rotation=30, tilt=0.0, light=0.0, cast=0.0, glare=0.0, blur=0.0, noise=0.0, quality=95),
    "claimed": dict(rotation=30, tilt=0.08, light=0.35, cast=0.08, glare=0.45, blur=1.5, noise=6.0, quality=85),
    "harsh": dict(rotation=30, tilt=0.14, light=0.55, cast=0.15, glare=0.8, blur=2.5, noise=12.0, quality=70),
}


def random_layer(size, colours, rng, holes=0.3):
    """One side of a random layer: bytes of colour indices (0 a hole), about `holes` of them holes."""
    cells = rng.integers(1, colours + 1, size * size)
    cells[rng.random(size * size) < holes] = 0
    return bytes(cells.astype(np.uint8))


def card_png(grid, size, colours, ident="photo", side="front"):
    """The layer card `cards render` prints for one side, as an RGB array (the card square only)."""
    deck = types.SimpleNamespace(size=size, colours=[(245, 240, 230)] + [tuple(c) for c in colours])
    layer = geometry.Layer(ident, grid, geometry.mirror(grid, size), size)
    page = render.Page("photo")
    at = 10.0                                    # mm from the sheet's corner, away from its edge
    render.layer_side(page, deck, layer, side, at, at)
    sheet = render.render_png(page, CARD_DPI)
    k = CARD_DPI / 25.4
    x0, x1 = int(round(at * k)), int(round((at + render.LAYER_SIZE) * k))
    return np.asarray(sheet)[x0:x1, x0:x1].copy()


# the tables a card is photographed on; clear film is read on the light ones only (docs/decks.md)
# a table: its colour and how strong its grain is ("white sheet": clear film laid on a sheet of paper)
TABLES = {"wood": ((150, 110, 75), 1.0), "grey": ((120, 120, 118), 1.0), "green": ((70, 95, 70), 1.0),
          "light wood": ((190, 170, 140), 1.0), "dark": ((60, 55, 60), 1.0), "white sheet": ((236, 234, 228), 0.15)}
LIGHT_TABLES = ("wood", "grey", "light wood")
CLUTTERED = ("wood", "grey", "green", "light wood", "dark")


def _table(rng, tables):
    """A table: a base colour with wood-like grain and low-frequency mottling (float RGB 0-255)."""
    colour, grain_scale = TABLES[tables[int(rng.integers(0, len(tables)))]]
    base = np.array(colour, float) * rng.uniform(0.9, 1.05)
    yy, xx = np.mgrid[0:PHOTO_H, 0:PHOTO_W].astype(np.float32)
    angle = rng.uniform(0, math.pi)
    u = xx * math.cos(angle) + yy * math.sin(angle)
    grain = np.sin(u / rng.uniform(4, 12) + 3 * np.sin(u / 90 + yy / 140)) * rng.uniform(4, 14) * grain_scale
    mottle = cv2.resize(rng.normal(0, 10 * grain_scale, (12, 16)).astype(np.float32), (PHOTO_W, PHOTO_H),
                        interpolation=cv2.INTER_CUBIC)
    return np.clip(base[None, None, :] + (grain + mottle)[..., None], 0, 255)


def _clutter(img, keep_out, rng):
    """Shapes, a book, coins and pens on the table, all outside the polygon keep_out."""
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, keep_out.astype(np.int32), 255)
    mask = cv2.dilate(mask, np.ones((41, 41), np.uint8))   # a gap round the card
    for _ in range(int(rng.integers(6, 14))):
        layer = np.zeros_like(mask)
        colour = [float(v) for v in rng.integers(0, 256, 3)]
        cx, cy = int(rng.integers(0, PHOTO_W)), int(rng.integers(0, PHOTO_H))
        kind = rng.integers(0, 4)
        if kind == 0:    # a book or a box: a big rotated rectangle
            box = cv2.boxPoints(((cx, cy), (float(rng.integers(150, 420)), float(rng.integers(150, 420))),
                                 float(rng.uniform(0, 90))))
            cv2.fillConvexPoly(layer, box.astype(np.int32), 255)
        elif kind == 1:  # a coin or a cup
            cv2.circle(layer, (cx, cy), int(rng.integers(15, 90)), 255, -1)
        elif kind == 2:  # a pen
            a = rng.uniform(0, math.pi)
            length = rng.integers(120, 300)
            cv2.line(layer, (cx, cy), (int(cx + length * math.cos(a)), int(cy + length * math.sin(a))), 255,
                     int(rng.integers(6, 16)))
        else:            # a crumpled something: a random polygon
            pts = np.array([(cx + rng.integers(-90, 90), cy + rng.integers(-90, 90)) for _ in range(6)], np.int32)
            cv2.fillPoly(layer, [pts], 255)
        layer[mask > 0] = 0
        img[layer > 0] = colour
        if rng.random() < 0.5:   # printed things on it: stripes
            stripes = (layer > 0) & ((np.arange(PHOTO_W)[None, :] // 9) % 2 == 0)
            img[stripes] = np.array(colour) * 0.5


def photograph(grid, size, colours, seed, material="paper", condition="claimed", tables=CLUTTERED):
    """(JPEG bytes, degrees clockwise the card lies turned) of one side of a layer, photographed
    on one of `tables` (names of TABLES)."""
    p = CONDITIONS[condition]
    rng = np.random.default_rng(seed)
    card = card_png(grid, size, colours).astype(np.float32)
    c = card.shape[0]
    # where the card lands: 40-60 % of the photo's height, turned and tilted
    side = rng.uniform(0.42, 0.6) * PHOTO_H
    centre = np.array([PHOTO_W / 2 + rng.uniform(-0.12, 0.12) * PHOTO_W, PHOTO_H / 2 + rng.uniform(-0.08, 0.08) * PHOTO_H])
    # laid down any way round (quarter turns clockwise), then up to `rotation` degrees askew
    quarters = int(rng.integers(0, 4))
    turn = math.radians(90 * quarters + rng.uniform(-p["rotation"], p["rotation"]))
    square = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float) * side / 2
    square += rng.uniform(-p["tilt"], p["tilt"], (4, 2)) * side      # the camera not straight above
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    corners = (square @ rot.T + centre).astype(np.float32)
    h = cv2.getPerspectiveTransform(np.array([(0, 0), (c, 0), (c, c), (0, c)], np.float32), corners)

    img = _table(rng, tables)
    _clutter(img, corners, rng)
    warp = lambda a, interp=cv2.INTER_AREA: cv2.warpPerspective(  # noqa: E731
        a, h, (PHOTO_W, PHOTO_H), flags=interp, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    footprint = warp(np.ones((c, c), np.float32), cv2.INTER_LINEAR)
    if material == "paper":
        shadow = cv2.GaussianBlur(np.roll(footprint, (6, 5), (0, 1)), (0, 0), 6)
        img *= (1 - 0.35 * shadow)[..., None]
        a = footprint
    else:
        # printed ink is opaque; the unprinted film lets the table through
        ink = (card.min(axis=2) < 250).astype(np.float32)
        a = warp(ink, cv2.INTER_LINEAR) * footprint
        img = img * (1 - 0.1 * footprint[..., None]) + 255 * 0.1 * footprint[..., None]   # the film's sheen
        edge = cv2.morphologyEx(footprint, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        img += 40 * edge[..., None]
    img = img * (1 - a[..., None]) + warp(card, cv2.INTER_LINEAR) * a[..., None]

    # the light: a gradient across the photo, a warm cast, a glare spot on the card
    yy, xx = np.mgrid[0:PHOTO_H, 0:PHOTO_W].astype(np.float32)
    d = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - PHOTO_W / 2) * math.cos(d) + (yy - PHOTO_H / 2) * math.sin(d)) / (PHOTO_W / 2)
    img *= (1 - p["light"] / 2 * (1 + ramp))[..., None]
    img *= (1 + rng.uniform(-p["cast"], p["cast"], 3))[None, None, :]
    if p["glare"]:
        g = centre + rng.uniform(-0.3, 0.3, 2) * side
        r = rng.uniform(0.06, 0.14) * side
        spot = np.exp(-((xx - g[0]) ** 2 + (yy - g[1]) ** 2) / (2 * r * r)) * rng.uniform(0.5, 1.0) * p["glare"]
        img += (255 - np.clip(img, 0, 255)) * spot[..., None]
    if p["blur"]:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.6, 1.0) * p["blur"])
    if p["noise"]:
        img += rng.normal(0, p["noise"], img.shape)
    rgb = np.clip(img, 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, "JPEG", quality=p["quality"])
    return out.getvalue(), 90 * quarters


if __name__ == "__main__":   # a look at one: python tests/photo_synth.py SIZE SEED MATERIAL CONDITION OUT.jpg
    import sys
    n, seed, material, condition, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
    cols = [(224, 58, 62), (31, 111, 209), (242, 193, 46), (47, 168, 79)]
    grid = random_layer(n, len(cols), np.random.default_rng(seed))
    with open(path, "wb") as f:
        f.write(photograph(grid, n, cols, seed, material, condition)[0])
