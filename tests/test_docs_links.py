"""The documents stay true: every relative link in README.md, docs/ and hardware/ reaches
a file (and the heading it names), every `layerlight` sub-command and option shown in
a code block is one that `layerlight ... --help` lists, every benchmark entry and
test file the pages name exists, nothing sends the reader outside the repository, and
every trace key the simulator prints is on docs/trace.md."""

import argparse
import re
from pathlib import Path

import pytest

from layerlight_tools import cli

REPO = Path(__file__).resolve().parent.parent
DOCS = sorted([REPO / "README.md"] + list((REPO / "docs").glob("*.md")) + list((REPO / "hardware").glob("*.md")))

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_and_code(text):
    """(prose lines with inline code blanked, code blocks as lists of lines): fenced blocks
    and blocks indented four spaces after a blank line or a heading."""
    prose, blocks = [], []
    block = None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if block is not None and block[0] == "fence":
            if FENCE.match(line):
                blocks.append(block[1])
                block = None
            else:
                block[1].append(line)
            continue
        if FENCE.match(line):
            block = ("fence", [])
            continue
        indented = line.startswith("    ") and not line.lstrip().startswith(("-", "*", "|")) and line.strip()
        if indented and (block is not None or (i > 0 and (not lines[i - 1].strip() or lines[i - 1].startswith("#")))):
            if block is None:
                block = ("indent", [])
            block[1].append(line)
            continue
        if block is not None:
            blocks.append(block[1])
            block = None
        prose.append(re.sub(r"`[^`]*`", "``", line))
    if block is not None:
        blocks.append(block[1])
    return prose, blocks


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    """Every heading's anchor in a markdown file (a repeated one gets -1, -2...); lines in
    fenced code blocks are no headings."""
    seen = {}
    out = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def broken_links(path):
    """The relative links of a markdown file that reach nothing, as 'file: target (why)'."""
    prose, _ = prose_and_code(path.read_text(encoding="utf-8"))
    bad = []
    for line in prose:
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
                continue
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            name = "%s: %s" % (path.relative_to(REPO) if path.is_relative_to(REPO) else path.name, target)
            if not dest.exists():
                bad.append(name + " (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                bad.append(name + " (no such heading)")
    return bad


def test_every_relative_link_reaches_a_file_and_its_heading():
    assert len(DOCS) > 10
    bad = [b for path in DOCS for b in broken_links(path)]
    assert bad == []


def test_the_link_check_catches_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# Other page\n\n## Put it on a `Pico`\n\n```\n# not a heading\n```\n")
    (tmp_path / "a.md").write_text(
        "[ok](other.md#put-it-on-a-pico) [ok](#top-heading) ![pic](other.md) [web](https://example.com/x)\n"
        "# Top heading\n`[in code](nowhere.md)`\n\n```\n[in a block](nowhere.md)\n```\n"
        "[gone](missing.md) [no heading](other.md#not-a-heading) [typo](other.md#put-it-on-a-pic)\n")
    assert broken_links(tmp_path / "a.md") == [
        "a.md: missing.md (no such file)", "a.md: other.md#not-a-heading (no such heading)",
        "a.md: other.md#put-it-on-a-pic (no such heading)"]


def test_headings_anchor_as_github_spells_them():
    assert slug("Facing the seat, and endings (every mode)") == "facing-the-seat-and-endings-every-mode"
    assert slug("The settings file: layerlight.json") == "the-settings-file-layerlightjson"
    assert slug("Speed (`.venv/bin/python tests/bench/run.py otlo`)") == "speed-venvbinpython-testsbenchrunpy-otlo"


# ---------------------------------------------------------------- commands shown in code blocks


def parser_tree():
    """{sub-command: (its options, {sub-sub-command: its options})} from the real parser."""
    tree = {}

    def options(p):
        return {o for a in p._actions for o in a.option_strings}

    def subparsers(p):
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                return a.choices
        return {}

    for name, sub in subparsers(cli.build_parser()).items():
        tree[name] = (options(sub), {n: options(s) for n, s in subparsers(sub).items()})
    return tree


def commands(block):
    """Each `layerlight ...` command of a code block as its words: lines continued by a
    backslash or by an indented option are joined first, then a pipeline's every part."""
    logical = []
    continued = False
    for line in block:
        line = re.sub(r"\s#\s.*$", "", line)  # a comment
        if logical and (continued or re.match(r"^\s+\[?-", line)):
            logical[-1] += " " + line
        else:
            logical.append(line)
        continued = line.rstrip().endswith("\\")
    out = []
    for line in logical:
        for part in line.replace("\\", " ").split("|"):
            m = re.search(r"(?:^|[\s/=\"'])layerlight\s+([a-z][\w-]*.*)$", part)
            if m:
                out.append(m.group(1).split())
    return out


def wrong_commands(text, tree, where):
    """The sub-commands and options of `layerlight` in a document's code blocks that --help
    does not list, as 'where: layerlight ... (what)'."""
    _, blocks = prose_and_code(text)
    bad = []
    for block in blocks:
        for words in commands(block):
            name = words[0]
            if name not in tree:
                bad.append("%s: layerlight %s (no such sub-command)" % (where, name))
                continue
            known, subs = tree[name]
            rest = words[1:]
            if subs and rest and not rest[0].startswith(("-", "[")):
                if rest[0] not in subs:
                    bad.append("%s: layerlight %s %s (no such sub-command)" % (where, name, rest[0]))
                    continue
                known = known | subs[rest[0]]
            for word in rest:
                option = word.strip("[]()").split("=")[0]
                if re.match(r"^--?[a-zA-Z]", option) and option not in known:
                    bad.append("%s: layerlight %s %s (no such option)" % (where, name, option))
    return bad


def test_every_layerlight_command_in_a_code_block_is_one_help_lists():
    tree = parser_tree()
    shown = []
    bad = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in prose_and_code(text)[1]:
            shown += commands(block)
        bad += wrong_commands(text, tree, path.relative_to(REPO))
    assert bad == []
    # the check sees the commands it is meant to: the pages show every sub-command
    assert {w[0] for w in shown} == set(tree)


def test_the_command_check_catches_a_wrong_sub_command_and_option():
    text = ("```\n.venv/bin/layerlight flash --port /dev/ttyACM0  # ok\n"
            "layerlight sim --headless --script FILE [--game GAME]\n"
            "               [--deck DECK] [--colour X]\n"
            "printf 'press A\\n' | .venv/bin/layerlight sim --headless --script - --tarce\n"
            "layerlight cards build SET.toml -o my.deck [--per-level 60] [--levels 5]\n"
            "layerlight cards shuffle my.deck\nlayerlight play --fast\n```\n\n"
            "    layerlight history --flash DIR --cvs out.csv\n")
    assert wrong_commands(text, parser_tree(), "x.md") == [
        "x.md: layerlight sim --colour (no such option)",
        "x.md: layerlight sim --tarce (no such option)",
        "x.md: layerlight cards --levels (no such option)",
        "x.md: layerlight cards shuffle (no such sub-command)",
        "x.md: layerlight play (no such sub-command)",
        "x.md: layerlight history --cvs (no such option)",
    ]


# ---------------------------------------------------------------- names of benchmarks and tests


def test_every_benchmark_entry_and_test_file_the_pages_name_exists():
    bench = {p.stem for p in (REPO / "tests" / "bench").glob("bench_*.py")}
    named_benches = set()
    bad = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r"\b(bench_[a-z_0-9]+)\b", text):
            named_benches.add(name)
            if name not in bench:
                bad.append("%s: %s" % (path.relative_to(REPO), name))
        for name in re.findall(r"\btests/[\w/]+\.(?:py|mjs)\b", text):
            if not (REPO / name).exists():
                bad.append("%s: %s" % (path.relative_to(REPO), name))
        for name in re.findall(r"`(test_[a-z_0-9]+\.py)`", text):
            if not (REPO / "tests" / name).exists():
                bad.append("%s: %s" % (path.relative_to(REPO), name))
    assert bad == []
    assert named_benches == bench  # development.md names every entry of `make bench`


