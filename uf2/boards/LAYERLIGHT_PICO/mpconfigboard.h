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

// Python calls' frames on a stack of their own (MicroPython's pystack), not the heap. Without
// it every call whose locals and stack pass 44 bytes takes its frame from the heap and gives
// it back on return: thousands of 5-14 block allocations a second, each a scan of the
// heap's table for a free run that a fragmented heap makes long (on the emulated Pico
// gc_alloc was 43-57 % of the CPU's busy time in whole games). The rp2 port does not set one
// up itself: the hooks below do, before each start of the runtime (mp_init). 8 KB: a frame
// is 68-216 bytes and the firmware's deepest calls are a few dozen.
#define MICROPY_ENABLE_PYSTACK                  (1)
#define LAYERLIGHT_PYSTACK_WORDS                (2048)
void mp_pystack_init(void *start, void *end);
static inline void layerlight_pystack_init(void) {
    static unsigned int pystack[LAYERLIGHT_PYSTACK_WORDS] __attribute__((aligned(8)));
    mp_pystack_init(pystack, pystack + LAYERLIGHT_PYSTACK_WORDS);
}
#define MICROPY_BOARD_EARLY_INIT()              layerlight_pystack_init()
#define MICROPY_BOARD_END_SOFT_RESET()          layerlight_pystack_init()
