"""Finding a layer card in a photo and straightening it (OpenCV).

The printed layer card (`cards render`, render.layer_side) is an 80 mm square whose grid is
70 mm, 5 mm in from each edge, framed by a dark 0.3 mm line. Paper shows its outline
against the table; clear film often does not (its margin is as clear as its holes), but its
printed grid frame does. So every convex quadrilateral in the photo is a candidate for
either the card's edge or the grid's frame, and a candidate is taken only when a dark frame
line is found where the card's layout puts it: a book or a box on the table is never taken
for a card, whatever its size.

An outline whose frame is faint (clear film) is followed side by side, piece by piece. Of the
outlines with a frame, the one whose cells' colour edges line up best with the set's grid
wins. The result is the card seen straight from above in a fixed square view (VIEW px, the
grid from MARGIN to VIEW - MARGIN), whichever of the two outlines was found.
"""

import cv2
import numpy as np

from layerlight_tools.layers import render

VIEW = 640                                                   # px of the straightened card
CARD_MM = render.LAYER_SIZE
MARGIN = int(round(VIEW * 5.0 / CARD_MM))                    # render.layer_side's 5 mm margin
MAX_SIDE = 1400                                              # photos are read at most this big
MIN_AREA = 0.01                                              # a card covers >= 1 % of the photo
SEARCH = 10                                                  # px either way the frame may be off


def decode(data):
    """BGR image of the bytes of a photo (any format OpenCV reads), shrunk to MAX_SIDE; None if
    the bytes are not an image."""
    if not data:
        return None
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        return None
    k = MAX_SIDE / max(img.shape[:2])
    if k < 1:
        img = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    return img


def _clockwise(quad):
    """The 4 corners clockwise on the image (y down), the one nearest the top-left first, so a
    card is never straightened mirrored."""
    c = quad.mean(axis=0)
    order = np.argsort(np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0]))
    q = quad[order]
    return np.roll(q, -int(np.argmin(q.sum(axis=1))), axis=0).astype(np.float32)


def _cut_corners(pentagon):
    """The quadrilaterals a pentagon is with one corner cut off: each edge dropped in turn, its two
    neighbours extended to meet. The colour of a grid whose corner cell is a hole, on clear film
    over a table that hides its frame, is such a pentagon."""
    p = pentagon.astype(np.float64)
    out = []
    for i in range(5):
        a, b, c, d = p[i - 1], p[i], p[(i + 1) % 5], p[(i + 2) % 5]
        r, s = b - a, d - c
        den = r[0] * s[1] - r[1] * s[0]
        if abs(den) < 1e-9:
            continue
        t = ((c - a)[0] * s[1] - (c - a)[1] * s[0]) / den
        if not 1 <= t <= 2:       # the corner lies beyond the cut, not far beyond
            continue
        corner = a + t * r
        out.append(np.array([corner if j == i else p[j] for j in range(5) if j != (i + 1) % 5]))
    return out


def _quads(img):
    """Convex quadrilaterals in the photo, largest first: from its edges (the paper's outline, the
    film's frame line) and from its printed-looking parts (ink and colour, closed up)."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    smooth = cv2.GaussianBlur(grey, (5, 5), 0)
    med = float(np.median(smooth))
    masks = []
    for lo, hi in ((0.66 * med, 1.33 * med), (30, 90)):
        masks.append(cv2.dilate(cv2.Canny(smooth, lo, hi), np.ones((3, 3), np.uint8)))
    # printed: strongly coloured (CIELAB chroma; HSV's saturation also calls a dark wood grain
    # coloured) or a thin dark line (the frame: a black-hat, whatever the table's brightness)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.int16)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, np.ones((9, 9), np.uint8))
    printed = ((chroma > 40) | (hat > 30)).astype(np.uint8) * 255
    k = max(3, int(min(img.shape[:2]) / 60))
    masks.append(cv2.morphologyEx(printed, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)))
    area_min = MIN_AREA * img.shape[0] * img.shape[1]
    area_max = 0.9 * img.shape[0] * img.shape[1]     # the photo's own border is no card
    found = []
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in contours:
            hull = cv2.convexHull(cnt)
            area = cv2.contourArea(hull)
            if not area_min <= area <= area_max:
                continue
            for eps in (0.02, 0.035):
                approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True).reshape(-1, 2)
                quads = [approx] if len(approx) == 4 else _cut_corners(approx) if len(approx) == 5 else []
                for q in quads:
                    if cv2.isContourConvex(q.astype(np.float32)):
                        found.append((area, _clockwise(q.astype(np.float32))))
                if len(approx) == 4:
                    break
    found.sort(key=lambda f: -f[0])
    unique = []
    for area, q in found:   # the same outline from two masks: try it once
        if all(np.abs(q - u).max() > 4 for _, u in unique):
            unique.append((area, q))
    return [q for _, q in unique]


def _square(lo, hi):
    return np.array([(lo, lo), (hi, lo), (hi, hi), (lo, hi)], np.float32)


def darkness(view):
    """255 - the view's grey level, lightly blurred: ink is high, paper low."""
    return 255.0 - cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.float32)


