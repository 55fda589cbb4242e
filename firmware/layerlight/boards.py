# Board profiles: which pin does what. This table is the one pin map: the
# firmware's config defaults come from it, and hardware/ generates its wiring
# diagram and pin tables from it, so the documentation cannot disagree.
#
# Pins are GPIO numbers for MicroPython boards and `board` attribute names for
# a Raspberry Pi running Blinka.

BUTTON_NAMES = ("P1", "P2", "P3", "P4", "A", "B")

PROFILES = {
    "pico": {
        "label": "Raspberry Pi Pico (RP2040)",
        "platform": "micropython",
        "matrix_pin": 16,
        "buttons": {"P1": 2, "P2": 3, "P3": 4, "P4": 5, "A": 6, "B": 7},
        "buzzer_pin": 15,
    },
    "pico2": {
        "label": "Raspberry Pi Pico 2 (RP2350)",
        "platform": "micropython",
        "matrix_pin": 16,
        "buttons": {"P1": 2, "P2": 3, "P3": 4, "P4": 5, "A": 6, "B": 7},
        "buzzer_pin": 15,
    },
    "esp32s3": {
        "label": "ESP32-S3 DevKitC-1",
        "platform": "micropython",
        "matrix_pin": 18,
        "buttons": {"P1": 4, "P2": 5, "P3": 6, "P4": 7, "A": 15, "B": 16},
        "buzzer_pin": 17,
    },
    "rpi": {
        "label": "Raspberry Pi (CPython + Blinka)",
        "platform": "blinka",
        "matrix_pin": "D18",
        "buttons": {"P1": "D5", "P2": "D6", "P3": "D13", "P4": "D19", "A": "D26", "B": "D21"},
        "buzzer_pin": "D12",
    },
}

DEFAULT = "pico"