@pytest.mark.parametrize("page", ["layers", "otlo", "coop", "paper-world", "simulators", "decks", "otlo-tiles",
                                  "pico", "play-log", "colours", "development", "device", "trace", "formats"])
def test_the_readme_links_every_page(page):
    assert "(docs/%s.md" % page in (REPO / "README.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------- nothing outside the repository

# A person who cloned the repository has nothing beside it: the workshop's contracts and
# rulebooks (a `shared` folder next to the clone) must not be where a page, a comment or a
# help text sends them. The names are put together here so this file does not name them.
WORKSHOP = "shared"
OUTSIDE_NAMES = re.compile(
    r"%s/(?:spec|seeds)\b|%s/STYLE\b|(?<![\w/.-])(?:games|simulator|layer-sets|STYLE)\.md\b"
    r"|(?<![\w/.-])seeds/[\w-]+\.txt\b" % (WORKSHOP, WORKSHOP))
GAMES_MD = "games" + ".md"  # the workshop's rules of the games
BESIDE = re.compile(r"\.\./%s\b" % WORKSHOP)  # the folder beside the clone itself
SKIP_DIRS = {".git", ".venv", "node_modules", "build", "dist", "test-artifacts", "__pycache__", ".pytest_cache"}
TEXT = {".py", ".md", ".mjs", ".js", ".txt", ".toml", ".json", ".csv", ".scad", ".yml", ".yaml", ".cfg",
        ".patch", ".svg", ".html", ".css", ".sh"}
BACKTICKED = re.compile(r"`([^`\s]+)`")


def repo_files():
    """Every text file of the working tree (not the set-up's folders)."""
    import os
    out = []
    for top, dirs, names in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]  # never walked into (.venv, node_modules...)
        for name in names:
            path = Path(top) / name
            if path.suffix in TEXT or name in ("Makefile", ".gitignore"):
                out.append(path)
    return sorted(out)


