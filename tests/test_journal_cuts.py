"""The game journal (firmware/layerlight/journal.py), the running game's saves on the Layerlight
UF2: power cuts at every page program and every erase of whole games (before each, halfway, and
every byte half done), on the simulator's NOR flash model (simcore.SimFlash). Nothing saved is
lost, nothing else comes back, a damaged journal never stops the device, and an entry costs one
page program with at most one erase per 8 entries."""

import random

import pytest

from layerlight import journal
from layerlight_tools import simcore
from scenario_lib import coop_game, device_files, paper_world_game
from test_power_cuts import two_player_game

FILES = device_files()
HOWS = ("cut", "partial", "torn")


GAMES = {  # name: (script, players, seed)
    "layers": ("\n".join(two_player_game()) + "\n", 2, 5),
    "paper-world": (paper_world_game()[0], 4, 1),
    "coop": (coop_game()[0], 4, 1),
}
USED = bytes(8 * simcore.SimFlash.SECTOR)  # an area another firmware's code filled: nothing erased


def keeper_view(s):
    keys = ("game", "scores", "actions_logged", "turn_seat", "winners", "seats")
    return {k: s.get(k) for k in keys}


def layers_view(s):
    keys = ("game", "round", "scores", "first_player", "mission", "finish_order")
    out = {k: s[k] for k in keys}
    out["phase"] = "choose" if s["phase"] in ("round_tile", "choose_deck") else s["phase"]
    return out


VIEWS = {"layers": layers_view, "paper-world": keeper_view, "coop": keeper_view}


def run(game, flash, lines=None, record=None):
    """Play a whole game (or `lines`) over `flash`, from power-on in the game. record(dev, saved)
    is told of every record made whole (saved: what it saved, None once cleared). Returns the
    device and whether it ran to the end (False: a power cut)."""
    script, players, seed = GAMES[game]
    dev = simcore.make_device(FILES, 16, 16, seed, None, players, flash=flash)
    if record is not None:
        hook(dev, record)
    try:
        dev.start_game(game, list(range(players)), 0)
        sim = simcore.Simulator(dev)
        for i, line in enumerate(lines or script.split("\n")):
            sim.run_line(line, i + 1)
    except simcore.PowerCut:
        return dev, False
    return dev, True


def hook(dev, record):
    """Tell record() of each record the journal made whole (the device's own calls, unchanged)."""
    saves = dev.saves
    save, clear = saves.save, saves.clear

    def saved(obj, grown=()):
        n = saves.written
        save(obj, grown)
        if saves.written > n:
            record(dev, journal.unflatten(saves.texts))

    def cleared():
        n = saves.written
        clear()
        if saves.written > n:
            record(dev, None)
    saves.save, saves.clear = saved, cleared


def clean_run(game, start=USED):
    """The game without a cut: (its flash ops, [(what was saved, the table's view)] by record)."""
    records = []
    flash = simcore.SimFlash(data=start)
    view = VIEWS[game]

    def record(dev, saved):
        records.append((saved, view(dev.state()) if saved is not None and dev.game is not None else None))
    dev, finished = run(game, flash, record=record)
    assert finished
    return flash.ops, records


def power_on(before, flash):
    """A device powered on again over the files and the journal `before` (a Device) left."""
    logs = []
    dev = simcore.make_device(None, 16, 16, 99, None, 2, logs.append, storage=before.storage,
                              flash=flash.after_power_on())
    return dev, logs


def check_cut(game, at, how, records, start=USED):
    """Cut at op `at` (how), power on again: the game saved by the last whole record comes back
    (or the one the struck op was writing, when all its bytes had landed), and RESUME shows what
    the table had entered then. Returns the flash after the cut."""
    flash = simcore.SimFlash(data=start)
    flash.fault = (at, how)
    done = []
    dev, finished = run(game, flash, record=lambda d, saved: done.append(saved))
    assert not finished and flash.struck is not None, (at, how)
    k = len(done)
    allowed = [records[k - 1] if k else (None, None)]
    if k < len(records) and flash.struck[1] == "program":
        allowed.append(records[k])  # the record being written landed whole before the power went
    after, logs = power_on(dev, flash)
    where = (game, at, how, flash.struck, k)
    assert after.where == "menu", (where, logs)
    assert not [line for line in logs if "damaged" in line or "error" in line], (where, logs)
    assert after.saved in [a[0] for a in allowed], (where, after.saved, [a[0] for a in allowed])
    if after.saved is not None:
        assert after.menu_items()[0] == "resume", where
        simcore.Simulator(after).run_line("press A", 1)
        got = VIEWS[game](after.state())
        assert got in [a[1] for a in allowed if a[0] == after.saved], (where, got, allowed)
    return flash


