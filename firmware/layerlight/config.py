# The device's settings: a JSON file on flash over built-in defaults.
#
# A missing file is normal (defaults); a broken one is reported on the console
# and ignored field by field, so a typo never bricks the device.

import json

from layerlight import boards, power

CONFIG_FILE = "layerlight.json"

DEFAULT_ROUND_TILES = (
    ("M", 3, 2, 1),
    ("M", 3, 1, 0),
    ("M", 2, "S", 0),
    ("M", 3, "S", 1),
    ("M", "S", 2, 1),
    ("M", 2, 1, "S"),
)


def defaults():
    return {
        "board": boards.DEFAULT,
        "width": 16,
        "height": 16,
        "layout": "serpentine",
        "origin": "top-left",
        "rotation": 0,
        "flip_x": False,
        "flip_y": False,
        "color_order": "GRB",
        "brightness": 0.25,
        "supply_ma": 3000,  # the 5 V supply: the brightness is capped to what it can feed (layerlight.power)
        "sound": True,
        "timer_s": 30,
        "countdown_s": 10,
        "attack_s": 180,
        "tokens": {},
        "watchdog_ms": 8000,
        "deck": "decks/default.deck",
        "otlo_deck": "decks/otlo.deck",
        "round_tiles": [list(t) for t in DEFAULT_ROUND_TILES],
        "matrix_pin": None,
        "buttons": None,
        "buzzer_pin": None,
    }


def _valid(key, value, default):
    if key == "round_tiles":
        if not isinstance(value, list) or len(value) < 1:
            return False
        for tile in value:
            if not isinstance(tile, list) or len(tile) != 4:
                return False
            for r in tile:
                if r not in ("M", "S", 0, 1, 2, 3, 4, 5):
                    return False
        return True
    if key == "brightness":
        return isinstance(value, (int, float)) and 0 < value <= 1
    if key == "supply_ma":
        return isinstance(value, int) and 500 <= value <= 100000
    if key in ("width", "height"):
        return isinstance(value, int) and 8 <= value <= 64
    if key in ("timer_s", "countdown_s"):
        return isinstance(value, int) and 3 <= value <= 600
    if key == "attack_s":
        return isinstance(value, int) and 30 <= value <= 3600
    if key == "watchdog_ms":
        return value is None or (isinstance(value, int) and 1000 <= value <= 8000)
    if key == "tokens":
        # {"players": [token values]}, e.g. {"4": [4, 3, 2, 1]}
        if not isinstance(value, dict):
            return False
        for k in value:
            v = value[k]
            if k not in ("2", "3", "4") or not isinstance(v, list) or len(v) != int(k):
                return False
            for t in v:
                if not isinstance(t, int) or t < 0 or t > 9:
                    return False
        return True
    if key == "rotation":
        return value in (0, 90, 180, 270)
    if key == "layout":
        return value in ("serpentine", "progressive")
    if key == "origin":
        return value in ("top-left", "top-right", "bottom-left", "bottom-right")
    if key == "color_order":
        return value in ("RGB", "GRB", "BRG", "RBG", "GBR", "BGR")
    if key == "board":
        return value in boards.PROFILES
    if default is None:
        return True
    if isinstance(default, bool):
        return isinstance(value, bool)
    return isinstance(value, type(default))


def load(storage, log=print):
    """Settings from the config file over the defaults; problems are logged, never raised."""
    cfg = defaults()
    try:
        text = storage.read_text(CONFIG_FILE)
    except OSError:
        log("config: no %s, using defaults" % CONFIG_FILE)
        text = None
    if text is not None:
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not an object")
        except ValueError as e:
            log("config: %s is broken (%s), using defaults" % (CONFIG_FILE, e))
            data = {}
        for key in data:
            if key not in cfg:
                log("config: unknown setting %r ignored" % key)
            elif not _valid(key, data[key], cfg[key]):
                log("config: bad value for %r ignored: %r" % (key, data[key]))
            else:
                cfg[key] = data[key]
    profile = boards.PROFILES[cfg["board"]]
    for key in ("matrix_pin", "buttons", "buzzer_pin"):
        if cfg[key] is None:
            cfg[key] = profile[key]
    # the LEDs must stay within the supply (hardware/README.md, "Power")
    cap = power.brightness_cap(cfg["width"] * cfg["height"], cfg["supply_ma"])
    cfg["brightness_cap"] = cap
    if cfg["brightness"] > cap:
        log("config: brightness %s lowered to %.3f, the most a %d mA supply allows for %dx%d LEDs"
            % (cfg["brightness"], cap, cfg["supply_ma"], cfg["width"], cfg["height"]))
        cfg["brightness"] = cap
    return cfg
