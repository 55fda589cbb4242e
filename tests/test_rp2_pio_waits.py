"""backends/rp2_pio.py's two waits, on CPython with the chip's registers played by fakes that
behave as the datasheets say at their worst (the emulated Pico cannot wait 9 minutes of idle
time in a test, nor does rp2040js model erratum RP2040-E13):

- the strip's wait for the last frame to leave the wire, after an idle longer than half of
  ticks_us's period (2**30 us): ticks_diff then reads the old frame as sent in the future;
- the DMA abort, where CHAN_ABORT reads 0 while the channel is still busy (RP2040-E13)."""

import importlib
import sys
import time
import types

import pytest

PERIOD = 1 << 30  # MicroPython's ticks_us wraps here


def ticks_diff(a, b):
    """MicroPython's time.ticks_diff for ticks_us: signed, in [-PERIOD/2, PERIOD/2)."""
    return ((a - b + PERIOD // 2) % PERIOD) - PERIOD // 2


class Chip:
    """What the fakes share: the time (us, wrapped as ticks_us wraps) and the abort register."""

    def __init__(self):
        self.us = 0
        self.mem = {}
        self.busy_after_abort = 0   # reads of DMA.active() that still say busy after an abort
        self.active_reads = 0
        self.reads = 0

    def ticks_us(self):
        self.us += 1  # a read of the clock takes time, as a loop polling it does
        self.reads += 1
        if self.reads > 100000:  # a wire's time is 31 ms at most: this is a wait gone wrong
            raise AssertionError("the clock was polled 100,000 times in one wait")
        return self.us % PERIOD


class FakeDMA:
    count = 0

    def __init__(self, chip):
        self.chip = chip
        self.channel = FakeDMA.count
        FakeDMA.count += 1
        self.registers = [0] * 16

    def pack_ctrl(self, enable=1, **kw):
        return 1 if enable else 0

    def config(self, **kw):
        pass

    def active(self):
        self.chip.active_reads += 1
        if self.chip.busy_after_abort:
            self.chip.busy_after_abort -= 1
            return True
        return False

    def close(self):
        pass


@pytest.fixture
def rp2_pio(monkeypatch):
    """layerlight.backends.rp2_pio imported against the fakes; (module, chip)."""
    chip = Chip()

    class Mem32:
        def __getitem__(self, addr):
            return chip.mem.get(addr, 0)  # CHAN_ABORT reads 0 at once (as under RP2040-E13)

        def __setitem__(self, addr, value):
            chip.mem[addr] = 0

    rp2 = types.ModuleType("rp2")
    rp2.asm_pio = lambda **kw: (lambda f: f)
    rp2.PIO = types.SimpleNamespace(SHIFT_LEFT=0, OUT_LOW=0)
    rp2.StateMachine = lambda *a, **kw: types.SimpleNamespace(active=lambda *v: None)
    rp2.DMA = lambda: FakeDMA(chip)
    machine = types.ModuleType("machine")
    machine.Pin = lambda n: n
    machine.mem32 = Mem32()
    uctypes = types.ModuleType("uctypes")
    uctypes.addressof = id
    micropython = types.ModuleType("micropython")
    micropython.const = lambda v: v
    for name, mod in (("rp2", rp2), ("machine", machine), ("uctypes", uctypes), ("micropython", micropython)):
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.setattr(time, "ticks_diff", ticks_diff, raising=False)
    monkeypatch.setattr(time, "ticks_ms", lambda: chip.us // 1000, raising=False)
    monkeypatch.delitem(sys.modules, "layerlight.backends.rp2_pio", raising=False)
    module = importlib.import_module("layerlight.backends.rp2_pio")
    from layerlight.backends import rp2_chip
    module._CHIP[:] = [rp2_chip.RP2040]
    monkeypatch.setattr(module.display, "native", None)  # every frame whole, as without viper
    yield module, chip
    sys.modules.pop("layerlight.backends.rp2_pio", None)


@pytest.mark.parametrize("idle_s", [1, 540, 800, 1073, 1074, 3600])
def test_a_frame_after_a_long_idle_goes_out_at_once(rp2_pio, idle_s):
    """A frame sent, then nothing for idle_s (the self-test waiting on a person): the next one
    waits for no wire, however the clock wrapped in between (it spun for up to 9 minutes once
    the idle passed 537 s)."""
    module, chip = rp2_pio
    strip = module.StripSender(16, 16 * 16 * 3, chip.ticks_us, ticks_diff)
    frame = bytearray(16 * 16 * 3)
    strip.send(frame)
    chip.us += idle_s * 1000000
    chip.reads = 0
    before = chip.us
    strip.send(frame)
    assert chip.us - before < 50, "the send waited %d us of polling after %d s idle" % (chip.us - before, idle_s)


def test_a_frame_right_after_another_waits_for_the_wire_but_no_longer(rp2_pio):
    module, chip = rp2_pio
    strip = module.StripSender(16, 16 * 16 * 3, chip.ticks_us, ticks_diff)
    frame = bytearray(16 * 16 * 3)
    strip.send(frame)
    before = chip.us
    strip.send(frame)
    waited = chip.us - before
    assert 16 * 16 * 3 * 10 <= waited <= 16 * 16 * 3 * 10 + 600  # 1.25 us a bit, and the latch


def test_an_abort_waits_until_the_channel_is_no_longer_busy(rp2_pio):
    """RP2040-E13: CHAN_ABORT's bit may clear while a transfer is still in flight; the channel
    must not be configured again until its BUSY is low (pico-sdk polls BUSY for this)."""
    module, chip = rp2_pio
    dma = FakeDMA(chip)
    chip.busy_after_abort = 5
    module._abort((dma, 1))
    assert chip.busy_after_abort == 0 and chip.active_reads >= 6
