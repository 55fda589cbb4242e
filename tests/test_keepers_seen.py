"""CO.OP and Paper World as the table sees them: frames turned to each seat, colours as the LEDs
show them (tests/table_view.py, layerlight_tools.led_colour).

- What one seat enters or chooses (its menu words, a loop's colour, a count, an objective, its
  final counts) reads from that seat exactly as P1's reads from P1's: the frame turned to the
  seat equals P1's frame, the seat's colour aside, at 8x8, 16x16 and 32x32.
- The final can never be taken for a turn: it differs from the winner's turn screen, the winners
  are marked unlike a seat to play, and it shows the totals first.
- Touching things that mean different things are told apart on the LEDs.
"""

import pytest

from layerlight import screens
from layerlight_tools import led_colour
import scenario_lib
import table_view

SIZES = [(8, 8), (16, 16), (32, 32)]
BLINKS_MS = 12000


def seat_neutral(g, seat):
    """A turned frame with the seat's own colour written as one token, so seats compare."""
    colour = screens.SEAT_COLOURS[seat]
    return tuple(tuple("seat" if v == colour else v for v in row) for row in g)


def frames_at(script, game, players, size):
    """The frame on the matrix and the state at each script line '#mark NAME' -> {NAME: (rows, state)}."""
    from layerlight_tools import simcore
    dev = simcore.make_device(scenario_lib.device_files(), size[0], size[1], 1, game, players)
    sim = simcore.Simulator(dev)
    out = {}
    for no, line in enumerate(script.split("\n"), 1):
        if line.startswith("#mark "):
            # every picture the screen shows over 12 s (its blinks, pages and scrolling words
            # all come round in that time), as the seat sees them
            seat = dev.state()["turn_seat"] - 1
            seen = set()
            for _ in range(BLINKS_MS // 50):
                sim.run_line("wait 50", no)
                seen.add(seat_neutral(table_view.turned(dev.hw.frame.hex_rows(), seat), seat))
            out[line[6:]] = (seen, dev.state())
        else:
            sim.run_line(line, no)
    return out


def picture(a, b):
    """Two turned frames side by side as text: # white, s the seat, o other colours."""
    def ch(v):
        return "." if not v else "s" if v == "seat" else "#" if v == 0xFFFFFF else "o"
    return "\n".join("".join(ch(v) for v in ra) + "   " + "".join(ch(v) for v in rb) for ra, rb in zip(a, b))


def mark(name):
    return ["wait 600", "#mark " + name]  # the light of the last press has gone


def coop_seat_script(players=4):
    """Each seat in turn: its menu word LOOP, the loop colour choice, a count of 7 dots, then the
    loop given up (hold B) and its card placed (A)."""
    lines = ["press A", "press A"]  # the cards, P1 first
    for seat in range(players):
        lines += ["press B"] + mark("word %d" % seat)
        lines += ["press A", "press B", "press B"] + mark("colour %d" % seat)
        lines += ["press A"] + ["press P2"] * 7 + mark("count %d" % seat)
        lines += ["hold B 1200", "press A"]
    return "\n".join(lines) + "\n"


def paper_seat_script(players=4):
    """Each seat in turn: the menu word OBJECTIVE, the objective choice, its turn ended; then the
    end, the final round, and each seat's stars entered as 9 (P3 once read it as 6)."""
    lines = ["press A"]
    for seat in range(players):
        lines += ["press B"] + mark("word %d" % seat)
        lines += ["press A"] + mark("claim %d" % seat)
        lines += ["hold B 1200", "press A"]
    lines += ["press B", "press B", "press B", "press A"]  # P1: end
    lines += ["press A"] * players  # the final round: P2, P3, P4, then P1 last
    for seat in range(players):
        lines += ["press P3", "press P2", "press P2", "press P2", "press P2"] + mark("stars %d" % seat)
        lines += ["press A", "press A", "press A"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
@pytest.mark.parametrize("game,script,what", [
    ("coop", coop_seat_script, ("word", "colour", "count")),
    ("paper-world", paper_seat_script, ("word", "claim", "stars")),
])
def test_each_seat_reads_its_own_screen_as_p1_reads_hers(game, script, what, size):
    shot = frames_at(script(), game, 4, size)
    for name in what:
        p1, p1_state = shot["%s 0" % name]
        for seat in (1, 2, 3):
            seen, state = shot["%s %d" % (name, seat)]
            assert state["turn_seat"] == seat + 1 and state["phase"] == p1_state["phase"], (name, state)
            assert seen == p1, "%s of P%d at %dx%d does not read from P%d as P1's does from P1:\n%s" % (
                name, seat + 1, size[0], size[1], seat + 1, picture(sorted(seen - p1)[0], sorted(p1 - seen)[0])
                if seen - p1 and p1 - seen else "")


def test_the_check_has_teeth_a_screen_left_facing_p1_fails():
    shot = frames_at(coop_seat_script(), "coop", 4, (16, 16))
    p1, _ = shot["count 0"]
    # P1's count read from P3's seat (turned half round) is another picture: upside down
    upside_down = {tuple(tuple(row[::-1]) for row in g[::-1]) for g in p1}
    assert upside_down != p1 and not upside_down & p1


# --- endings ---------------------------------------------------------------------------------------

def has_flag(g):
    """A chequered flag (screens.end_flag): 4 x 4 squares of white and dim, any square size."""
    h, w = len(g), len(g[0])
    for cell in (1, 2, 3, 4):
        for y in range(h - 4 * cell + 1):
            for x in range(w - 4 * cell + 1):
                if all(g[y + j * cell][x + i * cell] == (screens.WHITE if (i + j) % 2 == 0 else screens.DIM)
                       for j in range(4) for i in range(4)):
                    return True
    return False


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
@pytest.mark.parametrize("make", [scenario_lib.coop_game, scenario_lib.paper_world_game], ids=["coop", "paper-world"])
def test_the_final_is_never_the_winners_turn_screen(make, size):
    """Every final frame differs from every screen of the winner's turn; the final shows the flag and
    the winners' totals blinking (colour, then white) within its first seconds, totals first."""
    script, game, players = make()
    script = script.rsplit("press A", 1)[0] + "wait 12000\n"  # stay on the final a while
    frames = table_view.record_frames(script, game, players, size)
    finals = [(state, rows) for _, _, state, rows in frames if state["phase"] == "final"]
    winners = finals[-1][0]["winners"]
    assert winners
    turns = {tuple(rows) for _, _, state, rows in frames
             if state["phase"] == "turn" and state["turn_seat"] in winners}
    assert turns
    assert not turns & {tuple(rows) for _, rows in finals}
    grids = [table_view.grid(rows) for _, rows in finals]
    assert any(has_flag(g) for g in grids)
    for w in winners:
        colour = screens.SEAT_COLOURS[w - 1]
        lit = [any(colour in row for row in g) for g in grids]
        assert any(lit) and not all(lit), "P%d's total should blink between its colour and white" % w


def test_paper_world_final_starts_on_the_totals_whatever_the_clock():
    """The pages run from the moment the game ends: a second into the final it shows the totals
    page (the flag, or the D of the tie-break taking turns with it), at any time of the clock."""
    from layerlight.modes import paper_world_screens
    script, game, players = scenario_lib.paper_world_game()
    head = script.rsplit("wait 2000", 1)[0]
    for extra in (0, 700, 2300, 4100):
        frames = table_view.record_frames(head.replace("press A\n", "wait %d\npress A\n" % extra, 1)
                                          + "wait 1000\n", game, players, (16, 16))
        first = [rows for _, line, state, rows in frames if state["phase"] == "final"][-1]
        g = table_view.grid(first)
        assert has_flag(g) or any(paper_world_screens.TIE_BREAK in row for row in g), extra


# --- colours ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
@pytest.mark.parametrize("make", [scenario_lib.coop_game, scenario_lib.paper_world_game], ids=["coop", "paper-world"])
def test_touching_things_are_told_apart_on_the_leds(make, size):
    """In every frame of a whole game, neighbouring LEDs of different colours are at least
    table_view.MIN_TOUCHING apart in CIEDE2000 as the eye sees them (a seat's total and a colour
    bar, the seat's edge and the row of six colours...), or a dark gutter keeps them apart."""
    script, game, players = make()
    cache = {}
    for no, line, state, rows in table_view.record_frames(script, game, players, size):
        clashes = table_view.touching_clashes(rows, cache=cache)
        assert not clashes, "after line %d (%s), %s: %06x at %s touches %06x at %s, %.1f apart" % (
            no, line, state["phase"], clashes[0][3], clashes[0][1], clashes[0][4], clashes[0][2], clashes[0][0])


def close_pairs():
    """Seat colours and CO.OP's six: the pairs closer than MIN_TOUCHING for a deuteranope or a
    protanope (Brettel's simulation): {(kind, i, j): (colour i, colour j)}."""
    from layerlight.modes import coop
    close = {}
    for kind, palette in (("seat", screens.SEAT_COLOURS), ("coop", coop.LED)):
        for i in range(len(palette)):
            for j in range(i + 1, len(palette)):
                worst = min(led_colour.delta_e(palette[i], palette[j], cvd=cvd) for cvd in led_colour.CVD_KINDS)
                if worst < table_view.MIN_TOUCHING:
                    close[(kind, i, j)] = (palette[i], palette[j])
    return close


_KEEPER_FRAMES = {}


def keeper_frames(size=(16, 16)):
    """Every distinct frame of the whole CO.OP and Paper World games at a size:
    [(game, line number, phase, grid)] (played once a size, kept for the module)."""
    if size not in _KEEPER_FRAMES:
        frames = _KEEPER_FRAMES[size] = []
        for make in (scenario_lib.coop_game, scenario_lib.paper_world_game):
            script, game, players = make()
            for no, line, state, rows in table_view.record_frames(script, game, players, size):
                frames.append((game, no, state["phase"], table_view.grid(rows)))
    return _KEEPER_FRAMES[size]


def confusions(frames, a, b):
    """Frames a player who cannot tell colours a and b apart cannot tell from one another: two
    frames that look the same with a and b taken as one colour, but have a where the other has b.
    Position tells them apart when a and b sit at places of their own (a bar, a marked place in a
    row, a seat's side), shape when they draw different shapes; neither leaves two such frames.
    A pair is also told apart when one of them blinks and the other does not: in the frames of
    one script line its LEDs go on and off. Returns [(game, phase, line, phase, line)]."""
    blinks = {}  # (game, line, colour): its LEDs go on and off within that line's frames
    lit = {}
    for game, no, phase, g in frames:
        for c in (a, b):
            cells = frozenset((x, y) for y, row in enumerate(g) for x, v in enumerate(row) if v == c)
            lit.setdefault((game, no, c), set()).add(cells)
    for key, shapes in lit.items():
        union = frozenset().union(*shapes)
        blinks[key] = bool(union) and any(cells != union for cells in shapes)
    seen = {}
    out = []
    for game, no, phase, g in frames:
        flat = [v for row in g for v in row]
        if a not in flat and b not in flat:
            continue
        view = tuple(tuple(-1 if v == a or v == b else v for v in row) for row in g)
        which = tuple(tuple(v for v in row if v == a or v == b) for row in g)
        blink = (blinks[(game, no, a)], blinks[(game, no, b)])
        for other, (ogame, ono, ophase, oblink) in seen.get(view, {}).items():
            if other != which and oblink == blink:
                out.append((game, phase, no, ophase, ono))
                break
        seen.setdefault(view, {}).setdefault(which, (game, no, phase, blink))
    return out


@pytest.mark.parametrize("size", SIZES, ids=["8x8", "16x16", "32x32"])
def test_colours_too_close_for_a_colour_blind_player_carry_a_second_cue(size):
    """Seat colours and CO.OP's six, as a deuteranope and a protanope see them: every pair closer
    than MIN_TOUCHING is told apart in every frame of whole CO.OP and Paper World games by where
    it is, its shape or a blink (confusions()). The seat colours: each only ever lights its
    seat's side, or its seat's screen turned to face it; CO.OP's: each has its bar on the board,
    its marked place in the colour choice's row, and on a colour's total (the pause menu's
    SCORES, after a turn) and a loop's count entry a mark at that same place."""
    close = close_pairs()
    assert ("coop", 1, 2) in close, "the check has teeth: green and yellow are close for a deuteranope"
    frames = keeper_frames(size)
    assert {"turn", "loop_dots", "loop_o", "loop_x"} <= {phase for game, _no, phase, _g in frames if game == "coop"}
    found = {}
    for pair, (a, b) in sorted(close.items()):
        bad = confusions(frames, a, b)
        if bad:
            found[pair] = bad[:3]
    assert not found, "told apart by colour alone: %s" % found
