"""The native pixel loops (firmware/layerlight/native_draw.py, viper) on the emulated Pico with the
Layerlight UF2: they load there, allocate nothing (the heap locked), and they write exactly the bytes
the Python loops beside their callers write (display.FrameBuffer.rect, font's glyphs, the sand ring
of screens.timer_ring, Layout.mark_busy and CO.OP's room round the totals), for rectangles and text
at every size, scale and turn, partly or wholly off the matrix, through a shuffled strip table and the views
turned to each seat. CPython and the WebAssembly port run the Python loops only, so this is
where the native ones are checked; every emulated game's frames (compared with the simulator's)
check them again in use."""

import pytest

from layerlight_tools.pico import target

import uf2_fixture

pytestmark = pytest.mark.chip  # the emulated RP2040: in make test, not in make quick

# Run at the REPL of the emulated Pico (paste mode): random drawing ops, each made twice from the
# same starting bytes, once with display.native and once with the Python loops; prints one line
# per size, "same N", or the first op whose bytes differ.
ON_CHIP = """
import random
import micropython
from array import array
from layerlight import display, font, screens
from layerlight.display import FrameBuffer
from layerlight.modes import coop_screens
native = display.native
print("native", native is not None)
random.seed(%(seed)d)
def shuffled(n):
    t = array("H", range(n))
    for i in range(n - 1, 0, -1):
        j = random.getrandbits(16) %% (i + 1)
        t[i], t[j] = t[j], t[i]
    return t
class Game:
    pass
def op(fb, view, game, k, a):
    if k == 0:
        view.rect(a[0], a[1], a[2], a[3], a[4])
    elif k == 1:
        font.draw_text(view, "0A9-?X", a[0], a[1], a[4], a[5] * 90, a[6])
    elif k == 2:
        font.draw_number(view, a[2] * 37 - 200, a[0], a[1], a[4], a[5] * 90, a[6])
    elif k == 3:  # the sand: a[2] of its size + 4 seconds left, never the last 5 s' blink
        screens.timer_ring(fb, game.layout, 6000 + a[2] * 1000, 6000 + (fb.width + 4) * 1000, 0)
    else:  # the ring pixels lit in the frame, and the room round them
        coop_screens.mark_sand_busy(game, fb)
for size in (8, 16, 32):
    fb = FrameBuffer(size, size, shuffled(size * size), 0.6, "GRB")
    game = Game()
    game.layout = screens.Layout(size, size, size - 2, fb)
    n = len(game.layout.ring_busy)
    game.ring_lit = bytearray(n)
    # a frame with a pixel lit here and there (about one in six): the ring's busy pixels and the
    # room round them show
    start = bytes(random.getrandbits(8) if not random.getrandbits(4) else 0 for i in range(len(fb.buf)))
    same = 0
    allocs = 0
    bad = None
    for m in range(%(ops)d):
        view = fb.turned(random.getrandbits(2))
        k = random.getrandbits(8) %% 5
        a = [random.getrandbits(8) %% (size + 12) - 6, random.getrandbits(8) %% (size + 12) - 6,
             random.getrandbits(8) %% (size + 4), random.getrandbits(8) %% (size + 4),
             random.getrandbits(24), random.getrandbits(2), 1 + random.getrandbits(2)]
        busy = bytes(random.getrandbits(1) for i in range(n))
        runs = []
        for use in (native, None):
            fb.buf[:] = start
            game.layout.ring_busy[:] = busy
            game.ring_lit[:] = bytes(n)
            display.native = use
            micropython.heap_lock()  # a draw that allocates raises MemoryError: the render path must not
            try:
                op(fb, view, game, k, a)
            except MemoryError:
                allocs += 1
            micropython.heap_unlock()
            runs.append(bytes(fb.buf) + bytes(game.layout.ring_busy) + bytes(game.ring_lit))
        display.native = native
        if runs[0] == runs[1]:
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


def frames_of(uf2, tmp_path, code, data_pin=16):
    """Power on, paste `code` at the REPL: (what it printed up to DONE!, the frames on the data
    pins from the paste on)."""
    pico = target.power_on(uf2[0], uf2[1], str(tmp_path / "flash.bin"), data_pin=data_pin)
    try:
        pico.run_ms(1500)
        pico.take_serial()
        pico.write(b"\x03\x03")
        pico.wait_serial(b">>> ", "the REPL prompt", limit_ms=5000)
        start = pico.us
        pico.take_serial()
        pico.write(b"\x05" + code.replace("\n", "\r").encode() + b"\x04")
        out = pico.wait_serial(b"DONE!", "the frames", limit_ms=60000)
        pico.run_ms(100)
        with pico.cond:
            frames = [f for f in pico.frames if f["start_us"] >= start]
    finally:
        pico.close()
    return (out.decode(errors="replace") if isinstance(out, bytes) else out), frames


def test_the_native_loops_draw_the_bytes_the_python_loops_draw(uf2, tmp_path):
    out = run_on_chip(uf2, tmp_path / "flash.bin", ON_CHIP % {"seed": 20261126, "ops": 150})
    lines = [line.strip() for line in out.splitlines() if not line.startswith("===")]
    assert "native True" in lines, "the native loops did not load on the Layerlight UF2:\n" + out
    for size in (8, 16, 32):
        assert "size %d same 150 of 150 first differing op None allocated 0" % size in lines, out


# Run at the REPL of the emulated Pico: each native routine called straight, with random numbers
# in and out of the range its callers give, on buffers with guard bytes on both sides (a memoryview
# into a larger array: the routine sees only the middle, as it sees a frame). Where the Python loop
# takes the numbers, both must leave the same bytes, guards included; where it would raise, the
# native routine must leave every guard as it was. The guards hold what an over-read would act
# on: table and ring entries of 0 (pixel 0 of the frame, so a read past the table writes there)
# and ring pixels not busy.
GUARDED = """
import random
import micropython
from array import array
from layerlight import display, font, screens
from layerlight.display import FrameBuffer
from layerlight.modes import coop_screens
native = display.native
print("native", native is not None)
random.seed(SEED)
G = 24
def guarded(typecode, items, fill):
    whole = array(typecode, [fill] * G + list(items) + [fill] * G)
    return whole, memoryview(whole)[G:G + len(items)]
