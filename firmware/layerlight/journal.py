# The running game's saves as a journal on raw flash: a score keeper's entry costs
# one page program (about 0.4 ms on a W25Q16JV; a race's record one to three, a
# block's first record, the whole game, more), not a file written and renamed (new
# blocks erased and programmed, metadata committed: 100-200 ms).
#
# Built as log-structured stores are (Zephyr's NVS, littlefs's metadata
# commits): the area is cut into blocks of BLOCK_SECTORS erase sectors, used
# in turn around a ring. A block begins with a base record (the whole saved
# game); the records after it are deltas (what changed since the record
# before). A record is a header (kind, length, sequence number, CRC-32 of the
# header and the body) and its body, appended just after the one before, page
# program by page program. So:
#   - a torn program (the power went during it) leaves a record whose CRC
#     fails: it and anything after it in that block are ignored, and the
#     newest whole record wins;
#   - a block is only ever written once erased, and the next block is erased
#     ahead, at quiet moments (Device.tidy: no button down, a while after the
#     last press, never in a race), one sector per call; a full block moves
#     the journal on to the next with a new base, and the old block is then
#     the one erased next (a power cut during an erase only hurts a block
#     nothing reads any more);
#   - the block whose base has the highest sequence number is the current
#     one; a new block's base that the power cut short has no valid CRC, so
#     the block before it still holds the game;
#   - when the flash refuses a program: its sequence number is used up all
#     the same (its bytes may have landed whole), the next save starts a new
#     block, and the block holding the newest whole base is never the one
#     erased to move on (refused saves in a row start their block again
#     instead of walking the ring onto it), as NVS keeps its sector; an area
#     of fewer than two blocks is refused (persist.open_saves then saves the
#     game as a file).
#
# What a delta holds: the saved game (what Device.save_game makes: "game",
# "rng", "snap", "ms"...) is kept as one JSON text per key ("snap" split into
# one per key of the mode's snapshot). A key whose text is unchanged is left
# out; any other is written as "keep the first N bytes of the old text, then
# these" (N: the longest start the two share): an action appended to a score
# keeper's log, a verdict to a race's list or a card taken off a pile's end
# costs its own few bytes. A key no longer there is deleted. Comparing texts is
# generic: no mode needs to say what it changed.
#
# The flash is anything with `size` (bytes, whole blocks), read(offset, n),
# program(offset, data) (page-aligned, whole pages: bits only go from 1 to 0,
# so the bytes of a page already written are programmed again as 0xFF, which
# leaves them as they were) and erase(offset) (one sector). On the Layerlight
# UF2 it is the top of the ROMFS partition (backends/micropython_hw.py); in
# the simulator, simcore.SimFlash.

import json

from layerlight.crc import crc32

SECTOR = 4096        # the erase unit (W25Q16JV datasheet 8.2.17, Sector Erase: 4 KB)
PAGE = 256           # the program unit (datasheet 8.2.13, Page Program: up to 256 bytes)
BLOCK_SECTORS = 2    # a block: room for a whole game's base and the deltas of tens of entries
BLOCK = SECTOR * BLOCK_SECTORS
HEAD = 12            # kind, magic, body length (2), sequence number (4), CRC-32 (4)
BASE = 0x42          # "B": the whole saved game
DELTA = 0x44         # "D": what changed since the record before
MAGIC = 0x4C         # "L"
ERASED = 0xFF
DELETE = 0xFFFF      # a delta entry's "keep": the key is gone
MIN_KEEP = 4         # a shorter common start is not worth a delta entry's keep


def flatten(obj, text_of=None):
    """The saved game as {key: JSON text (bytes)}, its snapshot split key by key;
    text_of(key, value) may give a snapshot key's text (None: json.dumps)."""
    out = {}
    for k in obj:
        v = obj[k]
        if k == "snap" and isinstance(v, dict) and v:
            for sk in v:
                key = "snap/" + sk
                text = None if text_of is None else text_of(key, v[sk])
                out[key] = text if text is not None else json.dumps(v[sk]).encode()
        else:
            out[k] = json.dumps(v).encode()
    return out


