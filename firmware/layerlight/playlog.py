# The play log: one record a finished game, kept on flash, read a record at a time.
#
# A record is one line written as persist writes a file (the CRC-32 of the
# JSON in hex, a space, the JSON), appended to LOG. Appending, not rewriting:
# a power cut during an append tears at most that line, and a torn or
# damaged line fails its check and is skipped (and counted), never the lines
# around it. LittleFS drops an append the power cut short; FAT may keep half
# of it, so an append after a torn tail starts on a new line.
#
# Two files keep the last KEEP games without ever rewriting a long one: once
# LOG holds KEEP records it is renamed over OLD and a new LOG begins. Every
# record carries its sequence number `n`, so a reader keeps the last KEEP by
# number whatever the two files hold.
#
# The record (README, "The play log"; built by play_record.py): n, mode,
# seats, scores, winners, tie_break, detail, played, rounds, ms, ended, date.

from layerlight import persist
from layerlight.crc import crc32

LOG = "plays.log"
OLD = "plays.old"
KEEP = 500
TAIL = 512  # bytes read from the end of LOG to find its last record
CHUNK = 512  # bytes read at a time when going through a file


def record(line):
    """The record a line holds, or None if it is damaged."""
    try:
        rec = persist.decode(line)
    except ValueError:
        return None
    if isinstance(rec, dict) and isinstance(rec.get("n"), int):
        return rec
    return None


def glance(line):
    """(n, mode, winners) of a record's line, or None if it is damaged: checked
    (its CRC), but read without decoding the whole record, as HISTORY opens
    over hundreds of them. The device writes these keys only at a record's top
    level, spelt as looked for here; a line where they are not found so is
    decoded in full."""
    if len(line) < 10 or line[8:9] != b" ":
        return None
    body = line[9:].rstrip(b"\n")
    try:
        if crc32(body) & 0xFFFFFFFF != int(line[:8], 16):
            return None
        i = body.find(b'"mode": "')
        j = body.find(b'"winners": [')
        k = body.find(b'"n": ')
        if i >= 0 and j >= 0 and k >= 0:
            mode = body[i + 9:body.find(b'"', i + 9)].decode()
            inner = body[j + 12:body.find(b"]", j)].decode()
            end = body.find(b",", k)
            n = int(body[k + 5:end if end > k else len(body) - 1].decode())
            return n, mode, [int(w) for w in inner.split(",")] if inner else []
    except ValueError:
        pass
    rec = record(line)
    return None if rec is None else (rec["n"], rec.get("mode"), rec.get("winners") or [])


def split(f, at=0):
    """(offset, line) for each line of an open file from `at` (where it is).

    Read a chunk at a time: MicroPython's readline() reads a file one byte per
    call into the filesystem, which made opening HISTORY over a full log take
    a third of its time finding line ends."""
    rest = b""
    while True:
        chunk = f.read(CHUNK)
        if not chunk:
            break
        data = rest + chunk if rest else chunk
        start = 0
        end = data.find(b"\n")
        while end >= 0:
            yield at, data[start:end + 1]
            at += end + 1 - start
            start = end + 1
            end = data.find(b"\n", start)
        rest = data[start:]
    if rest:
        yield at, rest


def lines(f):
    """(offset, record or None if damaged) for each line of an open file."""
    for at, line in split(f):
        yield at, record(line)


def skip_lines(f, keep):
    """Seek an open file to the start of its last `keep` lines; returns that offset."""
    lines_in = 0
    torn = False
    while True:
        chunk = f.read(CHUNK)
        if not chunk:
            break
        lines_in += chunk.count(b"\n")
        torn = not chunk.endswith(b"\n")
    left = lines_in + torn - keep  # a last line with no end is a line too
    f.seek(0)
    at = 0
    while left > 0:
        chunk = f.read(CHUNK)
        if not chunk:
            break
        n = chunk.count(b"\n")
        if n < left:
            left -= n
            at += len(chunk)
            continue
        end = -1
        while left:
            end = chunk.find(b"\n", end + 1)
            left -= 1
        at += end + 1
    f.seek(at)
    return at


def parse(data):
    """The records in a log file's bytes, oldest first, and how many lines were damaged."""
    good = []
    bad = 0
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            rec = persist.decode(line)
        except ValueError:
            rec = None
        if isinstance(rec, dict) and isinstance(rec.get("n"), int):
            good.append(rec)
        else:
            bad += 1
    return good, bad


