"""A small Layers set and photos of its printed layers (tests/photo_synth.py), for "Your box"'s
photo route and page (test_web_box_server, test_web_box_photo).

Its colours are in another order than the starter set's, and one of them is not the starter's:
a reader that took the starter's colours (or none) reads other cells here."""

import numpy as np

import photo_synth
from layerlight import geometry

SIZE = 6
COLOURS = [("P", "#8e44ad"), ("G", "#2fa84f"), ("R", "#e03a3e"), ("B", "#1f6fd1")]
SEEDS = (1, 7, 8)       # each layer's front is photo_synth.random_layer's of 500 + seed
# the photos: layer 0 in the "claimed" light (read exactly, no cell in doubt), layer 1 in
# "harsh" light (read exactly, one cell in doubt: row 3, column 2), both checked by the tests
PHOTOS = {"clean": (0, 1, "claimed"), "doubt": (1, 7, "harsh")}


def _rgb(hex_):
    return tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))


def grids():
    """Each layer's front: bytes of colour indices (0 a hole)."""
    return [photo_synth.random_layer(SIZE, len(COLOURS), np.random.default_rng(500 + s)) for s in SEEDS]


def rows(grid):
    chars = "." + "".join(ch for ch, _ in COLOURS)
    return ["".join(chars[v] for v in grid[y * SIZE:(y + 1) * SIZE]) for y in range(SIZE)]


def set_text():
    """The set file (the back of each layer its front turned over)."""
    out = ['name = "Photo test"', "size = %d" % SIZE, 'background = "#f5f0e6"', "", "[colors]"]
    out += ['%s = "%s"' % pair for pair in COLOURS]
    for k, g in enumerate(grids()):
        out += ["", "[[layers]]", 'id = "card%d"' % (k + 1),
                'front = """\n%s\n"""' % "\n".join(rows(g)),
                'back = """\n%s\n"""' % "\n".join(rows(geometry.mirror(g, SIZE)))]
    return "\n".join(out) + "\n"


def model():
    """The page's model of the set (what web/box.py's model_of makes of the file)."""
    return {"kind": "layers", "name": "Photo test", "size": SIZE, "background": "#f5f0e6",
            "colors": [list(p) for p in COLOURS],
            "cards": [{"id": "card%d" % (k + 1), "front": rows(g), "back": rows(geometry.mirror(g, SIZE))}
                      for k, g in enumerate(grids())]}


def photo(which):
    """(layer index, JPEG bytes) of one of PHOTOS."""
    k, seed, condition = PHOTOS[which]
    jpg, _ = photo_synth.photograph(grids()[k], SIZE, [_rgb(v) for _, v in COLOURS], seed, "paper", condition)
    return k, jpg
