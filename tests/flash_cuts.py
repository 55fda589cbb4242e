"""Power cuts at the firmware's own flash steps.

The device saves through `layerlight.storage.FileStorage`: open a file for
writing, write it, rename it over the old one, and, where the file system will
not rename over a file (FAT), remove the old one first and then rename. The
power-cut tests run that very code, over a flash kept in a dict, where each
step that changes the flash counts and a fault can strike it:

- `open` for writing creates the file, or empties it ("wb"; an append, "ab",
  only creates it when missing);
- `write` adds bytes, and lands as it is made: a cut in the middle of a write
  leaves the file with part of them (how = "partial": the first half);
- `rename` moves a file (over the target when `rename_over`, as LittleFS does;
  otherwise, as FAT, it refuses while the target exists, which is no step:
  nothing changes on the flash);
- `remove` deletes a file.

Reads, listings and closes change nothing and are never struck. `fault = (n,
how)` strikes the n-th step (0-based): "cut" (the power goes before it),
"partial" (a write: half of its bytes land, then the power goes; any other
step: as "cut") or "fail" (the flash refuses it: OSError, the device goes on).
The model is harsher than LittleFS, which keeps the old file until a new one
is closed: here a file can be left half written.
"""

import builtins
import io

from layerlight import storage as storage_module
from layerlight_tools import simcore

with open(storage_module.__file__) as _f:
    _SOURCE = compile(_f.read(), storage_module.__file__, "exec")


