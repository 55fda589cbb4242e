"""The Layerlight UF2: one file to put on a Pico, the firmware frozen in and the decks beside it.

`make uf2` builds MicroPython's rp2 port for Layerlight's own board
(uf2/boards/LAYERLIGHT_PICO: MicroPython's RPI_PICO plus a ROMFS partition),
with the firmware frozen in through uf2/manifest.py, then calls this module:

    python -m layerlight_tools.uf2 version OUT.py
        the frozen module layerlight_build (the project's version), rewritten only
        when it changes, so that make rebuilds nothing when nothing changed;
    python -m layerlight_tools.uf2 assemble --board-dir DIR --firmware FW.uf2 --decks DIR -o OUT.uf2
        the port's UF2 with a ROMFS image of the decks added at the board's ROMFS
        partition (mounted at /rom on the board and read in place from flash);
    python -m layerlight_tools.uf2 dist UF2 --version-module VERSION.py -o DIR
        (`make dist`) DIR/layerlight-pico-VERSION.uf2, VERSION being the one frozen
        into it, and beside it its SHA-256 (.sha256, as `sha256sum -c` reads it).

The filesystem (LittleFS, where the table's settings, saved games, bests, play
log and own decks live) starts where stock MicroPython's does; no block of the
UF2 reaches it, so putting a newer UF2 on never erases a table's files.

Also here: finding a Pico in BOOTSEL mode (its RPI-RP2 drive) and copying a UF2
onto it, for `layerlight flash --uf2`.
"""

import os
import re
import shutil
import struct
import subprocess
import sys

from layerlight_tools.errors import UserError

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_UF2 = os.path.join(REPO, "build", "layerlight-pico.uf2")
BOOTSEL_LABEL = "RPI-RP2"       # the drive a Pico shows in BOOTSEL mode (RP2350: RP2350)
BOOTSEL_LABELS = ("RPI-RP2", "RP2350")
XIP_BASE = 0x10000000
BLOCK = 512
PAYLOAD = 256                   # bytes of flash a block writes (as pico-sdk's UF2s)
MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
FLAG_FAMILY = 0x2000
ROMFS_HEADER = b"\xd2\xcd\x31"  # MicroPython's ROMFS image starts so
FLASH_BYTES = {"pico": 2 * 1024 * 1024, "pico2": 4 * 1024 * 1024}  # PICO_BOARD -> its flash
SECTOR = 4096                   # the flash's erase unit (W25Q16JV datasheet 8.2.17)
# The save journal at the top of the ROMFS partition (firmware/layerlight/journal.py): its
# size is frozen into the UF2 (layerlight_build.JOURNAL_BYTES), and each board's
# mpconfigboard.h says the same (LAYERLIGHT_JOURNAL_BYTES).
JOURNAL_BYTES = 32 * 1024


# ---------------------------------------------------------------- the version


def project_version():
    """The version in pyproject.toml, with the git commit it was built from when there is one."""
    import tomllib
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        version = tomllib.load(f)["project"]["version"]
    try:
        r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                           text=True, timeout=30)
        commit = r.stdout.strip() if r.returncode == 0 else ""
    except OSError:
        commit = ""
    return version + ("+g" + commit if commit else "")


def version_module(version):
    return ("# Written by `make uf2` (python -m layerlight_tools.uf2 version): frozen into the\n"
            "# Layerlight UF2, printed at boot and shown by `layerlight doctor`.\n"
            "VERSION = %r\n"
            "# the save journal: the top this many bytes of the ROMFS partition (journal.py)\n"
            "JOURNAL_BYTES = %d\n" % (version, JOURNAL_BYTES))


def write_if_changed(path, data):
    """Writes the file only when its content differs (make then sees it unchanged); True if written."""
    if isinstance(data, str):
        data = data.encode()
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".new", "wb") as f:
        f.write(data)
    os.replace(path + ".new", path)
    return True


# ---------------------------------------------------------------- the board's flash


