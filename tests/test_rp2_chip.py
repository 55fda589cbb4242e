"""The rp2 backends' per-chip register table (firmware/layerlight/backends/rp2_chip.py)
against the two datasheets' register layouts, written out here from them: a value
right for one chip only (the Pico 2 hung on its first frame waiting on bit 24 of a
DMA channel's CTRL, BSWAP there) must come from the table or from MicroPython's API."""

import os
import re

import pytest

from layerlight.backends import rp2_chip

HERE = os.path.dirname(os.path.abspath(__file__))
RP2_PIO = os.path.join(HERE, "..", "firmware", "layerlight", "backends", "rp2_pio.py")

# field: (msb, lsb) of a DMA channel's CTRL_TRIG
RP2040_CTRL = {  # RP2040 datasheet 2.5.7, CH0_CTRL_TRIG
    "AHB_ERROR": (31, 31), "READ_ERROR": (30, 30), "WRITE_ERROR": (29, 29), "BUSY": (24, 24),
    "SNIFF_EN": (23, 23), "BSWAP": (22, 22), "IRQ_QUIET": (21, 21), "TREQ_SEL": (20, 15),
    "CHAIN_TO": (14, 11), "RING_SEL": (10, 10), "RING_SIZE": (9, 6), "INCR_WRITE": (5, 5),
    "INCR_READ": (4, 4), "DATA_SIZE": (3, 2), "HIGH_PRIORITY": (1, 1), "EN": (0, 0),
}
RP2350_CTRL = {  # RP2350 datasheet 12.6.10, CH0_CTRL_TRIG
    "AHB_ERROR": (31, 31), "READ_ERROR": (30, 30), "WRITE_ERROR": (29, 29), "BUSY": (26, 26),
    "SNIFF_EN": (25, 25), "BSWAP": (24, 24), "IRQ_QUIET": (23, 23), "TREQ_SEL": (22, 17),
    "CHAIN_TO": (16, 13), "RING_SEL": (12, 12), "RING_SIZE": (11, 8), "INCR_WRITE_REV": (7, 7),
    "INCR_WRITE": (6, 6), "INCR_READ_REV": (5, 5), "INCR_READ": (4, 4), "DATA_SIZE": (3, 2),
    "HIGH_PRIORITY": (1, 1), "EN": (0, 0),
}
LAYOUTS = {
    "RP2040": {
        "dma_base": 0x50000000,                   # 2.2 address map
        "offsets": {"CH0_TRANS_COUNT": 0x08, "CH0_CTRL_TRIG": 0x0c, "CH0_AL1_CTRL": 0x10,
                    "CH0_AL3_READ_ADDR_TRIG": 0x3c, "CHAN_ABORT": 0x444, "CH0_DBG_CTDREQ": 0x800,
                    "CH1_DBG_CTDREQ": 0x840},     # 2.5.7
        "trans_count": {"COUNT": (31, 0)},        # 2.5.7, CH0_TRANS_COUNT
        "ctrl": RP2040_CTRL,
        "pio": {"PIO0": 0x50200000, "PIO1": 0x50300000, "TXF0": 0x10, "RXF0": 0x20},  # 2.2, 3.7
        "dreq": {"PIO0_TX0": 0, "PIO1_RX0": 12},  # 2.5.3.1
        "watchdog": {"base": 0x40058000, "SCRATCH0": 0x0c},  # 2.2, 4.7.6
    },
    "RP2350": {
        "dma_base": 0x50000000,                   # 2.2 address map
        "offsets": {"CH0_TRANS_COUNT": 0x08, "CH0_CTRL_TRIG": 0x0c, "CH0_AL1_CTRL": 0x10,
                    "CH0_AL3_READ_ADDR_TRIG": 0x3c, "CHAN_ABORT": 0x464, "CH0_DBG_CTDREQ": 0x800,
                    "CH1_DBG_CTDREQ": 0x840},     # 12.6.10
        # 12.6.10, CH0_TRANS_COUNT: MODE 0x0 NORMAL, 0x1 TRIGGER_SELF, 0xf ENDLESS
        "trans_count": {"MODE": (31, 28), "COUNT": (27, 0)},
        "ctrl": RP2350_CTRL,
        "pio": {"PIO0": 0x50200000, "PIO1": 0x50300000, "TXF0": 0x10, "RXF0": 0x20},  # 2.2, 11.7
        "dreq": {"PIO0_TX0": 0, "PIO1_RX0": 12},  # 12.6.4.1
        "watchdog": {"base": 0x400d8000, "SCRATCH0": 0x0c},  # 2.2, 12.9.7
    },
}
TABLES = {"RP2040": rp2_chip.RP2040, "RP2350": rp2_chip.RP2350}