def python_notes(text):
    """A Python file's comments and docstrings (what a reader reads as prose), with line numbers."""
    import io
    import tokenize
    notes = []
    prev = tokenize.INDENT
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                notes.append((tok.start[0], tok.string))
            elif tok.type == tokenize.STRING and prev in (tokenize.INDENT, tokenize.NEWLINE, tokenize.NL,
                                                          tokenize.DEDENT, tokenize.ENCODING):
                notes.append((tok.start[0], tok.string))
            if tok.type not in (tokenize.COMMENT, tokenize.NL):
                prev = tok.type
    except (tokenize.TokenError, SyntaxError):
        notes = list(enumerate(text.split("\n"), 1))
    return notes


def outside_references(path, root=REPO):
    """What a file says of places outside the repository, as 'file:line: what'.

    Everywhere: the workshop's spec and rulebook files by name. In pages (markdown, and
    everything under hardware/) and in Python comments and docstrings: the folder beside the
    clone; in markdown, any link or backticked path that leads out of the repository."""
    text = path.read_text(encoding="utf-8", errors="replace")
    rel = path.relative_to(root)
    bad = []
    lines = text.split("\n")
    for no, line in enumerate(lines, 1):
        for m in OUTSIDE_NAMES.finditer(line):
            bad.append("%s:%d: %s" % (rel, no, m.group(0)))
    page = path.suffix == ".md" or rel.parts[0] == "hardware"
    if page:
        notes = list(enumerate(lines, 1))
    elif path.suffix == ".py":
        notes = python_notes(text)
    else:
        notes = []
    for no, note in notes:
        for m in BESIDE.finditer(note):
            bad.append("%s:%d: %s" % (rel, no, m.group(0)))
    if path.suffix == ".md":
        for no, line in enumerate(lines, 1):
            targets = [t for t in LINK.findall(line) if not re.match(r"^[a-z][a-z0-9+.-]*:", t)]
            targets += [t for t in BACKTICKED.findall(line) if t.startswith("../")]
            for target in targets:
                dest = (path.parent / target.partition("#")[0]).resolve()
                if not dest.is_relative_to(root.resolve()):
                    bad.append("%s:%d: %s (outside the repository)" % (rel, no, target))
    return bad


def test_no_file_sends_the_reader_outside_the_repository():
    files = repo_files()
    assert len(files) > 200 and REPO / "README.md" in files and REPO / "firmware" / "layerlight" / "app.py" in files
    bad = [b for path in files for b in outside_references(path)]
    assert bad == []