def unflatten(texts):
    """The saved game from its texts (flatten's inverse); None if there is none."""
    if not texts:
        return None
    obj = {}
    for k in texts:
        v = json.loads(texts[k])
        if k.startswith("snap/"):
            snap = obj.get("snap")
            if not isinstance(snap, dict):
                snap = obj["snap"] = {}
            snap[k[5:]] = v
        else:
            obj[k] = v
    return obj


def common(o, t):
    """The length of the longest common start of two texts: a binary search, each step
    comparing only the part not yet known equal. Compared through memoryviews: a slice of
    one is a small object, not a copy of the text (a score keeper's log, hundreds of bytes,
    was copied at every step: a save made 8 KB of garbage, and its collections landed in
    the presses' saves on the chip)."""
    lo = 0
    hi = min(len(o), len(t))
    mo = memoryview(o)
    mt = memoryview(t)
    if mo[:hi] == mt[:hi]:
        return hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mo[lo:mid] == mt[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def diff(old, new):
    """[(key, keep, text)]: what turns the texts `old` into `new` (keep: bytes of the old
    text kept before `text`; DELETE: the key is gone)."""
    out = []
    for k in new:
        t = new[k]
        o = old.get(k)
        if o == t:
            continue
        keep = 0 if o is None else common(o, t)
        if keep < MIN_KEEP:
            keep = 0
        out.append((k, keep, t[keep:]))
    for k in old:
        if k not in new:
            out.append((k, DELETE, b""))
    return out


def apply(texts, entries):
    """The texts with a record's entries applied (in place)."""
    for k, keep, text in entries:
        if keep == DELETE:
            texts.pop(k, None)
        elif keep:
            texts[k] = texts[k][:keep] + text
        else:
            texts[k] = text


def encode(kind, seq, entries):
    """A record: header, then each entry as key length, key, keep, text length, text."""
    body = bytearray()
    for k, keep, text in entries:
        key = k.encode()
        body.append(len(key))
        body += key
        body += keep.to_bytes(2, "little")
        body += len(text).to_bytes(4, "little")
        body += text
    head = bytearray(8)
    head[0] = kind
    head[1] = MAGIC
    head[2:4] = len(body).to_bytes(2, "little")
    head[4:8] = (seq & 0xFFFFFFFF).to_bytes(4, "little")
    crc = crc32(body, crc32(head)) & 0xFFFFFFFF
    return bytes(head) + crc.to_bytes(4, "little") + bytes(body)


def decode_body(body):
    """[(key, keep, text)] of a record's body; ValueError if it does not parse."""
    out = []
    i = 0
    n = len(body)
    while i < n:
        kl = body[i]
        k = bytes(body[i + 1:i + 1 + kl]).decode()
        i += 1 + kl
        keep = int.from_bytes(body[i:i + 2], "little")
        tl = int.from_bytes(body[i + 2:i + 6], "little")
        i += 6
        if i + tl > n:
            raise ValueError("entry past the record's end")
        out.append((k, keep, bytes(body[i:i + tl])))
        i += tl
    return out


def read_record(flash, at, room):
    """(kind, seq, body, length) of a whole record at flash offset `at` with `room` bytes
    left in its block; None where the flash is erased there; ValueError if the record is
    torn or damaged."""
    if room < HEAD:
        return None
    head = flash.read(at, HEAD)
    if head[0] == ERASED and head[1] == ERASED:
        return None
    n = int.from_bytes(head[2:4], "little")
    if head[0] not in (BASE, DELTA) or head[1] != MAGIC or HEAD + n > room:
        raise ValueError("a damaged record header")
    body = flash.read(at + HEAD, n)
    want = int.from_bytes(head[8:12], "little")
    if crc32(body, crc32(head[:8])) & 0xFFFFFFFF != want:
        raise ValueError("a damaged record (checksum)")
    return head[0], int.from_bytes(head[4:8], "little"), body, HEAD + n


def skip_gap(flash, block_at, at):
    """Where the next record after `at` in a block starts: `at`, or the next page's start when
    the rest of this page is erased and a record begins there (_append leaves the rest of a
    page erased rather than have a record straddle into the next; a record never begins with
    0xFF)."""
    if at % PAGE == 0 or at >= BLOCK:
        return at
    nxt = at - at % PAGE + PAGE
    if nxt + HEAD > BLOCK or not all_erased(flash, block_at + at, nxt - at):
        return at
    head = flash.read(block_at + nxt, 2)
    return nxt if head[0] != ERASED or head[1] != ERASED else at


def all_erased(flash, at, n):
    """True if the n bytes at `at` are all 0xFF (read a page at a time)."""
    full = b"\xff" * PAGE
    end = at + n
    while at < end:
        step = min(PAGE, end - at)
        if flash.read(at, step) != full[:step]:
            return False
        at += step
    return True


class Journal:
    """The saved game on a raw flash area (see the top of this file): load(), save(obj),
    clear(), and tidy() for the erases done ahead at quiet moments."""

    name = "the game journal"

    def __init__(self, flash, log=print):
        self.flash = flash
        self.log = log
        self.blocks = flash.size // BLOCK
        if self.blocks < 2:
            # one block would have to be erased to move on from itself: the only copy lost
            raise ValueError("a journal of %d bytes: it needs two blocks of %d at least" % (flash.size, BLOCK))
        self.texts = {}       # the saved game as the newest whole record leaves it
        self.block = -1       # the block being appended to (-1: none yet)
        self.good = -1        # the block whose base is the newest known whole: never erased
        self.pos = 0          # where the next record goes in it
        self.seq = 1          # the next record's sequence number
        self.room = False     # the rest of the current block is erased (else the next save moves on)
        self.erased = 0       # sectors of the next block known erased, from its start
        self.written = 0      # records made whole since power-on (for tests and benchmarks)
        self.programs = 0     # page-program commands and sector erases since power-on (benchmarks)
        self.erases = 0
        self.damage = None    # what load() found damaged, if anything
        self.checked = True   # self.erased was read off the flash (else tidy() looks first)
        self.lists = {}       # a copy of each grown list as saved last (save's `grown`)

    # --- power-on -----------------------------------------------------------

    def load(self, bad=None):
        """The newest whole saved game, or None. Damage that a power cut cannot leave is
        passed to bad() (a message); a torn last record is a save the cut stopped: nothing
        lost, nothing said."""
        flash = self.flash
        self.lists = {}
        best = -1
        best_seq = -1
        bad_bases = []
        for b in range(self.blocks):
            try:
                rec = read_record(flash, b * BLOCK, BLOCK)
            except ValueError:
                bad_bases.append(b)
                continue
            if rec is not None and rec[0] == BASE and rec[1] > best_seq:
                best, best_seq = b, rec[1]
        for b in bad_bases:
            # a base the power cut short has nothing after it; an old block erased part way
            # only older records: newer ones after a bad base mean it was damaged
            if self._after(b, 0) > best_seq:
                self.damage = "the saved game's journal lost its newest block's start: an earlier save resumed"
        if best < 0:
            self._start_over()
            if self.damage is not None and bad is not None:
                bad(self.damage)
            return None
        texts = {}
        at = 0
        seq = best_seq
        room = True
        while True:
            at = skip_gap(flash, best * BLOCK, at)
            try:
                rec = read_record(flash, best * BLOCK + at, BLOCK - at)
            except ValueError as e:
                rec = e
            if rec is None:
                break
            if isinstance(rec, ValueError) or (at and rec[0] != DELTA) or (at and rec[1] != seq + 1):
                # a torn record is the last thing written: the rest of the block is erased after
                # it. Anything else (a damaged record with more after it) is told.
                room = False
                if self._after(best, at) > seq:
                    self.damage = "the saved game's journal is damaged after entry %d: resumed from there" % seq
                break
            try:
                apply(texts, decode_body(rec[2]))
            except (ValueError, KeyError, IndexError):
                room = False
                self.damage = "the saved game's journal has an unreadable entry %d: resumed before it" % rec[1]
                break
            seq = rec[1]
            at += rec[3]
        if room and not all_erased(flash, best * BLOCK + at, BLOCK - at):
            room = False
        self.block = best
        self.good = best
        self.pos = at
        self.seq = self._top_seq(seq) + 1
        self.room = room
        self.erased = self._erased_sectors(self._target())
        try:
            obj = unflatten(texts)
        except ValueError:
            obj = None
            self.damage = "the saved game's journal holds a text that is not JSON: ignored"
        self.texts = texts if obj is not None else {}
        if self.damage is not None and bad is not None:
            bad(self.damage)
        return obj

    def _start_over(self):
        """No block holds a base: the journal starts at block 0 when it is erased."""
        self.texts = {}
        self.block = self.blocks - 1   # so that the first save moves on to block 0
        self.good = -1
        self.pos = BLOCK
        self.room = False
        self.seq = self._top_seq(0) + 1
        self.erased = self._erased_sectors(self._target())

    def _top_seq(self, seq):
        """The highest sequence number of any whole record's header in the area, or `seq` if
        higher: the next record's number is above every one on the flash, so that two records
        never share one (a program that failed after its bytes landed, a damaged block's)."""
        for b in range(self.blocks):
            at = 0
            while True:
                at = skip_gap(self.flash, b * BLOCK, at)
                try:
                    rec = read_record(self.flash, b * BLOCK + at, BLOCK - at)
                except ValueError:
                    rec = None
                if rec is None:
                    break
                if rec[1] > seq:
                    seq = rec[1]
                at += rec[3]
        return seq

    def _target(self):
        """The block the next move goes to, and the one erased ahead: the next round the ring,
        unless that is the block holding the newest whole base while the current one is not
        (saves refused since): then the current block, started again. The good copy is never
        erased, however many saves in a row the flash refuses."""
        nxt = (self.block + 1) % self.blocks
        if nxt == self.good and self.block != self.good:
            return self.block
        return nxt

    def _after(self, block, at):
        """The highest sequence number of a whole record after a bad one at `at` in a block
        (-1: none). A power cut leaves nothing newer after the record it cut short; a newer
        record there means the bad one was damaged after it was written, which is told."""
        rest = self.flash.read(block * BLOCK + at, BLOCK - at)
        top = -1
        for kind in (DELTA, BASE):
            mark = bytes((kind, MAGIC))
            i = rest.find(mark, 1)
            while i >= 0:
                try:
                    rec = read_record(self.flash, block * BLOCK + at + i, BLOCK - at - i)
                    if rec is not None and rec[1] > top:
                        top = rec[1]
                except ValueError:
                    pass
                i = rest.find(mark, i + 1)
        return top

    def _erased_sectors(self, block):
        n = 0
        while n < BLOCK_SECTORS and all_erased(self.flash, block * BLOCK + n * SECTOR, SECTOR):
            n += 1
        return n

    # --- saving ---------------------------------------------------------------

    def save(self, obj, grown=()):
        """Append the saved game (a delta; a base at a block's start). Returns once it is on
        flash. OSError if the flash refused, ValueError if the game is too big for a block.
        `grown`: keys of the snapshot whose list mostly grows at its end, an item never
        changed in place once in (a score keeper's log of the table's actions): its text is
        the last one with the new items' text put in, not the whole list written out again
        (what an entry costs stays the same all game); any other change writes it whole."""
        lists = {}
        new = self._texts(obj, grown, lists)
        entries = diff(self.texts, new)
        if entries:
            self._append(new, entries)
        self.lists = lists  # only once the texts they go with are the saved ones

    def _texts(self, obj, grown, lists):
        """flatten(obj), each list in `grown` from its text saved last where it only grew;
        what the next save needs to know of those lists goes into `lists`."""
        def text_of(key, item):
            if key[5:] not in grown or not isinstance(item, list):
                return None
            lists[key] = list(item)  # a copy: the game's list goes on growing
            return self._grown(key, item, self.lists.get(key))
        return flatten(obj, text_of if grown else None)

    def _grown(self, key, items, was):
        """The text of `items` from the one saved last (None: write it out whole): `was` is a
        copy of the list as saved then. Its items still at its start (compared in C, no JSON)
        mean only the items after them are new (an item changed in place would go unseen:
        what `grown` promises rules that out)."""
        old = self.texts.get(key)
        n = -1 if was is None else len(was)
        if old is None or n < 0 or len(items) < n or items[:n] != was:
            return None
        if n == len(items):
            return old
        tail = b", ".join([json.dumps(x).encode() for x in items[n:]])
        return b"".join((old[:-1], b", " if n else b"", tail, b"]"))  # one new text, not three

    def clear(self):
        """Nothing left to resume (a delta deleting every key)."""
        self.lists = {}
        if self.texts:
            self._append({}, diff(self.texts, {}))

    def _append(self, new, entries):
        record = encode(DELTA, self.seq, entries)
        at = self.pos
        # a record that would straddle a page boundary it need not cross starts on the next
        # page (the rest of this one left erased, which load() steps over): a score keeper's
        # entry is one page program, not two (0.4 ms each, 3 ms at the chip's slowest)
        if -(-(at % PAGE + len(record)) // PAGE) > -(-len(record) // PAGE):
            at += -at % PAGE
        if not self.room or at + len(record) > BLOCK:
            record = encode(BASE, self.seq, diff({}, new))
            if len(record) > BLOCK:
                raise ValueError("the saved game is %d bytes, more than a journal block (%d)" % (len(record), BLOCK))
            self._move_on()
            at = 0
        self.pos = at
        # its number is used up whether the program succeeds or not: a program refused after
        # its bytes landed leaves a whole record with it on the flash
        self.seq += 1
        try:
            self._program(self.block * BLOCK + self.pos, record)
        except OSError:
            self.room = False  # part of it may be there: the next save starts a new block
            raise
        if record[0] == BASE:
            self.good = self.block
        self.pos += len(record)
        self.texts = new
        self.written += 1

    def _move_on(self):
        """The next block (_target), erased now if the quiet moments have not erased it yet."""
        nxt = self._target()
        self._look()
        while self.erased < BLOCK_SECTORS:
            self._erase_next()
        self.block = nxt
        self.pos = 0
        self.room = True
        self.erased = 0  # the block after it: not known erased (tidy() looks and erases)
        self.checked = False

    def _program(self, at, record):
        """The record's bytes at `at`, as whole pages: the bytes around it 0xFF (left as they are)."""
        first = at - at % PAGE
        end = at + len(record)
        end += -end % PAGE
        buf = bytearray(b"\xff" * (end - first))
        buf[at - first:at - first + len(record)] = record
        self.programs += len(buf) // PAGE  # page-program commands
        self.flash.program(first, buf)

    def _erase_next(self):
        nxt = self._target()
        self.erases += 1
        self.flash.erase(nxt * BLOCK + self.erased * SECTOR)
        self.erased += 1

    # --- erases ahead -----------------------------------------------------------

    def wants_tidy(self):
        """True while the next block is not known erased."""
        return self.erased < BLOCK_SECTORS

    def tidy(self):
        """One step of the work done ahead at a quiet moment: the next block's next sector
        is looked at and erased unless it already is (one erase at most)."""
        self._look()
        if self.erased < BLOCK_SECTORS:
            self._erase_next()

    def _look(self):
        """How much of the next block is erased already, read once per block (a fresh chip,
        a block never used: nothing is erased twice)."""
        if not self.checked:
            self.checked = True
            self.erased = self._erased_sectors(self._target())
