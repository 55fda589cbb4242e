"""Layer-set files: every mistake is one clear line naming the file and the line (or layer and cell)."""

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from layerlight_tools.layers import sets
from layerlight_tools.firmware_files import DEFAULT_SET

GOOD = '''name = "Tiny"
size = 3
background = "#ffffff"

[colors]
R = "#ff0000"
B = "#0000ff"

[[layers]]
id = "one"
front = """
RR.
R..
...
"""
back = """
.BB
..B
...
"""

[[layers]]
id = "two"
front = """
...
.B.
BBB
"""
back = """
...
.R.
RRR
"""
'''


def error_of(text, name="tiny.toml"):
    with pytest.raises(sets.SetError) as e:
        sets.loads(text.encode() if isinstance(text, str) else text, name)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(name)
    return msg


def test_the_good_set_and_the_default_set_load():
    s = sets.loads(GOOD, "tiny.toml")
    assert s.name == "Tiny" and s.size == 3 and [l.id for l in s.layers] == ["one", "two"]
    assert s.rows(s.layers[0].front) == ["RR.", "R..", "..."]
    d = sets.load(DEFAULT_SET)
    assert len(d.layers) == 5 and d.size == 6


def test_rows_may_be_lists_too():
    text = GOOD.replace('front = """\nRR.\nR..\n...\n"""', 'front = ["RR.", "R..", "..."]')
    assert sets.loads(text, "x.toml").layers[0].front == sets.loads(GOOD, "x.toml").layers[0].front


@pytest.mark.parametrize("change, expected", [
    # holes of back not the mirror of front: the layer, the cell and the line
    (lambda t: t.replace(".BB\n..B", ".BB\n.BB"), "tiny.toml:18: layer one: back row 2, column 2 is opaque, but front row 2, column 2 is a hole"),
    # unknown colour
    (lambda t: t.replace("...\n.B.\nBBB", "...\n.X.\nBBB"), "tiny.toml:26: layer two front row 2, column 2: unknown colour 'X'"),
    # wrong row length
    (lambda t: t.replace("RR.\nR..", "RR.\nR...."), "tiny.toml:13: layer one front row 2 has 5 cells, expected 3"),
    # wrong number of rows
    (lambda t: t.replace("RR.\nR..\n...\n", "RR.\nR..\n"), "tiny.toml:11: layer one front: 2 rows, expected 3"),
    # duplicate id
    (lambda t: t.replace('id = "two"', 'id = "one"'), "tiny.toml:23: duplicate layer id 'one' (layer 1 and layer 2)"),
    # size out of range
    (lambda t: t.replace("size = 3", "size = 17"), "tiny.toml:2: size must be a whole number from 2 to 16, not 17"),
    (lambda t: t.replace("size = 3", "size = \"3\""), "tiny.toml:2: size must be a whole number"),
    (lambda t: t.replace("size = 3\n", ""), "tiny.toml: size is missing"),
    # fewer than 2 layers
    (lambda t: t[:t.index("[[layers]]\nid = \"two\"")], "tiny.toml:9: a set needs at least 2 [[layers]], found 1"),
    # invalid TOML
    (lambda t: t.replace('R = "#ff0000"', 'R = #ff0000'), "tiny.toml:6: invalid TOML"),
    # colours
    (lambda t: t.replace('R = "#ff0000"', 'R = "red"'), "tiny.toml:6: colour R must look like"),
    (lambda t: t.replace('R = "#ff0000"', '"." = "#ff0000"'), "tiny.toml:6: colour key '.' must be"),
    (lambda t: t.replace('background = "#ffffff"', 'background = 7'), "tiny.toml:3: background must be a colour"),
    (lambda t: t.replace('id = "one"', 'id = "one two"'), "tiny.toml:10: layer 1: id must be"),
    (lambda t: t.replace('back = """\n...\n.R.', 'bak = """\n...\n.R.'), "tiny.toml:22: layer two: back is missing"),
    (lambda t: t.replace("[[layers]]", "[layers]", 1).replace("[[layers]]", "[other]"), "tiny.toml: layers must be [[layers]] tables"),
])
def test_each_mistake_is_one_line_with_the_place(change, expected):
    assert error_of(change(GOOD)).startswith(expected)


def test_not_text_at_all():
    assert "not a text file" in error_of(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    assert "not a text file" in error_of("size = 3\x00")
    with pytest.raises(sets.SetError) as e:
        sets.load("/nonexistent/set.toml")
    assert str(e.value).startswith("/nonexistent/set.toml: cannot read")


def test_too_many_colours():
    colours = "".join('%s = "#000000"\n' % c for c in "ABCDEFGHIJKLMNOP")
    msg = error_of(GOOD.replace('R = "#ff0000"\nB = "#0000ff"\n', colours))
    assert "16 colours; at most 15" in msg


def test_the_command_prints_one_line_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace(".BB\n..B", ".BB\n.BB"))
    r = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "cards", "build", str(bad), "-o", str(tmp_path / "x.deck")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "layer one: back row 2, column 2" in r.stderr
    assert not (tmp_path / "x.deck").exists()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_damage_to_a_set_file_is_a_set_or_one_line(data):
    """Characters deleted, inserted or replaced anywhere: a set, or one SetError line; nothing else."""
    text = GOOD
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        how = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        ch = data.draw(st.sampled_from(list('.RBX"=[]#\n 0aé\x00\xff')))
        if how == "delete":
            text = text[:at] + text[at + 1:]
        elif how == "insert":
            text = text[:at] + ch + text[at:]
        else:
            text = text[:at] + ch + text[at + 1:]
    try:
        s = sets.loads(text.encode("utf-8", "surrogatepass"), "f.toml")
    except sets.SetError as e:
        assert "\n" not in str(e) and str(e).startswith("f.toml")
    else:
        assert len(s.layers) >= 2


def test_a_pattern_typed_as_rows():
    s = sets.loads(GOOD, "tiny.toml")
    assert sets.parse_pattern("# a comment\nRR.\nRB.\nBBB\n", s) == bytes([1, 1, 0, 1, 2, 0, 2, 2, 2])
    with pytest.raises(sets.SetError) as e:
        sets.parse_pattern("RR.\nRZ.\nBBB\n", s, "p.txt")
    assert str(e.value).startswith("p.txt:2: unknown colour 'Z'")
    with pytest.raises(sets.SetError) as e:
        sets.parse_pattern("RR.\nRB\nBBB\n", s, "p.txt")
    assert str(e.value) == "p.txt:2: row 2 has 2 cells, expected 3"


@pytest.mark.parametrize("kind", ["otl0", "Layers", "tiles", 3])
def test_an_unknown_kind_is_named_with_the_kinds_there_are(tmp_path, kind):
    """A typo in `kind` (kind = "otl0") says so, with its line and the kinds, not "size is missing"."""
    path = tmp_path / "mine.toml"
    path.write_text('name = "x"\nkind = %s\ntile = [2, 2]\n' % (('"%s"' % kind) if isinstance(kind, str) else kind))
    with pytest.raises(sets.SetError) as e:
        sets.load(str(path))
    text = str(e.value)
    assert text.startswith("%s:2: unknown kind %r" % (path, kind)) and '"layers"' in text and '"otlo"' in text
    assert "\n" not in text
