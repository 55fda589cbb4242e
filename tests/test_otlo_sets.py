"""OTLO tile-set files: every mistake is one clear line naming the file and the line, tile, row or field."""

import pytest

from layerlight_tools.otlo import sets as otlo_sets

GOOD = '''name = "Pebbles"
kind = "otlo"
tile = [2, 2]

[colors]
R = "#d1495b"
B = "#1d70b8"

[[tiles]]
id = "a"
front = """
R.
BB
"""
back = """
.R
RB
"""

[[tiles]]
id = "b"
front = """
RB
B.
"""
back = """
BB
.R
"""
'''


def error_of(text, name="pebbles.toml"):
    with pytest.raises(otlo_sets.OtloSetError) as e:
        otlo_sets.loads(text.encode(), name)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(name)
    return msg


def test_the_good_set_parses():
    s = otlo_sets.loads(GOOD, "pebbles.toml")
    assert (s.name, s.tile, s.stars) == ("Pebbles", (2, 2), {1: 8, 2: 12, 3: 16})
    assert s.colours == [("R", (0xd1, 0x49, 0x5b)), ("B", (0x1d, 0x70, 0xb8))]
    assert [t.id for t in s.tiles] == ["a", "b"]
    assert s.tiles[0].front == bytes((1, 0, 2, 2)) and s.tiles[0].back == bytes((0, 1, 1, 2))
    assert s.table == otlo_sets.TABLE and max(s.table) - min(s.table) == 0 and max(s.table) < 80  # dark grey


def test_the_default_set_parses():
    s = otlo_sets.load("host_tools/sets/otlo.toml")
    assert s.tile == (2, 2) and len(s.tiles) == 6 and len(s.colours) == 3
    for t in s.tiles:
        for side in (t.front, t.back):
            assert 1 <= side.count(0) <= 2  # one or two holes a side


def test_stars_can_be_changed():
    s = otlo_sets.loads(GOOD.replace('tile = [2, 2]', 'tile = [2, 2]\n[stars]\n1 = 4\n'), "p.toml")
    assert s.stars == {1: 4, 2: 12, 3: 16}


@pytest.mark.parametrize("change, message", [
    (lambda t: t.split('[[tiles]]\nid = "b"')[0],
     "pebbles.toml:9: a set needs at least 2 [[tiles]], found 1"),
    (lambda t: t.replace("R.\nBB\n", "R.\nBB\nBB\n"), "pebbles.toml:11: tile a front: 3 rows, expected 2"),
    (lambda t: t.replace("R.\nBB\n", "R.B\nBB\n"), "pebbles.toml:12: tile a front row 1 has 3 cells, expected 2"),
    (lambda t: t.replace(".R\nRB\n", "R.\nRB\n"),
     "pebbles.toml:16: tile a: back row 1, column 1 is a gem, but front row 1, column 2 is a hole"),
    (lambda t: t.replace(".R\nRB\n", ".R\nB.\n"),
     "pebbles.toml:17: tile a: back row 2, column 2 is a hole, but front row 2, column 1 is a gem"),
    (lambda t: t.replace("RB\nB.\n", "..\n..\n").replace("BB\n.R\n", "..\n.."),
     "pebbles.toml:22: tile b front has no gem"),
    (lambda t: t.replace("R.\nBB\n", "R.\nBG\n"),
     "pebbles.toml:13: tile a front row 2, column 2: unknown colour 'G' (not in [colors])"),
    (lambda t: t.replace('id = "b"', 'id = "a"'), "pebbles.toml:21: duplicate tile id 'a' (tile 1 and tile 2)"),
    (lambda t: t.replace("tile = [2, 2]", "tile = [5, 2]"), "pebbles.toml:3: tile must be [width, height] from 1 x 2 to 4 x 4"),
    (lambda t: t.replace("tile = [2, 2]", "tile = [1, 1]"), "pebbles.toml:3: tile must be [width, height]"),
    (lambda t: t.replace('kind = "otlo"', 'kind = "layers"'), "pebbles.toml:2: kind must be \"otlo\""),
    (lambda t: t.replace('B = "#1d70b8"', 'B = "blue"'), "pebbles.toml:7: colour B must look like \"#d1495b\""),
    (lambda t: t.replace('B = "#1d70b8"', '_ = "#1d70b8"'), "pebbles.toml:7: colour key '_' must be one printable"),
    (lambda t: t.replace('tile = [2, 2]', 'tile = [2, 2]\n[stars]\n2 = 10\n'),
     "pebbles.toml:5: stars 2: 10 cells; a shape the tiles cover has a multiple of 4 cells"),
    (lambda t: t.replace('tile = [2, 2]', 'tile = [2, 2]\n[stars]\n4 = 8\n'),
     "pebbles.toml:5: stars: '4' is not a star level"),
    (lambda t: t.replace('name = "Pebbles"', 'name = "Pebbles'), "pebbles.toml:1: invalid TOML"),
])
def test_each_mistake_is_one_line(change, message):
    assert error_of(change(GOOD)).startswith(message)


def test_an_unreadable_file_is_one_line(tmp_path):
    with pytest.raises(otlo_sets.OtloSetError, match="cannot read"):
        otlo_sets.load(str(tmp_path / "missing.toml"))
    assert not otlo_sets.is_otlo(str(tmp_path / "missing.toml"))
    p = tmp_path / "s.toml"
    p.write_text(GOOD)
    assert otlo_sets.is_otlo(str(p))
