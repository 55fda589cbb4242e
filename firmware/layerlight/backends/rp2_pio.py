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
from array import array
from machine import Pin, mem32
from micropython import const
from time import ticks_diff, ticks_ms

from layerlight import display
from layerlight.backends import rp2_chip

# Where the two chips differ (rp2_chip.py, from sys.implementation._machine); the
# rest comes from MicroPython's API: CTRL values from DMA.pack_ctrl, busy from
# DMA.active(). Register indices within a channel's block (DMA.registers), the
# same on both chips (RP2040 datasheet 2.5.7, RP2350 datasheet 12.6.10):
_CHIP = []                     # the chip's table, chosen at the first use (rp2_chip.this_chip)
_TRANS_COUNT = const(2)        # CHn_TRANS_COUNT, offset 0x08
_CTRL_TRIG = const(3)          # CHn_CTRL_TRIG, offset 0x0c (a write starts the channel)
_AL1_CTRL = const(4)           # CHn_AL1_CTRL, offset 0x10 (the same CTRL, no trigger)
_READ_ADDR_TRIG = const(15)    # CHn_AL3_READ_ADDR_TRIG, offset 0x3c: set the read address and start
WHOLE_US = 1000000             # every LED is sent again at least this often (StripSender.send)
LED_WORDS = 12                 # bytes of whole LEDs (3 bytes) in whole words (4): a frame's length
_DMA_BASE = 0x50000000         # both chips (RP2040 datasheet 2.2.2, RP2350 datasheet 2.2)
_CHANNEL_SPAN = const(0x40)    # one channel's register block

SAMPLE_FREQ = 4000             # the sampler's clock: 4 cycles a reading, one a millisecond
RING_BITS = 12                 # the ring: 4096 readings, 4.096 s (a DMA ring is a power of two):
RING = 1 << RING_BITS          # the longest stall under the flash chip's slowest times, with room (bench_pico)
MARGIN = 64                    # the loop keeps this many readings from the ring's end (the DMA's next writes)
PINS_SPANNED = 8               # one byte a reading: the buttons within 8 consecutive GPIOs


# The PIO assembler's names (in_, pins, nop...) exist only inside rp2.asm_pio.
@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, autopush=True, push_thresh=8)
def _sample_pins():
    in_(pins, 8)   # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    nop()[2]       # noqa: F821  # pyright: ignore[reportUndefinedVariable]


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=32)
def _ws2812():
    # 10 cycles a bit at 8 MHz (1.25 us): T1 = 3, T2 = 3, T3 = 4 as pico-examples'
    # ws2812.pio ("for broad compatibility"): a 0 is high for 3 cycles (375 ns), a 1
    # for 6 (750 ns), inside the WS2812B's windows (0: 220-380 ns, 1: 580-1000 ns)
    # rather than 2 cycles (250 ns) at the 0's edge
    wrap_target()                                   # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    label("bit")                                    # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    out(x, 1).side(0)[3]                            # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    jmp(not_x, "zero").side(1)[2]                   # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    jmp("bit").side(1)[2]                           # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    label("zero")                                   # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    nop().side(0)[2]                                # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    wrap()                                          # noqa: F821  # pyright: ignore[reportUndefinedVariable]


@rp2.asm_pio(out_init=[rp2.PIO.OUT_LOW] * 4, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=32)
def _ws2812_lanes():
    # Four strips at once on four consecutive pins (LaneSender), 10 cycles a bit at 8 MHz as
    # _ws2812: the lanes sent go high for 3 cycles (375 ns), stay high 3 more for a 1 (750 ns),
    # and are low for the last 4. A frame is two words then its bits: the lanes it sends (a
    # 4-bit mask: a lane not sent sees no pulse and its panel keeps what it shows), its bit
    # times less one, then a word per 8 bit times, a nibble each (bit 0 lane 0). The wait for
    # data (autopull) is while the pins are low, where a late word only lengthens the gap.
    out(y, 32)                                      # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    out(x, 32)                                      # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    label("bit")                                    # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    out(isr, 4)                                     # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    mov(pins, y)[2]                                 # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    mov(pins, isr)[2]                               # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    mov(pins, null)[1]                              # noqa: F821  # pyright: ignore[reportUndefinedVariable]
    jmp(x_dec, "bit")                               # noqa: F821  # pyright: ignore[reportUndefinedVariable]


