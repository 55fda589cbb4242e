# The device's settings: a JSON file on flash over built-in defaults.
#
# A missing file is normal (defaults); a broken one is reported on the console
# and ignored field by field, so a typo never bricks the device.

import json

from layerlight import boards, coop_cards, power

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
        "panels": None,  # one matrix; or tiled panels, e.g. a 32x32 of four 16x16 (panels_problem, hardware/32x32.md)
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
        "otlo_solo_cards": 12,  # OTLO solo: cards in the pile (fewer if the chosen levels hold fewer)
        "round_tiles": [list(t) for t in DEFAULT_ROUND_TILES],
        "coop_white": coop_cards.default("coop_white"),  # CO.OP player cards: lists of three colours
        "coop_black": coop_cards.default("coop_black"),
        "coop_turn_s": 0,  # CO.OP turn timer in seconds (0: off)
        "paper_tokens": {},  # Paper World tokens per objective by player count; missing: N+1, N, ..., 2
        "matrix_pin": None,
        "buttons": None,
        "buzzer_pin": None,
        # readings the rp2 sampler's DMA files before its control channel re-arms it
        # (0: the most the chip's count holds, 12.4 days at 1 ms); tests set a few thousand
        "sample_pass": 0,
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
    if key in coop_cards.TABLES:
        return True  # checked once every key is read (cards_problem), to say what is wrong
    if key == "paper_tokens":
        return True  # checked once every key is read (paper_tokens_problem), to say what is wrong
    if key == "coop_turn_s":
        return isinstance(value, int) and not isinstance(value, bool) and (value == 0 or 10 <= value <= 600)
    if key == "sample_pass":  # at least the rp2 sampler's ring (rp2_pio.RING), within the RP2350's 28-bit count
        return isinstance(value, int) and not isinstance(value, bool) and (value == 0 or 4096 <= value < 1 << 28)
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
    if key == "otlo_solo_cards":
        return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 60
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
    if key == "panels":
        return True  # checked against width and height once every key is read (panels_problem)
    if default is None:
        return True
    if isinstance(default, bool):
        return isinstance(value, bool)
    return isinstance(value, type(default))


PANEL_KEYS = ("size", "across", "down", "chain", "layout", "origin", "rotation", "lanes")
LANES = 4  # the panels fed at once: one PIO program drives four consecutive pins (backends/rp2_pio.py)
PANEL_CHOICES = (
    ("layout", ("serpentine", "progressive")),
    ("origin", ("top-left", "top-right", "bottom-left", "bottom-right")),
    ("rotation", (0, 90, 180, 270)),
)


def _count(v):
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 64


