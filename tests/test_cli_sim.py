"""The `layerlight sim --headless` command as people and outside checks call it."""

import json
import subprocess
import sys

import pytest


def sim(*args, script=""):
    return subprocess.run([sys.executable, "-m", "layerlight_tools.cli", "sim", "--headless", *args],
                          input=script, capture_output=True, text=True, timeout=120)


def test_trace_has_one_state_per_command_with_every_spec_key():
    r = sim("--script", "-", "--game", "layers", "--players", "3", "--trace",
            script="# comment\npress A\n\npress A  # reveal\nwait 500\n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().split("\n")
    assert len(lines) == 3
    s = json.loads(lines[-1])
    for key in ("t", "game", "phase", "round", "players", "first_player", "scores", "mission",
                "finish_order", "round_tile", "tokens", "timer_ms"):
        assert key in s
    assert s["phase"] == "race" and s["players"] == 3 and s["first_player"] == 1
    assert s["t"] == 60 + 60 + 500


def test_without_trace_only_the_final_state(tmp_path):
    f = tmp_path / "s.txt"
    f.write_text("press A\npress A\n")
    r = sim("--script", str(f), "--game", "layers", "--frames")
    assert r.returncode == 0
    lines = r.stdout.strip().split("\n")
    assert len(lines) == 1 and len(json.loads(lines[0])["frame"]) == 16


def test_boots_to_the_menu_without_game():
    r = sim("--script", "-", script="wait 100\n")
    s = json.loads(r.stdout)
    assert s["game"] == "menu" and s["phase"] == "menu" and s["round"] is None


@pytest.mark.parametrize("script, words", [
    ("press A\npress Q\n", "script line 2"),
    ("wait soon\n", "line 1"),
    ("jump\n", "unknown command"),
    ("hold B\n", "hold BUTTON [BUTTON...] MS"),
])
def test_bad_script_is_one_line_with_the_line_number(script, words):
    r = sim("--script", "-", "--game", "layers", script=script)
    assert r.returncode == 2
    err = r.stderr.strip().split("\n")[-1]
    assert words in err and "Traceback" not in r.stderr


@pytest.mark.parametrize("args, words", [
    (["--game", "chess"], "unknown --game"),
    (["--size", "3x3"], "--size"),
    (["--deck", "/nonexistent.deck"], "no such file"),
    (["--players", "9"], "--players"),
])
def test_bad_options_are_one_line(args, words):
    r = sim("--script", "-", *args, script="wait 1\n")
    assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr


def test_corrupt_deck_is_refused_by_sim_naming_the_file(tmp_path):
    """`sim --deck` checks the file first: a corrupt deck is one line naming it, and no game is played
    with another deck (the device's own handling of a corrupt deck on its flash, error E1 and play
    on, is test_corrupt_deck_on_the_flash_is_error_e1_and_the_device_keeps_running)."""
    bad = tmp_path / "bad.deck"
    bad.write_bytes(b"LLDK\x01garbage")
    r = sim("--script", "-", "--deck", str(bad), script="wait 5000\npress A\n", )
    assert r.returncode == 2 and r.stdout == ""
    assert str(bad) in r.stderr and "Traceback" not in r.stderr


def test_corrupt_deck_on_the_flash_is_error_e1_and_the_device_keeps_running():
    from layerlight_tools import firmware_files, simcore
    files = firmware_files.device_files()
    files["decks/default.deck"] = b"LLDK\x01garbage"
    logs = []
    dev = simcore.make_device(files, log=logs.append)
    sim_ = simcore.Simulator(dev)
    for no, line in enumerate(["wait 5000", "press A"], 1):
        sim_.run_line(line, no)
    assert any("E1" in line for line in logs), logs
    assert dev.state()["phase"] in ("menu", "error")