class Flash:
    """The flash: file name -> bytes, and the steps made on it."""

    def __init__(self, files=None, rename_over=True):
        self.files = dict(files or {})
        self.rename_over = rename_over
        self.steps = []  # (kind, name) of every step made or struck, in order
        self.fault = None
        self.struck = None  # (kind, name, how) of the step the fault struck

    def _name(self, path):
        return path.lstrip("/")

    def step(self, kind, name, data=None):
        """Count a step; the fault strikes it. Returns False when it must not happen."""
        n = len(self.steps)
        self.steps.append((kind, name))
        if self.fault is None or self.fault[0] != n:
            return True
        how = self.fault[1]
        self.struck = (kind, name, how)
        if how == "fail":
            raise OSError(28, "no space left on device")
        if how == "partial" and kind == "write":
            self.files[name] = self.files.get(name, b"") + bytes(data[:len(data) // 2])
        raise simcore.PowerCut()

    # --- what FileStorage calls: open() and the os module's rename, remove, listdir

    def open(self, path, mode="r"):
        name = self._name(path)
        if "r" in mode:
            if name not in self.files:
                raise OSError(2, "ENOENT")
            data = self.files[name]
            return io.BytesIO(data) if "b" in mode else io.StringIO(data.decode())
        if "a" in mode:
            if name not in self.files:
                self.step("open", name)
                self.files[name] = b""
        else:
            self.step("open", name)
            self.files[name] = b""
        return _Writer(self, name)

    def rename(self, old, new):
        old, new = self._name(old), self._name(new)
        if old not in self.files:
            raise OSError(2, "ENOENT")
        if new in self.files and not self.rename_over:
            raise OSError(17, "EEXIST")
        self.step("rename", new)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        name = self._name(path)
        if name not in self.files:
            raise OSError(2, "ENOENT")
        self.step("remove", name)
        del self.files[name]

    def listdir(self, path):
        prefix = self._name(path).rstrip("/")
        prefix = prefix + "/" if prefix else ""
        out = []
        for k in self.files:
            if k.startswith(prefix):
                head = k[len(prefix):].split("/")[0]
                if head not in out:
                    out.append(head)
        return out


class _Writer:
    def __init__(self, flash, name):
        self.flash = flash
        self.name = name

    def write(self, data):
        self.flash.step("write", self.name, data)
        self.flash.files[self.name] = self.flash.files.get(self.name, b"") + bytes(data)
        return len(data)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class _OS:
    """The os module as storage.py sees it: the flash's rename, remove and listdir."""

    def __init__(self, flash):
        self.rename = flash.rename
        self.remove = flash.remove
        self.listdir = flash.listdir


def _file_storage_class(flash):
    """storage.py's own FileStorage, its `open` and `os` being the flash's."""
    ns = {"__name__": "layerlight.storage", "__builtins__": builtins}
    exec(_SOURCE, ns)
    ns["os"] = _OS(flash)
    ns["open"] = flash.open
    return ns["FileStorage"]


def storage_over(flash):
    """A FileStorage (the firmware's code) over `flash`, which also records for the tests
    every save that finished (`saved`: name, data) and counts the steps (`writes`)."""
    base = _file_storage_class(flash)

    class CutStorage(base):
        def __init__(self):
            base.__init__(self, "")
            self.flash = flash
            self.saved = []

        @property
        def files(self):
            return flash.files

        @property
        def writes(self):
            return len(flash.steps)

        @property
        def fault(self):
            return flash.fault

        @fault.setter
        def fault(self, value):
            flash.fault = value

        def write_atomic(self, name, data):
            base.write_atomic(self, name, data)
            self.saved.append((name, bytes(data)))

    return CutStorage()


def new_storage(files, rename_over=True):
    return storage_over(Flash(files, rename_over))


def after_power_on(storage):
    """The same flash (the very files) after the power comes back: no fault, nothing recorded."""
    flash = Flash(None, storage.flash.rename_over)
    flash.files = storage.flash.files
    return storage_over(flash)


def cuts(storage):
    """Every (step, how) a clean run's steps offer a fault: each step cut before it, each write
    also cut halfway."""
    out = []
    for n, (kind, _) in enumerate(storage.flash.steps):
        out.append((n, "cut"))
        if kind == "write":
            out.append((n, "partial"))
    return out


def in_flight_done(storage, name):
    """True if the save of `name` the cut struck had written all its bytes (the new file is
    whole: a cut after that may leave the new state rather than the old)."""
    steps = storage.flash.steps
    struck = len(steps) - 1
    # the struck save's steps: from its open of name.new onwards
    opened = max((i for i, (k, n) in enumerate(steps) if k == "open" and n == name + ".new"), default=None)
    if opened is None:
        return False
    if any(k == "rename" and n == name for k, n in steps[opened:struck]):
        return False  # that save finished; the cut struck after it
    return any(k == "write" for k, n in steps[opened:struck])



# --- cuts on the emulated flash chip (tests/test_emulated_pico.py): moments named by write
# kind and index, the same every run; a seeded sample of moments for `make soak`

# where in a write: "mid" half way through its busy time (the program or erase left part
# done), "gap" half way from its end to the start of the next write (between two writes)
WHERE = ("mid", "gap")


def moment(writes, ops, kind, index, where):
    """(write number, us into it) of a named moment among the flash writes `writes` (a clean
    run's numbers; ops: its flash events {n: {"us", "kind", "busy_us"}}): the index-th write of
    that kind ("erase", "program" or "write" for either; negative from the last), `where` in it."""
    mine = [n for n in writes if kind == "write" or ops[n]["kind"] == kind]
    assert mine and -len(mine) <= index < len(mine), "no %s %d among writes %s" % (kind, index, writes)
    n = mine[index]
    busy = int(ops[n]["busy_us"])
    if where == "mid":
        return n, busy // 2
    assert where == "gap", where
    nxt = int(ops[n + 1]["us"] - ops[n]["us"]) if n + 1 in ops else busy * 3 // 2
    assert nxt > busy, "write %d: the next began before it ended" % n
    return n, (busy + nxt) // 2


def named_moments(writes, ops, names):
    """[(name, (write number, us into it))] for names like ("erase", 0, "mid")."""
    return [("%s %d %s" % name, moment(writes, ops, *name)) for name in names]


def seeded_moments(writes, ops, count, rng):
    """`count` moments from a seeded rng (make soak): the middle of an erase and of a page program
    at a random point (those the writes have), then anywhere from the start of a write to the
    start of the next (between writes too)."""
    out = []
    kinds = ["erase", "program"]
    rng.shuffle(kinds)
    for kind in kinds:
        mine = [n for n in writes if ops[n]["kind"] == kind]
        if mine:
            n = rng.choice(mine)
            out.append(("%s seeded" % kind, (n, rng.randint(1, int(ops[n]["busy_us"]) - 1))))
    while len(out) < count:
        n = rng.choice(writes)
        gap = int(ops[n + 1]["us"] - ops[n]["us"]) - 1 if n + 1 in ops else ops[n]["busy_us"] * 3 // 2
        out.append(("seeded", (n, rng.randint(0, max(0, gap)))))
    return out[:count]


def cut_seeds():
    """The seeds of LAYERLIGHT_CUT_SEED (comma-separated; make soak sets it): [None], the fixed
    moments, when it is not set."""
    import os
    text = os.environ.get("LAYERLIGHT_CUT_SEED", "").strip()
    return [int(s) for s in text.split(",") if s.strip()] or [None]