def grid_scores(view):
    """{n: how much more the straightened grid's colour changes where an n x n grid has its cell
    edges than halfway between them}, for n = 2..16. Colour changes between neighbouring cells
    are used, not the printed grid lines: 0.1 mm lines do not survive a phone's blur."""
    lab = cv2.cvtColor(cv2.GaussianBlur(view, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    a, b = MARGIN + 4, VIEW - MARGIN - 4
    across = np.abs(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)).sum(axis=2)[a:b].mean(axis=0)   # by x
    down = np.abs(cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2)[:, a:b].mean(axis=1)  # by y
    span = VIEW - 2 * MARGIN

    def at(profile, t):
        i = int(round(MARGIN + t))
        return profile[i - 3:i + 4].max()

    scores = {}
    for n in range(2, 17):
        cell = span / n
        on = [at(p, k * cell) for p in (across, down) for k in range(1, n)]
        off = [at(p, (k + 0.5) * cell) for p in (across, down) for k in range(n)]
        scores[n] = float(np.mean(on) - np.mean(off))
    return scores


def _frame_profile(d, side):
    """Darkness across one side's frame line, averaged along the side's middle, from the outside in."""
    lo, hi = MARGIN + 56, VIEW - MARGIN - 56
    if side == 0:
        return d[:, lo:hi].mean(axis=1)            # top: rows, going down
    if side == 1:
        return d[lo:hi, :].mean(axis=0)[::-1]      # right: columns, going left
    if side == 2:
        return d[:, lo:hi].mean(axis=1)[::-1]      # bottom: rows, going up
    return d[lo:hi, :].mean(axis=0)                # left: columns, going right


def _frame(view):
    """(score, offsets): how clearly a dark frame line runs where the grid's frame belongs in a
    straightened view, and how far (px, outwards positive) each side's line is from there."""
    d = darkness(view)
    scores, offsets = [], []
    for side in range(4):
        p = _frame_profile(d, side)
        best, at = -1e9, 0
        for i in range(MARGIN - SEARCH, MARGIN + SEARCH + 1):
            # a line: darker than both 5 px outside it and 5 px inside it
            r = min(p[i] - p[i - 5], p[i] - p[i + 5])
            if r > best:
                best, at = r, i
        scores.append(best)
        offsets.append(MARGIN - at)
    return min(scores), offsets


def _refine(h, offsets):
    """The homography that puts the frame found (offsets from where it was expected) exactly on
    MARGIN .. VIEW - MARGIN."""
    top, right, bottom, left = offsets
    lo_x, hi_x = MARGIN - left, VIEW - MARGIN + right
    lo_y, hi_y = MARGIN - top, VIEW - MARGIN + bottom
    seen = np.array([(lo_x, lo_y), (hi_x, lo_y), (hi_x, hi_y), (lo_x, hi_y)], np.float32)
    in_photo = cv2.perspectiveTransform(seen[None], np.linalg.inv(h))[0]
    return cv2.getPerspectiveTransform(in_photo, _square(MARGIN, VIEW - MARGIN))


ALONG = (MARGIN + 40, VIEW - MARGIN - 40)
CHUNKS = 6            # a side is followed in pieces, so a tilted line is found too
FOLLOW = 40           # px either way a piece of the frame is looked for


def _side_strip(d, side, pad):
    """Darkness across one side of a view padded by `pad` px: rows from the outside in, columns
    along the side's middle (ALONG), in the order of the view's x (top, bottom) or y (left, right)."""
    lo, hi = ALONG[0] + pad, ALONG[1] + pad
    return (d[:, lo:hi], d[lo:hi, ::-1].T, d[::-1, lo:hi], d[lo:hi, :].T)[side]


def _follow(img, h):
    """The homography that straightens the frame when the outline was a little wrong (a tilted
    side, a corner cut by a hole on clear film): each side is cut into CHUNKS pieces, the dark
    line is found in each (up to FOLLOW px off, inside or outside the view), a straight line is
    fitted through them and the four lines meet at the grid's corners."""
    pad = FOLLOW
    shift = np.array([[1, 0, pad], [0, 1, pad], [0, 0, 1]], np.float64)
    padded = cv2.warpPerspective(img, shift @ h, (VIEW + 2 * pad, VIEW + 2 * pad), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    d = darkness(padded)
    depths = np.arange(pad + MARGIN - FOLLOW, pad + MARGIN + FOLLOW + 1)
    sides = []
    for side in range(4):
        strip = _side_strip(d, side, pad)
        ts, found, ridges = [], [], []
        for piece in np.array_split(np.arange(strip.shape[1]), CHUNKS):
            p = strip[:, piece].mean(axis=1)
            ridge = np.minimum(p[depths] - p[depths - 5], p[depths] - p[depths + 5])
            k = int(np.argmax(ridge))
            ts.append(ALONG[0] + piece.mean())
            found.append(float(depths[k] - pad))
            ridges.append(ridge[k])
        good = np.array(ridges) >= max(np.median(ridges), 0) * 0.5
        if good.sum() < 2:
            return None
        slope, at0 = np.polyfit(np.array(ts)[good], np.array(found)[good], 1)
        depth = [at0 + slope * t for t in ALONG]
        # two points of the line in view (x, y)
        sides.append(np.array([{0: (t, dp), 1: (VIEW - 1 - dp, t), 2: (t, VIEW - 1 - dp), 3: (dp, t)}[side]
                               for t, dp in zip(ALONG, depth)], np.float64))
    corners = np.array([_meet(sides[3], sides[0]), _meet(sides[0], sides[1]),
                        _meet(sides[1], sides[2]), _meet(sides[2], sides[3])], np.float32)
    in_photo = cv2.perspectiveTransform(corners[None], np.linalg.inv(h))[0]
    return cv2.getPerspectiveTransform(in_photo, _square(MARGIN, VIEW - MARGIN))


def _meet(p, q):
    """Where the line through points p meets the line through points q."""
    r, s = p[1] - p[0], q[1] - q[0]
    den = r[0] * s[1] - r[1] * s[0]
    t = ((q[0] - p[0])[0] * s[1] - (q[0] - p[0])[1] * s[0]) / den
    return p[0] + t * r


def _warp(img, h):
    return cv2.warpPerspective(img, h, (VIEW, VIEW), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


MIN_FRAME = 2.5       # darkness units a frame line must stand out by (on paper: 20-120; clear film on a dark table: 3)
# the cells' edges must line up with the set's grid at least this clearly (grid_scores: a card
# read right scores 70-170 in the sweeps, clear film's frame taken a row off 17)
MIN_EDGES = 30.0
CLEAR_EDGES = 60.0    # ... and this clearly, no smaller outline is tried
FOLLOWED = 6          # the largest outlines only are followed (the card is among them)
STRONG_FRAME = 15.0   # a frame as clear as paper's (20-120): enough on its own
MIN_FOLLOW = -1.0     # an outline whose frame shows this little is followed before it is given up


def find(img, size):
    """(view, outline) of the card: the card straightened into a VIEW x VIEW BGR image with its
    grid at MARGIN .. VIEW - MARGIN; outline is "card" (its edge was found) or "frame" (its
    grid's frame). None when no card is found.

    Of the outlines with a frame in them, the one whose cells' edges fall most clearly where a
    size x size grid has them wins: a grid found a row off, or its frame taken for the card's
    edge, does not line up."""
    best = another = plain = None
    for rank, quad in enumerate(_quads(img)[:16]):
        if best is not None and best[0] >= CLEAR_EDGES:
            break       # the outlines come largest first: a card lined up this well is the card
        for outline, lo, hi in (("card", 0, VIEW), ("frame", MARGIN, VIEW - MARGIN)):
            h = cv2.getPerspectiveTransform(quad, _square(lo, hi))
            score, offsets = _frame(_warp(img, h))
            h = _refine(h, offsets)
            if MIN_FOLLOW < score <= MIN_FRAME and rank < FOLLOWED:
                followed = _follow(img, h)
                if followed is not None:
                    better, offsets = _frame(_warp(img, followed))
                    if better > score:
                        score, h = better, _refine(followed, offsets)
            if score <= MIN_FRAME:
                continue
            view = _warp(img, h)
            edges = grid_scores(view)
            if edges[size] >= MIN_EDGES and (best is None or edges[size] > best[0]):
                best = (edges[size], view, outline)
            other = max(edges.values())
            if other >= MIN_EDGES and (another is None or other > another[0]):
                another = (other, view, outline)
            if score >= STRONG_FRAME and (plain is None or score > plain[0]):
                plain = (score, view, outline)
    # a card of another size lines up with its own grid (the reader then names both sizes); a
    # card of one colour (or all holes) has no cell edges to line up: its frame must be clear
    found = best or another or plain
    return None if found is None else found[1:]
