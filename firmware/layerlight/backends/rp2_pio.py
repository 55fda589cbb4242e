# The RP2040's (and RP2350's) own hardware for the two jobs where timing
# matters, so that neither waits on the CPU (docs/device.md, "Power cuts"):
#
# - ButtonSampler: a PIO state machine reads the button pins once a millisecond
#   and a DMA channel files each reading in a ring in RAM. A flash write, a
#   garbage collection or a slow frame can delay when the loop looks at a
#   press, never when the press is counted: the ring says at which millisecond
#   each reading was made.
# - StripSender: the WS2812 protocol is kept by a PIO state machine fed by DMA
#   from a copy of the frame, so sending a frame costs the CPU a memcpy and one
#   register write, and interrupts stay on (machine.bitstream turns them off
#   for the whole frame: 31 ms of every 40 at 32x32).
#
# Loaded only on the rp2 port (micropython_hw imports it when `rp2` exists).

import rp2
import uctypes
from machine import Pin
from micropython import const

# Register addresses and DREQ numbers, the same on the RP2040 and the RP2350
# (the addresses are past the small ints: plain globals, read once at set-up)
PIO0_TXF0 = 0x50200010
PIO1_RXF0 = 0x50300020
_DREQ_PIO0_TX0 = const(0)
_DREQ_PIO1_RX0 = const(12)
_TRANS_COUNT = const(2)        # index of a channel's registers (32-bit words)
_CTRL = const(3)
_READ_ADDR_TRIG = const(15)    # AL3_READ_ADDR_TRIG: set the read address and start
_BUSY = const(1 << 24)

SAMPLE_FREQ = 4000             # the sampler's clock: 4 cycles a reading, one a millisecond
RING_BITS = 11                 # the ring: 2048 readings, 2.048 s (a DMA ring is a power of two)
RING = 1 << RING_BITS
COUNT = (1 << 30) - 1          # readings before the channel stops: 12.4 days (a small int to read)
PINS_SPANNED = 8               # one byte a reading: the buttons within 8 consecutive GPIOs


# The PIO assembler's names (in_, pins, nop...) exist only inside rp2.asm_pio.
@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, autopush=True, push_thresh=8)
def _sample_pins():
    in_(pins, 8)   # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    nop()[2]       # noqa: F821  # pyright: ignore[reportUndefinedVariable]


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=32)
def _ws2812():
    # 10 cycles a bit at 8 MHz (1.25 us): a 1 is high for 7 cycles, a 0 for 2
    wrap_target()                                   # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    label("bit")                                    # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    out(x, 1).side(0)[2]                            # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    jmp(not_x, "zero").side(1)[1]                   # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    jmp("bit").side(1)[4]                           # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    label("zero")                                   # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    nop().side(0)[4]                                # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    wrap()                                          # noqa: F821  # pyright: ignore[reportUndefinedVariable]


def _aligned(size):
    """A bytearray that holds `size` bytes aligned on `size` (a DMA ring must be),
    and the memoryview of those bytes."""
    buf = bytearray(2 * size)
    at = (-uctypes.addressof(buf)) & (size - 1)
    return buf, memoryview(buf)[at:at + size]


