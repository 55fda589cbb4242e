"""Pictures of the LED matrix: a frame (rows of RRGGBB) drawn as round LEDs in a PNG."""

from PIL import Image, ImageDraw, ImageFilter


def frame_image(rows, pitch=20):
    """A PIL image of a frame: each LED a soft-edged dot, unlit LEDs faintly visible."""
    h = len(rows)
    w = len(rows[0]) // 6
    img = Image.new("RGB", (w * pitch, h * pitch), (12, 12, 14))
    glow = Image.new("RGB", img.size, (0, 0, 0))
    draw = ImageDraw.Draw(img)
    gdraw = ImageDraw.Draw(glow)
    r = pitch * 0.38
    for y, row in enumerate(rows):
        for x in range(w):
            c = tuple(int(row[6 * x + k * 2:6 * x + k * 2 + 2], 16) for k in range(3))
            cx, cy = (x + 0.5) * pitch, (y + 0.5) * pitch
            lit = max(c) > 0
            fill = c if lit else (30, 30, 34)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
            if lit:
                gdraw.ellipse((cx - r * 1.4, cy - r * 1.4, cx + r * 1.4, cy + r * 1.4), fill=c)
    glow = glow.filter(ImageFilter.GaussianBlur(pitch * 0.35))
    return Image.blend(img, Image.eval(glow, lambda v: v // 2), 0.35).point(lambda v: min(255, v * 2))


def save_frames(states, path, pitch=20, columns=4, gap=10):
    """Several frames side by side in one PNG (a contact sheet)."""
    images = [frame_image(s["frame"], pitch) for s in states]
    cw, ch = images[0].size
    rows = (len(images) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * (cw + gap) - gap, rows * (ch + gap) - gap), (0, 0, 0))
    for i, im in enumerate(images):
        sheet.paste(im, ((i % columns) * (cw + gap), (i // columns) * (ch + gap)))
    sheet.save(path)