def marker():
    """mark(code), a marker of where the loop is (app.py's M_* codes): one store to the
    watchdog's SCRATCH0, a few microseconds with the call. Always made, so the loop runs alike
    traced or not; the emulated Pico records every store with its instant (pico.mjs,
    LAYERLIGHT_MARKS), and on a board a debugger can watch the address. Nothing reads it."""
    at = chip()["scratch0"]

    def mark(code):
        mem32[at] = code
    return mark


def _aligned(size):
    """A bytearray that holds `size` bytes aligned on `size` (a DMA ring must be),
    and the memoryview of those bytes."""
    buf = bytearray(2 * size)
    at = (-uctypes.addressof(buf)) & (size - 1)
    return buf, memoryview(buf)[at:at + size]


def chip():
    """The register table of the chip this runs on (rp2_chip), chosen once."""
    if not _CHIP:
        _CHIP.append(rp2_chip.this_chip())
    return _CHIP[0]


def largest_pass():
    """Readings in one pass of the sampler's channel before its control channel re-arms it, at
    most: as many as the chip's count field holds, and a small int (under 2**30) so that
    reading TRANS_COUNT allocates nothing."""
    return min((1 << chip()["count_bits"]) - 1, (1 << 30) - 1)


def _enable_bit(dma):
    """CTRL's EN bit, from MicroPython's own layout of the chip's CTRL."""
    return dma.pack_ctrl(enable=1) ^ dma.pack_ctrl(enable=0)


def _abort(*channels):
    """Stop channels (rp2.DMA, ctrl value) for good, as both datasheets ask: EN cleared
    first, so that nothing (a chain) starts them again while they abort (erratum
    RP2350-E5, in the RP2350 datasheet's errata; harmless on the RP2040), then
    CHAN_ABORT, polled until it reads 0 (RP2040 datasheet 2.5.5.3: a channel must not
    be started again before its bit is low), then each channel's BUSY until it is low:
    on the RP2040 CHAN_ABORT's bit can clear while a transfer is still in flight
    (erratum RP2040-E13), and pico-sdk's dma_channel_abort polls BUSY for that reason
    (DMA.active() reads it where each chip has it)."""
    bits = 0
    for dma, ctrl in channels:
        dma.registers[_AL1_CTRL] = ctrl & ~_enable_bit(dma)  # pyright: ignore[reportAttributeAccessIssue]
        bits |= 1 << dma.channel  # pyright: ignore[reportAttributeAccessIssue]
    abort = chip()["chan_abort"]
    mem32[abort] = bits
    while mem32[abort] & bits:
        pass
    for dma, _ctrl in channels:
        while dma.active():
            pass


def _clear_dreq(dma):
    """Clear a channel's DREQ counter (CHn_DBG_CTDREQ: RP2040 datasheet 2.5.5.4, RP2350
    12.6.10): after the CPU drained a FIFO the channel serves, the channel's count of
    what the FIFO holds is stale; cleared, the channel starts its handshake again."""
    c = chip()
    mem32[c["dbg_ctdreq"] + dma.channel * c["dbg_stride"]] = 0  # pyright: ignore[reportAttributeAccessIssue]


