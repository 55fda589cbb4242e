# Boots the device and runs its loop forever (imported by main.py). The loop
# returns only when a host asks to begin again with a given seed (host_link).
from layerlight.app import boot

dev = boot()
hw = dev.hw
try:
    while dev is not None:
        dev = dev.run()
finally:
    # Ctrl-C from a host (layerlight flash, mpremote) ends the loop: stop the
    # hardware that runs on without the CPU (rp2: the PIO sampler and its DMA
    # writing into the heap) before the REPL's soft reset frees that heap
    hw.close()
