"""The README's picture of every game's board is what the firmware draws today."""

import os

import docs_boards


def test_the_boards_picture_in_docs_is_up_to_date(tmp_path):
    from PIL import Image
    docs_boards.write(str(tmp_path))
    with Image.open(os.path.join(docs_boards.DOCS, "boards.png")) as a, Image.open(tmp_path / "boards.png") as b:
        assert a.size == b.size and a.tobytes() == b.tobytes(), \
            "docs/boards.png is out of date: run `.venv/bin/python tests/docs_boards.py`"


def test_every_board_shows_something_of_its_game():
    frames, labels = docs_boards.boards()
    assert len(frames) == 5
    for rows, label in zip(frames, labels):
        lit = sum(1 for row in rows for i in range(0, len(row), 6) if row[i:i + 6] != "000000")
        assert lit >= 20, "%s: only %d LEDs lit" % (label, lit)
