// Layerlight's Pico: the Raspberry Pi Pico as MicroPython's RPI_PICO board, with
// one addition: a ROMFS partition holding the shipped decks, mounted at /rom and
// read in place from flash (layerlight_tools/uf2.py writes it into the UF2).
//
// Flash (2 MB):  0x000000 firmware (the frozen Layerlight included)
//                0x098000 ROMFS, 32 KB  (= filesystem start - MICROPY_HW_ROMFS_BYTES)
//                0x0A0000 LittleFS, 1408 KB: where stock MicroPython keeps it, so
//                         a table's files survive any UF2 put on over it.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)
#define MICROPY_HW_ROMFS_BYTES                  (32 * 1024)
