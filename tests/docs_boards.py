"""docs/boards.png: one board of every game at 16x16, as the LEDs look (led_colour).

`.venv/bin/python tests/docs_boards.py` redraws it; tests/test_docs_boards.py
keeps it up to date. Each board is a frame of the whole games every test
plays (scenario_lib.WHOLE_GAMES), picked by phase: the moment a player at
the table would show a friend.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import scenario_lib  # noqa: E402
import table_view  # noqa: E402
from layerlight_tools import led_picture  # noqa: E402

DOCS = os.path.join(os.path.dirname(HERE), "docs")

# (label, the game, which states show the board, which of those frames: late, when the board is full)
BOARDS = (
    ("Layers: the race", scenario_lib.layers_game, lambda s: s["phase"] == "race" and len(s["finish_order"]) == 2, 0.5),
    ("Layers+: verify", scenario_lib.layers_plus_game, lambda s: s["phase"] == "verify", 0.3),
    ("OTLO Stones: play", scenario_lib.otlo_game, lambda s: s["phase"] == "play", 0.4),
    ("CO.OP: the board", None, None, None),  # test_coop's own board: loops of every colour, counted up
    ("Paper World: the board", scenario_lib.paper_world_game,
     lambda s: s["phase"] == "turn" and s["choice"] == "next", 0.8),
)


def boards(size=(16, 16)):
    frames, labels = [], []
    for label, make, board, at in BOARDS:
        if make is None:
            import test_coop
            frames.append(test_coop.docs_frames()[0])
            labels.append(label)
            continue
        script, game, players = make()
        recorded = table_view.record_frames(script, game, players, size)
        # the last frame of each script line: the board at rest, not in the middle of an animation
        shown = [rows for k, (no, _, state, rows) in enumerate(recorded)
                 if board(state) and (k + 1 == len(recorded) or recorded[k + 1][0] != no)]
        frames.append(shown[int(at * (len(shown) - 1))])
        labels.append(label)
    return frames, labels


def write(folder=DOCS):
    frames, labels = boards()
    led_picture.picture(frames, pitch=16, gap=16, labels=labels).save(os.path.join(folder, "boards.png"))


if __name__ == "__main__":
    write()
    print("wrote docs/boards.png")