def panels_problem(panels, width, height):
    """What is wrong with a "panels" setting for a width x height matrix, in a few words; None if nothing.

    {"size": [16, 16], "across": 2, "down": 2, "chain": [0, 1, 3, 2],
     "layout": "serpentine", "origin": "top-left", "rotation": [0, 0, 180, 180]}
    Positions are numbered row by row from the top-left as seen from P1's
    seat; chain[n] is the position of the n-th panel on the data line;
    layout, origin and rotation are one value for every panel or a list by
    position (default: the layout and origin settings, rotation 0).
    "lanes": [16, 17, 18, 19]: each of four panels on its own data pin, all
    four sent at once (a 32x32 frame in the time of one panel); lanes[n] feeds
    the panel chain[n]. Four consecutive GPIOs, ascending (one PIO program
    drives them together); the pins themselves are checked in pins_checked.
    """
    if not isinstance(panels, dict):
        return "expected an object like {\"size\": [16, 16], \"across\": 2, \"down\": 2}"
    for key in panels:
        if key not in PANEL_KEYS:
            return "unknown key %r" % key
    size = panels.get("size")
    if not isinstance(size, list) or len(size) != 2 or not _count(size[0]) or not _count(size[1]):
        return "size must be [columns, rows] of one panel"
    across = panels.get("across")
    down = panels.get("down")
    if not _count(across) or not _count(down):
        return "across and down must be the number of panels in a row and in a column"
    if size[0] * across != width or size[1] * down != height:
        return "%d x %d panels of %dx%d make %dx%d, not the %dx%d of width and height" % (
            across, down, size[0], size[1], size[0] * across, size[1] * down, width, height)
    count = across * down
    chain = panels.get("chain", list(range(count)))
    if not isinstance(chain, list) or len(chain) != count:
        chain = None
    else:
        for n in chain:
            if not isinstance(n, int) or isinstance(n, bool) or chain.count(n) != 1 or not 0 <= n < count:
                chain = None
                break
    if chain is None:
        return "chain must list each panel position 0..%d once" % (count - 1)
    lanes = panels.get("lanes")
    if lanes is not None:
        if count != LANES:
            return "lanes feed %d panels at once, not %d" % (LANES, count)
        if not isinstance(lanes, list) or len(lanes) != LANES or \
                not all(isinstance(p, int) and not isinstance(p, bool) for p in lanes) or \
                any(lanes[n] != lanes[0] + n for n in range(LANES)):
            return "lanes must be %d consecutive GPIO numbers, e.g. [16, 17, 18, 19]" % LANES
    for key, allowed in PANEL_CHOICES:
        if key not in panels:
            continue
        value = panels[key]
        values = value if isinstance(value, list) else [value]
        if isinstance(value, list) and len(value) != count:
            return "%s must be one value or a list of %d, one per panel" % (key, count)
        for v in values:
            if v not in allowed or isinstance(v, bool) or not isinstance(v, type(allowed[0])):
                return "%s %r is not one of %s" % (key, v, ", ".join(str(a) for a in allowed))
            if key == "rotation" and v in (90, 270) and size[0] != size[1]:
                return "only a square panel can be turned by 90 or 270"
    return None


def paper_tokens_problem(table):
    """What is wrong with a "paper_tokens" setting, in a few words; None if nothing.

    {"2": [3, 2], "3": [4, 3, 2], "4": [5, 4, 3, 2]}: by player count, the
    values of the score tokens on each Paper World objective, 1 to that many
    tokens (a seat claims an objective once), each 0-20.
    """
    if not isinstance(table, dict):
        return "expected an object like {\"4\": [5, 4, 3, 2]}"
    for key in table:
        if key not in ("2", "3", "4"):
            return "%r is not a player count (2, 3 or 4)" % key
        values = table[key]
        if not isinstance(values, list) or not 1 <= len(values) <= int(key):
            return "%s players: a list of 1 to %s token values" % (key, key)
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 20:
                return "%s players: token %r is not a whole number 0-20" % (key, v)
    return None


def cards_problem(cards, need):
    """What is wrong with a table of player cards, in a few words; None if nothing."""
    if not isinstance(cards, list):
        return "expected a list of cards, each a list of three colours"
    if len(cards) < need:
        return "%d card(s), at least %d needed" % (len(cards), need)
    for i in range(len(cards)):
        card = cards[i]
        if not isinstance(card, list) or len(card) != 3:
            return "card %d is not a list of three colours" % (i + 1)
        for c in card:
            if c not in coop_cards.COLOURS:
                return "card %d: unknown colour %r (one of %s)" % (i + 1, c, ", ".join(coop_cards.COLOURS))
        if card[0] == card[1] or card[0] == card[2] or card[1] == card[2]:
            return "card %d has a colour twice" % (i + 1)
    return None


