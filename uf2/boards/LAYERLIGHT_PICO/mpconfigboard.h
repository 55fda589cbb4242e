// Layerlight's Pico: the Raspberry Pi Pico as MicroPython's RPI_PICO board, with
// one addition: a ROMFS partition holding the shipped decks, mounted at /rom and
// read in place from flash (layerlight_tools/uf2.py writes it into the UF2), whose
// top LAYERLIGHT_JOURNAL_BYTES are the running game's save journal (raw flash the
// firmware reaches through the partition's rp2.Flash object, vfs.rom_ioctl(2, 0):
// firmware/layerlight/journal.py). The ROMFS image ends below it; no UF2 block
// reaches the journal, so a game saved there survives a newer UF2.
//
// Flash (2 MB):  0x000000 firmware (the frozen Layerlight included)
//                0x090000 ROMFS partition, 64 KB (= filesystem start - MICROPY_HW_ROMFS_BYTES):
//                         0x090000 the decks' ROMFS image, up to 32 KB
//                         0x098000 the save journal, 32 KB (8 sectors of 4 KB)
//                0x0A0000 LittleFS, 1408 KB: where stock MicroPython keeps it, so
//                         a table's files survive any UF2 put on over it.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)
#define MICROPY_HW_ROMFS_BYTES                  (64 * 1024)
#define LAYERLIGHT_JOURNAL_BYTES                (32 * 1024)

// Python calls' frames on MicroPython's pystack, not the heap (why: the file itself)
#include "../layerlight_pystack.h"
