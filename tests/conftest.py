"""How `make test` spreads the tests over this machine's cores (pytest-xdist, `-n auto
--dist loadgroup`), and what it says at the end.

- Tests that share a module-scoped fixture (a flashed image, a board booted once) run on one
  worker, so that the fixture is made once: each gets an xdist_group named for its module and
  those fixtures. Every other test goes wherever a worker is free.
- The heaviest start first, so that no worker is left with a long test at the end while the
  other sits idle: the emulated chip's tests (their files in HEAVY, heaviest first), then
  everything else in the order collected.
- The run ends with its ten slowest tests and its total (`--durations=10` and pytest's own
  summary line, set in the Makefile), so that a change that adds minutes shows in its own run.
"""

import pytest

# the emulated Pico's flash images, defined here once for every file (imported into each test
# file, a session fixture would be a definition of that file's and made again for each)
from uf2_fixture import stock_flashed, uf2_image  # noqa: F401 (pytest fixtures)

# The test files that run the emulated RP2040, heaviest first (docs/development.md says what
# each proves that no quicker test does). A file not named here runs after these.
HEAVY = [
    "test_emulated_pico.py",
    "test_emulated_journal.py",
    "test_emulated_worst.py",
    "test_watchdog.py",
    "test_emulated_uf2.py",
    "test_emulated_native.py",
    "test_enclosure.py",
    "test_doctor.py",
    "test_monitor.py",
    "test_flash.py",
    "test_web_flash.py",
]
SHARED_SCOPES = ("module", "class", "package")


def _shared_fixtures(item):
    """The fixtures this test shares with others of its file: module-scoped ones, and
    session-scoped ones the file defines itself (the enclosure's renders). A session fixture
    from a helper module (uf2_fixture.uf2_image) is made once per worker wherever it runs."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    shared = []
    for name, defs in info.name2fixturedefs.items():
        if not defs:
            continue
        d = defs[-1]
        own = getattr(d.func, "__module__", None) == item.module.__name__
        if d.scope in SHARED_SCOPES or (d.scope == "session" and own):
            shared.append(name)
    return sorted(shared)


def _in_group(item, group):
    """Put the test in a group of xdist's loadgroup: its node id ends "@group", which is how the
    controller tells the groups apart. pytest-xdist 3.8.0 does this itself for xdist_group marks
    by setting item._nodeid, which pytest 9 no longer reads (its node ids are item._id), so that
    every test went wherever a worker was free and shared fixtures were made on both workers.
    Done here for pytest 9 (requirements.txt pins both); if pytest changes again, this says so."""
    from _pytest.nodeid import coerce_node_id
    assert hasattr(item, "_id"), "pytest's node ids moved: tests/conftest.py groups no tests"
    item._id = coerce_node_id("%s@%s" % (item.nodeid, group))


@pytest.hookimpl(tryfirst=True)  # before xdist's own (which names groups as pytest 8 did)
def pytest_collection_modifyitems(session, config, items):
    # tests of one file that share any fixture, directly or through another test, are one group
    # (named for its fixtures): a fixture is made once, on the worker that runs its group
    parent = {}

    def find(key):
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key
    # and tests that carry one xdist_group mark, whatever their file (a session fixture two
    # files share: uf2_fixture.stock_flashed)
    keys = {}
    for item in items:
        keys[item] = [(item.module.__name__ + ":", name) for name in _shared_fixtures(item)]
        keys[item] += [("", mark.args[0]) for mark in item.iter_markers("xdist_group")]
        for key in keys[item]:
            parent[find(key)] = find(keys[item][0])
    members = {}
    for key in parent:
        members.setdefault(find(key), []).append(key[0] + key[1])
    grouped = getattr(config.option, "loadgroup", False)  # set by xdist in a worker of --dist loadgroup
    for item in items:
        if keys[item] and grouped:
            _in_group(item, "+".join(sorted(members[find(keys[item][0])])))
    rank = {name: i for i, name in enumerate(HEAVY)}
    items.sort(key=lambda item: rank.get(item.path.name, len(HEAVY)))  # stable: the rest in order
