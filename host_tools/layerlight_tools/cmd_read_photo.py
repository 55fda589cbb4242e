"""`layerlight cards read-photo SET.toml PHOTO`: one side of a layer card read from a photo.

It prints the side as rows of the set file's notation (a pattern `solve` reads too: the lines
with # are comments) and the cells worth a second look; layers/photo.py does the reading.
"""

from layerlight_tools.errors import UserError


def read_photo(set_path, photo_path):
    """(layer set, LayerReading) of a set file and a photo; every mistake is one UserError line."""
    from layerlight_tools.layers import photo, sets
    from layerlight_tools.otlo import sets as otlo_sets
    if otlo_sets.is_otlo(set_path):
        raise UserError("%s: read-photo reads Layers layers, and this is an OTLO tile set" % set_path)
    try:
        layer_set = sets.load(set_path)
    except sets.SetError as e:
        raise UserError(str(e))
    try:
        with open(photo_path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UserError("%s: cannot read: %s" % (photo_path, e.strerror or e))
    try:
        reading = photo.read_layer(data, layer_set.size, [rgb for _, rgb in layer_set.colours])
    except photo.PhotoError as e:
        raise UserError("%s: %s" % (photo_path, e))
    return layer_set, reading


def report_lines(photo_path, layer_set, reading):
    """What the command prints: a comment line, the rows, the doubts as a comment line."""
    chars = [ch for ch, _ in layer_set.colours]
    n = reading.size
    lines = ["# %s: %s" % (photo_path, how_found(reading))]
    lines += reading.rows(chars)
    doubts = reading.doubts()
    if doubts:
        words = ["row %d column %d (%s, %.2f)" % (y, x, reading.rows(chars)[y - 1][x - 1],
                                                  reading.confidence[(y - 1) * n + x - 1]) for y, x in doubts]
        lines.append("# %d cell%s in doubt, look again: %s" % (len(doubts), "" if len(doubts) == 1 else "s",
                                                               ", ".join(words)))
    else:
        lines.append("# no cell in doubt")
    from layerlight_tools.layers import photo
    layer, o, differ = photo.closest_layer(reading.cells, layer_set.layers)
    lines.append("# " + nearest_line(layer.id, o, differ))
    return lines


# the words of these two lines are the page's too (web/box_photo.py): one wording for both

def how_found(reading):
    """How the card was found and which way up it lay: "6x6, found by its edge; the right way up"."""
    n = reading.size
    if reading.turned is None:
        how = "no printed top mark seen: rows as the card lay (every turn of a layer is the same card)"
    elif reading.turned == 0:
        how = "the right way up"
    else:
        how = "turned %d degrees clockwise on the table, read upright" % reading.turned
    seen = "its edge" if reading.outline == "card" else "its grid's frame"
    return "%dx%d, found by %s; %s" % (n, n, seen, how)


def nearest_line(ident, o, differ):
    """closest_layer's answer in words: "nearest layer of the set: sun, front up, turned 0 (the same cells)"."""
    from layerlight import geometry
    return "nearest layer of the set: %s, %s up, turned %d (%s)" % (
        ident, geometry.side_of(o), geometry.rot_of(o),
        "the same cells" if not differ else "%d cell%s differ" % (differ, "" if differ == 1 else "s"))


def cmd_read_photo(args):
    layer_set, reading = read_photo(args.set, args.photo)
    for line in report_lines(args.photo, layer_set, reading):
        print(line)
    if args.preview:
        try:
            with open(args.preview, "wb") as f:
                f.write(reading.preview_png)
        except OSError as e:
            raise UserError("%s: cannot write: %s" % (args.preview, e.strerror or e))
    return 0


def register(cards):
    """The sub-command under `layerlight cards`."""
    r = cards.add_parser("read-photo", help="one side of a layer card read from a photo or scan (docs/decks.md)")
    r.add_argument("set", help="the layer-set TOML file the card belongs to (its size and colours)")
    r.add_argument("photo", help="the photo: JPEG, PNG, WebP, BMP or TIFF")
    r.add_argument("--preview", metavar="PNG", help="write the card as straightened and read to this PNG")
    r.set_defaults(func=cmd_read_photo)
