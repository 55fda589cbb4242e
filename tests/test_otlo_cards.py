"""OTLO challenge decks through the `layerlight cards` commands: build, check, export, show, errors, the shipped deck."""

import json
import os
import re

import pytest

from layerlight import otlo_tiles as T
from layerlight.otlo_deck import OtloDeck
from layerlight_tools import cli, simcore
from layerlight_tools.otlo import cards as otlo_cards, deckpack as otlo_deckpack, search as otlo_search, sets as otlo_sets
from layerlight_tools.firmware_files import FIRMWARE, REPO, device_files
from test_otlo_search import brute_force

TINY = '''name = "Tiny"
kind = "otlo"
tile = [1, 2]
[colors]
R = "#d1495b"
B = "#1d70b8"
Y = "#f2c14e"
[stars]
1 = 2
2 = 4
3 = 6
[[tiles]]
id = "a"
front = ["R", "B"]
back = ["B", "Y"]
[[tiles]]
id = "b"
front = ["R", "."]
back = ["R", "."]
[[tiles]]
id = "c"
front = [".", "B"]
back = [".", "Y"]
'''
SHIPPED_SET = os.path.join(REPO, "host_tools", "sets", "otlo.toml")
SHIPPED_DECK = os.path.join(FIRMWARE, "decks", "otlo.deck")


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("otlo")
    (d / "tiny.toml").write_text(TINY)
    assert cli.main(["cards", "build", str(d / "tiny.toml"), "-o", str(d / "tiny.deck"), "-q", "--per-level", "6"]) == 0
    return d


def test_build_writes_a_deck_the_device_reads(tiny):
    deck = OtloDeck(simcore.MemoryStorage({"d": (tiny / "tiny.deck").read_bytes()}), "d")
    assert deck.name == "Tiny" and (deck.tile_w, deck.tile_h) == (1, 2) and len(deck.tiles) == 3
    assert deck.levels == (1, 2, 3) and all(deck.level_count(s) == 6 for s in (1, 2, 3))
    for c in otlo_cards.challenges_of(deck):
        assert sum(1 for v in c.pattern if v != T.OUTSIDE) == {1: 2, 2: 4, 3: 6}[c.stars]
        assert c.w <= otlo_search.MAX_BOX and c.h <= otlo_search.MAX_BOX
        assert 0 <= c.difficulty <= 1


