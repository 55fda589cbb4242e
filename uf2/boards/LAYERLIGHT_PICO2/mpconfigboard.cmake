# Layerlight's Pico 2 (RP2350, Arm cores): MicroPython's RPI_PICO2 board with a
# ROMFS partition for the decks (see mpconfigboard.h and ../LAYERLIGHT_PICO).
set(PICO_BOARD "pico2")
set(PICO_PLATFORM "rp2350")
