"""The card toolchain: the search against brute force on random small sets, decks, export, check, commands."""

import io
import json
from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layerlight import geometry, stacking
from layerlight.deck import Deck, DeckError
from layerlight.solver import Solver
from layerlight_tools import cli
from layerlight_tools.layers import cards, deckpack, sets, stackings
from layerlight_tools.firmware_files import DEFAULT_DECK, DEFAULT_SET


# --- random small sets and a brute force over them ---------------------------

@st.composite
def small_sets(draw):
    n = draw(st.integers(2, 3))
    ncol = draw(st.integers(1, 3))
    nl = draw(st.integers(2, 4 if n == 2 else 3))
    layers = []
    for k in range(nl):
        front = bytes(draw(st.lists(st.integers(0, ncol), min_size=n * n, max_size=n * n)))
        back = bytearray(n * n)
        for y in range(n):
            for x in range(n):
                if front[y * n + n - 1 - x]:
                    back[y * n + x] = draw(st.integers(1, ncol))
        layers.append(geometry.Layer("l%d" % k, front, bytes(back), n))
    colours = [("RBYG"[i], (40 * i, 200, 100)) for i in range(ncol)]
    return sets.LayerSet("random", n, (250, 250, 240), colours, layers)


def brute_force(layer_set):
    """{level: {pattern: [placements]}}: every stacking of 1..5 distinct layers, composed one by one."""
    n, layers = layer_set.size, layer_set.layers
    out = {}
    for k in range(1, min(5, len(layers)) + 1):
        found = {}
        for picks in permutations(range(len(layers)), k):
            for orients in product(range(8), repeat=k):
                placement = list(zip(picks, orients))
                found.setdefault(bytes(stacking.compose(layers, placement, n)), []).append(placement)
        out[k] = found
    return out


def min_levels(brute):
    low = {bytes(len(next(iter(brute[1])))): 0}  # no layer at all shows the bare background
    for k in sorted(brute):
        for p in brute[k]:
            low.setdefault(p, k)
    return low


def search_result(layer_set):
    found = stackings.missions(layer_set.layers, layer_set.size, len(layer_set.colours))
    out = {}
    for level, c in found.items():
        grids = stackings.to_grids(c.planes, layer_set.size ** 2)
        out[level] = {bytes(g): (int(n), float(v)) for g, n, v in zip(grids, c.counts, c.visible)}
    return out


SMALL = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SMALL
@given(small_sets())
def test_the_search_finds_exactly_the_missions_of_a_brute_force(layer_set):
    brute = brute_force(layer_set)
    low = min_levels(brute)
    mine = search_result(layer_set)
    for level in brute:
        want = {p: sols for p, sols in brute[level].items() if low[p] == level}
        assert bytes(layer_set.size ** 2) not in mine[level]
        assert set(mine[level]) == set(want)
        for p, sols in want.items():
            count, visible = mine[level][p]
            assert count == len(sols)
            assert visible == cards.best_solution(layer_set.layers, sols, layer_set.size)[0]


@SMALL
@given(small_sets())
def test_the_solver_finds_every_stacking_of_any_pattern(layer_set):
    brute = brute_force(layer_set)
    low = min_levels(brute)
    solver = Solver(layer_set.layers)
    for level, found in brute.items():
        for p, sols in found.items():
            assert sorted(map(tuple, solver.solutions(p, level, hidden=True))) == sorted(map(tuple, sols))
            shown = [s for s in sols if cards.visibility(layer_set.layers, s, layer_set.size) > 0]
            assert sorted(map(tuple, solver.solutions(p, level))) == sorted(map(tuple, shown))
            assert solver.min_level(p) == low[p]


@SMALL
@given(small_sets())
def test_every_exported_mission_holds_against_a_brute_force(tmp_path_factory, layer_set):
    path = str(tmp_path_factory.mktemp("deck") / "random.deck")
    built = cards.build(layer_set, per_level=1000)
    cards.write(layer_set, built, path)
    brute = brute_force(layer_set)
    low = min_levels(brute)
    exported = cards.export(path)
    ids = {l.id: i for i, l in enumerate(layer_set.layers)}
    assert [m["id"] for m in exported["missions"]] == [m.id for m in built]
    for m in exported["missions"]:
        pattern = sets.parse_pattern("\n".join(m["pattern"]), layer_set)
        sols = [[(ids[p["layer"]], geometry.orientation(p["side"], p["rot"])) for p in s] for s in m["solutions"]]
        for s in sols:  # the mission comes out of each of its solutions
            assert bytes(stacking.compose(layer_set.layers, s, layer_set.size)) == pattern
        # the list is every solution, each once
        assert sorted(map(tuple, sols)) == sorted(map(tuple, brute[m["level"]][pattern]))
        # and no fewer layers make it
        assert low[pattern] == m["level"]
        assert 0 <= m["difficulty"] <= 1
    assert cards.check(path) == []


