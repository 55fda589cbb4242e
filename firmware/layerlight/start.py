# Boots the device and runs its loop forever (imported by main.py). The loop
# returns only when a host asks to begin again with a given seed (host_link).
from layerlight.app import boot

dev = boot()
while dev is not None:
    dev = dev.run()
