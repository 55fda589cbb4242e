# Picks the hardware backend once, from what the running Python can import:
# `machine` means a MicroPython board, `board` (Blinka) a Raspberry Pi. Game
# code never asks which one it is on.


def open_hardware(cfg):
    """The Hardware object for this platform, configured by cfg (see layerlight.config)."""
    try:
        import machine  # noqa: F401  (MicroPython boards only)
    except ImportError:
        from layerlight.backends.blinka_hw import Hardware
    else:
        from layerlight.backends.micropython_hw import Hardware
    return Hardware(cfg)
