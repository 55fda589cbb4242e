# Where the RP2040 and the RP2350 differ, for the registers rp2_pio.py touches
# that MicroPython's rp2 API does not cover. Everything else comes from the API:
# a channel's CTRL value from DMA.pack_ctrl (its bits moved on the RP2350: BUSY is
# bit 26 there, 24 on the RP2040, and bit 24 is BSWAP), whether a channel is busy
# from DMA.active().
#
# One table per chip, chosen once from sys.implementation._machine
# ("... with RP2040" / "... with RP2350"). Each value gives the datasheet section
# it comes from; tests/test_rp2_chip.py checks the tables against both
# datasheets' register layouts.

RP2040 = {
    "name": "RP2040",
    # RP2040 datasheet 2.5.7 (DMA, list of registers), base 0x50000000 (2.2, address map)
    "chan_abort": 0x50000444,       # CHAN_ABORT: a bit a channel, reads 1 until it is safe
    "dbg_ctdreq": 0x50000800,       # CH0_DBG_CTDREQ: write to clear the channel's DREQ counter
    "dbg_stride": 0x40,             # CHn_DBG_CTDREQ = CH0_DBG_CTDREQ + n * 0x40
    "count_bits": 32,               # CHn_TRANS_COUNT: 31:0, all of it the count
    "count_mode": 0,                # no MODE field
    # RP2040 datasheet 3.7 (PIO, list of registers), PIO0 at 0x50200000, PIO1 at 0x50300000
    "pio0_txf0": 0x50200010,        # TXF0
    "pio1_rxf0": 0x50300020,        # RXF0
    # RP2040 datasheet 2.5.3.1 (system DREQ table)
    "dreq_pio0_tx0": 0,
    "dreq_pio1_rx0": 12,
    # RP2040 datasheet 4.7.6 (watchdog, list of registers), base 0x40058000: SCRATCH0, a
    # register kept through a soft reset that neither the boot ROM nor MicroPython uses (the
    # ROM reads SCRATCH4-7 after a watchdog reboot): the loop's markers (rp2_pio.mark)
    "scratch0": 0x40058000 + 0x0C,
}

RP2350 = {
    "name": "RP2350",
    # RP2350 datasheet 12.6.10 (DMA, list of registers), base 0x50000000 (2.2, address map)
    "chan_abort": 0x50000464,       # CHAN_ABORT moved: four IRQ banks come before it
    "dbg_ctdreq": 0x50000800,
    "dbg_stride": 0x40,
    # CHn_TRANS_COUNT: 31:28 MODE, 27:0 COUNT. MODE 0x0 NORMAL counts down and stops
    # (0x1 TRIGGER_SELF re-arms, 0xF ENDLESS does not count at all: the readings
    # would lose their clock). The sampler's chained re-arm runs in NORMAL mode.
    "count_bits": 28,
    "count_mode": 0x0 << 28,
    # RP2350 datasheet 11.7 (PIO, list of registers), PIO0 at 0x50200000, PIO1 at 0x50300000
    "pio0_txf0": 0x50200010,
    "pio1_rxf0": 0x50300020,
    # RP2350 datasheet 12.6.4.1 (system DREQ table)
    "dreq_pio0_tx0": 0,
    "dreq_pio1_rx0": 12,
    # RP2350 datasheet 12.9.7 (watchdog, list of registers), base 0x400d8000: SCRATCH0
    "scratch0": 0x400D8000 + 0x0C,
}


def for_machine(machine):
    """The table for a sys.implementation._machine string; ValueError for another chip."""
    if "RP2350" in machine:
        return RP2350
    if "RP2040" in machine:
        return RP2040
    raise ValueError("no register table for %r (an RP2040 or RP2350 board is needed)" % machine)


def this_chip():
    import sys
    return for_machine(getattr(sys.implementation, "_machine", ""))