def pins_checked(cfg, profile):
    """Puts the board profile's pin where a pin setting is missing, or names a pin the
    board cannot use (not on its header, or one another setting uses already); returns
    what was wrong, a line each (the device shows them as an error, app.ERR_PIN)."""
    problems = []
    usable = profile["gpio"]
    where = "the %s" % profile["label"]

    def fix(key, pin, default, why):
        problems.append("config %s: %r %s, the board's pin %r is used" % (key, pin, why, default))
        return default

    def checked(key, pin, default, used):
        if pin is None:
            return default
        if isinstance(pin, bool) or pin not in usable:
            return fix(key, pin, default, "is not a pin of %s" % where)
        if pin in used:
            return fix(key, pin, default, "is already %s" % used[pin])
        return pin

    used = {}
    panels = cfg.get("panels")
    lanes = panels.get("lanes") if panels else None
    if lanes is not None:
        # four panels on four pins: the first is the matrix's pin, the others must be free too
        bad = None
        if profile["platform"] != "micropython":
            bad = "four lanes need a MicroPython board (a Pico, a Pico 2, an ESP32-S3)"
        for pin in lanes:
            if bad is None and pin not in usable:
                bad = "%r is not a pin of %s" % (pin, where)
        if bad is not None:
            problems.append("config panels.lanes: %s: the panels are sent as one chain on the matrix's pin" % bad)
            del panels["lanes"]
            lanes = None
        else:
            cfg["matrix_pin"] = lanes[0]
            for pin in lanes[1:]:
                used[pin] = "a lane of the matrix's"
    cfg["matrix_pin"] = checked("matrix_pin", cfg["matrix_pin"], profile["matrix_pin"], used)
    used[cfg["matrix_pin"]] = "the matrix's"
    buttons = cfg["buttons"]
    if buttons is not None and not isinstance(buttons, dict):
        problems.append("config buttons: %r is not {name: pin}, the board's pins are used" % (buttons,))
        buttons = None
    out = {}
    for name in boards.BUTTON_NAMES:
        pin = None if buttons is None else buttons.get(name)
        out[name] = checked("buttons." + name, pin, profile["buttons"][name], used)
        used[out[name]] = "button %s's" % name
    for name in buttons or ():
        if name not in out:
            problems.append("config buttons: no button %r (they are %s), ignored"
                            % (name, ", ".join(boards.BUTTON_NAMES)))
    cfg["buttons"] = out
    cfg["buzzer_pin"] = checked("buzzer_pin", cfg["buzzer_pin"], profile["buzzer_pin"], used)
    pins = [cfg["matrix_pin"], cfg["buzzer_pin"]] + [out[name] for name in out] + list(lanes or ())[1:]
    for pin in pins:
        if pins.count(pin) > 1:  # a board's pin given back where a setting had taken it
            problems.append("config: pin %r is set for two things, the board's pins are used for all" % (pin,))
            for key in ("matrix_pin", "buttons", "buzzer_pin"):
                cfg[key] = profile[key]
            if lanes is not None:
                del panels["lanes"]
            break
    return problems


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
    if cfg["panels"] is not None:
        problem = panels_problem(cfg["panels"], cfg["width"], cfg["height"])
        if problem:
            log("config: bad value for 'panels' ignored (%s), the matrix is mapped as one panel" % problem)
            cfg["panels"] = None
    for key in coop_cards.TABLES:
        problem = cards_problem(cfg[key], coop_cards.TABLES[key][1])
        if problem:
            log("config: bad value for %r ignored (%s), the box's cards are used" % (key, problem))
            cfg[key] = coop_cards.default(key)
    problem = paper_tokens_problem(cfg["paper_tokens"])
    if problem:
        log("config: bad value for 'paper_tokens' ignored (%s), the default tokens are used" % problem)
        cfg["paper_tokens"] = {}
    cfg["pin_problems"] = pins_checked(cfg, boards.PROFILES[cfg["board"]])
    # the LEDs must stay within the supply (hardware/README.md, "Power")
    cap = power.brightness_cap(cfg["width"] * cfg["height"], cfg["supply_ma"])
    cfg["brightness_cap"] = cap
    if cfg["brightness"] > cap:
        log("config: brightness %s lowered to %.3f, the most a %d mA supply allows for %dx%d LEDs"
            % (cfg["brightness"], cap, cfg["supply_ma"], cfg["width"], cfg["height"]))
        cfg["brightness"] = cap
    return cfg
