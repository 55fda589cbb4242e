# Layerlight's Pico: MicroPython's RPI_PICO board with a ROMFS partition for the
# decks (see mpconfigboard.h). The frozen modules come from uf2/manifest.py,
# given on make's command line (FROZEN_MANIFEST), as the top-level Makefile does.
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
