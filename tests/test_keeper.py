"""The score-keeper base (firmware/layerlight/modes/keeper.py) on its own: a tiny keeper
that only counts, driven event by event, and the screens the keepers share."""

import pytest

from layerlight import buttons, font, screens
from layerlight.display import FrameBuffer
from layerlight.strip_map import pixel_map
from layerlight.modes import Context
from layerlight.modes import keeper
from layerlight.modes.keeper import KeeperGame, ScreenCache, big_number, count_entry, menu_word, undo_mark
from layerlight.rng import Rng
from layerlight.sound import Sound

ADD = 1
END = 0


class Counter(KeeperGame):
    """Each seat adds points in its turn (`add`: a count), `next` passes the turn; 10 points end it."""
    name = "counter"
    END_ACTION = [END]
    HANDLERS = dict(KeeperGame.HANDLERS)
    DRAWERS = dict(KeeperGame.DRAWERS)

    def seats_ready(self, first, now):
        self.first = self.seats[0] if first is None else first
        self.phase = "setup"  # a set-up phase of the mode's own: A starts
        self.set_items(())

    def on_setup(self, b, now):
        if b == buttons.A:
            self.start_play(now)

    def resume_setup(self, now):
        self.phase = "setup"

    def reset_play(self):
        self.total = [0, 0, 0, 0]
        self.ended = False
        self.turn_index = self.seats.index(self.first)

    def apply(self, action):
        if action[0] == END:
            self.ended = True
        elif action[0] == ADD:
            self.total[self.turn_seat()] += action[1]
        else:
            self.next_turn()

    def rescore(self):
        for s in self.seats:
            self.scores[s] = self.total[s]

    def over(self):
        return self.ended or max(self.total) >= 10

    def winners(self):
        return [s for s in self.seats if self.scores[s] == max(self.scores)]

    def actions(self):
        return ("next", "add")

    def act(self, action, now):
        if action == "next":
            self.record([2], now)
        else:
            self.ask_count("adding", "points", 9, Counter.added, 0, now)

    def added(self, value, now):
        self.record([ADD, value], now)

    def keeper_state(self, s):
        s["total"] = list(self.scores)


Counter.HANDLERS["setup"] = Counter.on_setup


def context():
    cfg = {}
    return Context(cfg, None, Rng(1), Sound(lambda f: None), print, {})


