"""The emulated Pico's flash images, as fixtures for any test (tests/conftest.py makes them
known to every test file: one definition, so each is made once per worker):

    def test_something(uf2_image, tmp_path):
        image = uf2_fixture.copy_image(uf2_image, tmp_path)
        pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], image)
        ...

`stock_flashed` is a Pico on the stock MicroPython UF2 with the firmware put on by
`layerlight flash` from a blank chip, then powered off and on and flashed again unchanged
(what both flashes did, the frames of the boot between them). Tests that use it carry
`pytest.mark.xdist_group("stock-flashed")`, so that make test's workers make it once.

`uf2_image` is made once per test session: a blank chip powered on with the UF2 alone
(what it printed and drew, what its filesystem and ROMFS held), then the short-game
settings of tests/pico_games.py put on by `layerlight flash`, which copies only the
table's own files onto a board running the UF2. Its flash image holds the firmware,
the decks (ROMFS) and those settings, as a table's Pico would after one flash.

The UF2 comes from `make uf2` (run here: it does nothing when it is up to date; `make
test` built it before). Where MicroPython's source and the boot ROM are at hand these tests
must run: a missing tarball, boot ROM or a failed build is a failure, not a skip.
"""

import os
import shutil
import subprocess

import pytest

import pico_games
from layerlight_tools import devicefs, doctor
from layerlight_tools.pico import target
from layerlight_tools.pico.bridge import SerialBridge

REPO = target.REPO
SHARED_MICROPYTHON = os.path.normpath(os.path.join(REPO, "..", "shared", "micropython"))
UF2 = os.path.join(REPO, "build", "layerlight-pico.uf2")
SIZE = 16
SETTINGS = dict(pico_games.SHORT, width=SIZE, height=SIZE)
BOOT_MS = 1500  # emulated ms a blank chip is watched for after power on


def built_uf2():
    """build/layerlight-pico.uf2, brought up to date by `make uf2`."""
    if not os.path.isdir(SHARED_MICROPYTHON) and not os.path.isfile(UF2):
        pytest.skip("no ../shared/micropython to build the Layerlight UF2 from")
    # one make at a time: make test's workers each ask, and two makes of the port at once
    # would build over each other (a changed firmware file, between two runs)
    import fcntl
    os.makedirs(os.path.join(REPO, "build"), exist_ok=True)
    with open(os.path.join(REPO, "build", ".uf2.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        r = subprocess.run(["make", "-s", "uf2"], cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, "make uf2 failed:\n" + (r.stdout + r.stderr)[-3000:]
    assert os.path.isfile(UF2)
    return UF2


def boot_rom():
    _uf2, rom = target.shared_files()
    rom = target.chosen_files(None, None)[1] or rom
    if os.path.isdir(target.SHARED_RP2):
        assert rom, "%s exists but lacks the boot ROM" % target.SHARED_RP2
    elif not rom:
        pytest.skip("no boot ROM: set LAYERLIGHT_BOOTROM")
    return rom


def rp2_files():
    """The stock MicroPython UF2 and the boot ROM: LAYERLIGHT_UF2 / LAYERLIGHT_BOOTROM, else the
    ones kept beside the repository (where that folder exists, a missing one is a failure)."""
    uf2, rom = target.chosen_files()
    shared_uf2, shared_rom = target.shared_files()
    uf2, rom = uf2 or shared_uf2, rom or shared_rom
    if os.path.isdir(target.SHARED_RP2):
        assert uf2 and rom, "%s exists but lacks the UF2 or the boot ROM" % target.SHARED_RP2
    elif not (uf2 and rom):
        pytest.skip("no UF2 and boot ROM: set LAYERLIGHT_UF2 and LAYERLIGHT_BOOTROM")
    return uf2, rom


def booted(pico, ms=1500):
    """The frames a Pico powered on sends in its first ms of running its firmware."""
    pico.run_ms(ms)
    with pico.cond:
        return [f["data"] for f in pico.frames]


@pytest.fixture(scope="session")
def stock_flashed(tmp_path_factory):
    """A flash image with the firmware put on by `layerlight flash` from a blank chip, and what the
    first flash and an unchanged second one (after a power cycle) did."""
    uf2, rom = rp2_files()
    image = str(tmp_path_factory.mktemp("pico") / "flash.bin")
    pico = target.power_on(uf2, rom, image)
    try:
        first = target.flash(pico, SETTINGS)
    finally:
        pico.close(keep=True)
    pico = target.power_on(uf2, rom, image)
    try:
        # 2 s: the stock firmware imports its .mpy files from LittleFS (the journal's and the
        # chip's modules made that longer: 8 frames were on the wire by 1.5 s)
        boot_frames = booted(pico, 2000)
        second = target.flash(pico, SETTINGS)
    finally:
        pico.close(keep=True)
    return {"uf2": uf2, "rom": rom, "image": image, "first": first, "second": second, "boot_frames": boot_frames}


def look_inside(pico):
    """The board's own view, over its console (the firmware stopped, as mpremote stops it):
    its filesystem's top, its ROMFS decks, its versions as `layerlight doctor` words them."""
    with SerialBridge(pico) as bridge:
        board = devicefs.Board(bridge.port, timeout=60)
        try:
            info = board.info()
            return {"versions": doctor.versions(board, info), "uf2": board.layerlight_uf2(),
                    "root": board.eval("sorted(__import__('os').listdir('/'))"),
                    "rom": board.eval("sorted(__import__('os').listdir('/rom/decks'))"),
                    "rom_top": board.eval("sorted(__import__('os').listdir('/rom'))")}
        finally:
            board.close()


@pytest.fixture(scope="session")
def uf2_image(tmp_path_factory):
    uf2, rom = built_uf2(), boot_rom()
    image = str(tmp_path_factory.mktemp("uf2") / "flash.bin")
    pico = target.power_on(uf2, rom, image)  # no such file yet: a blank chip
    try:
        pico.run_ms(BOOT_MS)
        with pico.cond:
            lines = [text for _us, text in pico.lines]
            frames = [(f["start_us"], f["data"]) for f in pico.frames]
        writes = len(pico.flash_writes)
        inside = look_inside(pico)
        summary = target.flash(pico, SETTINGS)
    finally:
        pico.close(keep=True)
    return {"uf2": uf2, "rom": rom, "image": image, "boot_lines": lines, "boot_frames": frames,
            "boot_flash_writes": writes, "inside": inside, "flash": summary}


def copy_image(uf2_image, folder, name="flash.bin"):
    """A fresh copy of the fixture's flash image in folder; returns its path."""
    path = os.path.join(str(folder), name)
    shutil.copyfile(uf2_image["image"], path)
    return path
