# The settings menu: timer lengths, brightness and sound, kept on flash.
#
# B moves to the next setting, A changes its value; "BACK" + A leaves. Each
# change goes out as settings.json through the device, which saves it and
# applies it (brightness, sound) at once.

from layerlight import buttons, font, screens

ITEMS = (
    ("TIMER", "timer_s", (20, 30, 45, 60, 90)),
    ("COUNT", "countdown_s", (5, 10, 15, 20)),
    ("ATTACK", "attack_s", (60, 120, 180, 300)),
    ("BRIGHT", "brightness", (0.1, 0.25, 0.5, 1.0)),
    ("SOUND", "sound", (True, False)),
    ("TURN", "coop_turn_s", (0, 30, 60, 90, 120, 180)),  # CO.OP's turn timer (0: off)
    ("BACK", None, ()),
)
KEYS = [key for _, key, _ in ITEMS if key]


def apply(dev, values):
    """Saved settings onto the device's config (at boot, and as the menu changes them):
    kept here, not in app.py, so their code is in memory only while it runs."""
    cfg = dev.cfg
    for key in KEYS:
        if key in values and isinstance(values[key], type(cfg[key])):
            cfg[key] = values[key]
    dev.sound.enabled = bool(cfg["sound"])
    dev.hw.set_brightness(min(cfg["brightness"], cfg.get("brightness_cap", 1.0)))


class Mode:
    name = "settings"
    HANDLERS = {}

    def __init__(self, ctx, seats=None, first_player=None, saved=None):
        self.ctx = ctx
        self.sound = ctx.sound
        self.done = False
        self.dirty = False
        self.outbox = []
        self.index = 0
        self.since = 0

    def snapshot(self):
        return None  # nothing to resume: settings are saved as they change

    def state(self):
        label, key, _ = ITEMS[self.index]
        return {
            "game": self.name, "phase": "settings", "round": None, "players": 0, "first_player": None,
            "scores": [], "mission": None, "finish_order": [], "round_tile": None, "tokens": None,
            "timer_ms": None, "item": label, "value": self.ctx.cfg[key] if key else None,
        }

    def value_text(self):
        label, key, _ = ITEMS[self.index]
        v = self.ctx.cfg[key] if key else None
        if key is None:
            return label
        if key == "sound":
            return label + " " + ("ON" if v else "OFF")
        if key == "brightness":
            return label + " " + str(int(v * 100)) + "%"
        if key == "coop_turn_s" and not v:
            return label + " OFF"
        if key == "attack_s":
            return "%s %d:%02d" % (label, v // 60, v % 60)
        return label + " " + str(v) + "S"

    def handle(self, ev, now):
        kind = buttons.kind_of(ev)
        b = buttons.button_of(ev)
        if kind == buttons.PRESS:
            self.sound.play("tick", now)
            return
        if kind != buttons.RELEASE:
            return
        if b == buttons.B:
            self.index = (self.index + 1) % len(ITEMS)
            self.since = now
        elif b == buttons.A:
            label, key, values = ITEMS[self.index]
            if key is None:
                self.done = True
                return
            current = self.ctx.cfg[key]
            i = values.index(current) if current in values else -1
            self.ctx.cfg[key] = values[(i + 1) % len(values)]
            self.outbox.append(("settings.json", dict((k, self.ctx.cfg[k]) for k in KEYS)))
            self.since = now

    def tick(self, now):
        pass

    def set_screen(self, fb):
        pass

    def draw(self, fb, now):
        fb.clear()
        text = self.value_text()
        width = font.text_width(text)
        if width <= fb.width:
            offset = -((fb.width - width) // 2)
        else:
            span = width + fb.width
            offset = ((now - self.since) // 80) % span - fb.width // 2
        screens.menu(fb, text, offset, self.index, len(ITEMS), screens.RING)
