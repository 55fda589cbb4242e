"""Where `make uf2` takes MicroPython's source from, and `make dist`.

In order: MICROPYTHON=DIR (a checkout of the tag), MPY_TARBALL=FILE (by default the tarball
beside the repository, where it exists), else a shallow clone of the tag into build/. Offline
with none of them, one line naming the three. These run `make -n` (nothing built, nothing
fetched) on a copy of the repository's build files in a folder with nothing beside it, as a
fresh clone is; "offline" is a GIT that fails or a URL nobody answers, so no network is needed.
"""

import hashlib
import os
import shutil
import subprocess

import pytest

from layerlight_tools import uf2
from layerlight_tools.errors import UserError

import uf2_fixture

REPO = uf2_fixture.REPO
TAG = "v1.28.0"
BUILD_FILES = ("Makefile", "manifest.py", "uf2", "requirements.txt", "pyproject.toml", "package.json",
               "package-lock.json", "firmware", "patches", "host_tools")
UNREACHABLE = "http://127.0.0.1:9/micropython.git"  # the discard port: refused at once


@pytest.fixture
def clone(tmp_path):
    """A fresh clone's build files in tmp/repo, nothing beside it (no tarball or source tree beside it)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for name in BUILD_FILES:
        src = os.path.join(REPO, name)
        if os.path.isdir(src):
            shutil.copytree(src, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, repo / name)
    return repo


def make(repo, *args):
    """make -n (what it would run) as a person runs it: not under another make's variables."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MPY_TARBALL",
                                                            "MICROPYTHON", "GIT", "MPY_GIT_URL")}
    return subprocess.run(["make", "-n"] + list(args), cwd=str(repo), capture_output=True, text=True,
                          timeout=120, env=env)


def one_line_error(r):
    assert r.returncode != 0, r.stdout
    lines = r.stderr.strip().split("\n")
    assert len(lines) == 1 and "***" in lines[0], r.stderr
    return lines[0]


def the_three_ways(line):
    assert "MICROPYTHON=DIR" in line and "MPY_TARBALL=FILE" in line and "clone" in line, line


def test_offline_with_no_source_stops_in_one_line_naming_the_three_ways(clone):
    the_three_ways(one_line_error(make(clone, "uf2", "GIT=false")))
    # a real git, the network not answering (a refused connection)
    line = one_line_error(make(clone, "uf2", "MPY_GIT_URL=" + UNREACHABLE))
    the_three_ways(line)
    assert UNREACHABLE in line
    the_three_ways(one_line_error(make(clone, "dist", "GIT=false")))


def test_with_no_local_source_make_uf2_clones_the_tag_and_its_submodules_into_build(clone):
    r = make(clone, "uf2", "GIT=true")  # a git that answers the network's question
    assert r.returncode == 0, r.stderr
    tree = "build/micropython-" + TAG
    assert "true -c advice.detachedHead=false clone --depth 1 --branch %s " \
           "https://github.com/micropython/micropython.git %s" % (TAG, tree) in r.stdout
    assert "-C %s/ports/rp2 submodules" % tree in r.stdout
    # the port is built in the clone; pico-sdk brings its own picotool (none given)
    assert "-C %s/ports/rp2 -j2 BOARD_DIR=" % os.path.join(str(clone), tree) in r.stdout
    assert "picotool_DIR" not in r.stdout and "tar -x" not in r.stdout


def test_the_tarball_beside_the_repository_comes_before_a_clone(clone):
    shared = clone.parent / "shared" / "micropython"
    shared.mkdir(parents=True)
    (shared / ("mpsrc-%s.tar.xz" % TAG)).write_bytes(b"")
    r = make(clone, "uf2", "GIT=false")  # the network is not even asked
    assert r.returncode == 0, r.stderr
    assert "tar -xJf ../shared/micropython/mpsrc-%s.tar.xz -C build" % TAG in r.stdout
    assert "clone" not in r.stdout
    assert "-C %s/ports/rp2 " % os.path.join(str(clone), "build", "mpsrc") in r.stdout
    assert "picotool_DIR=%s/build/mpsrc/offline-tools/picotool-install/picotool" % clone in r.stdout


