// Included by both of Layerlight's boards (LAYERLIGHT_PICO, LAYERLIGHT_PICO2/mpconfigboard.h).
//
#pragma once

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
