# The Layerlight UF2's main.py, frozen into the firmware: a Pico with nothing but
# the UF2 on it starts the device at power-on.
#
# MicroPython runs a frozen main.py in place of /main.py on the filesystem, so the
# meaning of a /main.py is decided here:
#   - none (a UF2 dragged onto a blank or a table's Pico): the frozen firmware runs,
#     with the frozen modules first on sys.path (a stray /layerlight folder on the
#     filesystem cannot shadow them);
#   - one written by `layerlight flash` on stock MicroPython (it runs /firmware/a or
#     /b): left over from before the UF2 and not run; `layerlight flash` removes it;
#   - any other (a developer's own): run instead of the frozen firmware, with
#     MicroPython's usual sys.path, '' before '.frozen', so the developer's files in
#     /layerlight shadow the frozen ones. Delete it to go back to the frozen firmware.
import os
import sys

import layerlight_build

FLASHED_MARK = "# Written by `layerlight flash`"


def _own_main():
    """The text of a developer's /main.py, or None."""
    try:
        with open("/main.py") as f:
            text = f.read()
    except OSError:
        return None
    if text.startswith(FLASHED_MARK):
        print("layerlight: /main.py from `layerlight flash` on stock MicroPython is not run "
              "(the firmware is frozen into this UF2)")
        return None
    return text


print("Layerlight %s, MicroPython v%s (%s)" % (layerlight_build.VERSION, os.uname().release, os.uname().machine))
_text = _own_main()
if _text is not None:
    print("layerlight: running /main.py from the filesystem instead of the frozen firmware")
    exec(_text, {"__name__": "__main__"})
else:
    del _text
    if ".frozen" in sys.path:
        sys.path.remove(".frozen")
        sys.path.insert(0, ".frozen")
    import layerlight.start  # noqa: F401 (runs the device)
