"""`cards build` on the small sets a beginner paints first: it says which of the device's modes
can play the deck (the levels each deals, read from the firmware's modes), and why a mode
cannot; every limit of the builder is one line with a fix that works, never a traceback."""

import subprocess
import sys

from layerlight import modes
from layerlight_tools.layers import cards, playable, sets, stackings


def layer_set_text(n_layers, size=2, blank=False, first=1):
    """A set file of n_layers on a size x size grid: layer k's front has the cells of the bits of
    first + k."""
    lines = ['name = "Small"', "size = %d" % size, "", "[colors]", 'R = "#e03a3e"', 'B = "#1f6fd1"']
    for k in range(n_layers):
        bits = [0 if blank else (first + k) >> i & 1 for i in range(size * size)]
        front = ["".join("R" if bits[y * size + x] else "." for x in range(size)) for y in range(size)]
        back = [r[::-1].replace("R", "B") for r in front]
        lines += ["", "[[layers]]", 'id = "l%d"' % k, "front = %s" % str(front).replace("'", '"'),
                  "back = %s" % str(back).replace("'", '"')]
    return "\n".join(lines) + "\n"


def build(tmp_path, text, *options):
    (tmp_path / "small.toml").write_text(text)
    r = subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "cards", "build", "small.toml", "-o",
                        "small.deck", "-q", *options], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def test_four_layers_on_2x2_say_layers_plus_plays_them_and_why_layers_does_not(tmp_path):
    """The issue's first small set: two level-2 missions. Layers deals 3-5, so the build says so,
    with the reason (the level-3 patterns are nearly the same as the level-2 missions) and a fix."""
    code, out, err = build(tmp_path, layer_set_text(4, first=0))
    assert code == 0, err
    lines = out.strip().split("\n")
    assert lines[0].startswith("small.deck: 2 missions (level 2: 2), ")
    assert lines[1] == "plays in: LAYERS+ (level 2), TIME ATTACK+ (level 2)"
    assert lines[2].startswith("  LAYERS deals levels 3-5: the set makes ")
    assert "level-3 patterns, but each is nearly the same as a mission of a lower level already in the deck " \
        "(on 2x2, two patterns that differ in at most 2 of 4 cells, turned or mirrored); a bigger grid or more " \
        "layers give it room" in lines[2]
    assert lines[3].startswith("  TIME ATTACK deals levels 3-5")


def test_the_levels_a_mode_deals_are_the_firmwares():
    """No second copy: change Mode.levels on the device and the tools say the new levels."""
    got = {name: levels for name, _, levels in playable.mode_levels("layers")}
    assert got == {name: tuple(modes.mode_class(name).levels) for name in got}
    assert set(got) == {"layers", "layers-plus", "time-attack", "time-attack-plus"}


def test_a_blank_set_says_no_mode_can_play_it(tmp_path):
    code, out, err = build(tmp_path, layer_set_text(3, blank=True))
    assert code == 0, err
    lines = out.strip().split("\n")
    assert lines[0].startswith("small.deck: 0 missions (no missions)")
    assert lines[1] == "no mode can play this deck: " + playable.NOTHING
    assert len(lines) == 2


def test_one_mission_is_one_mission(tmp_path):
    """Two identical layers make one pattern: '1 mission', not '1 missions'."""
    same = '\n[[layers]]\nid = "%s"\nfront = ["R.", ".."]\nback = [".R", ".."]\n'
    text = 'name = "Same"\nsize = 2\n\n[colors]\nR = "#e03a3e"\n' + same % "a" + same % "b"
    code, out, err = build(tmp_path, text)
    assert code == 0, err
    assert out.startswith("small.deck: 1 mission (level 2: 1), ")


def test_more_layers_than_the_search_takes_is_one_line_not_a_traceback(tmp_path):
    n = stackings.MAX_LAYERS + 1
    for options in ((), ("--max-level", "2")):
        code, out, err = build(tmp_path, layer_set_text(n, size=3), *options)
        assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
        assert err == "layerlight: small.toml: %d layers; the builder takes at most %d: remove 1\n" % (
            n, stackings.MAX_LAYERS)


def test_the_deepest_level_the_refusal_names_is_one_the_builder_takes(tmp_path):
    """The fix in the line works: the --max-level it names is taken (not merely one less)."""
    for n in (9, 20, stackings.MAX_LAYERS):
        layer_set = sets.loads(layer_set_text(n, size=3), "small.toml")
        why = cards.refusal(layer_set, 5)
        assert why and "use --max-level " in why, why
        level = int(why.rsplit(" ", 1)[1])
        assert cards.refusal(layer_set, level) is None, (n, level)
        assert cards.refusal(layer_set, level + 1) is not None, (n, level)


def test_the_limits_are_the_builders():
    got = cards.limits()
    assert got["layers"] == stackings.MAX_LAYERS and got["stackings"] == cards.MAX_STACKINGS
    assert got["size"] == [2, 16] and got["colours"] == 15
    assert got["per_level"] == [1, 2000] and got["max_level"] == [2, 5]
    for level, most in got["most_layers"].items():
        assert stackings.stacking_count(most, int(level)) <= cards.MAX_STACKINGS
        assert most == stackings.MAX_LAYERS or stackings.stacking_count(most + 1, int(level)) > cards.MAX_STACKINGS
