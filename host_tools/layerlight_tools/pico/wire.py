"""A frame as the matrix's data pin carries it, and back.

The simulator's frames are logical (x right, y down from P1's side, colours
before the brightness cap). On the wire they are in strip order (serpentine
rows, the corner of pixel 0...), in the strip's colour order and capped. Both
directions go through the firmware's own FrameBuffer and pixel map, so that
what is compared is what the device would send, not a second copy of it.
"""

import json

from layerlight.display import FrameBuffer
from layerlight.strip_map import config_map


def device_config(settings=None, board="pico"):
    """The settings a device with this layerlight.json runs with (defaults filled in, as at boot)."""
    from layerlight.startup import load_config
    from layerlight_tools.simcore import MemoryStorage
    text = dict(settings or {})
    text["board"] = board
    return load_config(MemoryStorage({"layerlight.json": json.dumps(text).encode()}), lambda line: None)


def wire_bytes(rows, cfg, cap):
    """The bytes a device with settings `cfg` and brightness `cap` sends for the logical frame
    `rows` (the simulator's hex rows, before the cap)."""
    fb = FrameBuffer(cfg["width"], cfg["height"], config_map(cfg), cap, cfg["color_order"])
    for y, row in enumerate(rows):
        for x in range(cfg["width"]):
            fb.pixel(x, y, int(row[6 * x:6 * x + 6], 16))
    return bytes(fb.buf)


def logical_rows(data, cfg):
    """Wire bytes as logical hex rows (the colours as sent: after the cap)."""
    fb = FrameBuffer(cfg["width"], cfg["height"], config_map(cfg), 1.0, cfg["color_order"])
    n = len(fb.buf)
    if len(data) < n:
        data = bytes(data) + bytes(n - len(data))
    fb.buf[:] = data[:n]
    return fb.hex_rows()
