# What MicroPython and CPython (the simulator, a Raspberry Pi) do differently
# that the device cares about: printing a traceback, letting go of modules.
# Tiny and loaded at boot: app, startup and launch use it, and none of them
# has to import another for it.


def print_exception(e, log):
    """The traceback on the console (MicroPython and CPython spell this differently)."""
    import sys
    if hasattr(sys, "print_exception"):
        sys.print_exception(e)
    else:  # CPython: the simulator and the Raspberry Pi
        import traceback  # pyright: ignore[reportMissingImports]
        log("".join(traceback.format_exception(e)).rstrip())


def forget_modules(names):
    """Drop modules (and their names on their packages) so their memory can go.

    Only on MicroPython, where bytecode is heap. On CPython (the simulator, a
    Pi) memory is plenty, and the host tools running in the same process keep
    these modules' classes (DeckError...): a second copy would not match them."""
    import sys
    if sys.implementation.name != "micropython":
        return
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
        package, leaf = name.rsplit(".", 1)
        parent = sys.modules.get(package)
        if parent is not None and hasattr(parent, leaf):
            delattr(parent, leaf)


CRASH_SHOW_MS = 4000  # the error glyph stays this long before the device restarts


def hand_over(hw):
    """A host took over (Ctrl-C): stop what runs without the CPU, the watchdog first."""
    if hw is not None:
        hw.close()


def crashed(e, hw):
    """An exception escaped the loop: on the console and in errors.log, the error glyph
    on the matrix for a while; then the caller restarts. A Ctrl-C meanwhile still gives
    the host its REPL (the hardware is already stopped)."""
    from layerlight.screens import ERR_CRASH
    print_exception(e, print)
    message = "the device stopped (%s: %s), it restarts" % (type(e).__name__, e)
    print("error E%d: %s" % (ERR_CRASH, message))
    if hw is None:
        hw = _fallback_hardware()
    try:
        from layerlight import persist
        persist.append_log(hw.storage if hw is not None else _storage(), "E%d %s" % (ERR_CRASH, message), print)
    except Exception as again:  # the flash itself may be the trouble: the console has it
        print("could not log it: %s" % again)
    if hw is None:
        return
    try:
        from layerlight import screens
        fb = hw.framebuffer()
        fb.clear()
        screens.error(fb, ERR_CRASH)
        hw.show(fb)
        hw.sleep_ms(100)  # the frame out on the wire before the strip is stopped
    except Exception as again:
        print("could not show it: %s" % again)
    hw.close()  # the watchdog too: the device restarts below, and boots as from power on
    hw.sleep_ms(CRASH_SHOW_MS)


def _storage():
    from layerlight.storage import FileStorage
    return FileStorage("")


def _fallback_hardware():
    """The hardware on the board profile's own pins, for the glyph when boot could not
    open it with the settings; None if even that fails."""
    try:
        from layerlight import boards, config
        from layerlight.hardware import open_hardware
        cfg = config.load(_storage(), lambda line: None)
        profile = boards.PROFILES[cfg["board"]]
        for key in ("matrix_pin", "buttons", "buzzer_pin"):
            cfg[key] = profile[key]
        return open_hardware(cfg)
    except Exception as e:
        print("no matrix to show it on: %s" % e)
        return None


def restart():
    """Begin again as after power on: a soft reset on MicroPython (a fresh heap; main.py
    runs again); on CPython (a Pi) the caller's loop boots again."""
    import sys
    if sys.implementation.name != "micropython":
        return
    import machine
    machine.soft_reset()
