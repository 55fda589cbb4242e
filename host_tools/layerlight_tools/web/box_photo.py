""""Your box": a layer card read from a photo (POST /box/photo), for the page to show, correct and add.

A thin layer over layers/photo.py, as `cards read-photo` is: the set's grid size and colours come
from the model the page is painting (so a set not yet saved reads as it is), the cells, their
confidence and the straightened card are read_layer's, the nearest layer is closest_layer's over
the model's own cards, and the back the page adds is the front turned over by geometry.mirror.
The page has none of these rules.
"""

import base64
import binascii

from layerlight import geometry
from layerlight_tools import cmd_read_photo
from layerlight_tools.layers import photo
from layerlight_tools.web import box

MAX_PHOTO = 12 << 20     # bytes of a photo: a 12-50 MP phone JPEG is 3-10 MB, a 600 dpi scan of a
                         # card as PNG about 8 MB; a RAW or HEIC is not read anyway
# the page sends the photo as base64 inside the JSON with the set's model: 4 bytes for 3, plus the model
MAX_BODY = (MAX_PHOTO + 2) // 3 * 4 + box.MAX_UPLOAD
# pixels of a photo: a 12 MB PNG of one colour can say 30000 x 30000 (3 GB once decoded, which
# OpenCV's own limit of 2^30 pixels lets through); a 108 MP phone camera's photo is taken
MAX_PIXELS = 150_000_000


def too_big(what, length):
    """The one line for a request over MAX_BODY (length: its bytes, base64 and the set with it)."""
    return "%s: about %d MB, more than a photo can be here (at most %d MB): export it smaller" % (
        what, round(length * 3 / 4 / (1 << 20)), MAX_PHOTO >> 20)


def read(body, name):
    """POST /box/photo?name=NAME {model, image: base64}: what the page shows of the reading.

    cells, confidence (read_layer's, row by row from the top), rows and back (the set file's
    notation: the side photographed, and it turned over), doubts ([row, col] from 1), turned,
    outline, how (`cards read-photo`'s words for those two), preview (the straightened card, base64 PNG, photo.PREVIEW px square, its grid at
    grid_box), same ({card, id, side, rot, differ, line}: the set's nearest layer, or None).
    Raises BadRequest (one line, the photo's name first) for a photo it cannot read."""
    model = box.check_model(body.get("model"))
    if model["kind"] != "layers":
        raise box.BadRequest("%s: a photo is read as a Layers layer, and this is an OTLO tile set" % name)
    n = model.get("size")
    if not isinstance(n, int) or isinstance(n, bool):
        raise box.BadRequest("not a grid size")
    try:
        image = base64.b64decode(body.get("image") or "", validate=True)
    except (binascii.Error, ValueError, TypeError):
        raise box.BadRequest("not a photo (base64)")
    if len(image) > MAX_PHOTO:
        raise box.BadRequest("%s: %d bytes, more than a photo can be here (at most %d MB): export it smaller"
                             % (name, len(image), MAX_PHOTO >> 20))
    if not image:
        raise box.BadRequest("%s: an empty file" % name)
    pixels = _pixels(image)
    if pixels == "too many" or (pixels is not None and pixels[0] * pixels[1] > MAX_PIXELS):
        raise box.BadRequest("%s: %s pixels, more than a photo can be here (at most %d million): export it "
                             "smaller" % (name, pixels if isinstance(pixels, str) else "%d x %d" % pixels,
                                          MAX_PIXELS // 1_000_000))
    try:
        reading = photo.read_layer(image, n, [value for _, value in model["colors"]])
    except photo.PhotoError as e:
        raise box.BadRequest("%s: %s" % (name, e))
    chars = [ch for ch, _ in model["colors"]]
    rows = reading.rows(chars)
    index = {ch: i + 1 for i, ch in enumerate(chars)}
    return {"name": name, "size": n, "cells": reading.cells, "confidence": reading.confidence, "rows": rows,
            "back": box.mirror_rows(rows, n, n, index, ["."] + chars),
            "doubts": [list(d) for d in reading.doubts()], "turned": reading.turned, "outline": reading.outline,
            "how": cmd_read_photo.how_found(reading),
            "preview": base64.b64encode(reading.preview_png).decode(), "preview_size": photo.PREVIEW,
            "grid_box": list(photo.GRID_BOX), "same": nearest(model, reading.cells, index)}


def _pixels(image):
    """(width, height) from the image's header (Pillow reads no pixels for it), "too many" when
    Pillow itself calls it a decompression bomb (over twice its MAX_IMAGE_PIXELS, which is more
    than MAX_PIXELS), or None when Pillow does not know the format (OpenCV then says whether it
    is an image)."""
    import io
    import warnings
    from PIL import Image
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)   # MAX_PIXELS decides
            with Image.open(io.BytesIO(image)) as im:
                return im.size
    except Image.DecompressionBombError:
        return "too many"
    except Exception:   # not an image Pillow knows: not this check's to say
        return None


def nearest(model, cells, index):
    """The model's layer (in any orientation) nearest the cells read, as closest_layer says it;
    None for a set with no card of its size yet."""
    n = model["size"]
    fits = [k for k, c in enumerate(model["cards"]) if box._fits(c, n, n)]
    layers = [geometry.Layer(str(k), box._grid(model["cards"][k]["front"], index),
                             box._grid(model["cards"][k]["back"], index), n) for k in fits]
    found = photo.closest_layer(cells, layers)
    if found is None:
        return None
    layer, o, differ = found
    k = int(layer.id)
    ident = model["cards"][k]["id"]
    return {"card": k, "id": ident, "side": geometry.side_of(o), "rot": geometry.rot_of(o), "differ": differ,
            "line": cmd_read_photo.nearest_line(ident, o, differ)}
