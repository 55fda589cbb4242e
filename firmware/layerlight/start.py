# Boots the device and runs its loop forever (imported by main.py). The loop
# returns only when a host asks to begin again with a given seed (host_link).
#
# Two ways out, and neither leaves a dark box or a silent REPL:
# - Ctrl-C from a host (layerlight flash, doctor, monitor, mpremote, Thonny):
#   the hardware that runs on without the CPU is stopped, the watchdog first
#   (nothing feeds it from now on: it would reset the board under the host),
#   and the host gets its REPL.
# - any other exception that escapes the loop (outside the modes' own guard):
#   it is logged, the matrix shows the error glyph, and the device restarts.
from layerlight import runtime
from layerlight.app import boot

while True:
    hw = None
    try:
        dev = boot()
        hw = dev.hw
        while dev is not None:
            dev = dev.run()
        runtime.hand_over(hw)  # (Device.run returns None only where a harness steps the device)
        break
    except KeyboardInterrupt:
        runtime.hand_over(hw)
        raise
    except Exception as e:  # noqa: BLE001 (whatever it is, the box must come back)
        try:
            runtime.crashed(e, hw)
        except KeyboardInterrupt:  # a host came in the middle of it
            runtime.hand_over(hw)
            raise
        runtime.restart()  # MicroPython: a soft reset runs main.py again; CPython: boot again here