@SMALL
@given(small_sets())
def test_a_deck_survives_write_and_read_unchanged(layer_set):
    built = cards.build(layer_set, per_level=1000)
    data = deckpack.pack(layer_set, built)
    d = Deck(Bytes(data), "d.deck")
    assert (d.size, d.name, d.background, len(d.layers), d.count) == (
        layer_set.size, layer_set.name, layer_set.background, len(layer_set.layers), len(built))
    assert d.colour_chars == [c for c, _ in layer_set.colours]
    assert [(l.id, l.front, l.back) for l in d.layers] == [(l.id, l.front, l.back) for l in layer_set.layers]
    back = [d.mission(i) for i in range(d.count)]
    assert [(m.id, m.level, m.difficulty, m.solution_count, m.pattern, m.solution) for m in back] == \
        [(m.id, m.level, m.difficulty, m.solution_count, m.pattern, m.solution) for m in built]
    for level in range(2, 6):
        assert [d.level_mission(level, k).id for k in range(d.level_count(level))] == [m.id for m in built if m.level == level]


def test_hash_collisions_never_merge_different_patterns(monkeypatch):
    layer_set = sets.load(DEFAULT_SET)
    layer_set.layers = layer_set.layers[:3]
    honest = search_result(layer_set)
    monkeypatch.setattr(stackings, "_hash", lambda keys: (keys[:, -1] & np.uint64(3)).copy())
    assert search_result(layer_set) == honest


# --- the shipped deck -------------------------------------------------------------

class Bytes:
    def __init__(self, data):
        self.data = data

    def open_read(self, name):
        return io.BytesIO(self.data)


def test_shipped_deck_levels_spread_over_difficulty_and_nothing_is_nearly_the_same():
    d = cards.open_deck(DEFAULT_DECK)
    ms = cards.missions_of(d)
    assert [m.id for m in ms] == list(range(1, len(ms) + 1))
    for level in (2, 3, 4, 5):
        grades = [m.difficulty for m in ms if m.level == level]
        assert grades == sorted(grades) and grades[-1] - grades[0] > 0.05
    near = cards.NearCheck(d.size)
    for m in ms:
        assert not near.clashes(m.pattern)
        near.add(m.pattern)
    # harder levels grade harder on the whole
    means = [np.mean([m.difficulty for m in ms if m.level == k]) for k in (2, 3, 4, 5)]
    assert means == sorted(means)


def test_nearly_the_same_means_a_turn_or_mirror_away_from_a_few_cells():
    n = 6
    near = cards.NearCheck(n)
    assert near.limit == 4
    a = bytes([1, 2, 3, 0, 0, 0] * 6)
    near.add(a)
    turned = bytes(np.rot90(np.frombuffer(a, np.uint8).reshape(n, n)).reshape(-1))
    assert near.clashes(turned)
    changed = bytearray(turned)
    for i in range(4):
        changed[i * 7] = 4
    assert near.clashes(bytes(changed))
    changed[35] = 4
    changed[30] = 4
    assert not near.clashes(bytes(changed))


def test_difficulty_is_the_documented_formula():
    assert float(cards.difficulty(5, 1, 0.0)) == 1.0
    assert float(cards.difficulty(3, 4, 0.5)) == 0.5  # 0.3 + 0.15 + 0.05
    grades = cards.difficulty(np.array([3, 3]), np.array([1, 9]), np.array([0.5, 0.5]))
    assert grades[0] > grades[1]


# --- the commands ---------------------------------------------------------------

def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def small_deck(tmp_path_factory):
    path = tmp_path_factory.mktemp("cards") / "small.deck"
    s = sets.load(DEFAULT_SET)
    cards.write(s, cards.build(s, per_level=6), str(path))
    return str(path)