def board_layout(board_dir):
    """{"flash", "romfs", "romfs_bytes", "journal", "journal_bytes", "fs"}: the board's flash
    size, where its ROMFS partition begins and the room the decks' image has there, where the
    save journal at the partition's top begins and its size, and where the filesystem begins
    (offsets in flash), from its mpconfigboard files."""
    def read(name):
        with open(os.path.join(board_dir, name)) as f:
            return f.read()
    cmake, header = read("mpconfigboard.cmake"), read("mpconfigboard.h")
    m = re.search(r'set\(PICO_BOARD "(\w+)"\)', cmake)
    if not m or m.group(1) not in FLASH_BYTES:
        raise UserError("%s: no PICO_BOARD this tool knows (%s)" % (board_dir, ", ".join(FLASH_BYTES)))
    flash = FLASH_BYTES[m.group(1)]

    def define(name):
        m = re.search(r"#define\s+%s\s+(\(.*\))" % name, header)
        if not m or not re.fullmatch(r"[()\w\s*+-]+", m.group(1)):
            raise UserError("%s/mpconfigboard.h does not define %s" % (board_dir, name))
        return int(eval(m.group(1), {"__builtins__": {}}, {"PICO_FLASH_SIZE_BYTES": flash}))
    partition = define("MICROPY_HW_ROMFS_BYTES")
    journal_bytes = define("LAYERLIGHT_JOURNAL_BYTES")
    if journal_bytes != JOURNAL_BYTES or partition < journal_bytes + SECTOR:
        raise UserError("%s/mpconfigboard.h: LAYERLIGHT_JOURNAL_BYTES must be %d (the firmware's journal) "
                        "and leave the decks room in MICROPY_HW_ROMFS_BYTES" % (board_dir, JOURNAL_BYTES))
    fs = flash - define("MICROPY_HW_FLASH_STORAGE_BYTES")
    return {"flash": flash, "romfs": fs - partition, "romfs_bytes": partition - journal_bytes,
            "journal": fs - journal_bytes, "journal_bytes": journal_bytes, "fs": fs}


# ---------------------------------------------------------------- UF2 blocks