def test_the_outside_check_catches_every_way_out(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "hardware").mkdir()
    (tmp_path / "firmware").mkdir()
    ok = "[in](../README.md) `../firmware/x.py` [web](https://example.com/a/../b) `docs/trace.md`\n"
    (tmp_path / "README.md").write_text("fine\n")
    (tmp_path / "docs" / "a.md").write_text(
        ok + ("The rules: `%s/spec/x.md`, %s.\n[rules](../../%s/seeds/coop-rules.txt)\n"
              "see [up](../../elsewhere/x.md) and `../../elsewhere/y` and `../%s/rp2`\n"
              % (WORKSHOP, GAMES_MD, WORKSHOP, WORKSHOP)))
    (tmp_path / "hardware" / "b.scad").write_text("// the boot ROM in ../%s/rp2\n" % WORKSHOP)
    (tmp_path / "firmware" / "c.py").write_text(
        '"""State (%s "CO.OP")."""\n# rules: %s/spec/otlo.md\nROM = "../%s/rp2"  # a path the code uses\n'
        'x = 1  # see docs/trace.md\n' % (GAMES_MD, WORKSHOP, WORKSHOP))
    found = [b for p in sorted(tmp_path.rglob("*.*")) for b in outside_references(p, tmp_path)]
    assert found == [
        "docs/a.md:2: %s/spec" % WORKSHOP,
        "docs/a.md:2: " + GAMES_MD,
        "docs/a.md:3: %s/seeds" % WORKSHOP,
        "docs/a.md:3: ../%s" % WORKSHOP,
        "docs/a.md:4: ../%s" % WORKSHOP,
        "docs/a.md:3: ../../%s/seeds/coop-rules.txt (outside the repository)" % WORKSHOP,
        "docs/a.md:4: ../../elsewhere/x.md (outside the repository)",
        "docs/a.md:4: ../../elsewhere/y (outside the repository)",
        "firmware/c.py:1: " + GAMES_MD,
        "firmware/c.py:2: %s/spec" % WORKSHOP,
        "hardware/b.scad:1: ../%s" % WORKSHOP,
    ]


# ---------------------------------------------------------------- every trace key is documented

# One short game of every mode, played by the headless simulator's own script interpreter,
# reaching every phase a table meets (the pause menu, SCORES, the final); the menu's
# scripts go into SETTINGS and HISTORY. (--game, --players, script)
GIVE_UP = "press A\nhold B 700\npress A\n"  # a round nobody can make: reveal, give up, go on
TRACE_SCRIPTS = {
    "menu": (None, 0, "wait 100\npress B\nhold A B 3100\n"),
    "settings": (None, 0, "press B\n" * 7 + "press A\npress B\npress A\n"),
    "history": (None, 0, "press B\n" * 8 + "press A\npress B\n"),
    "layers from the menu": (None, 0, "press A\npress P1\npress P2\npress P3\npress A\nwait 2000\npress A\n"
                             "press B\npress A\npress P2\npress P1\npress P3\npress A\npress A\npress A\n"
                             "wait 200\npress P1\npress P2\nhold A 1600\npress B\npress A\npress P2\npress A\n"
                             + ("press A\n" + GIVE_UP) * 5),
    "layers-plus": ("layers-plus", 2, "press A\npress P2\nhold A 1600\npress A\npress P1\npress A\npress B\n"
                    "wait 300\npress A\n"
                    + GIVE_UP * 5),
    "time-attack": ("time-attack", 1, "press A\npress A\npress A\npress P2\npress B\nhold B 700\nwait 180000\n"),
    "time-attack-plus": ("time-attack-plus", 1, "press A\npress P1\npress A\nwait 180000\n"),
    "otlo": ("otlo", 2, "press A\npress P2\npress A\npress P1\npress B\npress A\npress B\nhold A 1600\n"
             "press B\npress A\npress A\n" + "press P2\npress A\npress A\n" * 8),
    "otlo solo": ("otlo", 1, "press A\npress A\npress B\nwait 1000\n" + "press A\n" * 12),
    "coop from the menu": (None, 0, "press B\n" * 5 + "press A\npress P1\npress P2\npress A\npress P1\npress A\n"
                           "press B\npress A\npress A\npress B\npress A\npress A\npress P3\npress A\npress A\n"
                           "press B\npress B\npress A\npress B\npress A\npress B\npress B\npress A\npress A\n"
                           "press P2\npress A\npress A\nhold A 1600\npress B\npress B\npress A\npress B\n"
                           "press B\npress A\n" + "press B\n" * 6 + "press A\npress B\npress A\npress P2\npress A\n"
                           "press A\nhold A 1600\npress B\npress B\npress B\npress A\n"),
    "coop solo": ("coop", 1, "press A\nhold A 1600\npress B\npress B\npress A\n"),
    "paper-world from the menu": (None, 0, "press B\n" * 6 + "press A\npress P1\npress P2\npress P3\npress A\n"
                                  "wait 2500\npress B\npress A\npress B\npress A\npress A\npress B\npress B\n"
                                  "press A\nhold A 1600\npress B\npress B\npress A\npress A\npress B\npress B\n"
                                  "press B\npress A\npress A\npress A\npress A\npress P3\npress A\npress A\n"
                                  "press A\npress A\npress A\npress A\npress A\npress A\npress A\npress A\n"),
}


