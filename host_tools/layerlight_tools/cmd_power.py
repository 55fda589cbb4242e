"""`layerlight power`: the current a matrix draws, and the brightness a supply allows."""

import json

from layerlight_tools.cmd_sim import parse_size
from layerlight_tools.errors import UserError


def report(width, height, brightness, supply_ma, players=4, seed=1, panels=None):
    """The figures `layerlight power` prints, as a dict (mA, shares of full white, brightness caps).

    panels=(across, down): also what each panel's power injection carries."""
    from layerlight import power as model
    from layerlight_tools import power

    leds = width * height
    worst = power.worst_case(leds, brightness)
    game = power.measure_game(width, height, brightness, players, seed, panels)
    cap = power.caps(leds, supply_ma)
    out = {
        "size": "%dx%d" % (width, height),
        "leds": leds,
        "players": players,
        "led_full_white_ma": 3 * model.CHANNEL_MA,
        "led_idle_ma": model.IDLE_MA,
        "brightness": brightness,
        "supply_ma": supply_ma,
        "controller_ma": model.CONTROLLER_MA,
        "worst_case_ma": worst["leds"],
        "worst_case_drive_ma": worst["drive"],
        "idle_ma": worst["idle"],
        "typical_ma": game["mean_ma"],
        "brightest_frame_ma": game["peak_ma"],
        "typical_load": game["mean_load"],
        "brightest_frame_load": game["peak_load"],
        "screen_peak": model.SCREEN_PEAK,
        "cap_any_picture": cap["any"],
        "cap_firmware": cap["screens"],
        "firmware_brightness": min(brightness, cap["screens"]),
    }
    # `layerlight doctor`'s frames at the brightness the firmware uses: within the supply too
    selftest = power.selftest_peak(width, height, out["firmware_brightness"])
    out.update({
        "led_budget_ma": supply_ma - model.CONTROLLER_MA,
        "selftest_brightest_ma": selftest["ma"],
        "selftest_brightest_frame": selftest["what"],
    })
    if panels:
        # per panel at the brightness the firmware really uses
        across, down = panels
        panel_leds = leds // (across * down)
        used = out["firmware_brightness"]
        out.update({
            "panels": "%dx%d" % (across, down),
            "panel_count": across * down,
            "panel_size": "%dx%d" % (width // across, height // down),
            "panel_leds": panel_leds,
            "panel_all_white_ma": model.led_ma(panel_leds, used, 1.0),
            "panel_screen_peak_ma": model.led_ma(panel_leds, used, model.SCREEN_PEAK),
            "panel_brightest_frame_ma": model.led_ma(panel_leds, used, game["panel_peak_load"]),
            "panel_brightest_frame_load": game["panel_peak_load"],
        })
    return out


def _amps(ma):
    return "%.2f A" % (ma / 1000.0)


def format_report(r):
    lines = [
        "%s matrix: %d WS2812B LEDs at brightness %.2f" % (r["size"], r["leds"], r["brightness"]),
        "  worst case, every LED full white: %s  (%d x %d mA x %.2f = %s, + %d x %d mA idle)" % (
            _amps(r["worst_case_ma"]), r["leds"], r["led_full_white_ma"], r["brightness"],
            _amps(r["worst_case_drive_ma"]), r["leds"], r["led_idle_ma"]),
        "  typical for our screens (a simulated %d-player game of Layers): %s on average, %s in the brightest frame" % (
            r["players"], _amps(r["typical_ma"]), _amps(r["brightest_frame_ma"])),
        "    (%.0f%% and %.0f%% of full white)" % (100 * r["typical_load"], 100 * r["brightest_frame_load"]),
        "supply %s, of which %s go to the controller:" % (_amps(r["supply_ma"]), _amps(r["controller_ma"])),
        "  brightness cap for any picture (all white):  %.3f" % r["cap_any_picture"],
        "  brightness cap the firmware applies:         %.3f  (our screens light at most %.0f%% of full white)" % (
            r["cap_firmware"], 100 * r["screen_peak"]),
    ]
    if r["brightness"] > r["cap_firmware"]:
        cap = r["cap_firmware"]
        idle = r["idle_ma"]
        scale = cap / r["brightness"]
        lines.append("  -> brightness %.2f is too much for this supply: the firmware lowers it to %.3f" % (
            r["brightness"], cap))
        lines.append("     (then about %s on average, %s in the brightest frame)" % (
            _amps(idle + (r["typical_ma"] - idle) * scale), _amps(idle + (r["brightest_frame_ma"] - idle) * scale)))
    else:
        lines.append("  -> brightness %.2f fits: the firmware keeps it" % r["brightness"])
    fits = r["selftest_brightest_ma"] <= r["led_budget_ma"]
    lines.append("the self-test (`layerlight doctor`) at brightness %.3f: %s in its brightest frame (%s), %s" % (
        r["firmware_brightness"], _amps(r["selftest_brightest_ma"]), r["selftest_brightest_frame"],
        ("within the %s the supply leaves the LEDs" if fits else "OVER the %s the supply leaves the LEDs")
        % _amps(r["led_budget_ma"])))
    if "panels" in r:
        lines += [
            "each of the %s panels (%s) of %s, %d LEDs, with its own 5 V and GND, at brightness %.3f:" % (
                r["panel_count"], r["panels"].replace("x", " x "), r["panel_size"], r["panel_leds"],
                r["firmware_brightness"]),
            "  all white: %s;  the most our screens may light (%.0f%%): %s;  brightest panel in the game: %s "
            "(%.0f%%)" % (_amps(r["panel_all_white_ma"]), 100 * r["screen_peak"], _amps(r["panel_screen_peak_ma"]),
                          _amps(r["panel_brightest_frame_ma"]), 100 * r["panel_brightest_frame_load"]),
        ]
    return "\n".join(lines)


def cmd_power(args):
    from layerlight_tools import power

    width, height = parse_size(args.size)
    if not 0 < args.brightness <= 1:
        raise UserError("--brightness must be more than 0 and at most 1, not %r" % args.brightness)
    supply_ma = power.parse_current(args.supply)
    panels = None
    if args.panels:
        try:
            panels = tuple(int(n) for n in args.panels.lower().split("x"))
        except ValueError:
            panels = ()
        if len(panels) != 2 or min(panels) < 1 or width % panels[0] or height % panels[1]:
            raise UserError("--panels must be ACROSSxDOWN dividing the size %dx%d, e.g. 2x2, not %r"
                            % (width, height, args.panels))
    r = report(width, height, args.brightness, supply_ma, panels=panels)
    if args.json:
        print(json.dumps(r, indent=1, sort_keys=True))
    else:
        print(format_report(r))
    return 0


def register(sub):
    s = sub.add_parser("power", help="current draw of a matrix and the brightness a supply allows")
    s.add_argument("--size", default="16x16", help="matrix size, e.g. 8x8, 16x16, 32x32 (default 16x16)")
    s.add_argument("--brightness", type=float, default=0.25, help="brightness 0..1 (default 0.25, the firmware's)")
    s.add_argument("--supply", default="3A", help="the 5 V supply, e.g. 3A or 2500mA (default 3A)")
    s.add_argument("--panels", help="a matrix tiled from panels, ACROSSxDOWN (e.g. 2x2 for four 16x16 in a "
                                    "32x32): what each panel's power injection carries")
    s.add_argument("--json", action="store_true", help="print the figures as JSON")
    s.set_defaults(func=cmd_power)
