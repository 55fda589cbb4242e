# The device's state as the headless simulator traces it (docs/trace.md).
# Only the simulator and the tests ask for it: on a device this module is never
# loaded, and its bytecode stays out of the heap.

from layerlight import modes


def device_state(dev):
    """The trace keys: the running mode's (the pause menu shown over it), else the menu's."""
    if dev.where in ("game", "pause") and dev.game is not None:
        s = dev.game.state()
        if "choice" not in s:
            s["choice"] = None
        if dev.where == "pause":
            s["phase"] = "pause"
            s["choice"] = dev.pause_items[dev.pause_index]
        return s
    choice = None
    if dev.where == "menu":
        items = dev.menu_items()
        item = items[dev.menu_index % len(items)]
        choice = "RESUME" if item == "resume" else modes.label(item)
    return {
        "game": "menu", "phase": "menu" if dev.where == "menu" else "error",
        "round": None, "players": 0, "first_player": None, "scores": [],
        "mission": None, "finish_order": [], "round_tile": None,
        "tokens": None, "timer_ms": None, "choice": choice,
        "error": dev.error_code if dev.where == "error" else None,
    }
