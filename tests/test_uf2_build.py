"""`make uf2` and the host side of the Layerlight UF2 (layerlight_tools.uf2): nothing rebuilt when
nothing changed, the UF2 assembled within the board's flash layout, and `layerlight flash --uf2`
onto a Pico's BOOTSEL drive (a folder with its INFO_UF2.TXT here), bad input in one line."""

import os
import subprocess

import pytest

from layerlight_tools import uf2
from layerlight_tools.errors import UserError

import uf2_fixture

REPO = uf2_fixture.REPO
LAYERLIGHT = os.path.join(REPO, ".venv", "bin", "layerlight")
LAYOUT = uf2.board_layout(os.path.join(REPO, "uf2", "boards", "LAYERLIGHT_PICO"))


@pytest.mark.chip  # the Layerlight UF2 built (make uf2): make test, not make quick
def test_make_uf2_again_with_nothing_changed_does_nothing():
    path = uf2_fixture.built_uf2()
    port_uf2 = os.path.join(REPO, "build", "mpsrc", "ports", "rp2", "build-LAYERLIGHT_PICO", "firmware.uf2")
    before = [os.stat(p).st_mtime_ns for p in (path, port_uf2)]
    # as a person runs it (under `make test` a sub-make would print its directory)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    r = subprocess.run(["make", "uf2"], cwd=REPO, capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() in ("", "make: Nothing to be done for 'uf2'."), r.stdout
    assert [os.stat(p).st_mtime_ns for p in (path, port_uf2)] == before


def firmware_blocks(kb, family=0xE48BFF56):
    return uf2.pack([(uf2.XIP_BASE + at, bytes([at // 256 % 256]) * 256, family) for at in range(0, kb * 1024, 256)])


def test_the_decks_go_into_the_romfs_partition_and_nothing_past_it():
    image = uf2.romfs_image(os.path.join(REPO, "firmware", "decks"))
    assert image[:3] == b"\xd2\xcd\x31"  # MicroPython's ROMFS header
    out = uf2.assemble(firmware_blocks(400), image, LAYOUT)
    blocks = uf2.blocks(out)
    rom = [(a, p) for a, p, _f in blocks if a >= uf2.XIP_BASE + LAYOUT["romfs"]]
    assert rom[0][0] == uf2.XIP_BASE + LAYOUT["romfs"]
    assert b"".join(p for _a, p in rom)[:len(image)] == image
    assert uf2.program_span(out) == (0, LAYOUT["romfs"] + len(rom) * 256)
    assert uf2.program_span(out)[1] <= LAYOUT["fs"]
    assert all(f == 0xE48BFF56 for _a, _p, f in blocks)
    # each block numbered in order, the count in every block (as the boot ROM wants)
    for no, at in enumerate(range(0, len(out), 512)):
        assert out[at + 20:at + 28] == no.to_bytes(4, "little") + len(blocks).to_bytes(4, "little")


def test_a_firmware_too_big_for_its_place_is_refused_in_one_line():
    with pytest.raises(UserError) as e:
        uf2.assemble(firmware_blocks(LAYOUT["romfs"] // 1024 + 4), b"\xd2\xcd\x31\x00", LAYOUT)
    assert "more than fits below the ROMFS partition" in str(e.value) and "\n" not in str(e.value)


def test_the_version_module_is_written_only_when_it_changes(tmp_path):
    out = str(tmp_path / "layerlight_build.py")
    text = uf2.version_module(uf2.project_version())
    assert "VERSION = '0.1.0" in text
    assert uf2.write_if_changed(out, text) is True
    assert uf2.write_if_changed(out, text) is False
    assert uf2.write_if_changed(out, text + "# x\n") is True


def test_flash_uf2_copies_onto_the_bootsel_drive(tmp_path):
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    said = []
    source = str(tmp_path / "layerlight-pico.uf2")
    data = firmware_blocks(8)
    with open(source, "wb") as f:
        f.write(data)
    assert uf2.copy_to_bootsel(source, [str(drive)], said.append) == str(drive)
    assert (drive / "layerlight-pico.uf2").read_bytes() == data
    assert len(said) == 1 and "restarts" in said[0]


def test_flash_uf2_without_a_bootsel_drive_says_how_to_get_there(tmp_path):
    source = str(tmp_path / "x.uf2")
    with open(source, "wb") as f:
        f.write(firmware_blocks(4))
    with pytest.raises(UserError) as e:
        uf2.copy_to_bootsel(source, [])
    assert "hold its BOOTSEL button while plugging it in" in str(e.value) and "RPI-RP2" in str(e.value)
    with pytest.raises(UserError, match="2 Picos in BOOTSEL mode"):
        uf2.copy_to_bootsel(source, ["/a", "/b"])
    bad = tmp_path / "bad.uf2"
    bad.write_bytes(b"not a uf2")
    with pytest.raises(UserError, match="not a UF2 file"):
        uf2.copy_to_bootsel(str(bad), [str(tmp_path)])


def test_flash_uf2_bad_file_is_one_line_on_the_command_line(tmp_path):
    r = subprocess.run([LAYERLIGHT, "flash", "--uf2", str(tmp_path / "missing.uf2")], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0 and "no UF2 at" in r.stderr and "make uf2" in r.stderr


@pytest.mark.parametrize("board", ["LAYERLIGHT_PICO", "LAYERLIGHT_PICO2"])
def test_the_save_journal_sits_between_the_decks_and_littlefs_and_no_uf2_block_reaches_it(board):
    """The top of each board's ROMFS partition is the save journal (firmware/layerlight/journal.py):
    whole 4 KB sectors right below LittleFS, which stays where stock MicroPython keeps it; the decks'
    image has the rest, and a ROMFS image too big for that room is refused in one line, never
    written over the journal."""
    layout = uf2.board_layout(os.path.join(REPO, "uf2", "boards", board))
    fs = {"LAYERLIGHT_PICO": 0xA0000, "LAYERLIGHT_PICO2": 0x100000}[board]
    assert layout["fs"] == fs and layout["journal"] + layout["journal_bytes"] == fs
    assert layout["journal_bytes"] == uf2.JOURNAL_BYTES and layout["journal"] % 4096 == 0
    assert layout["romfs"] + layout["romfs_bytes"] == layout["journal"] and layout["romfs_bytes"] >= 16 * 1024
    image = uf2.romfs_image(os.path.join(REPO, "firmware", "decks"))
    out = uf2.assemble(firmware_blocks(400), image, layout)
    assert uf2.program_span(out)[1] <= layout["journal"]
    with pytest.raises(UserError) as e:
        uf2.assemble(firmware_blocks(400), image + bytes(layout["romfs_bytes"]), layout)
    assert "below the save journal" in str(e.value) and "\n" not in str(e.value)
    assert "JOURNAL_BYTES = %d" % uf2.JOURNAL_BYTES in uf2.version_module("1.0")