def field(value, msb_lsb):
    msb, lsb = msb_lsb
    return (value >> lsb) & ((1 << (msb - lsb + 1)) - 1)


@pytest.mark.parametrize("chip", sorted(LAYOUTS))
def test_the_tables_registers_are_where_the_datasheet_puts_them(chip):
    layout, table = LAYOUTS[chip], TABLES[chip]
    base, off = layout["dma_base"], layout["offsets"]
    assert table["name"] == chip
    assert table["chan_abort"] == base + off["CHAN_ABORT"]
    assert table["dbg_ctdreq"] == base + off["CH0_DBG_CTDREQ"]
    assert table["dbg_ctdreq"] + table["dbg_stride"] == base + off["CH1_DBG_CTDREQ"]
    assert table["pio0_txf0"] == layout["pio"]["PIO0"] + layout["pio"]["TXF0"]
    assert table["pio1_rxf0"] == layout["pio"]["PIO1"] + layout["pio"]["RXF0"]
    assert table["dreq_pio0_tx0"] == layout["dreq"]["PIO0_TX0"]
    assert table["dreq_pio1_rx0"] == layout["dreq"]["PIO1_RX0"]
    assert table["scratch0"] == layout["watchdog"]["base"] + layout["watchdog"]["SCRATCH0"]


@pytest.mark.parametrize("chip", sorted(LAYOUTS))
def test_the_samplers_count_fits_the_count_field_and_leaves_the_mode_normal(chip):
    """The count rp2_pio writes (COUNT | count_mode) counts down and stops on both chips:
    on the RP2350 a 30-bit count would set MODE bits (0xF: ENDLESS, which never counts)."""
    layout, table = LAYOUTS[chip], TABLES[chip]
    width = layout["trans_count"]["COUNT"][0] - layout["trans_count"]["COUNT"][1] + 1
    assert table["count_bits"] == width
    count = min((1 << table["count_bits"]) - 1, (1 << 30) - 1)  # rp2_pio.largest_pass()
    written = count | table["count_mode"]
    assert field(written, layout["trans_count"]["COUNT"]) == count
    if "MODE" in layout["trans_count"]:
        assert field(written, layout["trans_count"]["MODE"]) == 0x0  # NORMAL
    # the smallest pass the settings allow (config.py, sample_pass) too
    assert field(4096 | table["count_mode"], layout["trans_count"]["COUNT"]) == 4096


def test_the_chips_ctrl_layouts_differ_where_a_bare_constant_would_break():
    """Why CTRL comes from MicroPython's pack_ctrl and busy from DMA.active(): the RP2040's
    BUSY bit is the RP2350's BSWAP bit, which the strip's channel sets."""
    assert RP2040_CTRL["BUSY"] == RP2350_CTRL["BSWAP"]
    assert RP2040_CTRL["BUSY"] != RP2350_CTRL["BUSY"]
    assert rp2_chip.RP2040["chan_abort"] != rp2_chip.RP2350["chan_abort"]


@pytest.mark.parametrize("machine, chip", [
    ("Raspberry Pi Pico with RP2040", "RP2040"),
    ("Raspberry Pi Pico W with RP2040", "RP2040"),
    ("Raspberry Pi Pico2 with RP2350", "RP2350"),
    ("Layerlight Pico 2 with RP2350", "RP2350"),
])
def test_the_table_is_chosen_from_the_machine_string(machine, chip):
    assert rp2_chip.for_machine(machine)["name"] == chip


def test_another_chip_gets_a_clear_error():
    with pytest.raises(ValueError, match="no register table for 'ESP32S3 module'"):
        rp2_chip.for_machine("ESP32S3 module")


def test_rp2_pio_writes_no_chip_specific_number_of_its_own():
    """Addresses and bit positions a chip could differ in come from the table (or the API)."""
    with open(RP2_PIO) as f:
        code = "\n".join(line.split("#")[0] for line in f)
    addresses = set(re.findall(r"0x5[0-9a-fA-F]{7}", code))
    assert addresses <= {"0x50000000"}, "register addresses written in rp2_pio.py: %s" % addresses
    assert not re.search(r"1\s*<<\s*2[0-9]\b", code), "a CTRL bit written as a number in rp2_pio.py"
    assert 'treq_sel=c["dreq_pio1_rx0"]' in code and 'chip()["chan_abort"]' in code