class ButtonSampler:
    """The buttons read every millisecond by PIO1's state machine 0, filed by DMA.

    Reading k (from 0, when start() ran) is the buttons at millisecond k: bit i
    set while button i is down, through a table made from the pin map (a
    pressed button pulls its pin low)."""

    SAMPLE_MS = 1
    KEPT = RING

    def __init__(self, pins):
        base = min(pins)
        if max(pins) - base >= PINS_SPANNED:
            raise ValueError("buttons on GPIO %d..%d: PIO sampling needs them within %d pins"
                             % (base, max(pins), PINS_SPANNED))
        self._base = base
        # reading (one byte: GPIO base..base+7) -> buttons' bits
        table = bytearray(256)
        for v in range(256):
            bits = 0
            for i in range(len(pins)):
                if not v >> (pins[i] - base) & 1:
                    bits |= 1 << i
            table[v] = bits
        self._table = table
        self._buf, self._ring = _aligned(RING)
        self._dma = rp2.DMA()
        self._regs = self._dma.registers  # pyright: ignore[reportAttributeAccessIssue] (1.22+; not in the stubs)
        self._ctrl = self._dma.pack_ctrl(size=0, inc_read=False, inc_write=True, ring_size=RING_BITS,
                                         ring_sel=True, treq_sel=_DREQ_PIO1_RX0)
        self._sm = rp2.StateMachine(4, _sample_pins, freq=SAMPLE_FREQ, in_base=Pin(base))

    def prepare(self):
        """Stop reading, empty the FIFO and arm the channel again from the ring's
        start, so that start() takes microseconds. (The channel and the state
        machine are made once: a closed rp2.DMA's channel is not reliably idle.)"""
        sm = self._sm
        sm.active(0)
        self._dma.active(0)
        while sm.rx_fifo():
            sm.get()  # readings of an earlier run
        self._dma.config(read=PIO1_RXF0, write=self._ring, count=COUNT, ctrl=self._ctrl, trigger=True)
        sm.restart()

    def start(self):
        """Reading 0 now (within a quarter of a millisecond: the state machine's clock)."""
        self._sm.active(1)

    def close(self):
        """Stop reading and let the channel go (before a soft reset frees the ring)."""
        self._sm.active(0)
        self._dma.active(0)
        self._dma.close()

    def taken(self):
        """The latest reading's number (-1: none yet). No allocation."""
        return COUNT - 1 - self._regs[_TRANS_COUNT]

    def sample(self, k):
        return self._table[self._ring[k & (RING - 1)]]


class StripSender:
    """A WS2812 strip on `pin`, sent by PIO0's state machine 0 from a DMA channel."""

    def __init__(self, pin, nbytes, ticks_us, ticks_diff):
        if nbytes % 4:
            raise ValueError("a frame of %d bytes is not whole 32-bit words" % nbytes)
        self._wire = bytearray(nbytes)  # what the DMA reads while the next frame is drawn
        self._wire_at = uctypes.addressof(self._wire)
        self._ticks_us = ticks_us
        self._ticks_diff = ticks_diff
        # 1.25 us a bit; then up to 5 words still in the FIFO and the shift register,
        # and the line low for 300 us (a WS2812B latches after 280 us)
        self._wire_us = nbytes * 10 + 500
        self._sent_at = 0
        self._sent = False  # no frame sent yet: nothing to wait for
        self._sm = rp2.StateMachine(0, _ws2812, freq=8000000, sideset_base=Pin(pin))
        self._sm.active(1)
        self._dma = rp2.DMA()
        self._regs = self._dma.registers  # pyright: ignore[reportAttributeAccessIssue] (1.22+; not in the stubs)
        # words byte-swapped: the state machine shifts out from bit 31, the bytes' order
        ctrl = self._dma.pack_ctrl(size=2, inc_read=True, inc_write=False, bswap=True,
                                   treq_sel=_DREQ_PIO0_TX0)
        self._dma.config(read=self._wire, write=PIO0_TXF0, count=nbytes // 4, ctrl=ctrl)

    def close(self):
        self._sm.active(0)
        self._dma.active(0)
        self._dma.close()

    def busy(self):
        """The last frame is still on its way to the LEDs."""
        return self._sent and self._ticks_diff(self._ticks_us(), self._sent_at) < self._wire_us

    def send(self, buf):
        """Start sending buf (a frame in wire order); returns at once. No allocation."""
        while self.busy() or self._regs[_CTRL] & _BUSY:
            pass  # only when frames come closer than the wire's time (a host asking)
        self._wire[:] = buf
        self._sent_at = self._ticks_us()
        self._sent = True
        self._regs[_READ_ADDR_TRIG] = self._wire_at
