"""Frames as pictures of the matrix, each LED as the eye sees it (led_colour).

Used for the docs' pictures and for looking at screens while working on them:
`python -m layerlight_tools.led_picture OUT.png` reads trace lines with
`frame` (from `layerlight sim --headless --frames --trace`) on standard input
and draws each one, side by side.
"""

import json
import sys

from layerlight_tools import led_colour

PANEL = (14, 14, 16)      # the matrix's black board between the LEDs
LED_OFF = (32, 32, 36)    # an unlit LED: a dark dot on the board


def picture(frames, pitch=18, gap=12, cap=led_colour.DEFAULT_CAP, labels=None):
    """Frames (rows of RRGGBB) side by side, each LED a disc in the colour the eye sees
    (no glow, so hues stay true). Returns a Pillow image."""
    from PIL import Image, ImageDraw
    h = len(frames[0])
    w = len(frames[0][0]) // 6
    top = 14 if labels else 0
    img = Image.new("RGB", (len(frames) * (w * pitch + gap) - gap, h * pitch + top), (0, 0, 0))
    draw = ImageDraw.Draw(img)
    for k, rows in enumerate(frames):
        x0 = k * (w * pitch + gap)
        if labels:
            draw.text((x0, 0), labels[k], fill=(200, 200, 200))
        draw.rectangle((x0, top, x0 + w * pitch - 1, top + h * pitch - 1), fill=PANEL)
        for y, row in enumerate(led_colour.frame_screen_rgb(rows, cap)):
            for x, c in enumerate(row):
                r = pitch * 0.4
                cx, cy = x0 + (x + 0.5) * pitch, top + (y + 0.5) * pitch
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c if any(c) else LED_OFF)
    return img


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python -m layerlight_tools.led_picture OUT.png < trace-with-frames.jsonl", file=sys.stderr)
        return 2
    frames, labels = [], []
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("{"):
            state = json.loads(line)
            if state.get("frame"):
                frames.append(state["frame"])
                labels.append("%s %s" % (state.get("game"), state.get("phase")))
    if not frames:
        print("led_picture: no frames on standard input (use --frames --trace)", file=sys.stderr)
        return 2
    picture(frames, pitch=12 if len(frames[0]) > 16 else 18, labels=labels).save(argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