def traced_states():
    """Every state of every script above, as the simulator prints them (with --frames)."""
    import json

    from layerlight_tools import firmware_files, simcore
    files = firmware_files.device_files(None, None)
    states = []
    for game, players, script in TRACE_SCRIPTS.values():
        dev = simcore.make_device(files, 16, 16, 1, game, players, lambda line: None)
        sim = simcore.Simulator(dev, frames=True)
        sim.run(script.split("\n"), lambda line: states.append(json.loads(line)))
    return states


def trace_words(states):
    """The names a reader of a trace meets: every key (nested ones too, not the data's own:
    colour names, card ids), every phase of every mode, every sound."""
    keys, phases, sounds = set(), set(), set()

    def walk(value, key):
        if isinstance(value, dict) and key not in ("colours", "barred"):
            for k, v in value.items():
                keys.add(k)
                walk(v, k)
        elif isinstance(value, list) and key != "frame":
            for v in value:
                walk(v, key)

    for s in states:
        walk(s, None)
        phases.add((s["game"], s["phase"]))
        sounds.update(s["sound"])
    return keys, phases, sounds


def undocumented(states, page_text):
    keys, phases, sounds = trace_words(states)
    named = set(re.findall(r"`([^`\s]+)`", page_text))
    return sorted(["key " + k for k in keys - named] + ["phase %s of %s" % (p, g) for g, p in phases if p not in named]
                  + ["sound " + s for s in sounds - named])


def test_every_key_phase_and_sound_of_a_trace_is_on_the_trace_page():
    states = traced_states()
    keys, phases, sounds = trace_words(states)
    # the scripts reach what they are meant to: every mode's phases, to its final
    games = {g for g, _ in phases}
    assert games >= {"menu", "settings", "history", "layers", "layers-plus", "time-attack", "time-attack-plus",
                     "otlo", "coop", "paper-world"}
    for g in ("layers", "layers-plus", "otlo", "coop", "paper-world"):
        assert (g, "final") in phases and (g, "pause") in phases, g
    for g, p in (("layers", "join"), ("layers", "first_player"), ("layers", "round_tile"), ("layers", "steal"),
                 ("time-attack", "result"), ("otlo", "claim"), ("otlo", "scores"), ("coop", "loop_for"),
                 ("coop", "scores"), ("paper-world", "first_player"), ("paper-world", "claim"),
                 ("paper-world", "final_entry"), ("paper-world", "scores")):
        assert (g, p) in phases, (g, p)
    assert {"frame", "breakdown", "loops", "objectives", "entry", "what", "none", "tie_break"} <= keys
    assert undocumented(states, (REPO / "docs" / "trace.md").read_text(encoding="utf-8")) == []


def test_the_trace_check_catches_a_key_a_phase_and_a_sound_the_page_leaves_out():
    states = [{"t": 0, "game": "coop", "phase": "loop_o", "sound": ["tick", "clap"],
               "entry": {"what": "o", "value": 1}, "colours": {"blue": 1}, "frame": ["000000"]}]
    page = "`t` `game` `phase` `sound` `tick` `entry` `what` `colours` `frame`"
    assert undocumented(states, page) == ["key value", "phase loop_o of coop", "sound clap"]