class Driver:
    def __init__(self, seats=(0, 1)):
        self.now = 0
        self.game = Counter(context(), list(seats), None)

    def ev(self, kind, b, after=0):
        self.game.handle(buttons.event(kind, b), self.now)
        self.wait(after)

    def wait(self, ms):
        for _ in range(ms // 10):
            self.now += 10
            self.game.tick(self.now)

    def click(self, b):
        self.ev(buttons.PRESS, b, 60)
        self.ev(buttons.RELEASE, b)

    def hold(self, b, ms):
        """Down for ms; the HOLD event comes as the debouncer would send it."""
        self.ev(buttons.PRESS, b)
        held = buttons.HOLD_MS[b]
        if ms >= held:
            self.wait(held)
            self.ev(buttons.HOLD, b, ms - held)
            self.ev(buttons.HELD_UP, b)
        else:
            self.wait(ms)
            self.ev(buttons.RELEASE, b)

    def add(self, points):
        self.click(buttons.B)
        self.click(buttons.A)
        for _ in range(points):
            self.click(buttons.B)
        self.click(buttons.A)


def playing():
    d = Driver()
    d.click(buttons.A)
    assert d.game.phase == "turn" and d.game.playing
    return d


def test_actions_are_logged_and_the_state_is_replayed_from_the_log():
    d = playing()
    d.add(3)
    d.click(buttons.A)          # next: P2
    d.add(4)
    g = d.game
    assert g.log == [[ADD, 3], [2], [ADD, 4]] and g.scores[:2] == [3, 4] and g.turn_seat() == 1
    assert g.choice() == "next"  # the highlight is back on `next` after every action
    d.hold(buttons.B, 1200)     # one undo per hold, however long
    assert g.log == [[ADD, 3], [2]] and g.scores[:2] == [3, 0] and g.turn_seat() == 1
    d.hold(buttons.B, 3000)
    assert g.log == [[ADD, 3]] and g.turn_seat() == 0
    d.hold(buttons.B, 1200)
    d.hold(buttons.B, 1200)     # nothing left: refused, nothing breaks
    assert g.log == [] and g.scores[:2] == [0, 0] and g.phase == "turn"


def test_a_hold_is_not_a_click_and_holding_b_gives_up_only_an_action_in_play():
    d = playing()
    d.hold(buttons.B, 800)      # past B's hold time, short of an undo
    assert d.game.choice() == "next" and d.game.log == []
    d.click(buttons.B)
    d.click(buttons.A)          # add: a count
    assert d.game.in_entry()
    d.hold(buttons.B, 700)
    assert d.game.phase == "turn" and d.game.log == [] and not d.game.in_entry()
    # in the set-up a hold of B gives nothing up
    s = Driver()
    s.hold(buttons.B, 1500)
    assert s.game.phase == "setup"


def test_the_seat_to_play_ends_its_turn_with_its_own_button_and_counts_have_shortcuts():
    d = playing()
    d.click(buttons.P2)         # not P2's turn: nothing
    assert d.game.turn_seat() == 0
    d.click(buttons.P1)
    assert d.game.turn_seat() == 1 and d.game.log == [[2]]
    d.click(buttons.B)
    d.click(buttons.A)
    for b, value in ((buttons.P3, 5), (buttons.P3, 9), (buttons.P1, 8), (buttons.P2, 9), (buttons.P4, 0)):
        d.click(b)
        assert d.game.entry_value == value
    d.click(buttons.B)
    d.click(buttons.A)
    assert d.game.log[-1] == [ADD, 1]


def test_the_end_and_an_undo_of_it():
    d = playing()
    d.add(9)
    d.click(buttons.A)
    d.add(2)
    g = d.game
    assert g.phase == "turn" and g.can_undo()
    g.end_game(d.now)
    assert g.phase == "final" and g.log[-1] == [END] and g.winners() == [0]
    g.end_game(d.now)           # already over: nothing more recorded
    assert g.log.count([END]) == 1
    d.hold(buttons.B, 1200)     # back from the final
    assert g.phase == "turn" and g.log[-1] == [ADD, 2]
    d.add(9)                    # 11 points: over by the mode's own rule
    assert g.phase == "final" and g.state()["winners"] == [2]
    d.click(buttons.A)
    assert g.done
    s = Driver()
    s.game.end_game(0)          # during the set-up there is nothing to score: the game is left
    assert s.game.done


def test_a_snapshot_resumes_in_play_and_in_the_set_up():
    d = playing()
    d.add(2)
    d.click(buttons.A)
    snap = d.game.snapshot()
    again = Counter(context(), saved=snap)
    assert again.phase == "turn" and again.log == d.game.log and again.scores == d.game.scores
    assert again.shown == again.scores  # no tally to count after a resume
    again.undo(0)
    assert again.log == [[ADD, 2]]
    s = Driver()
    back = Counter(context(), saved=s.game.snapshot())
    assert back.phase == "setup" and not back.playing and back.log == []


def test_screen_cache_copies_back_and_forgets_on_a_new_brightness():
    fb = FrameBuffer(4, 4)
    cache = ScreenCache(fb)
    assert not cache.restore(fb, 7)
    fb.pixel(1, 1, 0xFF0000)
    cache.keep(fb, 7)
    fb.clear()
    assert cache.restore(fb, 7) and fb.get(1, 1) == 0xFF0000
    assert not cache.restore(fb, 8)
    fb.set_cap(0.5)
    assert not cache.restore(fb, 7)


def glyph_boxes(monkeypatch, draw):
    """The boxes of the glyphs a drawing makes: the font's, and each digit of keeper.big_number's."""
    boxes = []
    real = font._draw_glyph
    real_big = keeper.big_number

    def glyph(fb, g, x, y, color, q, s):
        w, h = (font.GLYPH_W * s, font.GLYPH_H * s) if q % 2 == 0 else (font.GLYPH_H * s, font.GLYPH_W * s)
        boxes.append((x, y, w, h))
        real(fb, g, x, y, color, q, s)

    def big(fb, value, x, y, colour, scale):
        for i in range(len(str(value))):
            boxes.append((x + i * font.ADVANCE * scale, y, font.GLYPH_W * scale, font.GLYPH_H * scale))
        real_big(fb, value, x, y, colour, scale)
    monkeypatch.setattr(font, "_draw_glyph", glyph)
    monkeypatch.setattr(keeper, "big_number", big)
    draw()
    monkeypatch.setattr(font, "_draw_glyph", real)
    monkeypatch.setattr(keeper, "big_number", real_big)
    return boxes


def test_big_number_lights_what_the_font_would():
    for value in (0, 7, 20, -3, 45, -128, 1234567890):
        for scale in (1, 2, 3):
            for x, y in ((1, 2), (-3, 4), (10, -2)):
                a = FrameBuffer(24, 20, pixel_map(24, 20), cap=0.5, order="GRB")
                b = FrameBuffer(24, 20, pixel_map(24, 20), cap=0.5, order="GRB")
                font.draw_number(a, value, x, y, 0x40C020, 0, scale)
                big_number(b, value, x, y, 0x40C020, scale)
                assert a.buf == b.buf, (value, scale, x, y)


def test_fb_rect_is_its_pixels_clipped():
    """FrameBuffer.rect writes the wire buffer directly: the same bytes as a pixel() each, clipped."""
    for rect in ((2, 3, 4, 5), (-2, -1, 4, 3), (14, 14, 5, 5), (0, 0, 16, 16), (3, 3, 0, 2)):
        a = FrameBuffer(16, 16, pixel_map(16, 16), cap=0.25, order="GRB")  # wired as a real matrix
        b = FrameBuffer(16, 16, pixel_map(16, 16), cap=0.25, order="GRB")
        x, y, w, h = rect
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                a.pixel(xx, yy, 0xFF2000)
        b.rect(*rect, 0xFF2000)
        assert a.buf == b.buf, rect


class Edge(FrameBuffer):
    """Notes pixels written off the matrix."""
    off = 0

    def pixel(self, x, y, c):
        if not (0 <= x < self.width and 0 <= y < self.height):
            self.off += 1
        FrameBuffer.pixel(self, x, y, c)


@pytest.mark.parametrize("size", [8, 16, 32])
def test_count_entry_fits_and_nothing_overlaps(monkeypatch, size):
    """Drawn as for P1 (other seats get it turned: test_keepers_seen.py): on the matrix, no two
    glyphs overlapping, the seat's edge lit and clear of the digits."""
    for value in (0, 7, 10, 20, 99) + ((120,) if size >= 16 else ()):
        for now in (0, 400):
            fb = Edge(size, size)
            boxes = glyph_boxes(monkeypatch, lambda: count_entry(fb, value, "dots", screens.SEAT_COLOURS[3], now,
                                                                 0x00FF00))
            assert fb.off == 0, value
            assert all(0 <= x and 0 <= y and x + w <= size and y + h <= size for x, y, w, h in boxes), (value, boxes)
            for i in range(len(boxes)):
                for j in range(i + 1, len(boxes)):
                    a, b = boxes[i], boxes[j]
                    assert not (a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3]
                                and b[1] < a[1] + a[3]), (value, a, b)
            assert any(fb.get(x, size - 1) == screens.SEAT_COLOURS[3] for x in range(size))
            assert all(y + h <= size - 1 for x, y, w, h in boxes), (value, boxes)


def test_undo_mark_and_menu_word_stay_on_the_matrix():
    for size in (8, 16, 32):
        for elapsed in range(0, 1000, 50):
            fb = Edge(size, size)
            undo_mark(fb, elapsed)
            assert fb.off == 0
        fb = Edge(size, size)
        menu_word(fb, "LOOP", screens.SEAT_COLOURS[1], 0)  # the seat's edge at the bottom, clear of the word
        scale = 2 if size >= 32 else 1
        assert all(fb.get(x, size - 1) == screens.SEAT_COLOURS[1] for x in range(size))
        assert (size - font.GLYPH_H * scale) // 2 + font.GLYPH_H * scale < size - 1
