"""Missions, layers and solutions as terminal text: 24-bit colour blocks, or characters without colour."""

import os
import sys

from layerlight import geometry, stacking


def use_colour(stream=None):
    """Colour when writing to a terminal and NO_COLOR is not set."""
    stream = stream or sys.stdout
    return stream.isatty() and not os.environ.get("NO_COLOR")


def grid_lines(grid, n, chars, rgbs, colour):
    """Rows of a grid: two spaces a cell on its colour, or its character (twice) without colour."""
    lines = []
    for y in range(n):
        cells = []
        for x in range(n):
            c = grid[y * n + x]
            if colour:
                r, g, b = rgbs[c]
                cells.append("\x1b[48;2;%d;%d;%dm  " % (r, g, b))
            else:
                cells.append(chars[c] * 2)
        lines.append("".join(cells) + ("\x1b[0m" if colour else ""))
    return lines


def side_by_side(blocks, titles, n, gap=3):
    """Several grids' lines next to each other, each under its title."""
    width = 2 * n
    out = ["".join(t[:width].ljust(width) + " " * gap for t in titles).rstrip()]
    for y in range(n):
        out.append((" " * gap).join(b[y] for b in blocks))
    return out


def placement_text(layers, li, o):
    return "%s %s %d" % (layers[li].id, geometry.side_of(o), geometry.rot_of(o))


def solution_text(layers, solution):
    """'moon back 90 > sun front 0 > ...', bottom first."""
    return " > ".join(placement_text(layers, li, o) for li, o in solution)


def solution_lines(layers, solution, n, chars, rgbs, colour):
    """The layers of a solution in their orientations, bottom first, then the stack they make."""
    blocks = [grid_lines(layers[li].grid(o), n, chars, rgbs, colour) for li, o in solution]
    titles = ["%d %s" % (k + 1, layers[li].id) for k, (li, o) in enumerate(solution)]
    stacked = stacking.compose(layers, solution, n)
    blocks.append(grid_lines(stacked, n, chars, rgbs, colour))
    titles.append("= seen")
    lines = side_by_side(blocks, titles, n)
    lines.append("   ".join(("%s %d" % (geometry.side_of(o), geometry.rot_of(o))).ljust(2 * n) for li, o in solution))
    return lines
