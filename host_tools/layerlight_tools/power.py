"""Current draw of a Layerlight: the firmware's model (layerlight.power) put to work.

`worst_case` is every LED full white; `measure_game` plays a whole game of
Layers on the simulated device and adds up the channel values of every frame
the LEDs would really show (after the brightness cap), which is what "our
screens" cost; `caps` is the brightness a supply allows, both for any picture
and for our screens (the one the firmware applies).
"""

import re

from layerlight import power as model
from layerlight.display import brightness_table

from layerlight_tools.errors import UserError

STEP_MS = 10      # the simulated loop, like the device's
SAMPLE_MS = 40    # one frame (app.FRAME_MS): the average is over time, not over redraws
MAX_GAME_MS = 20 * 60 * 1000


def parse_current(text):
    """'3A', '2.5 A', '2500mA' or a bare number of amps -> mA (int)."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(ma|a)?\s*", str(text).lower())
    if not m:
        raise UserError("a current looks like 3A, 2.5A or 2500mA, not %r" % text)
    value = float(m.group(1))
    ma = value if m.group(2) == "ma" else value * 1000
    if ma <= 0:
        raise UserError("the current must be more than 0, not %r" % text)
    return int(round(ma))


def worst_case(leds, brightness):
    """mA of every LED full white at `brightness`: {'drive', 'idle', 'leds' (both), 'supply' (+ controller)}."""
    total = model.led_ma(leds, brightness, 1.0)
    idle = leds * model.IDLE_MA
    return {"drive": total - idle, "idle": idle, "leds": total, "supply": total + model.CONTROLLER_MA}


def caps(leds, supply_ma):
    """Brightness caps for a supply: 'any' (even all white) and 'screens' (what the firmware applies)."""
    return {
        "any": model.brightness_cap(leds, supply_ma, 1.0),
        "screens": model.brightness_cap(leds, supply_ma),
    }


def frame_ma(buf, leds, table):
    """mA of one frame: buf holds 0..255 channel values before the cap, table is the cap's lookup."""
    return leds * model.IDLE_MA + model.CHANNEL_MA * sum(bytes(buf).translate(table)) / 255


def panel_loads(buf, width, height, across, down):
    """Each panel's share of its own full white in a frame of logical pixels (row by row), for a
    matrix tiled across x down: what one panel's power injection has to carry."""
    pw, ph = width // across, height // down
    full = 255 * 3 * pw * ph
    loads = []
    for row in range(down):
        for col in range(across):
            total = 0
            for y in range(row * ph, (row + 1) * ph):
                start = (y * width + col * pw) * 3
                total += sum(buf[start:start + pw * 3])
            loads.append(total / full)
    return loads


def selftest_frames(width, height, brightness, panels=None):
    """Every kind of frame `layerlight doctor` has the board show (layerlight/selftest.py: the
    colour fills, the edge lines, each panel's marks, the sweep, each seat), drawn by the
    firmware's own self-test on the simulated hardware at `brightness`; yields (what, frame
    bytes after the cap)."""
    from layerlight import boards, config, selftest
    from layerlight.display import FrameBuffer
    from layerlight.strip_map import config_map
    from layerlight_tools import simcore

    cfg = config.defaults()
    cfg.update(width=width, height=height, brightness=brightness, panels=panels)
    cfg.update({k: boards.PROFILES["pico"][k] for k in ("matrix_pin", "buttons", "buzzer_pin")})
    shown = []

    class Hardware(simcore.SimHardware):
        def framebuffer(self):
            return FrameBuffer(width, height, config_map(cfg), brightness, cfg["color_order"])

        def show(self, fb):
            shown.append(bytes(fb.buf))

    st = selftest.SelfTest.__new__(selftest.SelfTest)  # its drawing, not its board
    st.log, st.cfg = [], cfg
    st.hw = Hardware(width, height, simcore.MemoryStorage())
    st.fb = st.hw.framebuffer()
    st.w, st.h = width, height
    calls = [("fill %06x" % c, st.fill, (c,)) for c in (selftest.RED, selftest.GREEN, selftest.BLUE)]
    calls.append(("lines", st.lines, ()))
    if panels:
        calls += [("panel_marks %d" % i, st.panel_marks, (i,))
                  for i in range(-1, panels["across"] * panels["down"])]
    calls.append(("sweep", st.sweep, (0,)))
    calls += [("seat %d" % b, st.seat, (b,)) for b in range(6)]
    for what, call, args in calls:
        del shown[:]
        call(*args)
        for frame in shown:
            yield what, frame


