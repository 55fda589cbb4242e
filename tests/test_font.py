import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware"))

from layerlight import font
from layerlight.display import FrameBuffer  # noqa: E402

DIGITS = "0123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ICONS = "-!?:.+><^*#~/"
RED = 0xFF0000


class FakeFB(FrameBuffer):
    """The real frame buffer (glyphs write its wire bytes directly), read back as lit pixels."""

    def __init__(self, width=64, height=64):
        FrameBuffer.__init__(self, width, height)

    @property
    def lit(self):
        return {(x, y): self.get(x, y) for y in range(self.height) for x in range(self.width) if self.get(x, y)}


def bitmap(ch):
    g = font.glyph_rows(ch)
    return tuple(font.glyph_bit(g, c, r) for r in range(font.GLYPH_H) for c in range(font.GLYPH_W))


def drawn(fn, *args, **kw):
    fb = FakeFB()
    fn(fb, *args, **kw)
    return set(fb.lit)


def box(pixels):
    xs = [p[0] for p in pixels]
    ys = [p[1] for p in pixels]
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def test_constants():
    assert (font.GLYPH_W, font.GLYPH_H, font.ADVANCE) == (3, 5, 4)


def test_digits_letters_and_icons_are_distinct():
    chars = DIGITS + LETTERS + ICONS
    maps = {}
    for ch in chars:
        assert font.glyph_rows(ch) != font.glyph_rows("?") or ch == "?", ch
        maps.setdefault(bitmap(ch), []).append(ch)
    clashes = [v for v in maps.values() if len(v) > 1]
    assert clashes == []


def test_every_visible_glyph_lights_something_and_space_nothing():
    for ch in DIGITS + LETTERS + ICONS:
        assert any(bitmap(ch)), ch
    assert not any(bitmap(" "))


def test_eight_heavier_than_one():
    assert sum(bitmap("8")) > sum(bitmap("1"))


def test_glyph_bit_outside_box_is_zero():
    g = font.glyph_rows("8")
    assert font.glyph_bit(g, 3, 0) == 0
    assert font.glyph_bit(g, 0, 5) == 0
    assert font.glyph_bit(g, -1, 0) == 0


def test_draw_char_matches_bitmap():
    px = drawn(font.draw_char, "A", 10, 20, RED)
    want = {(10 + c, 20 + r) for r in range(5) for c in range(3) if font.glyph_bit(font.glyph_rows("A"), c, r)}
    assert px == want


def test_colour_is_passed_through():
    fb = FakeFB()
    font.draw_char(fb, "8", 0, 0, 0x123456)
    assert set(fb.lit.values()) == {0x123456}


def test_second_char_starts_at_advance():
    px = drawn(font.draw_text, "12", 0, 0, RED)
    one = drawn(font.draw_char, "1", 0, 0, RED)
    two = drawn(font.draw_char, "2", 4, 0, RED)
    assert px == one | two
    assert min(x for x, _ in two) == 4  # '2' has a lit left column


@pytest.mark.parametrize("ch", list("RFJ7?>"))
def test_rot180_is_glyph_turned_half(ch):
    up = drawn(font.draw_char, ch, 0, 0, RED)
    turned = drawn(font.draw_char, ch, 0, 0, RED, rot=180)
    assert turned == {(2 - x, 4 - y) for x, y in up}


@pytest.mark.parametrize("ch", list("RFJ7?>"))
def test_rot90_and_rot270_are_quarter_turns(ch):
    up = drawn(font.draw_char, ch, 0, 0, RED)
    # clockwise: the top row goes to the right edge of the 5x3 box
    assert drawn(font.draw_char, ch, 0, 0, RED, rot=90) == {(4 - y, x) for x, y in up}
    assert drawn(font.draw_char, ch, 0, 0, RED, rot=270) == {(y, 2 - x) for x, y in up}


def test_rot90_box_is_5_wide_3_tall():
    px = drawn(font.draw_char, "8", 7, 9, RED, rot=90)  # '8' fills its whole box
    assert box(px) == (7, 9, 5, 3)
    px = drawn(font.draw_char, "8", 7, 9, RED, rot=270)
    assert box(px) == (7, 9, 5, 3)


def test_scale_2_quadruples_pixels_in_blocks():
    one = drawn(font.draw_char, "K", 0, 0, RED)
    two = drawn(font.draw_char, "K", 0, 0, RED, scale=2)
    assert len(two) == 4 * len(one)
    assert two == {(2 * x + dx, 2 * y + dy) for x, y in one for dx in (0, 1) for dy in (0, 1)}


def test_scale_with_rotation_and_text():
    px = drawn(font.draw_text, "88", 0, 0, RED, rot=90, scale=2)
    assert box(px) == (0, 0, 10, font.text_width("88", 2))


def test_unknown_char_draws_question_mark():
    q = drawn(font.draw_char, "?", 0, 0, RED)
    for ch in ("@", "\u00e9", "\n", "\x7f"):
        assert drawn(font.draw_char, ch, 0, 0, RED) == q, repr(ch)