def test_export_is_the_spec_json_and_every_count_holds_by_brute_force(tiny, capsys):
    code, out, _ = run(capsys, "cards", "export", tiny / "tiny.deck", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["format"], data["version"]) == ("layerlight.otlo-deck", 1)
    assert data["set"]["tile"] == [1, 2] and data["set"]["colors"]["R"] == "#d1495b"
    assert data["set"]["tiles"][1] == {"id": "b", "front": ["R", "."], "back": ["R", "."]}
    ts = otlo_sets.loads(TINY, "tiny.toml")
    index = {t.id: i for i, t in enumerate(ts.tiles)}
    chars = {ch: i + 1 for i, (ch, _) in enumerate(ts.colours)}
    chars.update({"_": T.TABLE, ".": T.OUTSIDE})
    assert len(data["challenges"]) == 18
    for c in data["challenges"]:
        assert set(c) >= {"id", "stars", "pattern", "solution_count", "solutions", "difficulty"}
        h, w = len(c["pattern"]), len(c["pattern"][0])
        pattern = bytes(chars[ch] for row in c["pattern"] for ch in row)
        shape = frozenset((i % w, i // w) for i, v in enumerate(pattern) if v != T.OUTSIDE)
        assert brute_force(ts, w, h, shape).get(pattern) == c["solution_count"]
        assert len(c["solutions"]) == min(c["solution_count"], 100) or len(c["solutions"]) >= 100
        for sol in c["solutions"]:
            placements = [(index[p["tile"]], T.TOP if p["layer"] == "top" else T.BOTTOM,
                           T.BACK if p["side"] == "back" else T.FRONT, p["rot"] // 90, p["x"], p["y"]) for p in sol]
            assert otlo_search.picture(ts, w, h, placements) == pattern


def test_check_passes_a_good_deck_and_finds_a_tampered_one(tiny, capsys):
    code, out, _ = run(capsys, "cards", "check", tiny / "tiny.deck")
    assert code == 0 and "all 18 challenges" in out
    ts = otlo_sets.loads(TINY, "tiny.toml")
    cs = otlo_cards.challenges_of(otlo_cards.open_deck(str(tiny / "tiny.deck")))
    cs[3].solution_count += 1
    cs[15].solution = cs[15].solution[:1]           # a bottom layer that does not cover the shape
    cs[7].difficulty = 1 - cs[7].difficulty if cs[7].difficulty != 0.5 else 0.1
    bad = tiny / "bad.deck"
    bad.write_bytes(otlo_deckpack.pack(ts, cs))
    code, out, _ = run(capsys, "cards", "check", bad)
    assert code == 1
    assert "challenge %d: %d solutions, the deck says %d" % (cs[3].id, cs[3].solution_count - 1,
                                                            cs[3].solution_count) in out
    assert "challenge %d: the bottom layer of its stored solution does not cover the shape" % cs[15].id in out
    assert "challenge %d: difficulty" % cs[7].id in out
    code, _, err = run(capsys, "cards", "export", bad, "--json")
    assert code == 2 and "challenge %d has" % cs[3].id in err and err.count("\n") == 1


def test_show_prints_the_pattern_the_stored_solution_and_every_solution(tiny, capsys):
    deck = otlo_cards.open_deck(str(tiny / "tiny.deck"))
    c = deck.challenge(deck.count - 1)
    code, out, _ = run(capsys, "cards", "show", tiny / "tiny.deck", c.id, "--color", "never")
    assert code == 0
    rows = otlo_cards.rows_of(otlo_cards.chars_of(deck), c.pattern, c.w, c.h)
    assert "\n".join("  " + "".join(ch * 2 for ch in r) for r in rows) in out
    assert "%d solution" % c.solution_count in out and "every solution" in out
    listed = [line for line in out.splitlines() if re.match(r"^ +\d+\. ", line)]
    assert len(listed) == min(c.solution_count, 40)
    code, out, _ = run(capsys, "cards", "show", tiny / "tiny.deck", c.id, "--color", "always")
    assert "\x1b[48;2;" in out
    code, _, err = run(capsys, "cards", "show", tiny / "tiny.deck", 999)
    assert code == 2 and "no challenge 999" in err


def test_errors_are_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.replace('id = "b"', 'id = "a"'))
    code, _, err = run(capsys, "cards", "build", bad, "-o", tmp_path / "x.deck")
    assert code == 2 and "duplicate tile id 'a'" in err and err.count("\n") == 1
    short = tmp_path / "short.deck"
    short.write_bytes(b"LLOT\x01" + bytes(20))
    for cmd in (["check", short], ["show", short, 1], ["export", short, "--json"]):
        code, _, err = run(capsys, "cards", *cmd)
        assert code == 2 and err.count("\n") == 1 and "deck" in err


def test_the_shipped_deck_is_what_cards_build_gives(tmp_path, capsys):
    code, out, _ = run(capsys, "cards", "build", SHIPPED_SET, "-o", tmp_path / "otlo.deck", "-q")
    assert code == 0
    assert (tmp_path / "otlo.deck").read_bytes() == open(SHIPPED_DECK, "rb").read()
    deck = otlo_cards.open_deck(SHIPPED_DECK)
    assert all(deck.level_count(s) >= 20 for s in (1, 2, 3))
    assert device_files()["decks/otlo.deck"] == open(SHIPPED_DECK, "rb").read()


def test_solve_lists_every_solution_of_a_typed_challenge(capsys, tmp_path):
    """`layerlight solve` on an OTLO set: the challenge typed as rows, every solution listed,
    as many as the shipped deck says (the search's count, made independently at build time)."""
    deck = otlo_cards.open_deck(SHIPPED_DECK)
    chars = otlo_cards.chars_of(deck)
    for i in (0, deck.count // 2, deck.count - 1):
        c = deck.challenge(i)
        f = tmp_path / ("c%d.txt" % c.id)
        f.write_text("# challenge %d\n%s\n" % (c.id, "\n".join(otlo_cards.rows_of(chars, c.pattern, c.w, c.h))))
        code, out, err = run(capsys, "solve", SHIPPED_SET, f)
        assert code == 0, err
        listed = [line for line in out.splitlines() if re.match(r"\s+\d+\. ", line)]
        assert len(listed) == c.solution_count and ("%d solution" % c.solution_count) in out
        # the stored solution is one of them, in the same words
        stored = set("%s %s %s %d at %d,%d" % tuple(otlo_cards.placement_json(deck, p).values()) for p in c.solution)
        assert any(set(line.split(". ", 1)[1].split("; ")) == stored for line in listed)
    f = tmp_path / "bad.txt"
    f.write_text("RZ\n")
    code, out, err = run(capsys, "solve", SHIPPED_SET, f)
    assert code == 2 and "unknown colour 'Z' at row 1, column 2" in err and len(err.strip().splitlines()) == 1
    f.write_text("RRRR\nRRRR\n")
    code, out, err = run(capsys, "solve", SHIPPED_SET, f)
    assert code == 1 and "no way of laying the tiles" in out
