"""The native pixel loops (firmware/layerlight/native_draw.py, viper) on the emulated Pico with the
Layerlight UF2: they load there, allocate nothing (the heap locked), and they write exactly the bytes the Python loops beside their
callers write (display.FrameBuffer.rect, font's glyphs), for rectangles and text at every size,
scale and turn, partly or wholly off the matrix, through a shuffled strip table and the views
turned to each seat. CPython and the WebAssembly port run the Python loops only, so this is
where the native ones are checked; every emulated game's frames (compared with the simulator's)
check them again in use."""

import pytest

from layerlight_tools.pico import target

import uf2_fixture

# Run at the REPL of the emulated Pico (paste mode): random drawing ops, each made twice from the
# same starting bytes, once with display.native and once with the Python loops; prints one line
# per size, "same N", or the first op whose bytes differ.
ON_CHIP = """
import random
import micropython
from array import array
from layerlight import display, font
from layerlight.display import FrameBuffer
native = display.native
print("native", native is not None)
random.seed(%(seed)d)
def shuffled(n):
    t = array("H", range(n))
    for i in range(n - 1, 0, -1):
        j = random.getrandbits(16) %% (i + 1)
        t[i], t[j] = t[j], t[i]
    return t
def op(fb, k, a):
    if k == 0:
        fb.rect(a[0], a[1], a[2], a[3], a[4])
    elif k == 1:
        font.draw_text(fb, "0A9-?X", a[0], a[1], a[4], a[5] * 90, a[6])
    else:
        font.draw_number(fb, a[2] * 37 - 200, a[0], a[1], a[4], a[5] * 90, a[6])
for size in (8, 16, 32):
    fb = FrameBuffer(size, size, shuffled(size * size), 0.6, "GRB")
    start = bytes(random.getrandbits(8) for i in range(len(fb.buf)))
    same = 0
    allocs = 0
    bad = None
    for n in range(%(ops)d):
        view = fb.turned(random.getrandbits(2))
        k = random.getrandbits(8) %% 3
        a = [random.getrandbits(8) %% (size + 12) - 6, random.getrandbits(8) %% (size + 12) - 6,
             random.getrandbits(8) %% (size + 4), random.getrandbits(8) %% (size + 4),
             random.getrandbits(24), random.getrandbits(2), 1 + random.getrandbits(2)]
        fb.buf[:] = start
        display.native = native
        micropython.heap_lock()  # a draw that allocates raises MemoryError: the render path must not
        try:
            op(view, k, a)
        except MemoryError:
            allocs += 1
        micropython.heap_unlock()
        fast = bytes(fb.buf)
        fb.buf[:] = start
        display.native = None
        op(view, k, a)
        display.native = native
        if bytes(fb.buf) == fast:
            same += 1
        elif bad is None:
            bad = (k, a)
    print("size", size, "same", same, "of", %(ops)d, "first differing op", bad, "allocated", allocs)
print("DONE" + "!")
"""


@pytest.fixture(scope="module")
def uf2():
    return uf2_fixture.built_uf2(), uf2_fixture.boot_rom()


def run_on_chip(uf2, image, code):
    """Power on, take the REPL as a host does, paste `code`; what it printed up to DONE!."""
    pico = target.power_on(uf2[0], uf2[1], str(image))
    try:
        pico.run_ms(1500)
        pico.take_serial()
        pico.write(b"\x03\x03")  # as a host takes over: the REPL
        pico.wait_serial(b">>> ", "the REPL prompt", limit_ms=5000)
        pico.take_serial()
        pico.write(b"\x05" + code.replace("\n", "\r").encode() + b"\x04")
        out = pico.wait_serial(b"DONE!", "the drawing ops", limit_ms=300000)
        return out.decode(errors="replace") if isinstance(out, bytes) else out
    finally:
        pico.close()


def test_the_native_loops_draw_the_bytes_the_python_loops_draw(uf2, tmp_path):
    out = run_on_chip(uf2, tmp_path / "flash.bin", ON_CHIP % {"seed": 20261126, "ops": 150})
    lines = [line.strip() for line in out.splitlines() if not line.startswith("===")]
    assert "native True" in lines, "the native loops did not load on the Layerlight UF2:\n" + out
    for size in (8, 16, 32):
        assert "size %d same 150 of 150 first differing op None allocated 0" % size in lines, out


IDLE = """
import micropython
from layerlight.app import boot
hw = boot().hw
def waits(n):  # in a function: a new global at the paste prompt would allocate
    for i in range(n):
        hw.idle(0)
waits(1)  # the first wait makes the one tuple the console's poll keeps
micropython.heap_lock()
try:
    waits(200)
    print("idle allocated nothing")
except MemoryError:
    print("idle allocated")
micropython.heap_unlock()
print("DONE" + "!")
"""


def test_the_loops_wait_for_the_console_allocates_nothing(uf2, tmp_path):
    """The loop waits on the console every few milliseconds: garbage made there set off
    collections (15 ms of the emulated chip each) at any moment, a press's too."""
    out = run_on_chip(uf2, tmp_path / "flash.bin", IDLE)
    assert "idle allocated nothing" in [line.strip() for line in out.splitlines()], out
