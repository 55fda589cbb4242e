"""docs/season.png: `layerlight history --plot` of a seeded season played on the simulator.

`.venv/bin/python tests/docs_season.py` plays it again with `layerlight sim --headless --flash`
into a temporary folder (the same seeds and scripts every time: the same picture), then draws
the plot the README shows. Layers six times and Layers+ three (each with its own seed), and
one game of each other mode (tests/pico_games.py).
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pico_games  # noqa: E402
from scenario_lib import Player  # noqa: E402

REPO = os.path.dirname(HERE)
NAMES = "P1=Ann,P2=Ben,P3=Cat,P4=Dan"


def race(game, seed, players):
    """A whole race game in which who finishes first and who gets it wrong change with the seed."""
    p = Player(game, players=players, seed=seed, config=pico_games.SHORT)
    for r in range(6):
        order = [1 + (r * seed + k) % players for k in range(players)]
        answers = ["B" if (r + seed + k) % 3 == 0 else "A" for k in range(players)]
        p.play_round(order, answers, level_presses=(r + seed) % 3)
    p.do("wait 1000")
    p.do("press A")
    return p.script


def games():
    out = [(race("layers", seed, 2 + seed % 3), "layers", 2 + seed % 3, seed) for seed in (4, 5, 6, 7, 9, 11)]
    out += [(race("layers-plus", seed, 2 + seed % 2), "layers-plus", 2 + seed % 2, seed) for seed in (8, 12, 13)]
    out += [(script, game, players, seed) for name, script, game, players, seed in pico_games.games()
            if game not in ("layers", "layers-plus")]
    return out


def layerlight(*args, script=None):
    res = subprocess.run([sys.executable, "-m", "layerlight_tools.cli"] + list(args), input=script,
                         capture_output=True, text=True, cwd=REPO)
    if res.returncode:
        raise SystemExit(res.stderr)
    return res.stdout


def main():
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "short.json")
        with open(config, "w") as f:
            json.dump(pico_games.SHORT, f)
        flash = os.path.join(tmp, "flash")
        for script, game, players, seed in games():
            layerlight("sim", "--headless", "--script", "-", "--flash", flash, "--config", config, "--game", game,
                       "--players", str(players), "--seed", str(seed), script=script)
        print(layerlight("history", "--flash", flash, "--names", NAMES,
                         "--plot", os.path.join(REPO, "docs", "season.png")))


if __name__ == "__main__":
    main()
