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
