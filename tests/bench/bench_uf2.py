"""The Layerlight UF2 (`make uf2`): its size, how long it takes to build from the v1.28.0 source
tarball, and power-on to the menu's first frame on the emulated Pico.

The build is timed from nothing: the tarball unpacked into a scratch folder, then `make uf2
MICROPYTHON=<that folder>` (picotool, mpy-cross, the rp2 port with the firmware frozen in, the
decks' ROMFS), as CI does it on a fresh machine; then `make uf2` again with nothing changed.
Every figure is of this machine at the time it runs (2 cores, shared): a build, not a promise.
Frozen-against-.mpy memory and drawing figures are in bench_pico (the same session played on
both UF2s).
"""

import os
import subprocess
import tempfile
import time

from layerlight_tools import uf2
from layerlight_tools.pico import target

REPO = uf2.REPO
TARBALL = os.path.normpath(os.path.join(REPO, "..", "shared", "micropython", "mpsrc-v1.28.0.tar.xz"))
UF2 = os.path.join(REPO, "build", "layerlight-pico.uf2")
UF2_PICO2 = os.path.join(REPO, "build", "layerlight-pico2.uf2")
BOARD_DIR = os.path.join(REPO, "uf2", "boards", "LAYERLIGHT_PICO")


def run(cmd, **kw):
    t = time.monotonic()
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise SystemExit("bench_uf2: %s failed:\n%s" % (" ".join(cmd), (r.stdout + r.stderr)[-3000:]))
    return time.monotonic() - t, r.stdout + r.stderr


def build_from_nothing():
    """(unpack s, build s, the UF2's bytes) of a build from the tarball in a scratch folder."""
    with tempfile.TemporaryDirectory(prefix="layerlight-uf2-") as tmp:
        t_unpack, _ = run(["tar", "-xJf", TARBALL, "-C", tmp])
        out = os.path.join(tmp, "layerlight-pico.uf2")
        t_build, _ = run(["make", "uf2", "MICROPYTHON=%s/mpsrc" % tmp, "UF2=%s" % out], timeout=3600)
        with open(out, "rb") as f:
            return t_unpack, t_build, f.read()


def first_frame_ms(rom, image):
    """Emulated ms from power on to the first lit frame on the data pin."""
    pico = target.power_on(UF2, rom, image)
    try:
        pico.run_until(lambda: any(any(fr["data"]) for fr in pico.frames), "the menu", step_ms=20)
        return next(fr["start_us"] for fr in pico.frames if any(fr["data"])) / 1000
    finally:
        pico.close(keep=True)


def main():
    if not os.path.isfile(TARBALL):
        print("no ../shared/micropython tarball: nothing measured")
        return
    _uf2, rom = target.shared_files()
    run(["make", "uf2"], timeout=3600)  # build/ up to date first: the same inputs as the scratch build
    t_unpack, t_build, built = build_from_nothing()
    t_again, said = run(["make", "uf2"])
    with open(UF2, "rb") as f:
        data = f.read()
    layout = uf2.board_layout(BOARD_DIR)
    blocks = uf2.blocks(data)
    firmware = max(a + len(p) for a, p, _f in blocks if a < uf2.XIP_BASE + layout["romfs"]) - uf2.XIP_BASE
    print("build/layerlight-pico.uf2: %d KB file (%d blocks), writes %d KB of flash: firmware %d KB (MicroPython "
          "v1.28.0 with the firmware frozen in) of the %d KB below the ROMFS, decks' ROMFS at 0x%x (%d KB "
          "partition); the filesystem from 0x%x is never written" % (
              len(data) // 1024, len(blocks), sum(len(p) for _a, p, _f in blocks) // 1024, firmware // 1024,
              layout["romfs"] // 1024, layout["romfs"], layout["romfs_bytes"] // 1024, layout["fs"]))
    differ = sum(x != y for x, y in zip(built, data)) + abs(len(built) - len(data))
    print("built from the tarball on a fresh folder: unpack %.1f s, make uf2 %.1f s (picotool, mpy-cross, the rp2 "
          "port, ROMFS; 2 jobs, machine shared); against build/'s: %s" % (
              t_unpack, t_build, "the same bytes" if not differ else
              "%s size, %d bytes differ (not bit-for-bit reproducible across build folders)"
              % ("the same" if len(built) == len(data) else "another", differ)))
    print("make uf2 again with nothing changed: %.2f s%s" % (t_again, ", nothing rebuilt" if "firmware" not in said
                                                                else ", REBUILT: " + said[-200:]))
    if os.path.isfile(UF2_PICO2):
        print("build/layerlight-pico2.uf2 (make uf2-pico2, RP2350): %d KB; not measured further (rp2040js "
              "emulates the RP2040 only)" % (os.path.getsize(UF2_PICO2) // 1024))
    if rom is None:
        return
    with tempfile.TemporaryDirectory() as tmp:
        image = os.path.join(tmp, "flash.bin")
        blank = first_frame_ms(rom, image)   # a blank chip: LittleFS formatted on the way
        again = first_frame_ms(rom, image)   # the same chip powered on again
    print("power on to the menu's first frame, the Layerlight UF2: %.0f ms of the Pico's time on a blank chip "
          "(LittleFS made on the way), %.0f ms on the next power on (bench_pico: the stock UF2 with .mpy files)"
          % (blank, again))


if __name__ == "__main__":
    main()