def newest(records):
    """The last KEEP records by number, oldest first (as the device shows and keeps them)."""
    records = sorted(records, key=lambda r: r["n"])
    return records[-KEEP:]


class PlayLog:
    """The play log on a storage; the device holds one and appends at each final."""

    def __init__(self, storage, log=print):
        self.storage = storage
        self.log = log
        self.count = -1     # records in LOG (-1: not known yet; found on the first append)
        self.last = 0       # the last record's number
        self.torn = False   # LOG ends in a line with no newline

    def _open(self, name):
        try:
            return self.storage.open_read(name)
        except OSError:
            return None

    def _survey(self):
        """Count LOG's records and find the last number, reading its head and its tail
        (a full read only when the tail holds no good record)."""
        self.count = 0
        self.last = 0
        f = self._open(LOG)
        if f is None:
            self.last = self._last_in(OLD)
            return
        try:
            first = None
            skipped = 0
            for at, rec in lines(f):
                if rec is not None:
                    first = rec["n"]
                    break
                skipped += 1
            if first is None:
                self.count = skipped
                self.last = self._last_in(OLD)
                return
            size = f.seek(0, 2)
            f.seek(max(0, size - TAIL))
            tail = f.read()
            self.torn = not tail.endswith(b"\n")
            last = -1
            for line in tail.split(b"\n"):
                try:
                    rec = persist.decode(line)
                    if isinstance(rec, dict) and isinstance(rec.get("n"), int):
                        last = rec["n"]
                except ValueError:
                    pass
            if last < 0:  # a long damaged tail: read it all
                f.seek(0)
                for at, rec in lines(f):
                    if rec is not None:
                        last = rec["n"]
            self.last = last
            self.count = skipped + last - first + 1
        finally:
            f.close()

    def _last_in(self, name):
        f = self._open(name)
        last = 0
        if f is not None:
            try:
                for at, rec in lines(f):
                    if rec is not None:
                        last = rec["n"]
            finally:
                f.close()
        return last

    def last_number(self):
        """The number of the last record logged (0: none yet)."""
        try:
            if self.count < 0:
                self._survey()
        except OSError as e:
            self.log("could not read %s: %s" % (LOG, e))
        return self.last

    def append(self, record):
        """Number the record, append it, rotate when LOG is full. Returns its number;
        None when the flash refused (logged; the game goes on) or when the record
        already has a number the log holds: a game is numbered when it starts
        (Device.game_n), and one saved at its final whose saved file could not be
        removed is offered again, but logged once."""
        try:
            if self.count < 0:
                self._survey()
            given = record.get("n", 0)
            if 0 < given <= self.last:
                return None
            if self.count >= KEEP:
                self.storage.rename(LOG, OLD)
                self.count = 0
                self.torn = False
            n = max(given, self.last + 1)  # a gap where a record was lost to a power cut
            record["n"] = n
            data = persist.encode(record)
            if self.torn:
                data = b"\n" + data
            self.storage.append(LOG, data)
        except OSError as e:
            self.count = -1  # look again next time
            self.log("could not add the game to %s: %s" % (LOG, e))
            return None
        self.last = n
        self.count += 1
        self.torn = False
        return n

    def scan(self, each):
        """each(n, mode, winners, file name, offset) for every good record among the
        last KEEP lines of the two files, oldest first (glance); returns how many of
        those were damaged.
        The older lines of OLD are only counted, never decoded: HISTORY opens over
        KEEP records at most, not the 2 KEEP - 1 the files can hold."""
        bad = 0
        try:
            if self.count < 0:
                self._survey()  # LOG's lines, from its head and tail
        except OSError:
            self.count = 0
        for name in (OLD, LOG):
            f = self._open(name)
            if f is None:
                continue
            try:
                at = skip_lines(f, KEEP - self.count) if name == OLD else 0
                for at, line in split(f, at):
                    seen = glance(line)
                    if seen is None:
                        bad += 1
                    else:
                        each(seen[0], seen[1], seen[2], name, at)
            finally:
                f.close()
        return bad

    def read_at(self, name, at):
        """The record at an offset scan() gave, or None if it cannot be read now."""
        f = self._open(name)
        if f is None:
            return None
        try:
            f.seek(at)
            for _, rec in lines(f):
                return rec
        finally:
            f.close()
        return None

