# Boots the device and runs its loop forever (imported by main.py).
from layerlight.app import boot

boot().run()
