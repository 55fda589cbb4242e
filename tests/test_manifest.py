"""firmware/package.json (mip) and manifest.py (freezing) list exactly the files `layerlight flash` puts on a board.

If this fails after adding or removing a firmware module, run
    .venv/bin/python -m layerlight_tools.packaging
to rewrite both.
"""

import json
import os

from layerlight_tools import firmware_files, flash, packaging

FIX = "run `.venv/bin/python -m layerlight_tools.packaging` to bring them in step"


def test_flash_file_list_is_the_firmware():
    files = flash.firmware_sources()
    assert "main.py" in files and "layerlight/app.py" in files and "layerlight/selftest.py" in files
    assert "layerlight/backends/blinka_hw.py" not in files  # the Raspberry Pi backend is not for boards
    assert not any("__pycache__" in f for f in files)
    assert flash.deck_files() and all(d.startswith("decks/") for d in flash.deck_files())


def test_package_json_is_in_step():
    with open(packaging.PACKAGE_JSON) as f:
        text = f.read()
    data = json.loads(text)
    listed = [dst for dst, _ in data["urls"]]
    wanted = flash.firmware_sources() + flash.deck_files()
    missing = sorted(set(wanted) - set(listed))
    extra = sorted(set(listed) - set(wanted))
    assert not missing and not extra, "firmware/package.json: missing %s, extra %s: %s" % (missing, extra, FIX)
    for dst, src in data["urls"]:
        assert dst == src and os.path.isfile(os.path.join(firmware_files.FIRMWARE, src))
    assert text == packaging.package_json(), "firmware/package.json is not as generated: " + FIX


def run_manifest(text):
    """Executes manifest.py the way MicroPython's makemanifest does, recording the calls."""
    calls = []

    def include(path, **kw):
        calls.append(("include", path))

    def package(name, files=None, base_path=".", opt=None):
        calls.append(("package", name, tuple(files or ()), base_path))

    exec(compile(text, "manifest.py", "exec"), {"include": include, "package": package})
    return calls


def test_manifest_freezes_the_flashed_modules():
    with open(packaging.MANIFEST) as f:
        text = f.read()
    calls = run_manifest(text)
    assert ("include", "$(PORT_DIR)/boards/manifest.py") in calls  # keeps the port's neopixel
    (pkg,) = [c for c in calls if c[0] == "package"]
    _, name, files, base = pkg
    assert name == "layerlight" and base == "firmware"
    for f in files:
        assert os.path.isfile(os.path.join(firmware_files.REPO, base, name, f)), f
    wanted = sorted(f[len("layerlight/"):] for f in flash.firmware_sources() if f.startswith("layerlight/"))
    missing = sorted(set(wanted) - set(files))
    extra = sorted(set(files) - set(wanted))
    assert not missing and not extra, "manifest.py: missing %s, extra %s: %s" % (missing, extra, FIX)
    assert text == packaging.manifest_py(), "manifest.py is not as generated: " + FIX