def every_cut(ops):
    return [(n, how) for n in range(len(ops)) for how in HOWS]


@pytest.mark.parametrize("game", ["layers", "paper-world"])
def test_a_cut_at_every_program_and_erase_of_a_whole_game_loses_no_saved_entry(game):
    """Every op of the whole game (the first base's erases forced, the next block's erased
    ahead at quiet moments), each cut before it, halfway and with every byte half done."""
    ops, records = clean_run(game)
    kinds = [k for k, _o in ops]
    assert "erase" in kinds and kinds.count("program") == len(records)
    for at, how in every_cut(ops):
        check_cut(game, at, how, records)


def test_a_cut_at_every_erase_and_every_fifth_program_of_a_whole_coop_game():
    """CO.OP's 400 presses: every erase, every block's first record (a base) and every fifth
    program, each cut three ways."""
    ops, records = clean_run("coop")
    picked = [n for n, (kind, off) in enumerate(ops)
              if kind == "erase" or off % journal.BLOCK == 0 or n % 5 == 0]
    assert len(picked) > 20
    for n in picked:
        for how in HOWS:
            check_cut("coop", n, how, records)


def test_a_game_goes_on_after_a_torn_entry_and_a_second_cut_still_loses_nothing():
    """A cut tears a record; after the power comes back the game is resumed and played on (the
    journal moves on to a fresh block past the torn bytes), then the power goes again: every
    entry made whole before each cut comes back."""
    script, players, seed = GAMES["paper-world"]
    lines = script.split("\n")
    ops, records = clean_run("paper-world")
    programs = [n for n, (kind, _o) in enumerate(ops) if kind == "program"]
    flash = simcore.SimFlash(data=USED)
    flash.fault = (programs[len(programs) // 2], "torn")
    dev, finished = run("paper-world", flash)
    assert not finished
    after, logs = power_on(dev, flash)
    saved = after.saved
    assert saved is not None and not [ln for ln in logs if "damaged" in ln]
    sim = simcore.Simulator(after)
    sim.run_line("press A", 1)  # RESUME
    state = after.state()
    for i, line in enumerate(["press P%d" % (state["turn_seat"]), "wait 600", "press B", "press A", "wait 400"]):
        sim.run_line(line, i + 2)
    entered = after.state()
    assert after.saves.written >= 1 and after.saves.pos > 0
    again, logs = power_on(after, after.hw.flash)  # the power goes again
    assert not [ln for ln in logs if "damaged" in ln], logs
    simcore.Simulator(again).run_line("press A", 1)
    assert keeper_view(again.state()) == keeper_view(entered)


def test_a_damaged_journal_is_reported_and_never_stops_the_device():
    """A bit flipped inside an entry with more after it: the device boots, says the journal is
    damaged (the matrix's saved-file error and the console), and offers the game as it was
    before that entry. Garbage over the whole area: nothing to resume, no error."""
    ops, records = clean_run("paper-world")
    flash = simcore.SimFlash(data=USED)
    script, players, seed = GAMES["paper-world"]
    lines = script.split("\n")
    dev, finished = run("paper-world", flash, lines[:40])
    assert finished and dev.saves.written > 5
    j = dev.saves
    first = j.block * journal.BLOCK
    at = first
    starts = []
    while at < first + j.pos:
        at = first + journal.skip_gap(flash, first, at - first)
        rec = journal.read_record(flash, at, first + journal.BLOCK - at)
        starts.append(at)
        at += rec[3]
    broken = simcore.SimFlash(data=flash.data)
    broken.data[starts[3] + journal.HEAD + 2] ^= 0x10
    after, logs = power_on(dev, broken)
    assert after.where == "error" and any("journal is damaged" in ln for ln in logs), logs
    assert after.saved is not None  # the entries before the damaged one
    rnd = random.Random(7)
    noise = simcore.SimFlash(data=bytes(rnd.randrange(256) for _ in range(len(flash.data))))
    after, logs = power_on(dev, noise)
    assert after.saved is None and after.where == "menu", logs


def test_an_entry_costs_one_page_program_and_erases_come_ahead_at_most_one_per_8_entries():
    """A whole CO.OP game on a used area: one program per record, the erases at most one per 8
    records, and, but for the very first base, each done ahead at a quiet moment (before the
    block is needed), never in the save of an entry."""
    flash = simcore.SimFlash(data=USED)
    dev, finished = run("coop", flash)
    kinds = [k for k, _o in flash.ops]
    records = dev.saves.written
    assert kinds.count("program") == records > 100
    assert kinds.count("erase") * 8 <= records
    # after the first base (its block had to be erased before anything could be saved) the
    # program that starts a block finds it erased ahead: no erase just before a block's base
    for n, (kind, off) in enumerate(flash.ops):
        if kind == "program" and off % journal.BLOCK == 0 and n > journal.BLOCK_SECTORS:
            assert flash.ops[n - 1][0] == "program", (n, flash.ops[n - 3:n + 1])


def pages_by_record(game):
    """[(kind, bytes, pages programmed)] of every record of a whole game on a used area."""
    flash = simcore.SimFlash(data=USED)
    out = []
    program = flash.program

    def counted(offset, data):
        i = next(k for k, b in enumerate(data) if b != 0xFF)  # the record's first byte
        out.append((data[i], journal.HEAD + int.from_bytes(data[i + 2:i + 4], "little"), len(data) // flash.PAGE))
        before = flash.pages
        program(offset, data)
        assert flash.pages - before == out[-1][2]
    flash.program = counted
    dev, finished = run(game, flash)
    assert finished
    return out


@pytest.mark.parametrize("game", ["paper-world", "coop"])
def test_a_score_keepers_entry_is_one_page_program(game):
    """Counted in pages programmed, not in calls: every entry of a whole game that fits in a page
    is one page program (a record that would straddle a page boundary starts on the next page),
    which is all of them but the final's, which carries the game's play record."""
    records = pages_by_record(game)
    deltas = [(n, pages) for kind, n, pages in records if kind == journal.DELTA]
    assert len(deltas) > 30
    assert all(pages == 1 for n, pages in deltas if n <= journal.PAGE), deltas
    assert sum(1 for n, _p in deltas if n > journal.PAGE) <= 1


def test_saves_wrap_around_the_ring_and_the_newest_always_comes_back():
    """Thousands of saves through the ring of blocks (each followed by a power-on that reads it):
    the newest object comes back every time; a refused program never loses an earlier one."""
    flash = simcore.SimFlash()
    j = journal.Journal(flash)
    assert j.load() is None
    rnd = random.Random(3)
    obj = {"game": "coop", "snap": {"log": [], "seats": [0, 1]}, "ms": 0}
    for n in range(1500):
        obj["snap"]["log"].append([rnd.randrange(9), n])
        if n % 97 == 0:
            obj["snap"]["log"] = obj["snap"]["log"][:10]
        obj["ms"] = n * 100
        if n % 13 == 5:
            flash.fault = (len(flash.ops), "fail")
            with pytest.raises(OSError):
                j.save(obj)
            continue
        j.save(obj)
        if n % 5 == 0:
            j.tidy()
        assert journal.Journal(simcore.SimFlash(data=flash.data)).load() == obj, n
    assert {off // journal.BLOCK for k, off in flash.ops if k == "erase"} == set(range(j.blocks))


def test_the_same_cuts_on_the_real_micropython():
    """The journal's code on MicroPython itself (WebAssembly): a whole Paper World game, the
    power cut at every erase, every block's base and every third program, three ways each."""
    from mpy import run_micropython
    script, players, seed = GAMES["paper-world"]
    res = run_micropython("tests/wasm/journal_cuts_entry.py", args=("paper-world", players, seed, 3),
                          mounts=["firmware:/", "host_tools/layerlight_tools:/lib/layerlight_tools"], stdin=script)
    assert res.returncode == 0, res.stderr[-3000:]
    out = res.stdout.split("\n")
    bad = [line for line in out if " bad" in line]
    assert not bad, bad[:5]
    done = [line for line in out if line.startswith("done ")]
    assert done and int(done[0].split()[1]) >= 30, res.stdout[-2000:]


@pytest.mark.parametrize("game", ["layers", "coop"])
def test_erases_ahead_come_only_at_quiet_moments_never_in_a_race(game):
    """Every erase of a whole game but those the very first save needs (its block was never
    erased) comes with no button down, at least QUIET_MS after the last button event, and
    never while a race runs (QUIET_MS: a quarter of a second, as docs/device.md says)."""
    from layerlight import app
    flash = simcore.SimFlash(data=USED)
    seen = []
    erase = flash.erase
    holder = {}

    def noted(offset):
        dev = holder["dev"]
        seen.append((dev.now, dev.now - dev.quiet_from, getattr(dev.game, "phase", None), dev.saves.written,
                     dev.hw.pressed))
        erase(offset)
    flash.erase = noted
    script, players, seed = GAMES[game]
    dev = simcore.make_device(FILES, 16, 16, seed, None, players, flash=flash)
    holder["dev"] = dev
    dev.start_game(game, list(range(players)), 0)
    sim = simcore.Simulator(dev)
    for i, line in enumerate(script.split("\n")):
        sim.run_line(line, i + 1)
    ahead = [e for e in seen if e[3] > 0]  # after the first record
    assert len(seen) - len(ahead) == journal.BLOCK_SECTORS and ahead
    for now, quiet, phase, _written, pressed in ahead:
        assert quiet >= 250 and not pressed and phase not in app.RACE_PHASES, (now, quiet, phase)


def test_a_damaged_start_of_the_newest_block_is_reported_and_an_older_save_comes_back():
    """A bit flipped in the base of the block in use (its deltas still whole after it): told,
    and the device boots with what the block before holds (or nothing), never stuck."""
    flash = simcore.SimFlash(data=USED)
    dev, finished = run("coop", flash)  # a whole game, then most of another: past the first block
    assert finished
    script, players, seed = GAMES["coop"]
    flash = flash.after_power_on()
    dev, finished = run("coop", flash, script.split("\n")[:300])
    assert finished and dev.saves.block > 0
    broken = simcore.SimFlash(data=flash.data)
    broken.data[dev.saves.block * journal.BLOCK + journal.HEAD + 3] ^= 0x01
    after, logs = power_on(dev, broken)
    assert any("lost its newest block's start" in ln for ln in logs), logs
    assert after.saved != dev.saved


# --- the journal's own failure paths -----------------------------------------------------------

def saves_until_a_base(j, flash, obj, log):
    """Save growing objects until the next save would start a new block (a base)."""
    n = 0
    while True:
        log.append([n])
        obj["snap"]["log"] = list(log)
        record = journal.encode(journal.DELTA, j.seq, journal.diff(j.texts, journal.flatten(obj)))
        if j.pos + len(record) > journal.BLOCK:
            return obj
        j.save(obj)
        n += 1


def seqs_on(flash):
    """The sequence numbers of every whole record on the flash, block by block."""
    out = []
    for b in range(flash.size // journal.BLOCK):
        at = 0
        while True:
            at = journal.skip_gap(flash, b * journal.BLOCK, at)
            try:
                rec = journal.read_record(flash, b * journal.BLOCK + at, journal.BLOCK - at)
            except ValueError:
                break
            if rec is None:
                break
            out.append(rec[1])
            at += rec[3]
    return out


@pytest.mark.parametrize("kind", ["base", "delta"])
def test_a_program_refused_after_its_bytes_landed_uses_up_its_sequence_number(kind):
    """The flash says a program failed, but its bytes are there, whole: its record's number is
    used up all the same, so no two records share one, and the next power-on resumes the
    newest save, not the one the refused record holds (which the device never counted)."""
    flash = simcore.SimFlash()
    j = journal.Journal(flash)
    j.load()
    obj = {"game": "coop", "snap": {"log": []}, "ms": 0}
    log = []
    j.save(obj)
    if kind == "base":
        saves_until_a_base(j, flash, obj, log)
    else:
        for n in range(3):
            log.append([n])
            obj["snap"]["log"] = list(log)
            j.save(obj)
    log.append(["refused"])
    obj["snap"]["log"] = list(log)
    flash.fault = (len(flash.ops), "fail-landed")
    with pytest.raises(OSError):
        j.save(obj)
    flash.fault = None
    for n in range(3):
        log.append(["after", n])
        obj["snap"]["log"] = list(log)
        j.save(obj)
        seqs = seqs_on(flash)
        assert len(seqs) == len(set(seqs)), seqs
        again = journal.Journal(flash.after_power_on())
        assert again.load() == obj and again.damage is None, n
        # and the next record after that power-on takes a number of its own
        again.save(dict(obj, ms=n + 1))
        seqs = seqs_on(again.flash)
        assert len(seqs) == len(set(seqs)), seqs


def test_saves_refused_in_a_row_never_erase_the_only_good_copy():
    """Every program refused (the erases done) for several saves in a row, the quiet moments'
    erases going on between them: the block holding the newest whole base is never erased, and
    a power-on resumes what the last save that succeeded saved."""
    for refused in range(1, 9):
        flash = simcore.SimFlash()
        j = journal.Journal(flash)
        j.load()
        obj = {"game": "coop", "snap": {"log": [[0]]}, "ms": 0}
        j.save(obj)
        kept = journal.unflatten(journal.flatten(obj))
        for n in range(refused):
            flash.fault = (len(flash.ops), "fail", 1000)  # every program from now on: erases too
            with pytest.raises(OSError):
                j.save(dict(obj, ms=n + 1))
            flash.fault = None
            j.tidy()
            j.tidy()
            assert journal.Journal(flash.after_power_on()).load() == kept, (refused, n)


def test_a_program_refused_part_written_leaves_no_room_for_the_next_record_there():
    """A refused program may have left part of its record: the next save starts a new block
    (never programmed over those bytes, which would tear the next record), and a power-on
    resumes it whole, with nothing reported damaged."""
    flash = simcore.SimFlash()
    j = journal.Journal(flash)
    j.load()
    obj = {"game": "coop", "snap": {"log": [[0]]}, "ms": 0}
    j.save(obj)
    flash.fault = (len(flash.ops), "fail-torn")
    with pytest.raises(OSError):
        j.save(dict(obj, ms=1))
    flash.fault = None
    last = dict(obj, ms=2)
    j.save(last)
    again = journal.Journal(flash.after_power_on())
    assert again.load() == last and again.damage is None


def test_an_area_of_one_block_is_refused_and_the_game_is_saved_as_a_file():
    """An area of one block would erase itself to move on: the journal refuses it in one line
    (on the console) and the device saves its games as a file instead, and resumes them."""
    with pytest.raises(ValueError) as e:
        journal.Journal(simcore.SimFlash(sectors=journal.BLOCK_SECTORS))
    assert "two blocks" in str(e.value) and "\n" not in str(e.value)
    logs = []
    script, players, seed = GAMES["paper-world"]
    dev = simcore.make_device(FILES, 16, 16, seed, None, players, logs.append,
                              flash=simcore.SimFlash(sectors=journal.BLOCK_SECTORS))
    assert any("two blocks" in line and "file" in line for line in logs), logs
    dev.start_game("paper-world", list(range(players)), 0)
    sim = simcore.Simulator(dev)
    for i, line in enumerate(script.split("\n")[:30]):
        sim.run_line(line, i + 1)
    entered = keeper_view(dev.state())
    after, logs = power_on(dev, dev.hw.flash)
    simcore.Simulator(after).run_line("press A", 1)
    assert keeper_view(after.state()) == entered


def wraps(ops, blocks):
    """The block moves in a list of flash ops, and whether one of them crossed the ring's end."""
    order = [off // journal.BLOCK for kind, off in ops if kind == "program"]
    moves = [(k, b) for k, (a, b) in enumerate(zip(order, order[1:])) if a != b]
    return moves, any(b == 0 for _k, b in moves)


def test_cuts_across_block_moves_and_the_rings_wrap_torn_at_random_bits(monkeypatch):
    """Whole CO.OP games played one after another over one area (each from power-on, as a table
    plays them) until one moves on from a block twice and crosses the ring's end back to block
    0; in that game the power cut at every erase, every block's base and every fifth program,
    before it, halfway, and at a byte and bit drawn from a seed. Blocks of one sector in an area
    of three (the journal's code is the same for any block size, BLOCK_SECTORS), so that one
    game crosses them."""
    monkeypatch.setattr(journal, "BLOCK_SECTORS", 1)
    monkeypatch.setattr(journal, "BLOCK", journal.SECTOR)
    flash = simcore.SimFlash(data=bytes(3 * journal.SECTOR))
    for n in range(10):
        before = bytes(flash.data)
        ops, records = clean_run("coop", start=before)
        moves, wrapped = wraps(ops, 3)
        if len(moves) >= 2 and wrapped:
            break
        flash = simcore.SimFlash(data=before)
        run("coop", flash)
        flash = flash.after_power_on()
    else:
        raise AssertionError("no game crossed two blocks and the ring's end")
    programs = [k for k, (kind, _off) in enumerate(ops) if kind == "program"]
    bases = {programs[m + 1] for m, _b in moves}  # the first program in each new block
    picked = [k for k, (kind, off) in enumerate(ops) if kind == "erase" or k in bases or k % 5 == 0]
    for k in picked:
        for how in ("cut", "partial", ("random", k)):
            check_cut("coop", k, how, records, start=before)


def journal_with_saves(count, flash=None):
    """A journal on a fresh area with `count` saves of a growing object; (journal, flash, obj)."""
    flash = flash or simcore.SimFlash()
    j = journal.Journal(flash)
    j.load()
    obj = {"game": "coop", "snap": {"log": []}, "ms": 0}
    for n in range(count):
        obj["snap"]["log"].append([n, n * 7])
        obj["ms"] = n
        j.save(obj)
    return j, flash, journal.unflatten(journal.flatten(obj))


def test_a_bit_flipped_in_an_older_blocks_base_header_never_brings_that_save_back():
    """The header is under the CRC as well as the body: an older block's base whose sequence
    number took a high bit (flash wear) fails its check, and the newest save comes back, not
    the old one looking newest."""
    j, flash, _obj = journal_with_saves(300)
    assert j.block >= 2
    newest = journal.Journal(flash.after_power_on()).load()
    old = (j.block - 1) * journal.BLOCK
    assert journal.read_record(flash, old, journal.BLOCK)[0] == journal.BASE
    broken = flash.after_power_on()
    broken.data[old + 7] ^= 0x40  # the sequence number's top byte
    again = journal.Journal(broken)
    assert again.load() == newest


def test_a_whole_record_out_of_sequence_after_the_last_is_not_applied():
    """A whole record with an older sequence number just after the last one (left from an earlier
    pass over the block, where an erase was cut short) is not part of the game: the newest save
    comes back as it was."""
    j, flash, obj = journal_with_saves(6)
    first = j.block * journal.BLOCK
    starts = []
    at = first
    while at < first + j.pos:
        at = first + journal.skip_gap(flash, first, at - first)
        rec = journal.read_record(flash, at, first + journal.BLOCK - at)
        starts.append((at, rec[3]))
        at += rec[3]
    stale_at, stale_len = starts[2]  # a delta of the same game, two entries old
    broken = flash.after_power_on()
    broken.data[first + j.pos:first + j.pos + stale_len] = flash.data[stale_at:stale_at + stale_len]
    assert journal.Journal(broken).load() == obj


def test_a_block_whose_rest_is_not_erased_takes_no_more_records():
    """After the last record the block reads erased at first but not further on (an erase the
    power cut short): the next save starts a new block instead of programming over those bytes,
    and the power-on after it resumes it whole."""
    j, flash, obj = journal_with_saves(3)
    first = j.block * journal.BLOCK
    broken = flash.after_power_on()
    for i in range(first + j.pos + 64, first + journal.BLOCK):
        broken.data[i] = 0x00
    again = journal.Journal(broken)
    assert again.load() == obj
    obj["snap"]["log"].append(["a longer entry"] * 20)
    again.save(obj)
    assert journal.Journal(broken.after_power_on()).load() == obj