def blocks(data, what="the UF2"):
    """[(flash address, payload bytes, family or None)] of a UF2 file's blocks."""
    if len(data) < BLOCK or len(data) % BLOCK:
        raise UserError("%s is not a UF2 file (%d bytes, not whole 512-byte blocks)" % (what, len(data)))
    out = []
    for at in range(0, len(data), BLOCK):
        m0, m1, flags, target, size, _no, _count, family = struct.unpack_from("<8I", data, at)
        end, = struct.unpack_from("<I", data, at + 508)
        if (m0, m1, end) != MAGIC or size > 476:
            raise UserError("%s is not a UF2 file (block %d is not a UF2 block)" % (what, at // BLOCK))
        out.append((target, bytes(data[at + 32:at + 32 + size]), family if flags & FLAG_FAMILY else None))
    return out


def pack(entries):
    """A UF2 file of (address, payload, family) blocks; each family's blocks numbered on their own."""
    counts = {}
    for _a, _p, fam in entries:
        counts[fam] = counts.get(fam, 0) + 1
    seen = {}
    out = bytearray()
    for addr, payload, fam in entries:
        no = seen.get(fam, 0)
        seen[fam] = no + 1
        head = struct.pack("<8I", MAGIC[0], MAGIC[1], FLAG_FAMILY if fam is not None else 0, addr,
                           len(payload), no, counts[fam], fam or 0)
        out += head + payload + bytes(476 - len(payload)) + struct.pack("<I", MAGIC[2])
    return bytes(out)


def romfs_image(decks_dir, extra=None):
    """A ROMFS image (MicroPython's read-only, memory-mapped filesystem) holding decks/*.deck,
    and `extra` ({name: bytes}) at its top."""
    from mpremote.romfs import VfsRomWriter
    names = sorted(n for n in os.listdir(decks_dir) if n.endswith(".deck"))
    if not names:
        raise UserError("no .deck files in %s" % decks_dir)
    rom = VfsRomWriter()
    rom.opendir("decks")
    for name in names:
        with open(os.path.join(decks_dir, name), "rb") as f:
            rom.mkfile(name, f.read())
    rom.closedir()
    for name, data in sorted((extra or {}).items()):
        rom.mkfile(name, data)
    return rom.finalise()


def assemble(firmware_uf2, romfs, layout):
    """The firmware's UF2 with the ROMFS image's blocks added at the board's ROMFS partition.
    Refuses a firmware that runs into the ROMFS or a ROMFS bigger than its partition: neither
    may reach the filesystem."""
    entries = blocks(firmware_uf2, "the port's firmware.uf2")
    families = [fam for _a, _p, fam in entries]
    family = max(set(families), key=families.count)  # RP2350 UF2s lead with one errata block of another family
    rom_start = XIP_BASE + layout["romfs"]
    # a ROMFS already there (a Layerlight UF2 given again: its partition starts with the ROMFS
    # header) is replaced; anything else there is firmware running into the partition
    in_rom = [e for e in entries if rom_start <= e[0] < XIP_BASE + layout["fs"]]
    if in_rom and in_rom[0][0] == rom_start and in_rom[0][1][:3] == ROMFS_HEADER:
        entries = [e for e in entries if e not in in_rom]
    top = max(a + len(p) for a, p, fam in entries if fam == family)
    if top > rom_start:
        raise UserError("the firmware is %d KB, %d KB more than fits below the ROMFS partition at 0x%x: "
                        "make MICROPY_HW_ROMFS_BYTES smaller or freeze less"
                        % ((top - XIP_BASE) // 1024, (top - rom_start + 1023) // 1024, layout["romfs"]))
    if len(romfs) > layout["romfs_bytes"]:
        raise UserError("the decks' ROMFS image is %d bytes, its partition %d (below the save journal): make "
                        "MICROPY_HW_ROMFS_BYTES bigger (uf2/boards/*/mpconfigboard.h)"
                        % (len(romfs), layout["romfs_bytes"]))
    padded = romfs + b"\xff" * (-len(romfs) % PAYLOAD)
    entries += [(rom_start + at, padded[at:at + PAYLOAD], family) for at in range(0, len(padded), PAYLOAD)]
    return pack(entries)


def is_layerlight(uf2):
    """Whether a UF2 file's bytes are a Layerlight UF2 (the module layerlight_build frozen in)."""
    try:
        payload = b"".join(p for _a, p, _f in blocks(uf2))
    except UserError:
        return False
    return b"layerlight_build.py" in payload


def program_span(uf2):
    """(lowest, highest) flash offset a UF2 writes (its end, exclusive), its errata blocks
    for another family (RP2350) left out."""
    b = blocks(uf2)
    families = [fam for _a, _p, fam in b]
    family = max(set(families), key=families.count)
    b = [e for e in b if e[2] == family]
    return min(a for a, _p, _f in b) - XIP_BASE, max(a + len(p) for a, p, _f in b) - XIP_BASE


# ---------------------------------------------------------------- BOOTSEL


def bootsel_drives():
    """Mounted drives of Picos in BOOTSEL mode (they hold INFO_UF2.TXT), on Linux, macOS and Windows."""
    roots = []
    if sys.platform.startswith("win"):
        import string
        roots = ["%s:\\" % c for c in string.ascii_uppercase]
    else:
        user = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
        for base in ("/media/" + user, "/run/media/" + user, "/media", "/mnt", "/Volumes"):
            try:
                roots += [os.path.join(base, n) for n in sorted(os.listdir(base))]
            except OSError:
                pass
    found = []
    for root in roots:
        info = os.path.join(root, "INFO_UF2.TXT")
        if os.path.isfile(info) and root not in found:
            found.append(root)
    return found


def copy_to_bootsel(uf2_path, drives=None, out=print):
    """Copies the UF2 onto the one Pico in BOOTSEL mode; returns the drive. A UserError in one
    line when there is no such drive (how to get one) or several."""
    if not os.path.isfile(uf2_path):
        raise UserError("no UF2 at %s: build it with `make uf2`" % uf2_path)
    with open(uf2_path, "rb") as f:
        blocks(f.read(), uf2_path)
    drives = bootsel_drives() if drives is None else drives
    if not drives:
        raise UserError("no Pico in BOOTSEL mode: unplug it, hold its BOOTSEL button while plugging it in, "
                        "and run this again when the %s drive shows up" % BOOTSEL_LABEL)
    if len(drives) > 1:
        raise UserError("%d Picos in BOOTSEL mode (%s): leave one plugged in" % (len(drives), ", ".join(drives)))
    drive = drives[0]
    out("copying %s (%d KB) onto %s; the Pico restarts into it when the copy ends"
        % (os.path.basename(uf2_path), os.path.getsize(uf2_path) // 1024, drive))
    try:
        shutil.copyfile(uf2_path, os.path.join(drive, os.path.basename(uf2_path)))
    except OSError as e:
        raise UserError("copying onto %s failed: %s" % (drive, e.strerror or e))
    return drive


# ---------------------------------------------------------------- a release's files (make dist)


def frozen_version(version_module_path):
    """The VERSION the module layerlight_build (frozen into the UF2) holds."""
    with open(version_module_path) as f:
        found = re.search(r"^VERSION = '([^']+)'$", f.read(), re.M)
    if not found:
        raise UserError("%s holds no VERSION line: run `make uf2` again" % version_module_path)
    return found.group(1)


def dist(uf2_path, version, out_dir):
    """Copies the UF2 to out_dir/layerlight-pico-VERSION.uf2 and writes its .sha256 beside it;
    returns (the UF2's path, its SHA-256 in hex)."""
    import hashlib
    with open(uf2_path, "rb") as f:
        blocks(f.read(), uf2_path)  # refuses what is not a whole UF2
    os.makedirs(out_dir, exist_ok=True)
    name = "layerlight-pico-%s.uf2" % version
    out = os.path.join(out_dir, name)
    shutil.copyfile(uf2_path, out + ".new")
    os.replace(out + ".new", out)
    with open(out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    write_if_changed(out + ".sha256", "%s  %s\n" % (digest, name))
    return out, digest


# ---------------------------------------------------------------- the command line (make uf2)


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(prog="python -m layerlight_tools.uf2")
    sub = p.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("version", help="write the frozen module layerlight_build (only when it changes)")
    v.add_argument("out")
    a = sub.add_parser("assemble", help="the port's UF2 plus a ROMFS image of the decks")
    a.add_argument("--board-dir", required=True)
    a.add_argument("--firmware", required=True, help="the port's firmware.uf2")
    a.add_argument("--decks", required=True, help="folder of .deck files for the ROMFS")
    a.add_argument("-o", "--out", required=True)
    d = sub.add_parser("dist", help="the UF2 named for its version, and its SHA-256, into a folder")
    d.add_argument("uf2")
    d.add_argument("--version-module", required=True, help="the layerlight_build.py frozen into it")
    d.add_argument("-o", "--out", required=True, help="the folder (dist)")
    args = p.parse_args(argv)
    try:
        if args.cmd == "version":
            write_if_changed(args.out, version_module(project_version()))
        elif args.cmd == "dist":
            out, digest = dist(args.uf2, frozen_version(args.version_module), args.out)
            print("%s\n%s.sha256: %s" % (out, out, digest))
        else:
            layout = board_layout(args.board_dir)
            with open(args.firmware, "rb") as f:
                firmware = f.read()
            image = romfs_image(args.decks)
            uf2 = assemble(firmware, image, layout)
            with open(args.out + ".new", "wb") as f:
                f.write(uf2)
            os.replace(args.out + ".new", args.out)
            lo, hi = program_span(uf2)
            print("%s: %d KB (flash 0x%05x-0x%05x; decks in ROMFS at 0x%05x, %d of %d bytes; save journal "
                  "0x%05x-0x%05x and filesystem from 0x%05x untouched)"
                  % (args.out, len(uf2) // 1024, lo, hi, layout["romfs"], len(image), layout["romfs_bytes"],
                     layout["journal"], layout["fs"], layout["fs"]))
    except UserError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("error: %s: %s" % (e.filename, e.strerror), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
