"""OTLO Stones as the table sees it: frames read the way a person would, colours as the LEDs show
them (tests/table_view.py, layerlight_tools.led_colour)."""

import pytest

from layerlight import screens
from layerlight.modes import otlo_screens
from layerlight_tools import led_colour
import scenario_lib
import table_view
from test_keepers_seen import has_flag

SIZES = [(8, 8), (16, 16), (32, 32)]


def game_frames(size):
    script, game, players = scenario_lib.otlo_game()
    return table_view.record_frames(script.rsplit("press A", 1)[0] + "wait 12000\n", game, players, size)


def on_the_edge(p, size):
    return p[0] in (0, size[0] - 1) or p[1] in (0, size[1] - 1)


def quadrant_border(p, q):
    return p[0] % q in (0, q - 1) or p[1] % q in (0, q - 1)


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
def test_touching_things_are_told_apart_on_the_leds(size):
    """Every frame of a whole 4-seat game: touching LEDs of different colours are at least
    MIN_TOUCHING apart as the eye sees them (a gem and a star, a gem and a barred seat's mark,
    a pile and its neighbour...), or a dark gutter keeps them apart. Two things touch by design:
    the claim's outline, blinking in the claimer's colour round the card it claims (one thing:
    this card is claimed), and, as in Layers, at 8x8 and 32x32 the verified card filling all but
    the 1-pixel frame where the claimer's edge blinks (told by where it is)."""
    cache = {}
    q = size[0] // 2 if size[0] >= 16 else size[0]
    for no, line, state, rows in game_frames(size):
        clashes = []
        for c in table_view.touching_clashes(rows, cache=cache):
            claimer = screens.SEAT_COLOURS[state["claimer"] - 1] if state["claimer"] else -1
            if state["phase"] == "claim" and claimer in (c[3], c[4]) and \
                    quadrant_border(c[1] if c[3] == claimer else c[2], q):
                continue
            if state["phase"] == "verify" and size != (16, 16) and \
                    on_the_edge(c[1], size) != on_the_edge(c[2], size):
                continue
            clashes.append(c)
        assert not clashes, "after line %d (%s), %s: %06x at %s touches %06x at %s, %.1f apart" % (
            no, line, state["phase"], clashes[0][3], clashes[0][1], clashes[0][4], clashes[0][2], clashes[0][0])


def test_piles_have_a_dark_gutter_between_them():
    """16x16 and 32x32: every pile keeps the 1-pixel border of its quadrant dark in play, so the
    neighbouring cards are two LEDs apart and never read as one picture."""
    for size in SIZES[1:]:
        q = size[0] // 2
        for _, _, state, rows in game_frames(size):
            if state["phase"] != "play":
                continue
            g = table_view.grid(rows)
            # the gutter lines between the quadrants (the matrix's own edge has the press lights)
            lit = [(x, y) for y in range(size[1]) for x in range(size[0])
                   if g[y][x] and quadrant_border((x, y), q) and not on_the_edge((x, y), size)]
            assert not lit, (size, lit[:4])


def test_gems_are_led_colours_not_screen_colours():
    """The deck's gems as the LED light that looks like the set's colour: the yellow gem, sent as
    its screen colour, looked pastel (21.8 from the white stars); as LED light it is the set's yellow."""
    from layerlight_tools.otlo import cards as otlo_cards
    from layerlight_tools.firmware_files import FIRMWARE
    import os
    deck = otlo_cards.open_deck(os.path.join(FIRMWARE, "decks", "otlo.deck"))
    sc = otlo_screens.Screen(deck)
    for i in range(1, len(deck.colours)):
        screen_hex = "#%02x%02x%02x" % deck.colours[i]
        assert sc.colours[i] == led_colour.led_value_for(screen_hex)
        assert led_colour.seen(sc.colours[i], 1.0).delta_e(led_colour.Color(screen_hex), method="2000") < 1.5
        assert led_colour.delta_e(sc.colours[i], screens.WHITE) >= table_view.MIN_TOUCHING


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
def test_the_final_is_never_a_play_screen_and_shows_the_winners(size):
    frames = game_frames(size)
    finals = [(s, rows) for _, _, s, rows in frames if s["phase"] == "final"]
    winners = finals[-1][0]["winners"]
    others = {tuple(rows) for _, _, s, rows in frames if s["phase"] in ("play", "claim", "verify", "scores")}
    assert not others & {tuple(rows) for _, rows in finals}
    grids = [table_view.grid(rows) for _, rows in finals]
    assert any(has_flag(g) for g in grids)
    for w in winners:
        lit = [any(screens.SEAT_COLOURS[w - 1] in row for row in g) for g in grids]
        assert any(lit) and not all(lit), "P%d's stars should blink" % w


def test_8x8_says_which_pile_is_shown():
    """One pile at a time on 8x8: each page opens with the pile's number, then its card."""
    numbers = set()
    for _, _, state, rows in game_frames((8, 8)):
        if state["phase"] == "play":
            g = table_view.grid(rows)
            for n in "1234":
                if g == digit_frame(n):
                    numbers.add(n)
    assert numbers == {"1", "2", "3", "4"}


# the pile numbers as the 3x5 font draws them (font.py's rows, written out here: a bug in the
# drawing code cannot also be in the test), at x 2, y 1 of the 8x8 page, white
DIGITS = {
    "1": [".#.", "##.", ".#.", ".#.", "###"],
    "2": ["###", "..#", "###", "#..", "###"],
    "3": ["###", "..#", ".##", "..#", "###"],
    "4": ["#.#", "#.#", "###", "..#", "..#"],
}


def digit_frame(n):
    g = [[0] * 8 for _ in range(8)]
    for dy, row in enumerate(DIGITS[n]):
        for dx, ch in enumerate(row):
            if ch == "#":
                g[1 + dy][2 + dx] = screens.WHITE
    return table_view.grid(["".join("%06x" % v for v in row) for row in g])
