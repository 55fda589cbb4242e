# Board profiles: which pin does what. This table is the one pin map: the
# firmware's config defaults come from it, and hardware/ generates its wiring
# diagram and pin tables from it, so the documentation cannot disagree.
#
# Pins are GPIO numbers for MicroPython boards and `board` attribute names for
# a Raspberry Pi running Blinka. "gpio": the pins a setting may name (those on
# the board's header that nothing on the board itself uses).

BUTTON_NAMES = ("P1", "P2", "P3", "P4", "A", "B")

PROFILES = {
    "pico": {
        "label": "Raspberry Pi Pico (RP2040)",
        "platform": "micropython",
        "matrix_pin": 16,
        "buttons": {"P1": 2, "P2": 3, "P3": 4, "P4": 5, "A": 6, "B": 7},
        "buzzer_pin": 15,
        "gpio": tuple(range(23)) + (26, 27, 28),  # GPIO 23-25 and 29 are the board's own (SMPS, VBUS, LED, VSYS)
    },
    "pico2": {
        "label": "Raspberry Pi Pico 2 (RP2350)",
        "platform": "micropython",
        "matrix_pin": 16,
        "buttons": {"P1": 2, "P2": 3, "P3": 4, "P4": 5, "A": 6, "B": 7},
        "buzzer_pin": 15,
        "gpio": tuple(range(23)) + (26, 27, 28),  # GPIO 23-25 and 29 are the board's own (SMPS, VBUS, LED, VSYS)
    },
    "esp32s3": {
        "label": "ESP32-S3 DevKitC-1",
        "platform": "micropython",
        "matrix_pin": 18,
        "buttons": {"P1": 4, "P2": 5, "P3": 6, "P4": 7, "A": 15, "B": 16},
        "buzzer_pin": 17,
        # GPIO 19-20 are USB, 22-34 do not exist or hold the flash and PSRAM
        "gpio": tuple(n for n in range(49) if n < 19 or n == 21 or n >= 35),
    },
    "rpi": {
        "label": "Raspberry Pi (CPython + Blinka)",
        "platform": "blinka",
        "matrix_pin": "D18",
        "buttons": {"P1": "D5", "P2": "D6", "P3": "D13", "P4": "D19", "A": "D26", "B": "D21"},
        "buzzer_pin": "D12",
        "gpio": tuple("D%d" % n for n in range(28)),
    },
}

DEFAULT = "pico"