def wild(lo, hi):  # mostly in lo..hi, now and then far outside it
    k = random.getrandbits(4)
    if k == 0:
        return random.choice((-2147483647, 2147483647, -(1 << 20) - 3, (1 << 20) + 5, -1000000, 1000000))
    return lo + random.getrandbits(16) % (hi - lo + 1)
class Game:
    pass
NGLYPH = len(font._GLYPHS) // font.GLYPH_H
for size in (8, 16, 32):
    n = size * size
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = random.getrandbits(16) % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    fb = FrameBuffer(size, size, None, 0.6, "GRB")
    tab_whole, fb.table = guarded("H", perm, 0)
    buf_whole, fb.buf = guarded("B", bytes(3 * n), 0x5A)
    layout = screens.Layout(size, size, size - 2, fb)
    count = len(layout.ring_at)
    at_whole, layout.ring_at = guarded("H", layout.ring_at, 0)
    busy_whole, layout.ring_busy = guarded("B", bytes(count), 0)
    lit_whole, lit = guarded("B", bytes(count), 0)
    game = Game()
    game.layout = layout
    game.ring_lit = lit
    wholes = (buf_whole, busy_whole, lit_whole)
    p = array("i", bytes(4 * 13))
    same = kept = cases = 0
    allocs = 0
    bad = None
    wrong = [0] * 6  # by routine: fill, glyph, ring, ring_lit, spread, last_difference
    for m in range(OPS):
        start = [bytes(random.getrandbits(8) if not random.getrandbits(3) else 0 for i in range(len(w))) for w in wholes]
        busy0 = bytes(random.getrandbits(1) for i in range(count))
        k = random.getrandbits(8) % 6
        colour = random.getrandbits(24)
        sc = fb.scale
        rgb = (sc[colour >> 16], sc[(colour >> 8) & 255], sc[colour & 255])
        places = (fb.ro, fb.go, fb.bo)
        sane = True  # numbers the Python loop takes
        if random.getrandbits(3) == 0:
            places = (wild(-2, 4), wild(-2, 4), wild(-2, 4))
            sane = False
        if k == 0:  # fill: a rectangle, any corners
            a = [wild(-2 * size, 3 * size) for i in range(4)]
            if random.getrandbits(2):  # mostly a rectangle with its corners in order
                a = [min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3])]
            dims = (size, size)
            if random.getrandbits(3) == 0:
                dims = (wild(-3, 2 * size), wild(-3, 2 * size))
                sane = False
            def prep():
                p[0] = dims[0]
                p[1], p[2], p[3], p[4] = a
                p[5], p[6], p[7] = rgb
                p[8], p[9], p[10] = places
                p[11] = dims[1]
            def run_native():
                native.fill(fb.buf, fb.table, p)
            def run_python():
                fb.rect(a[0], a[1], a[2] - a[0], a[3] - a[1], colour)
        elif k == 1:  # glyph: any place, turn and scale, a glyph past the font now and then
            g = random.getrandbits(8) % NGLYPH
            x, y = wild(-8 * size, 3 * size), wild(-8 * size, 3 * size)
            q = wild(-2, 6)
            s = wild(-2, size + 4)
            if random.getrandbits(3) == 0:
                g = random.choice((NGLYPH, NGLYPH + 7, -1, 100000))
                sane = False
            if s > 64:  # the Python loop would take minutes on the chip: the native one alone
                sane = False
            def prep():
                p[0], p[1], p[2], p[3], p[4], p[5] = size, size, x, y, q, s
                p[6], p[7], p[8] = rgb
                p[9], p[10], p[11] = places
                p[12] = g * font.GLYPH_H
            def run_native():
                native.glyph(fb.buf, fb.table, p, font._GLYPHS)
            def run_python():
                font._draw_glyph(fb, g, x, y, colour, q, s)
        elif k == 2:  # the sand: any count, past the ring's too
            lit_n = wild(-5, count + 40)
            c = screens.RING
            rgb = (sc[c >> 16], sc[(c >> 8) & 255], sc[c & 255])
            def prep():
                p[0] = lit_n
                p[1], p[2], p[3] = rgb
                p[4], p[5], p[6] = places
            def run_native():
                native.ring(fb.buf, layout.ring_at, layout.ring_busy, p)
            def run_python():  # lit_n of the ring's pixels, never the last 5 s' blink
                screens.timer_ring(fb, layout, lit_n * 10000, count * 10000, 0)
        elif k == 3:  # the ring pixels lit in the frame, for any count
            nn = wild(count, count + 40)
            if random.getrandbits(2) == 0:
                nn = wild(-5, count)
            sane = nn >= count  # the Python loop: the whole ring
            def prep():
                pass
            def run_native():
                native.ring_lit(fb.buf, layout.ring_at, layout.ring_busy, nn)
            def run_python():
                layout.mark_busy(fb)
        elif k == 4:  # the room round CO.OP's totals, for any count and reach
            nn = wild(count, count + 40)
            d = 2
            if random.getrandbits(2) == 0:
                nn, d = wild(-5, count + 40), wild(-3, 3 * count)
            sane = sane and nn >= count and d == 2  # the Python loop: the whole ring, 2 each side
            def prep():
                pass
            def run_native():  # as mark_sand_busy, with any count and reach
                native.ring_lit(fb.buf, layout.ring_at, layout.ring_busy, count)
                lit[:] = layout.ring_busy
                native.spread(lit, layout.ring_busy, nn, d)
            def run_python():
                coop_screens.mark_sand_busy(game, fb)
        else:  # where two frames last differ, for any count (it only reads: the answer)
            nn = wild(-5, 3 * n + 50)
            other = bytearray(fb.buf)
            for i in range(random.getrandbits(2)):
                other[random.getrandbits(16) % len(other)] ^= 1 + random.getrandbits(7)
            ow, ov = guarded("B", other, 0xA5)  # guards that differ from the frame's
            m_ = min(max(nn, 0), 3 * n)
            want = 0
            for i in range(m_):
                if fb.buf[i] != ov[i]:
                    want = i + 1
            cases += 1
            micropython.heap_lock()
            try:
                got = native.last_difference(fb.buf, ov, nn)
            except MemoryError:
                got = "allocated"
                allocs += 1
            depth = micropython.heap_unlock()
            if got == want:
                same += 1
            else:
                wrong[k] += 1
                if bad is None:
                    bad = ("last_difference", nn, got, want)
            continue
        cases += 1
        runs = []
        for use in (native, None):
            if use is None and not sane:
                break
            for w, b in zip(wholes, start):
                w[:] = array("B", b)
            layout.ring_busy[:] = busy0
            display.native = use
            if use is not None:
                prep()
                micropython.heap_lock()  # the native loops allocate nothing, whatever the numbers
                try:
                    run_native()
                except MemoryError:
                    allocs += 1
                depth = micropython.heap_unlock()  # (assigned: the REPL would print it)
            else:
                run_python()
            display.native = native
            runs.append(b"".join(bytes(w) for w in wholes))
            for w, b in zip(wholes, start):  # every guard as it was
                if bytes(w[:G]) != b[:G] or bytes(w[-G:]) != b[-G:]:
                    wrong[k] += 1
                    if bad is None:
                        bad = ("guard", k, "native" if use else "python", sane)
                    break
            else:
                if use is not None and not sane:
                    kept += 1
        if sane:
            if runs[0] == runs[1]:
                same += 1
            else:
                wrong[k] += 1
                if bad is None:
                    bad = ("bytes", k, places)
    print("size", size, "cases", cases, "right", same + kept, "wrong by routine", wrong, "first bad", bad,
          "allocated", allocs)