def test_mpy_tarball_names_another_tarball_and_a_missing_one_is_one_line(clone, tmp_path):
    tarball = tmp_path / "elsewhere.tar.xz"
    tarball.write_bytes(b"")
    r = make(clone, "uf2", "MPY_TARBALL=%s" % tarball, "GIT=false")
    assert r.returncode == 0, r.stderr
    assert "tar -xJf %s -C build" % tarball in r.stdout and "clone" not in r.stdout
    line = one_line_error(make(clone, "uf2", "MPY_TARBALL=%s" % (tmp_path / "nothing.tar.xz"), "GIT=false"))
    assert "nothing.tar.xz: no such file" in line
    the_three_ways(line)


def test_micropython_dir_comes_first_and_a_dir_that_is_no_source_is_one_line(clone, tmp_path):
    tree = tmp_path / "mp"
    (tree / "ports" / "rp2").mkdir(parents=True)
    (tree / "ports" / "rp2" / "Makefile").write_text("")
    shared = clone.parent / "shared" / "micropython"
    shared.mkdir(parents=True)
    (shared / ("mpsrc-%s.tar.xz" % TAG)).write_bytes(b"")
    r = make(clone, "uf2", "MICROPYTHON=%s" % tree, "GIT=false")
    assert r.returncode == 0, r.stderr
    assert "-C %s/ports/rp2 -j2 BOARD_DIR=" % tree in r.stdout
    assert "tar -x" not in r.stdout and "clone" not in r.stdout
    line = one_line_error(make(clone, "uf2", "MICROPYTHON=%s" % (tmp_path / "none"), "GIT=false"))
    assert "is not a MicroPython source tree" in line


def test_make_test_in_a_fresh_clone_builds_no_uf2_and_asks_no_network(clone):
    """No tarball, no tree: make test runs the tests (the UF2's skip) without cloning anything;
    with a tarball beside the repository it builds the UF2 first."""
    r = make(clone, "test", "GIT=false")
    assert r.returncode == 0, r.stderr
    assert "pytest" in r.stdout
    assert "clone" not in r.stdout and "ports/rp2" not in r.stdout and "tar -x" not in r.stdout
    shared = clone.parent / "shared" / "micropython"
    shared.mkdir(parents=True)
    (shared / ("mpsrc-%s.tar.xz" % TAG)).write_bytes(b"")
    r = make(clone, "test", "GIT=false")
    assert r.returncode == 0, r.stderr
    assert "tar -xJf" in r.stdout and "layerlight_tools.uf2 assemble" in r.stdout


def test_dist_names_the_uf2_for_its_version_with_its_sha256(tmp_path):
    image = uf2.pack([(uf2.XIP_BASE + at, bytes([at // 256 % 256]) * 256, 0xE48BFF56) for at in range(0, 4096, 256)])
    src = tmp_path / "layerlight-pico.uf2"
    src.write_bytes(image)
    module = tmp_path / "layerlight_build.py"
    module.write_text(uf2.version_module("0.1.0+gabc1234"))
    out, digest = uf2.dist(str(src), uf2.frozen_version(str(module)), str(tmp_path / "dist"))
    assert out == str(tmp_path / "dist" / "layerlight-pico-0.1.0+gabc1234.uf2")
    assert open(out, "rb").read() == image and digest == hashlib.sha256(image).hexdigest()
    r = subprocess.run(["sha256sum", "-c", os.path.basename(out) + ".sha256"], cwd=str(tmp_path / "dist"),
                       capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip().endswith(": OK"), r.stdout + r.stderr
    src.write_bytes(image[:700])
    with pytest.raises(UserError) as e:
        uf2.dist(str(src), "0.1.0", str(tmp_path / "dist"))
    assert "is not a UF2 file" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.chip  # the Layerlight UF2 built (make uf2): make test, not make quick
def test_make_dist_gives_the_built_uf2_under_its_frozen_version():
    built = uf2_fixture.built_uf2()
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    r = subprocess.run(["make", "-s", "dist"], cwd=REPO, capture_output=True, text=True, timeout=1800, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    version = uf2.frozen_version(os.path.join(REPO, "build", "uf2", "layerlight_build.py"))
    name = "layerlight-pico-%s.uf2" % version
    dist = os.path.join(REPO, "dist")
    with open(os.path.join(dist, name), "rb") as f, open(built, "rb") as g:
        assert f.read() == g.read()
    check = subprocess.run(["sha256sum", "-c", name + ".sha256"], cwd=dist, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
