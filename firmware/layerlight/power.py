# How much current the LEDs draw, and how bright they may be for a supply.
#
# One model for the firmware (config.load caps the brightness with it) and
# for `layerlight power` and hardware/README.md, so the numbers cannot drift.
#
# A WS2812B draws about 20 mA per colour channel at full value (60 mA for
# full white) plus about 1 mA even when dark. The firmware scales every
# channel by the brightness cap, so a frame draws
#     leds * IDLE_MA + 3 * CHANNEL_MA * cap * load * leds
# where `load` is the frame's share of "every LED full white" (0..1).

CHANNEL_MA = 20        # one colour channel at 255
IDLE_MA = 1            # a dark WS2812B still draws about this
CONTROLLER_MA = 250    # the board, buzzer and level shifter: kept out of the LEDs' budget

# The brightest frame our screens draw is at most this share of full white
# (tests/test_power.py plays whole games at every size to check it). The
# firmware caps for that, not for a full-white frame it never shows.
SCREEN_PEAK = 0.5


def led_ma(leds, cap, load=1.0):
    """Current (mA) of `leds` LEDs at brightness `cap` showing a frame of `load` (share of full white)."""
    return leds * IDLE_MA + 3 * CHANNEL_MA * cap * load * leds


def brightness_cap(leds, supply_ma, load=SCREEN_PEAK):
    """The highest brightness (a step of 1/255, at least 1/255, at most 1) that keeps
    frames of `load` within `supply_ma` after the controller's share."""
    budget = supply_ma - CONTROLLER_MA - leds * IDLE_MA
    steps = int(255 * budget / (3 * CHANNEL_MA * load * leds))
    if steps < 1:
        steps = 1
    if steps > 255:
        steps = 255
    return steps / 255