print("DONE" + "!")
"""


def test_each_native_routine_writes_only_inside_its_buffers_for_any_numbers(uf2, tmp_path):
    """Native code has no bounds checks: a ring count past the ring (a game resumed under a
    shorter timer), a rectangle or glyph off the matrix, a colour byte's place outside a pixel,
    a count past an array: each routine clips to its buffers and the frame as the Python loop
    does, or, where the Python loop would raise, writes nothing outside them."""
    out = run_on_chip(uf2, tmp_path / "flash.bin", GUARDED.replace("SEED", "20261127").replace("OPS", "100"))
    lines = [line.strip() for line in out.splitlines() if not line.startswith("===")]
    assert "native True" in lines, "the native loops did not load on the Layerlight UF2:\n" + out
    for size in (8, 16, 32):
        assert "size %d cases 100 right 100 wrong by routine [0, 0, 0, 0, 0, 0] first bad None allocated 0" % size \
            in lines, out


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


STRIP = """
import time
from layerlight.app import boot
dev = boot()
hw = dev.hw
fb = dev.fb
fb.clear()
fb.rect(0, 0, fb.width, fb.height, 0x00ff00)
hw.show(fb)           # the first frame: whole
time.sleep_ms(60)
hw.show(fb)           # nothing changed: nothing sent
time.sleep_ms(60)
fb.buf[5 * 3] ^= 0xff  # LED 5 of the strip (bytes 15..17)
hw.show(fb)           # up to LED 5, in whole LEDs and whole words: 24 bytes
time.sleep_ms(60)
fb.buf[5 * 3] ^= 0xff
fb.buf[len(fb.buf) - 1] ^= 0xff  # the strip's last LED
hw.show(fb)           # every LED up to the last
time.sleep_ms(1100)
hw.show(fb)           # unchanged, but a second since every LED was sent: whole again
time.sleep_ms(60)
hw.send_whole()
hw.show(fb)           # unchanged, asked for whole (a host's report)
time.sleep_ms(60)
print("DONE" + "!")
"""


def test_the_strip_is_sent_only_up_to_the_last_led_that_changed(uf2, tmp_path):
    """A WS2812 keeps the first colour it is sent and passes the rest on: the frame goes out up
    to the last LED that changed (a press's light waits for no repeat of the last frame), and
    nothing when nothing did; every LED at least once a second, and when a host asks."""
    _out, frames = frames_of(uf2, tmp_path, STRIP)
    whole = 16 * 16 * 3  # uf2_fixture's blank chip: the default 16x16
    assert [f["sent"] for f in frames] == [whole, 24, whole, whole, whole], [f["sent"] for f in frames]
    green = bytes(frames[0]["data"])
    assert len(set(green[i:i + 3] for i in range(0, whole, 3))) == 1  # one colour everywhere
    led5 = bytearray(green)
    led5[15] ^= 0xff
    assert frames[1]["data"] == bytes(led5)  # the LEDs past LED 5 kept their colour
    last = bytearray(green)
    last[-1] ^= 0xff
    assert frames[2]["data"] == frames[3]["data"] == frames[4]["data"] == bytes(last)


LANES_STRIP = """
import json, time
with open("layerlight.json", "w") as f:
    f.write(json.dumps({"width": 32, "height": 32, "supply_ma": 10000,
                        "panels": {"size": [16, 16], "across": 2, "down": 2, "lanes": [16, 17, 18, 19]}}))
from layerlight.app import boot
dev = boot()
hw = dev.hw
fb = dev.fb
print("sender", type(hw._strip).__name__)
fb.clear()
fb.rect(0, 0, fb.width, fb.height, 0x00ff00)
hw.show(fb)           # the first frame: every lane whole
time.sleep_ms(60)
hw.show(fb)           # nothing changed: nothing sent
time.sleep_ms(60)
fb.buf[2 * 768 + 5 * 3] ^= 0xff  # LED 5 of lane 2 (the third panel)
hw.show(fb)           # lane 2 alone, up to its LED 5
time.sleep_ms(60)
fb.buf[2 * 768 + 5 * 3] ^= 0xff
fb.buf[len(fb.buf) - 1] ^= 0xff  # the last LED of lane 3
hw.show(fb)           # lanes 2 and 3, up to the last LED: a whole panel's time
time.sleep_ms(1100)
hw.show(fb)           # unchanged, but a second since every lane was sent whole: whole again
time.sleep_ms(60)
print("DONE" + "!")
"""


def test_four_lanes_send_only_the_lanes_that_changed_as_far_as_the_last_led_that_changed(uf2, tmp_path):
    """A 32x32 on four lanes (a panel on each of GP16-GP19): the four panels go out at once,
    7.7 ms for a whole frame, decoded off the four pins; a frame goes only to the lanes whose LEDs
    changed (the others see no pulse and keep their colours), as far as the last LED that changed;
    nothing when nothing did; every lane whole again after a second."""
    out, frames = frames_of(uf2, tmp_path, LANES_STRIP, data_pin=[16, 17, 18, 19])
    assert "sender LaneSender" in out, out
    lane = 16 * 16 * 3
    assert [f["lanes"] for f in frames] == [[lane] * 4, [0, 0, 18, 0], [0, 0, lane, lane], [lane] * 4], \
        [f["lanes"] for f in frames]
    assert not [f["timing"] for f in frames if f["timing"]]
    whole = frames[0]
    assert whole["end_us"] - whole["start_us"] < 16 * 16 * 24 * 1.25 + 20  # one panel's time, not four
    green = bytes(whole["data"])
    assert len(green) == 4 * lane and len(set(green[i:i + 3] for i in range(0, 4 * lane, 3))) == 1
    led5 = bytearray(green)
    led5[2 * lane + 15] ^= 0xff
    assert frames[1]["data"] == bytes(led5)  # the other lanes and LEDs kept their colour
    last = bytearray(green)
    last[-1] ^= 0xff
    assert frames[2]["data"] == frames[3]["data"] == bytes(last)
