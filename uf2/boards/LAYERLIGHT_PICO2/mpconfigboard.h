// Layerlight's Pico 2: MicroPython's RPI_PICO2 board plus a ROMFS partition for
// the shipped decks and, at its top, the save journal (as ../LAYERLIGHT_PICO/mpconfigboard.h).
//
// Flash (4 MB):  0x000000 firmware, 0x0F0000 ROMFS partition (64 KB: the decks' image
//                from 0x0F0000, the save journal's 32 KB from 0x0F8000),
//                0x100000 LittleFS, 3 MB, where stock MicroPython keeps it.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico2"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (PICO_FLASH_SIZE_BYTES - 1024 * 1024)
#define MICROPY_HW_ROMFS_BYTES                  (64 * 1024)
#define LAYERLIGHT_JOURNAL_BYTES                (32 * 1024)

// Python calls' frames on MicroPython's pystack, not the heap (why: the file itself)
#include "../layerlight_pystack.h"
