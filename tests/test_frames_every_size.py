"""Every mode on 8x8, 16x16 and 32x32, checked from the frames it renders.

Whole games are played through the simulator at each size; every frame the
device pushes to the LEDs is checked, not looked at by eye:
- nothing is drawn off the matrix (scrolling menu text excepted: it slides
  in and out on purpose);
- a seat's own number (screens.number_for_seat: scores, totals, stars) is
  turned to face that seat and lies on that seat's half of the matrix, and
  any glyph turned sideways or upside down lies on the half of the seat it
  faces, so each seat reads its own number from its own edge;
- no two glyphs of one frame overlap, so every digit can be read.
The glyphs are caught where the font draws them (font._draw_glyph), so the
check sees every character of every screen, whatever module drew it.
"""

import pytest

from layerlight import font, screens
from layerlight.display import FrameBuffer
from layerlight_tools import simcore
import scenario_lib

SIZES = [(8, 8), (16, 16), (32, 32)]
# rotation (quarter turns) -> the seat a glyph turned that way faces: P1 bottom, P2 left, P3 top, P4 right
FACING = {0: 0, 1: 1, 2: 2, 3: 3}


class Watch:
    """What the frame being drawn has done so far."""

    def __init__(self):
        self.glyphs = []        # (x, y, w, h, quarter turns) of each glyph drawn
        self.off = []           # pixels written off the matrix (not by scrolling text)
        self.scrolling = 0
        self.seat = -1          # drawing the number of this seat (number_for_seat)
        self.frames = 0
        self.problems = []
        self.where = ""


WATCH = Watch()


class CheckedFrameBuffer(FrameBuffer):
    def pixel(self, x, y, c):
        if not (0 <= x < self.width and 0 <= y < self.height) and not WATCH.scrolling:
            WATCH.off.append((x, y))
        FrameBuffer.pixel(self, x, y, c)


def overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def check_frame(fb):
    w, h = fb.width, fb.height
    where = WATCH.where
    if WATCH.off:
        WATCH.problems.append("%s: drawn off the %dx%d matrix at %s" % (where, w, h, sorted(set(WATCH.off))[:4]))
    glyphs = WATCH.glyphs
    for g in glyphs:
        x, y, gw, gh, q, seat = g
        if seat >= 0 and q != seat:
            WATCH.problems.append("%s: P%d's number is turned to face P%d" % (where, seat + 1, q + 1))
        if q == 0 and seat == 0 and y + gh <= h // 2:
            WATCH.problems.append("%s: a glyph facing P1 sits on the top half at (%d,%d)" % (where, x, y))
        if q == 2 and y >= (h + 1) // 2:
            WATCH.problems.append("%s: a glyph facing P3 sits on the bottom half at (%d,%d)" % (where, x, y))
        if q == 1 and x >= (w + 1) // 2:
            WATCH.problems.append("%s: a glyph facing P2 sits on the right half at (%d,%d)" % (where, x, y))
        if q == 3 and x + gw <= w // 2:
            WATCH.problems.append("%s: a glyph facing P4 sits on the left half at (%d,%d)" % (where, x, y))
    for i in range(len(glyphs)):
        for j in range(i + 1, len(glyphs)):
            if overlap(glyphs[i], glyphs[j]):
                WATCH.problems.append("%s: glyphs overlap: %s and %s" % (where, glyphs[i][:4], glyphs[j][:4]))
    WATCH.glyphs = []
    WATCH.off = []
    WATCH.frames += 1


@pytest.fixture
def watched(monkeypatch):
    real_glyph = font._draw_glyph
    real_scrolling = font.draw_scrolling

    def glyph(fb, g, x, y, color, q, s):
        if not WATCH.scrolling:
            gw, gh = (font.GLYPH_W * s, font.GLYPH_H * s) if q % 2 == 0 else (font.GLYPH_H * s, font.GLYPH_W * s)
            WATCH.glyphs.append((x, y, gw, gh, q, WATCH.seat))
            # glyphs write the wire buffer directly (no pixel() to watch): their box must fit
            if x < 0 or y < 0 or x + gw > fb.width or y + gh > fb.height:
                WATCH.off.append((x, y))
        real_glyph(fb, g, x, y, color, q, s)

    def scrolling(*args, **kw):
        WATCH.scrolling += 1
        try:
            real_scrolling(*args, **kw)
        finally:
            WATCH.scrolling -= 1

    real_number = screens.number_for_seat

    def number_for_seat(fb, seat, *args):
        WATCH.seat = seat
        try:
            real_number(fb, seat, *args)
        finally:
            WATCH.seat = -1

    def framebuffer(self):
        return CheckedFrameBuffer(self.width, self.height)

    def show(self, fb):
        check_frame(fb)
        self.frame = fb

    monkeypatch.setattr(font, "_draw_glyph", glyph)
    monkeypatch.setattr(font, "draw_scrolling", scrolling)
    monkeypatch.setattr(screens, "number_for_seat", number_for_seat)
    monkeypatch.setattr(simcore.SimHardware, "framebuffer", framebuffer)
    monkeypatch.setattr(simcore.SimHardware, "show", show)
    WATCH.__init__()
    return WATCH


def play(script, game, players, size, seed=1):
    dev = simcore.make_device(scenario_lib.device_files(), size[0], size[1], seed, game, players)
    sim = simcore.Simulator(dev)
    no = 0
    for line in script.split("\n"):
        no += 1
        WATCH.where = "%s %dx%d after line %d (%s), phase %s" % (game, size[0], size[1], no, line.strip(),
                                                                dev.state()["phase"])
        sim.run_line(line, no)
    return dev


def menu_walk():
    from layerlight import modes
    script = "wait 3000\n" + "press B\nwait 2500\n" * len(modes.names()) + "press A\n" + "press B\npress A\n" * 3
    return script, None, 0


GAMES = scenario_lib.WHOLE_GAMES + [menu_walk]


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
@pytest.mark.parametrize("make", GAMES, ids=[g.__name__ for g in GAMES])
def test_every_frame_of_a_whole_game_is_readable(watched, make, size):
    script, game, players = make()
    play(script, game, players, size)
    assert watched.frames > 20  # the game really was drawn, frame after frame
    assert not watched.problems, "\n".join(watched.problems[:10])


def test_the_check_catches_a_clipped_number_and_overlapping_digits(watched):
    """The checks have teeth: a number half off the edge and two digits on top of each other."""
    fb = CheckedFrameBuffer(16, 16)
    font.draw_number(fb, 42, 14, 10, 0xFFFFFF)
    font.draw_char(fb, "7", 10, 0, 0xFFFFFF)
    font.draw_char(fb, "1", 12, 2, 0xFFFFFF)
    font.draw_char(fb, "3", 2, 2, 0xFFFFFF, 180)  # facing P3, on the top half: fine
    screens.number_for_seat(fb, 0, 5, 0xFFFFFF, 1)  # P1's score: at the bottom, fine
    font.draw_char(fb, "6", 6, 1, 0xFFFFFF, 0)    # a title upright at the top: fine
    font.draw_char(fb, "9", 9, 7, 0xFFFFFF, 90)   # facing P2 but on P4's half
    WATCH.where = "probe"
    check_frame(fb)
    text = "\n".join(watched.problems)
    assert "drawn off the 16x16 matrix" in text
    assert "glyphs overlap: (10, 0, 3, 5) and (12, 2, 3, 5)" in text
    assert "a glyph facing P2 sits on the right half at (9,7)" in text
    assert "facing P3" not in text and "facing P1" not in text
    assert len(watched.problems) == 3, text