def test_build_check_show_export(capsys, tmp_path, small_deck):
    out_deck = str(tmp_path / "x.deck")
    code, out, err = run(capsys, "cards", "build", DEFAULT_SET, "-o", out_deck, "--per-level", "5", "-q")
    assert code == 0 and "20 missions (level 2: 5, level 3: 5, level 4: 5, level 5: 5)" in out
    code, out, err = run(capsys, "cards", "check", out_deck)
    assert code == 0 and "all 20 missions checked" in out
    code, out, err = run(capsys, "cards", "show", small_deck, "24", "--color", "always")
    assert code == 0 and "mission 24" in out and "level 5" in out and "\x1b[48;2;" in out
    assert "every solution" in out and " > " in out
    code, out, err = run(capsys, "cards", "export", small_deck, "--json")
    data = json.loads(out)
    assert data["format"] == "layerlight.deck" and data["version"] == 1
    assert data["set"]["size"] == 6 and len(data["set"]["layers"]) == 5
    m = data["missions"][-1]
    assert set(m) >= {"id", "level", "pattern", "solutions", "difficulty"} and len(m["solutions"][0]) == m["level"]
    assert {"layer", "side", "rot"} == set(m["solutions"][0][0])


def test_solve_lists_every_solution_of_a_typed_pattern(capsys, tmp_path, small_deck):
    d = cards.open_deck(small_deck)
    m = d.level_mission(4, 2)
    pattern_file = tmp_path / "p.txt"
    pattern_file.write_text("# level 4\n" + "\n".join(cards.rows_of(d, m.pattern)) + "\n")
    code, out, err = run(capsys, "solve", DEFAULT_SET, str(pattern_file))
    assert code == 0 and "fewest layers: 4" in out
    assert "%d solution" % m.solution_count in out
    sols = Solver(d.layers).solutions(m.pattern, 4)
    for s in sols:
        assert " > ".join("%s %s %d" % (d.layers[li].id, geometry.side_of(o), geometry.rot_of(o)) for li, o in s) in out
    pattern_file.write_text("RRRRRR\n" * 6)
    code, out, err = run(capsys, "solve", DEFAULT_SET, str(pattern_file))
    assert code == 1 and "no stacking" in out
    pattern_file.write_text("RRRRRR\n" * 5 + "RRRRQR\n")
    code, out, err = run(capsys, "solve", DEFAULT_SET, str(pattern_file))
    assert code == 2 and "p.txt:6: unknown colour 'Q'" in err and "Traceback" not in err


def test_render_prints_cards_and_layers_at_real_size(capsys, tmp_path, small_deck):
    pdf = tmp_path / "cards.pdf"
    code, out, err = run(capsys, "cards", "render", small_deck, "-o", str(pdf), "--png", str(tmp_path / "png"), "--dpi", "50")
    assert code == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 1
    # 24 missions = 3 sheets of 9, fronts and backs; 5 layers = 1 sheet of 6, front and back
    pages = sorted((tmp_path / "png").iterdir())
    assert len(pages) == 8
    from PIL import Image
    with Image.open(pages[0]) as img:
        assert img.size == (round(210 / 25.4 * 50), round(297 / 25.4 * 50))
    from layerlight_tools.layers import render
    sheets = render.pages(cards.open_deck(small_deck))
    texts = [op[3] for op in sheets[1].ops if op[0] == "text"]
    assert "LEVEL" in texts and "2" in texts  # the level on the back


@pytest.mark.parametrize("damage, words", [
    (lambda b: b[: len(b) - 100], "deck truncated"),
    (lambda b: b[:300] + bytes([b[300] ^ 0x04]) + b[301:], "checksum wrong"),
    (lambda b: b[:4] + bytes([3]) + b[5:], "newer than this firmware reads"),
    (lambda b: b"hello", "not a deck file"),
])
@pytest.mark.parametrize("command", [["check"], ["export", "--json"], ["show", "@", "1"], ["render", "-o", "x.pdf"]])
def test_tools_refuse_a_damaged_deck_with_one_line(capsys, tmp_path, damage, words, command):
    bad = tmp_path / "bad.deck"
    bad.write_bytes(damage(open(DEFAULT_DECK, "rb").read()))
    argv = ["cards", command[0], str(bad)] + [a for a in command[1:] if a != "@"]
    if command[1:2] == ["-o"]:
        argv = ["cards", "render", str(bad), "-o", str(tmp_path / "x.pdf")]
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and words in err and str(bad) in err


def test_a_deck_too_big_for_the_builder_is_one_line():
    s = sets.load(DEFAULT_SET)
    many = sets.LayerSet("many", s.size, s.background, s.colours, s.layers * 3)
    with pytest.raises(cards.BuildError) as e:
        cards.build(many)
    assert "--max-level" in str(e.value)


def test_damaged_deck_messages_name_the_problem_on_the_device_reader():
    data = open(DEFAULT_DECK, "rb").read()
    for bad, words in ((data[:-1], "truncated (%d of %d bytes)" % (len(data) - 1, len(data))),
                       (data[:9], "truncated"), (data[:3], "truncated")):
        with pytest.raises(DeckError) as e:
            Deck(Bytes(bad), "d")
        assert words in str(e.value)
