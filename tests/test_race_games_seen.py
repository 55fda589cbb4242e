"""Layers, Layers+ and time attack as the table sees them: frames turned to each seat, colours as
the LEDs show them (tests/table_view.py, layerlight_tools.led_colour)."""

import pytest

from layerlight import screens
import scenario_lib
import table_view
from test_keepers_seen import has_flag, seat_neutral

SIZES = [(8, 8), (16, 16), (32, 32)]
RACE_GAMES = [scenario_lib.layers_game, scenario_lib.layers_plus_game]


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
@pytest.mark.parametrize("make", RACE_GAMES, ids=["layers", "layers-plus"])
def test_the_final_is_never_a_turn_screen_of_the_winner(make, size):
    """No final frame is a frame of the winner choosing a deck, being verified or seeing the scores;
    the flag shows, and the winners' scores blink (their colour, then white)."""
    script, game, players = make()
    script = script.rsplit("press A", 1)[0] + "wait 12000\n"
    frames = table_view.record_frames(script, game, players, size)
    finals = [rows for _, _, state, rows in frames if state["phase"] == "final"]
    state = [state for _, _, state, _ in frames if state["phase"] == "final"][-1]
    winners = [i + 1 for i, v in enumerate(state["scores"]) if v == max(state["scores"])]
    others = {tuple(rows) for _, _, s, rows in frames if s["phase"] in ("choose_deck", "verify", "scores")}
    assert finals and others and not others & {tuple(rows) for rows in finals}
    grids = [table_view.grid(rows) for rows in finals]
    assert any(has_flag(g) for g in grids)
    for w in winners:
        colour = screens.SEAT_COLOURS[state["seats"][w - 1] - 1]
        lit = [any(colour in row for row in g) for g in grids]
        assert any(lit) and not all(lit), "the winner's score should blink"


def without_corners(g):
    """A turned frame without its four corners, where A's and B's press lights come and go, and
    with the seat's own edge (the bottom row) lit whether its blink is on or off."""
    g = [list(row) for row in g]
    for y in (0, -1):
        for x in (0, -1):
            g[y][x] = 0
    g[-1] = ["seat" if v == screens.DIM else v for v in g[-1]]
    return tuple(tuple(row) for row in g)


def test_each_first_player_reads_the_level_as_p1_does():
    """The deck choice faces the seat choosing: the first player moves round each round, and each
    one's screen turned to its seat is P1's (the seat's colour aside)."""
    script, game, players = scenario_lib.layers_game()
    for size in SIZES:
        seen = {}
        for _, _, state, rows in table_view.record_frames(script, game, players, size):
            if state["phase"] == "choose_deck" and state.get("level") == 3:
                seat = state["first_player"] - 1
                seen.setdefault(seat, set()).add(without_corners(seat_neutral(table_view.turned(rows, seat), seat)))
        assert set(seen) == {0, 1, 2, 3}, seen.keys()
        for seat in (1, 2, 3):
            assert seen[seat] & seen[0], "P%d's deck choice at %s does not read as P1's" % (seat + 1, size)


def on_the_edge(p, size):
    x, y = p
    return x in (0, size[0] - 1) or y in (0, size[1] - 1)


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
@pytest.mark.parametrize("make", RACE_GAMES + [scenario_lib.time_attack_game],
                         ids=["layers", "layers-plus", "time-attack"])
def test_touching_things_are_told_apart_on_the_leds(make, size):
    """Every frame of a whole game: touching LEDs of different colours at least MIN_TOUCHING apart as
    the eye sees them, or a dark gutter between them.

    One exception, by the layout (docs/device.md): at 8x8 and 32x32 the pattern fills all but the 1-pixel
    frame (6 cells of 1 or 5 pixels), so the frame's seat marks (finish markers, the seat being
    verified) touch the pattern's outer cells, whose colours come from the deck. There the seat's
    mark is told by where it is (its own edge, the frame) rather than by its colour; 16x16 has its
    gutter and is checked in full."""
    script, game, players = make()
    cache = {}
    tight = size != (16, 16)
    for no, line, state, rows in table_view.record_frames(script, game, players, size):
        clashes = [c for c in table_view.touching_clashes(rows, cache=cache)
                   if not (tight and state["phase"] in ("race", "verify")
                           and on_the_edge(c[1], size) != on_the_edge(c[2], size))]
        assert not clashes, "after line %d (%s), %s: %06x at %s touches %06x at %s, %.1f apart" % (
            no, line, state["phase"], clashes[0][3], clashes[0][1], clashes[0][4], clashes[0][2], clashes[0][0])


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
def test_the_revealed_mission_fills_every_cell_with_its_colour(size):
    """The race's first frame: each of the mission's cells is a whole square of the layout's
    scale (1, 2 and 5 LEDs a side at 8x8, 16x16 and 32x32) in its colour, as capped for the
    LEDs; a cell drawn a row or a column short shows."""
    from layerlight_tools import simcore
    script, game, players = scenario_lib.layers_game()
    dev = simcore.make_device(scenario_lib.device_files(), size[0], size[1], 1, game, players)
    sim = simcore.Simulator(dev)
    for no, line in enumerate(script.split("\n"), 1):
        sim.run_line(line, no)
        if dev.where == "game" and dev.game.phase == "race":
            break
    g = dev.game
    assert g.phase == "race"
    dev.render()
    fb, lay = dev.fb, g.layout
    cap = fb.scale
    s = lay.scale
    assert s == {8: 1, 16: 2, 32: 5}[size[0]]
    for cy in range(lay.n):
        for cx in range(lay.n):
            c = g.colours[g.mission.pattern[cy * lay.n + cx]]
            want = (cap[c >> 16] << 16) | (cap[(c >> 8) & 0xFF] << 8) | cap[c & 0xFF]
            got = {fb.get(lay.x0 + cx * s + dx, lay.y0 + cy * s + dy) for dy in range(s) for dx in range(s)}
            assert got == {want}, (cx, cy, ["%06x" % v for v in got], "%06x" % want)
