"""The firmware packaged for MicroPython's own tools, from the file list of `layerlight flash`.

- firmware/package.json, for mip: installs the firmware from its source
  (`mpremote mip install --target / github:OWNER/REPO/firmware/package.json`);
- manifest.py (repository root), for freezing the firmware into a custom
  MicroPython build (`make BOARD=RPI_PICO FROZEN_MANIFEST=.../manifest.py`).

`python -m layerlight_tools.packaging` writes both; tests/test_manifest.py
checks that they are in step with the firmware's files.
"""

import json
import os

from layerlight_tools import firmware_files, flash

PACKAGE_JSON = os.path.join(firmware_files.FIRMWARE, "package.json")
MANIFEST = os.path.join(firmware_files.REPO, "manifest.py")

MANIFEST_HEAD = '''\
# Freezes the Layerlight firmware into a custom MicroPython build. Written by
# `python -m layerlight_tools.packaging` from the file list of `layerlight
# flash`; tests/test_manifest.py keeps the two in step.
#
# `make uf2` freezes it through uf2/manifest.py, which adds the main.py that
# starts the device at power-on and the project's version, into the Layerlight
# UF2 (build/layerlight-pico.uf2; the decks go into its ROMFS partition).
# Frozen on its own into a stock board's build (make BOARD=RPI_PICO
# FROZEN_MANIFEST=/path/to/layerlight/manifest.py), it needs main.py and the
# decks on the board's flash:  mpremote cp firmware/main.py : + cp -r firmware/decks :

# the port's own frozen modules (rp2: neopixel, which the firmware uses)
include("$(PORT_DIR)/boards/manifest.py")

'''


def version():
    try:
        from importlib.metadata import version as v
        return v("layerlight")
    except Exception:  # not installed: the package.json still works without it
        return "0.1.0"


def package_json(firmware_dir=None):
    """firmware/package.json for mip: the firmware's sources and decks, relative URLs."""
    files = flash.firmware_sources(firmware_dir) + flash.deck_files(firmware_dir)
    urls = ",\n".join("    %s" % json.dumps([f, f]) for f in files)
    return '{\n  "urls": [\n%s\n  ],\n  "deps": [],\n  "version": %s\n}\n' % (urls, json.dumps(version()))


def manifest_py(firmware_dir=None):
    """manifest.py for freezing: the layerlight package, file by file."""
    files = [f[len("layerlight/"):] for f in flash.firmware_sources(firmware_dir) if f.startswith("layerlight/")]
    lines = ["package(", '    "layerlight",', "    files=("]
    lines += ['        "%s",' % f for f in files]
    lines += ["    ),", '    base_path="firmware",', ")", ""]
    return MANIFEST_HEAD + "\n".join(lines)


def write():
    for path, text in ((PACKAGE_JSON, package_json()), (MANIFEST, manifest_py())):
        with open(path, "w") as f:
            f.write(text)
        print("wrote %s" % os.path.relpath(path, firmware_files.REPO))


if __name__ == "__main__":
    write()
