"""The `layerlight` command as a person at a shell meets it: pipes closed early, bad files, help."""

import json
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYERLIGHT = [sys.executable, "-m", "layerlight_tools.cli"]
DECK = os.path.join(REPO, "firmware", "decks", "default.deck")
OTLO_DECK = os.path.join(REPO, "firmware", "decks", "otlo.deck")


def run(args, stdin=None):
    return subprocess.run(LAYERLIGHT + args, input=stdin, capture_output=True, text=True, cwd=REPO)


@pytest.mark.parametrize("args", [
    ["cards", "show", DECK, "14"],
    ["cards", "export", DECK, "--json"],
    ["cards", "export", OTLO_DECK, "--json"],
    ["solve", os.path.join(REPO, "host_tools", "sets", "default.toml"), "-"],
])
def test_a_reader_that_goes_away_ends_the_command_quietly(args, tmp_path):
    """`layerlight cards show DECK 14 | head -2`: no BrokenPipeError traceback, whatever the command."""
    if args[-1] == "-":
        pattern = tmp_path / "p.txt"
        deck = json.loads(run(["cards", "export", DECK, "--json"]).stdout)
        pattern.write_text("\n".join(deck["missions"][-1]["pattern"]) + "\n")
        args = args[:-1] + [str(pattern), "--level", "5"]
    p = subprocess.Popen(LAYERLIGHT + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    first = p.stdout.readline()
    p.stdout.close()  # the reader goes away after one line, as `head -1` does
    err = p.stderr.read().decode()
    p.wait()
    assert first
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert p.returncode in (0, 141)


def test_sim_deck_that_is_not_a_deck_names_the_file_and_does_not_play(tmp_path):
    bad = tmp_path / "mine.deck"
    bad.write_bytes(b"this is not a deck\n")
    r = run(["sim", "--headless", "--script", "-", "--deck", str(bad)], stdin="press A\n")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and str(bad) in r.stderr and "default.deck" not in r.stderr, r.stderr


def test_sim_takes_an_otlo_deck_too():
    r = run(["sim", "--headless", "--script", "-", "--deck", OTLO_DECK, "--game", "otlo"], stdin="press A\n")
    assert r.returncode == 0, r.stderr


def test_sim_help_lists_every_mode_from_the_firmware():
    from layerlight import modes
    out = run(["sim", "--help"]).stdout
    for game in modes.GAMES:
        assert game in out


def test_sim_config_plays_the_tables_own_settings(tmp_path):
    """--config FILE: a table's own Paper World tokens are used; a bad value is the device's own
    console line and play goes on with the default."""
    cfg = tmp_path / "table.json"
    cfg.write_text(json.dumps({"paper_tokens": {"2": [9, 1]}, "coop_black": [["blue", "teal", "pink"]]}))
    r = run(["sim", "--headless", "--script", "-", "--game", "paper-world", "--config", str(cfg)], stdin="press A\n")
    assert r.returncode == 0, r.stderr
    assert [o["tokens"] for o in json.loads(r.stdout)["objectives"]] == [[9, 1]] * 3
    assert "config: bad value for 'coop_black' ignored" in r.stderr


@pytest.mark.parametrize("text,words", [
    ("[1, 2]", "must be a JSON object"),
    ("{1: 2", "not JSON"),
    (None, "cannot read"),
])
def test_sim_config_that_is_not_settings_is_one_line_naming_the_file(tmp_path, text, words):
    cfg = tmp_path / "table.json"
    if text is not None:
        cfg.write_text(text)
    r = run(["sim", "--headless", "--script", "-", "--config", str(cfg)], stdin="press A\n")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert words in r.stderr and str(cfg) in r.stderr, r.stderr