def test_lowercase_draws_as_uppercase():
    assert drawn(font.draw_text, "abc", 0, 0, RED) == drawn(font.draw_text, "ABC", 0, 0, RED)


def test_bytes_text_draws_like_str():
    assert drawn(font.draw_text, b"HI 5", 0, 0, RED) == drawn(font.draw_text, "HI 5", 0, 0, RED)


def test_text_width():
    assert font.text_width("") == 0
    assert font.text_width("A") == 3
    assert font.text_width("AB") == 7
    assert font.text_width("AB", scale=2) == 14


@pytest.mark.parametrize("rot", [0, 90, 180, 270])
def test_text_fills_its_rotated_box_from_top_left(rot):
    text = "888"  # every glyph fills its box, so the lit box is the text box
    w = font.text_width(text)
    px = drawn(font.draw_text, text, 3, 4, RED, rot=rot)
    if rot in (0, 180):
        assert box(px) == (3, 4, w, 5)
    else:
        assert box(px) == (3, 4, 5, w)


@pytest.mark.parametrize("rot", [90, 180, 270])
def test_rotated_text_is_unrotated_text_turned(rot):
    # Turning the whole picture of the text is what the reader at that side sees.
    text = "R7J"
    w, h = font.text_width(text), 5
    up = drawn(font.draw_text, text, 0, 0, RED)
    if rot == 90:
        want = {(h - 1 - y, x) for x, y in up}
    elif rot == 180:
        want = {(w - 1 - x, h - 1 - y) for x, y in up}
    else:
        want = {(y, w - 1 - x) for x, y in up}
    assert drawn(font.draw_text, text, 0, 0, RED, rot=rot) == want


def test_negative_rotation_and_bad_rotation():
    assert drawn(font.draw_char, "R", 0, 0, RED, rot=-90) == drawn(font.draw_char, "R", 0, 0, RED, rot=270)
    with pytest.raises(ValueError):
        font.draw_char(FakeFB(), "R", 0, 0, RED, rot=45)


def test_draw_scrolling_is_text_at_minus_offset():
    fb = FakeFB(16, 8)
    font.draw_scrolling(fb, "HELLO WORLD", 1, RED, 9)
    ref = FakeFB(16, 8)
    font.draw_text(ref, "HELLO WORLD", -9, 1, RED)
    assert fb.lit == ref.lit and fb.lit
    # the 'L' at index 2 starts at x = 8 - 9 = -1, so its stem is clipped away
    assert all(0 <= x < 16 for x, _ in fb.lit)


@pytest.mark.parametrize("value", [0, 5, 9, 10, 123, 1000, 907, 2**31 + 7])
@pytest.mark.parametrize("rot", [0, 90, 180, 270])
def test_draw_number_matches_text(value, rot):
    assert drawn(font.draw_number, value, 2, 1, RED, rot=rot) == drawn(font.draw_text, str(value), 2, 1, RED, rot=rot)


@pytest.mark.parametrize("value", [-5, -10, -123])
@pytest.mark.parametrize("rot", [0, 180])
def test_draw_negative_number_matches_text(value, rot):
    assert drawn(font.draw_number, value, 0, 0, RED, rot=rot, scale=2) == drawn(
        font.draw_text, str(value), 0, 0, RED, rot=rot, scale=2
    )


def test_clipping_outside_fb_does_not_raise():
    fb = FakeFB(8, 8)
    for rot in (0, 90, 180, 270):
        font.draw_text(fb, "CLIP ME", -5, -3, RED, rot=rot, scale=2)
        font.draw_text(fb, "FAR", 100, 100, RED, rot=rot)
        font.draw_text(fb, "FAR", -100, -100, RED, rot=rot)
        font.draw_char(fb, "#", 6, 6, RED, rot=rot, scale=3)
        font.draw_number(fb, -4567, 5, -2, RED, rot=rot)
    assert all(0 <= x < 8 and 0 <= y < 8 for x, y in fb.lit)
    assert fb.lit  # some of it was on screen


@pytest.mark.parametrize("rot", [0, 90, 180, 270])
def test_a_glyph_wholly_on_the_matrix_and_one_clipped_at_its_edges_agree(rot):
    """A glyph wholly on the matrix takes a quicker path (no clipping to check) than one
    partly off it: both light the same pixels, every glyph, every turn, on a matrix that
    is not square (its rows are not its columns)."""
    w, h = 7, 9
    for ch in font.CHARS:
        home = FakeFB(w, h)
        font.draw_char(home, ch, 1, 2, RED, rot=rot)
        assert home.lit or ch == " "
        for dx, dy in ((-1, 0), (0, -2), (4, 0), (0, 6), (-3, -3), (5, 7)):
            moved = FakeFB(w, h)
            font.draw_char(moved, ch, 1 + dx, 2 + dy, RED, rot=rot)
            want = {(x + dx, y + dy) for x, y in home.lit if 0 <= x + dx < w and 0 <= y + dy < h}
            assert set(moved.lit) == want, (ch, rot, dx, dy)
