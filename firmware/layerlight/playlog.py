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

LOG = "plays.log"
OLD = "plays.old"
KEEP = 500
TAIL = 512  # bytes read from the end of LOG to find its last record


def lines(f):
    """(offset, record or None if damaged) for each line of an open file."""
    at = 0
    while True:
        line = f.readline()
        if not line:
            return
        try:
            rec = persist.decode(line)
            if not isinstance(rec, dict) or not isinstance(rec.get("n"), int):
                rec = None
        except ValueError:
            rec = None
        yield at, rec
        at += len(line)


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
        """each(record, file name, offset) for every good record, oldest first;
        returns how many lines were damaged (skipped)."""
        bad = 0
        for name in (OLD, LOG):
            f = self._open(name)
            if f is None:
                continue
            try:
                for at, rec in lines(f):
                    if rec is None:
                        bad += 1
                    else:
                        each(rec, name, at)
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

