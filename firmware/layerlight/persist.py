# Small JSON files on flash that survive power cuts and say when they are bad.
#
# A file is one line: the CRC-32 of the JSON text in hex, a space, the JSON.
# Writes go through storage.write_atomic (a new file renamed over the old), so
# a cut leaves the old file or the new one; the CRC catches anything else a
# flash can do wrong (a torn sector, a bit flip). A bad file is reported and
# treated as missing: the device never fails to boot because of one.

import json

from layerlight.crc import crc32

GAME = "game.json"
BESTS = "bests.json"
SETTINGS = "settings.json"
ERRORS = "errors.log"
ERRORS_MAX = 2048  # bytes of error log kept on flash (the newest lines)


def encode(obj):
    text = json.dumps(obj)
    return ("%08x %s\n" % (crc32(text.encode()) & 0xFFFFFFFF, text)).encode()


def decode(data):
    """The object in a saved file; ValueError if the file is damaged."""
    if not data or len(data) < 10 or data[8:9] != b" ":
        raise ValueError("damaged (too short)")
    body = data[9:].rstrip(b"\n")
    try:
        want = int(data[:8], 16)
    except ValueError:
        raise ValueError("damaged (no checksum)")
    if crc32(body) & 0xFFFFFFFF != want:
        raise ValueError("damaged (checksum)")
    return json.loads(body)


def load(storage, name, log):
    """The saved object, or None if there is none or it is damaged (which is logged)."""
    try:
        data = storage.read_bytes(name)
    except OSError:
        data = None
    if data is None:
        # name.new is only read when name is missing: a FAT rename may have
        # removed the old file and been cut before renaming the new one. A
        # damaged name.new is just a write the power cut short: nothing lost.
        try:
            return decode(storage.read_bytes(name + ".new"))
        except (OSError, ValueError):
            return None
    try:
        return decode(data)
    except ValueError as e:
        log("saved file %s is %s: ignored" % (name, e))
        return None


def save(storage, name, obj, log):
    """Save an object; False (and a log line) if the flash refused."""
    try:
        storage.write_atomic(name, encode(obj))
        return True
    except OSError as e:
        log("could not save %s: %s" % (name, e))
        return False


def append_log(storage, line, log):
    """Add a line to the bounded error log on flash."""
    try:
        old = storage.read_bytes(ERRORS)
    except OSError:
        old = b""
    data = old + line.encode() + b"\n"
    if len(data) > ERRORS_MAX:
        data = data[len(data) - ERRORS_MAX:]
        cut = data.find(b"\n")
        data = data[cut + 1:]
    try:
        storage.write_atomic(ERRORS, data)
    except OSError as e:
        log("could not write %s: %s" % (ERRORS, e))


class FileSaves:
    """The running game's saves as the file GAME (written whole and renamed over the old one
    at every change): where the board has no journal area (stock MicroPython, the simulator's
    files, Blinka). The same small interface as journal.Journal."""

    written = 0
    name = GAME

    def __init__(self, storage, log):
        self.storage = storage
        self.log = log

    def load(self, bad):
        return load(self.storage, GAME, bad)

    def save(self, obj, grown=()):
        self.storage.write_atomic(GAME, encode(obj))
        self.written += 1

    def clear(self):
        self.storage.remove(GAME)

    def wants_tidy(self):
        return False

    def tidy(self):
        pass


def open_saves(hw, log):
    """Where the running game is saved: the board's journal area (journal.Journal) when it
    has one (hw.journal_flash()), else the file GAME on its storage."""
    area = getattr(hw, "journal_flash", None)
    flash = area() if area is not None else None
    if flash is None:
        return FileSaves(hw.storage, log)
    from layerlight.journal import Journal
    try:
        return Journal(flash, log)
    except ValueError as e:  # an area too small to move on from a block without erasing it
        log("saved game: %s; saved as a file instead" % e)
        return FileSaves(hw.storage, log)