def selftest_peak(width, height, brightness, panels=None):
    """The brightest frame of the self-test: {'what', 'load' (share of full white after the
    cap), 'ma'}."""
    leds = width * height
    best = {"what": None, "load": 0.0, "ma": 0.0}
    for what, frame in selftest_frames(width, height, brightness, panels):
        ma = leds * model.IDLE_MA + model.CHANNEL_MA * sum(frame) / 255
        if ma > best["ma"]:
            best = {"what": what, "load": sum(frame) / (255 * 3 * leds), "ma": ma}
    return best


def measure_game(width, height, brightness, players=4, seed=1, panels=None):
    """Play a whole game of Layers on the simulated device and measure every frame.

    Returns {'mean_ma', 'peak_ma', 'mean_load', 'peak_load', 'seconds', 'frames', 'finished'}:
    the time average and the brightest frame, in mA at `brightness` and as a
    share of full white (the load, independent of the brightness). With
    panels=(across, down) also 'panel_peak_load': the brightest any one panel
    gets in any frame, as a share of that panel's full white.
    """
    from layerlight_tools import firmware_files, simcore

    dev = simcore.make_device(firmware_files.device_files(), width, height, seed, "layers", players)
    hw = dev.hw
    leds = width * height
    full = 255 * 3 * leds
    table = brightness_table(brightness)
    seen = {"peak_load": 0.0, "peak_ma": 0.0, "frames": 0, "panel_peak_load": 0.0}
    show = hw.show

    def show_and_measure(fb):
        show(fb)
        load = sum(fb.buf) / full
        if load > seen["peak_load"]:
            seen["peak_load"] = load
        ma = frame_ma(fb.buf, leds, table)
        if ma > seen["peak_ma"]:
            seen["peak_ma"] = ma
        seen["frames"] += 1
        if panels:
            seen["panel_peak_load"] = max([seen["panel_peak_load"]] + panel_loads(fb.buf, width, height, *panels))

    hw.show = show_and_measure
    samples_ma = []
    samples_load = []
    clock = {"t": 0}

    def advance(ms):
        end = clock["t"] + ms
        while clock["t"] < end:
            clock["t"] += STEP_MS
            hw.clock = clock["t"]
            dev.step(clock["t"])
            if clock["t"] % SAMPLE_MS == 0 and hw.frame is not None:
                samples_ma.append(frame_ma(hw.frame.buf, leds, table))
                samples_load.append(sum(hw.frame.buf) / full)

    def press(name, hold_ms=60):
        from layerlight import buttons
        bit = 1 << buttons.button_index(name)
        hw.pressed |= bit
        dev.step(clock["t"])
        advance(hold_ms)
        hw.pressed &= ~bit
        dev.step(clock["t"])

    finished = _play(dev, advance, press)
    hw.show = show
    extra = {"panel_peak_load": seen["panel_peak_load"]} if panels else {}
    return dict(extra, **{
        "mean_ma": sum(samples_ma) / len(samples_ma),
        "peak_ma": seen["peak_ma"],
        "mean_load": sum(samples_load) / len(samples_load),
        "peak_load": seen["peak_load"],
        "seconds": clock["t"] / 1000,
        "frames": seen["frames"],
        "finished": finished,
    })


def _play(dev, advance, press):
    """A table playing Layers at an unhurried pace, through every screen a game shows.

    It reacts to the phase the device reports, so it keeps working while the
    game's details change; it stops at the final scores (True) or after
    MAX_GAME_MS (False).
    """
    advance(2000)
    press("A", 1700)  # the pause menu, then back to the game
    advance(1500)
    press("A")
    solution_shown = set()
    spent = 0
    while spent < MAX_GAME_MS:
        s = dev.state()
        phase = s.get("phase")
        seats = s.get("seats") or [1, 2]
        if phase == "final":
            advance(4000)
            return True
        if s.get("game") == "menu" or phase == "error":
            return False  # the game ended early (a crash shows the error screen, then the menu)
        if phase == "race":
            advance(6000)
            for seat in seats[:-1]:  # the last seat lets the sand run out
                press("P%d" % seat)
                advance(2500)
            for _ in range(60):
                if dev.state().get("phase") != "race":
                    break
                advance(1000)
        elif phase == "verify":
            rnd = s.get("round")
            if rnd not in solution_shown:
                solution_shown.add(rnd)
                press("B", 3000)  # hold B: the solution, layer by layer
                advance(500)
            press("A")
            advance(800)
        elif phase == "steal":
            scores = dict(zip(seats, s.get("scores") or []))
            victims = [x for x in seats if x != s.get("taker") and scores.get(x, 0) >= 1]
            press("P%d" % (victims[0] if victims else seats[0]))
            advance(800)
        elif phase in ("scores", "round_tile", "choose_deck"):
            advance(2500)
            press("A")
        else:  # join, first player and whatever comes next: A goes on
            advance(1500)
            press("A")
        spent = dev.now
    return False