class ButtonSampler:
    """The buttons read every millisecond by PIO1's state machine 0, filed by DMA.

    Reading k (from 0, when start() ran) is the buttons at millisecond k: bit i
    set while button i is down, through a table made from the pin map (a
    pressed button pulls its pin low).

    The readings never stop: the data channel files `count` readings, then
    chains to a control channel that writes its CTRL again, which re-arms it
    (its TRANS_COUNT reloads) with its write address going on round the ring;
    the FIFO holds the readings of those few cycles. taken() counts the passes."""

    SAMPLE_MS = 1
    KEPT = RING - MARGIN

    def __init__(self, pins, count=None):
        base = min(pins)
        if max(pins) - base >= PINS_SPANNED:
            raise ValueError("buttons on GPIO %d..%d: PIO sampling needs them within %d pins"
                             % (base, max(pins), PINS_SPANNED))
        c = chip()
        top = largest_pass()
        count = count or top
        if not RING <= count <= top:
            raise ValueError("a pass of %d readings: between %d and %d" % (count, RING, top))
        self._count = count
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
        self._again = rp2.DMA()   # the control channel that re-arms it
        self._regs = self._dma.registers  # pyright: ignore[reportAttributeAccessIssue] (1.22+; not in the stubs)
        self._ctrl = self._dma.pack_ctrl(size=0, inc_read=False, inc_write=True, ring_size=RING_BITS,
                                         ring_sel=True, treq_sel=c["dreq_pio1_rx0"],
                                         chain_to=self._again.channel)  # pyright: ignore[reportAttributeAccessIssue]
        # the word the control channel writes into the data channel's CTRL_TRIG
        self._rearm = array("I", (self._ctrl,))
        self._again_ctrl = self._again.pack_ctrl(size=2, inc_read=False, inc_write=False)
        self._ctrl_trig = _DMA_BASE + self._dma.channel * _CHANNEL_SPAN + _CTRL_TRIG * 4  # pyright: ignore[reportAttributeAccessIssue]
        self._sm = rp2.StateMachine(4, _sample_pins, freq=SAMPLE_FREQ, in_base=Pin(base))
        self._passes = 0           # readings of the passes before this one
        self._left = count         # TRANS_COUNT at the last look
        self._k = -1               # taken() at the last look...
        self._at = 0               # ...and ticks_ms() then

    def prepare(self):
        """Stop reading, empty the FIFO and arm the channels again from the ring's
        start, so that start() takes microseconds. (The channels and the state
        machine are made once: a closed rp2.DMA's channel is not reliably idle.)"""
        sm = self._sm
        sm.active(0)
        _abort((self._again, self._again_ctrl), (self._dma, self._ctrl))
        while sm.rx_fifo():
            sm.get()  # readings of an earlier run
        _clear_dreq(self._dma)
        self._again.config(read=self._rearm, write=self._ctrl_trig, count=1, ctrl=self._again_ctrl)
        c = chip()
        self._dma.config(read=c["pio1_rxf0"], write=self._ring, count=self._count | c["count_mode"],
                         ctrl=self._ctrl, trigger=True)
        self._passes = 0
        self._left = self._count
        self._k = -1
        self._at = ticks_ms()
        sm.restart()

    def start(self):
        """Reading 0 now (within a quarter of a millisecond: the state machine's clock)."""
        self._at = ticks_ms()
        self._sm.active(1)

    def close(self):
        """Stop reading and let the channels go (before a soft reset frees the ring)."""
        self._sm.active(0)
        _abort((self._again, self._again_ctrl), (self._dma, self._ctrl))
        self._dma.close()
        self._again.close()

    def taken(self):
        """The latest reading's number (-1: none yet), monotonic across the passes.
        No allocation (until 2**30 readings, 12.4 days: then a long int)."""
        left = self._regs[_TRANS_COUNT]
        count = self._count
        if left > self._left:      # re-armed since the last look: a new pass
            self._passes += count
        self._left = left
        k = self._passes + count - 1 - left
        # the loop held for more than half a pass (a pass of a few thousand in a test):
        # the clock says how many passes went by
        now = ticks_ms()
        ahead = self._k + ticks_diff(now, self._at) - k
        if ahead > count // 2:
            n = (ahead + count // 2) // count
            self._passes += n * count
            k += n * count
        self._k = k
        self._at = now
        return k

    def sample(self, k):
        return self._table[self._ring[k & (RING - 1)]]

    def same_until(self, k, end, level):
        """The first reading from k to end - 1 whose buttons are not `level` (end: none):
        a few bytecodes a reading, where taking one in costs the loop a dozen calls."""
        ring = self._ring
        table = self._table
        mask = RING - 1
        while k < end and table[ring[k & mask]] == level:
            k += 1
        return k


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
        self._nbytes = nbytes
        self._wire_us = nbytes * 10 + 500
        self._sent_at = 0
        self._whole_at = 0  # when every LED was last sent
        self.whole = False  # the next frame goes out whole, changed or not (a host reads it off the pin)
        self._sent = False  # no frame sent yet: nothing to wait for
        self._sm = rp2.StateMachine(0, _ws2812, freq=8000000, sideset_base=Pin(pin))
        self._sm.active(1)
        self._dma = rp2.DMA()
        self._regs = self._dma.registers  # pyright: ignore[reportAttributeAccessIssue] (1.22+; not in the stubs)
        # words byte-swapped: the state machine shifts out from bit 31, the bytes' order
        self._ctrl = self._dma.pack_ctrl(size=2, inc_read=True, inc_write=False, bswap=True,
                                         treq_sel=chip()["dreq_pio0_tx0"])
        # a channel a skipped clean-up left running is stopped before it is set up
        _abort((self._dma, self._ctrl))
        _clear_dreq(self._dma)
        self._dma.config(read=self._wire, write=chip()["pio0_txf0"], count=nbytes // 4, ctrl=self._ctrl)

    def close(self):
        self._sm.active(0)
        _abort((self._dma, self._ctrl))
        self._dma.close()

    def busy(self):
        """The last frame is still on its way to the LEDs. ticks_diff of ticks_us wraps every
        2**30 us (17.9 minutes: a frame after half of that without one, the self-test waiting
        on a person, read as sent in the future): a difference that is negative is a frame long
        gone, and the wait in send() is bounded by the wire's time besides."""
        if not self._sent:
            return False
        d = self._ticks_diff(self._ticks_us(), self._sent_at)
        return 0 <= d < self._wire_us

    def send(self, buf):
        """Start sending buf (a frame in wire order); returns at once. No allocation.

        Only the LEDs up to the last one that changes are sent: a WS2812 keeps the first colour
        it is sent after a reset and passes the rest on, so the LEDs past the end of a shorter
        frame keep what they show (a 32x32 frame is 31 ms on the wire; a press's light near the
        strip's start, a few). A frame that changes nothing is not sent, and the wire is free
        for the next press's. Every LED is sent again at least every second (a glitch on the
        data line, or LEDs lit before a restart, never last), and the first frame is whole.
        Without the native loops (native_draw.py) every frame is sent whole, as before."""
        n = self._nbytes
        native = display.native
        if native is not None and self._sent and not self.whole and \
                0 <= self._ticks_diff(self._ticks_us(), self._whole_at) < WHOLE_US:
            n = native.last_difference(buf, self._wire, n)
            if n == 0:
                return
            n = (n + LED_WORDS - 1) // LED_WORDS * LED_WORDS  # whole LEDs in whole 32-bit words
        self._wait()
        self._wire[:] = buf
        self._start(n // 4, n, n == self._nbytes)

    def _wait(self):
        """Until the last frame is off the wire (and latched)."""
        waited = self._ticks_us()
        while (self.busy() or self._dma.active()) and \
                0 <= self._ticks_diff(self._ticks_us(), waited) <= self._wire_us:
            pass  # only when frames come closer than the wire's time (a host asking)

    def _start(self, words, nbytes, whole):
        """The DMA started on the wire's first `words` words, `nbytes` a strip's bytes on the wire."""
        self._regs[_TRANS_COUNT] = words  # the count the next trigger starts with (both chips:
        # RP2040 datasheet 2.5.7 CHn_TRANS_COUNT, "RELOAD value"; RP2350 12.6.10: bits 27:0,
        # with MODE, bits 31:28, left 0: NORMAL)
        now = self._ticks_us()
        self._sent_at = now
        self._wire_us = nbytes * 10 + 500
        if whole:
            self._whole_at = now
        self.whole = False
        self._sent = True
        self._regs[_READ_ADDR_TRIG] = self._wire_at


class LaneSender(StripSender):
    """Four WS2812 strips (a 32x32's panels) on four consecutive pins from `pin`, sent at once by
    PIO0's state machine 0 from one DMA stream: a 32x32 frame in the time of one 16x16 panel
    (7.7 ms, not 31). The frame buffer is as for one chain: lane n's LEDs are its n-th quarter.
    Each frame goes out as far as the last LED that changed on any lane, and only on the lanes
    that changed (the others see no pulse); every lane whole at least every second."""

    def __init__(self, pin, nbytes, ticks_us, ticks_diff):
        if nbytes % 12:
            raise ValueError("a frame of %d bytes is not four lanes of whole LEDs" % nbytes)
        lane = nbytes // 4
        self._lane = lane
        self._frame = bytearray(nbytes)  # the frame as last sent (what each lane's LEDs show)
        self._was = [memoryview(self._frame)[k * lane:(k + 1) * lane] for k in range(4)]
        # what the DMA reads: the lanes sent, the bit times less one, then a word per byte of a lane
        self._words = array("I", bytes(4 * (2 + lane)))
        self._args = array("i", bytes(4 * 3))  # native_draw.interleave's numbers
        self._src = None   # the frame buffer last sent from, and its four quarters (send)
        self._now = None
        self._ticks_us = ticks_us
        self._ticks_diff = ticks_diff
        self._nbytes = lane  # on the wire: a lane's bytes (the four go at once)
        self._wire_us = lane * 10 + 500
        self._sent_at = 0
        self._whole_at = 0
        self.whole = False
        self._sent = False
        self._sm = rp2.StateMachine(0, _ws2812_lanes, freq=8000000, out_base=Pin(pin))
        self._sm.active(1)
        self._dma = rp2.DMA()
        self._regs = self._dma.registers  # pyright: ignore[reportAttributeAccessIssue]
        self._wire = self._words  # (StripSender's name for what the DMA reads)
        self._wire_at = uctypes.addressof(self._words)
        # whole words as they are: the program takes a word's top nibble first
        self._ctrl = self._dma.pack_ctrl(size=2, inc_read=True, inc_write=False,
                                         treq_sel=chip()["dreq_pio0_tx0"])
        _abort((self._dma, self._ctrl))
        _clear_dreq(self._dma)
        self._dma.config(read=self._words, write=chip()["pio0_txf0"], count=2 + lane, ctrl=self._ctrl)

    def send(self, buf):
        lane = self._lane
        native = display.native
        n = lane
        mask = 15
        if native is not None and self._sent and not self.whole and \
                0 <= self._ticks_diff(self._ticks_us(), self._whole_at) < WHOLE_US:
            if buf is not self._src:  # a quarter of the frame buffer each, made once (not per frame)
                self._src = buf
                self._now = [memoryview(buf)[k * lane:(k + 1) * lane] for k in range(4)]
            n = 0
            mask = 0
            for k in range(4):
                d = native.last_difference(self._now[k], self._was[k], lane)
                if d:
                    mask |= 1 << k
                    if d > n:
                        n = d
            if n == 0:
                return
            n = (n + 2) // 3 * 3  # whole LEDs
        self._wait()
        self._frame[:] = buf
        words = self._words
        words[0] = mask
        words[1] = 8 * n - 1
        p = self._args
        p[0] = lane
        p[1] = n
        p[2] = mask
        interleave(words, self._frame, p)
        self._start(2 + n, n, n == lane and mask == 15)


def _spread_table():
    """SPREAD[b]: byte b's bits four apart, bit i at bit 4 i: a lane's byte in the nibbles of a
    word, its top bit in the top nibble (sent first)."""
    t = array("I", bytes(4 * 256))
    for b in range(256):
        v = 0
        for i in range(8):
            if b & (1 << i):
                v |= 1 << (4 * i)
        t[b] = v
    return t


SPREAD = _spread_table()


def interleave(words, frame, p):
    """words[2 + i] = byte i of each of the four lanes of `frame` (lane k: its k-th quarter,
    p[0] bytes each), bit by bit: lane k's bits in bit k of each nibble, for i below p[1], the
    lanes in mask p[2] only (the others 0: no pulse). Native where the port has it."""
    native = display.native
    if native is not None:
        native.interleave(words, frame, SPREAD, p)
        return
    lane = p[0]
    mask = p[2]
    for i in range(p[1]):
        w = 0
        for k in range(4):
            if mask & (1 << k):
                w |= SPREAD[frame[k * lane + i]] << k
        words[2 + i] = w
