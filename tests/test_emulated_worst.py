"""The Layerlight UF2 on the emulated Pico at the chip's worst: the sampler's DMA
crossing the seam where its control channel re-arms it, noise on the button
leads, a loop held past the samples kept, and the flash chip at its datasheet's
slowest times (LAYERLIGHT_FLASH_TIMES=max). Pins only, as on a table; each
result is the simulator's (state and frame bytes on the data pin).
"""

import os
import random
import shutil

import pytest

from layerlight_tools.pico import session, target

import pico_games
from scenario_lib import Player
import flash_cuts
from test_emulated_pico import SETTINGS, SIZE, a_scoring_save, after_power_on, play_cut, same_as_sim

pytestmark = pytest.mark.chip  # the emulated RP2040: in make test, not in make quick

PASS = 4096  # the smallest sampler pass the settings allow: a seam every 4.096 s


def image_with(uf2_image, folder, settings):
    """A copy of the fixture's image with `settings` put on by `layerlight flash`."""
    image = os.path.join(str(folder), "flash.bin")
    shutil.copyfile(uf2_image["image"], image)
    pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], image)
    try:
        target.flash(pico, settings)
    finally:
        pico.close(keep=True)
    return image


def play(uf2_image, image, folder, games, times=None, console=None, before=None):
    """Games (script, game, players, seed) one after the other on a Pico powered on from a copy
    of `image`; `before(pico, session, origin)` runs after each begin. [(reports and frames,
    origin)]."""
    copy = os.path.join(str(folder), "run.bin")
    shutil.copyfile(image, copy)
    pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], copy, times=times)
    out = []
    try:
        pico.run_ms(500)
        game_on = session.Session(pico, bounce=False, console=console)
        for script, game, players, seed in games:
            origin = game_on.begin(seed, game, players)
            if before is not None:
                before(pico, game_on, origin)
            got = []
            game_on.play(session.Timeline().read(script.split("\n")), lambda r, f, no: got.append((r, f)))
            out.append((got, origin))
        return out
    finally:
        pico.close()


def lag(pico, game_on):
    """The device's LL lag answer: the most samples behind since the last ask, the ms lost."""
    pico.write(b"LL lag\n")
    return game_on._wait_answer(lambda a: "lag" in a, "the loop's lag")


# ------------------------------------------------- the sampler never stops

def seam_races(seed, rounds, offsets=(-1, 0, 1, 3)):
    """Layers, 4 seats, `rounds` rounds, each race's four presses right at a seam of the
    sampler's passes (instants PASS * n + offsets, ms). Returns (script, orders)."""
    p = Player("layers", players=4, seed=seed, config=pico_games.SHORT)
    orders = []
    seam = PASS
    rng = random.Random(seed)
    for _ in range(rounds):
        for _ in range(4):  # the scores, the next round's tile
            if p.state()["phase"] == "choose_deck":
                break
            p.do("press A")
            p.do("wait 300")
        p.do("press A")
        assert p.state()["phase"] == "race", p.state()
        t = p.sim.t
        while seam + offsets[0] - t < 100:
            seam += PASS
        seats = [1, 2, 3, 4]
        rng.shuffle(seats)
        p.do("wait %d" % (seam + offsets[0] - t))
        now = seam + offsets[0]
        for off, seat in zip(offsets, seats):
            if seam + off > now:
                p.do("wait %d" % (seam + off - now))
                now = seam + off
            p.do("down P%d" % seat)
        p.do("wait 70")
        p.do("up P1 P2 P3 P4")
        p.do("wait 300")
        assert p.state()["finish_order"] == seats, (p.state(), seats)
        orders.append(seats)
        while p.state()["phase"] == "verify":
            p.do("press A")
        while p.state()["phase"] == "steal":  # as Player.play_round takes it
            st = p.state()
            scores = dict(zip(st["seats"], st["scores"]))
            taker = max((x for x in st["seats"] if scores[x] >= 1 and x != st["taker"]), key=lambda x: (scores[x], -x))
            p.do("press P%d" % taker)
        p.do("wait 500")
        seam += PASS
    return p.script, orders


def test_races_across_the_samplers_seams_keep_every_press_in_order(uf2_image, tmp_path):
    """The sampler re-armed every 4096 readings (sample_pass): three races whose presses fall
    1 ms before, at, 1 ms and 3 ms after a seam; each press counted once, in order, the
    reports and frames the simulator's, no sample lost."""
    image = image_with(uf2_image, tmp_path, dict(SETTINGS, sample_pass=PASS))
    script, orders = seam_races(4, 3)
    played = play(uf2_image, image, tmp_path, [(script, "layers", 4, 4)])
    (got, _origin), = played
    ends = [r for r, f in got if r["phase"] == "verify" and len(r["finish_order"]) == 4]
    assert [r["finish_order"] for r in ends][:1] == orders[:1]
    assert {tuple(r["finish_order"]) for r in ends} == {tuple(o) for o in orders}
    assert got[-1][0]["t"] > 3 * PASS  # three seams crossed
    same_as_sim(got, script, "layers", 4, 4, SIZE)


# ------------------------------------------------- a glitch is not a press

def glitch_edges(pico, pins, origin_us, script, buttons, span_ms, rng, clear_ms=40):
    """Low pulses of 0.2-0.9 ms on each of `buttons`' pins, about every 30 ms over span_ms,
    while that button is up and none within clear_ms of its own changes in the script."""
    timeline = session.Timeline().read(script.split("\n"))
    own = {b: [(us // 1000, down) for us, c, down in timeline.changes if c == b] for b in buttons}

    def up_at(b, t):  # the button is up then (a low pulse on a pin held low would let it go)
        downs = [down for ms, down in own[b] if ms <= t]
        return not downs or not downs[-1]
    n = 0
    t = 50
    while t < span_ms:
        b = buttons[n % len(buttons)]
        if up_at(b, t) and all(abs(t - ms) > clear_ms for ms, _down in own[b]):
            at = origin_us + t * 1000 + rng.randint(0, 999)
            pico.edge(pins[b], 0, at)
            pico.edge(pins[b], 1, at + rng.randint(200, 900))
            n += 1
        t += rng.randint(5, 30)
    return n


def test_sub_millisecond_pulses_on_every_player_pin_during_a_race_change_nothing(uf2_image, tmp_path):
    """Noise on all four player leads (pulses shorter than a millisecond, hundreds of them,
    through the reveal, the race and its verification): the finish order pressed, the
    simulator's reports and frames."""
    rng = random.Random(11)
    script, order = pico_games.close_race("layers", 4, rng)
    end = sum(int(line.split()[1]) for line in script.split("\n") if line.startswith("wait ")) + 2000
    counts = []
    played = play(uf2_image, uf2_image["image"], tmp_path, [(script, "layers", 4, 4)],
                  before=lambda pico, s, origin: counts.append(
                      glitch_edges(pico, s.pins, origin, script, [0, 1, 2, 3], end, rng)))
    (got, _origin), = played
    assert counts[0] > 100
    race_end = [r for r, f in got if r["phase"] == "verify"][0]
    assert race_end["finish_order"] == order
    same_as_sim(got, script, "layers", 4, 4, SIZE)


def test_sub_millisecond_pulses_on_a_and_b_in_a_score_keeper_change_nothing(uf2_image, tmp_path):
    name, script, game, players, seed = [g for g in pico_games.games() if g[0] == "coop"][0]
    end = session.Timeline().read(script.split("\n")).ends[-1][0]
    rng = random.Random(12)
    counts = []
    played = play(uf2_image, uf2_image["image"], tmp_path, [(script, game, players, seed)],
                  before=lambda pico, s, origin: counts.append(
                      glitch_edges(pico, s.pins, origin, script, [4, 5], end, rng)))
    (got, _origin), = played
    assert counts[0] > 50
    same_as_sim(got, script, game, players, seed, SIZE)


# ------------------------------------------------- nothing dropped in silence

def test_a_loop_held_past_the_ring_says_how_much_was_lost_and_what_changed(uf2_image, tmp_path):
    """The loop held 5 s (LL hold: more than the 4.032 s of samples kept) while B is pressed
    100 ms into it and held: the console says how many ms were lost and that B changed across
    the gap; a loop held 1.5 s loses nothing."""
    lines = []
    copy = os.path.join(str(tmp_path), "run.bin")
    shutil.copyfile(uf2_image["image"], copy)
    pico = target.power_on(uf2_image["uf2"], uf2_image["rom"], copy)
    try:
        pico.run_ms(500)
        game_on = session.Session(pico, bounce=False, console=lines.append)
        game_on.begin(7)
        pico.run_ms(1000)
        pico.write(b"LL hold 1500\n")
        game_on._wait_answer(lambda a: "held" in a, "a 1.5 s hold", limit_ms=8000)
        assert lag(pico, game_on)["lost_ms"] == 0
        for _ in range(30):  # caught up again (the emulated loop catches up slowly): then the
            pico.run_ms(500)  # 5 s hold below starts from no lag
            if lag(pico, game_on)["lag"] < 100:
                break
        else:
            raise AssertionError("the loop never caught up after a 1.5 s hold")
        at = pico.us
        pico.edge(game_on.pins[5], 0, at + 100_000)
        pico.write(b"LL hold 5000\n")
        game_on._wait_answer(lambda a: "held" in a, "a 5 s hold", limit_ms=10000)
        pico.run_ms(300)
        answer = lag(pico, game_on)
        with pico.cond:
            rest = [text for _us, text in pico.lines]
    finally:
        pico.close()
    said = [line for line in lines + rest if "ms of readings lost" in line]
    assert said, lines + rest
    gone = int(said[0].split("buttons: ")[1].split(" ms")[0])
    # what the ring could not keep, and the eighth of it dropped to go on clear of its end
    assert 5000 - 4032 + 4032 // 8 - 20 <= gone <= 5000 - 4032 + 4032 // 8 + 600, said
    assert "changed across the gap: B" in said[0]
    assert answer["lost_ms"] >= gone and answer["lag"] > 4032


# ------------------------------------------------- the flash chip at its slowest

def test_under_the_flash_chips_slowest_times_races_keep_their_order_at_every_size(uf2_image, tmp_path):
    """LAYERLIGHT_FLASH_TIMES=max (page program 3 ms, sector erase 400 ms): a close race at
    8x8, 16x16 and 32x32 (the first press while the reveal's save is written), the order
    pressed and the simulator's reports and frames, no sample lost."""
    for size in (8, 16, 32):
        rng = random.Random(100 + size)
        script, order = pico_games.close_race("layers", 4, rng)
        image = uf2_image["image"] if size == SIZE else image_with(
            uf2_image, tmp_path, dict(SETTINGS, width=size, height=size))
        lost = []
        (got, _origin), = play(uf2_image, image, tmp_path, [(script, "layers", 4, 4)], times="max",
                               console=lost.append)
        race_end = [r for r, f in got if r["phase"] == "verify"][0]
        assert race_end["finish_order"] == order, size
        same_as_sim(got, script, "layers", 4, 4, size)
        assert not [line for line in lost if "lost" in line], lost


def test_under_the_flash_chips_slowest_times_a_score_keeper_plays_as_the_simulator(uf2_image, tmp_path):
    name, script, game, players, seed = [g for g in pico_games.games() if g[0] == "paper-world"][0]
    lost = []
    (got, _origin), = play(uf2_image, uf2_image["image"], tmp_path, [(script, game, players, seed)],
                           times="max", console=lost.append)
    same_as_sim(got, script, game, players, seed, SIZE)
    assert not [line for line in lost if "lost" in line], lost


def test_under_the_flash_chips_slowest_times_a_power_cut_in_a_save_loses_no_saved_score(
        uf2_image, tmp_path, monkeypatch):
    """As test_emulated_pico's power cut during a save, with every erase 400 ms and every page
    program 3 ms: cut in the middle of the save's page program, and in the middle of the
    journal's erase ahead made in the quiet seconds after it (when the journal's next block
    was not erased yet), the next boot resumes the game with the scores of that save or of the
    one before. (With the game saved as a LittleFS file, a save's 400 ms erases put the host's
    session out of step with the device: the journal's page program is what makes this run.)"""
    monkeypatch.setenv("LAYERLIGHT_FLASH_TIMES", "max")
    game, players, seed, head, allowed = a_scoring_save(4000)
    image = str(tmp_path / "flash.bin")
    shutil.copyfile(uf2_image["image"], image)
    marks, writes, ops = play_cut(uf2_image, image, head, seed, game, players)
    before = marks[-3][1]
    save = [n for us, n in writes if n > before and us <= marks[-2][0]]
    after = [n for us, n in writes if n > before]
    assert save and all(ops[n]["kind"] == "program" and ops[n]["busy_us"] == 3000 for n in save), (save, ops)
    moments = [flash_cuts.moment(save, ops, "program", 0, "mid")]
    erases = [n for n in after if ops[n]["kind"] == "erase"]
    if erases:  # the erase ahead, at a quiet moment after the save
        assert all(ops[n]["busy_us"] == 400000 for n in erases)
        moments.append(flash_cuts.moment(erases, ops, "erase", 0, "mid"))
    for moment in moments:
        image = str(tmp_path / "cut.bin")
        shutil.copyfile(uf2_image["image"], image)
        play_cut(uf2_image, image, head, seed, game, players, moment)
        reports = after_power_on(uf2_image, image, ["wait 100", "wait 50", "press A", "wait 100"])
        where = "cut at %s of writes %s" % (moment, after)
        assert reports[0]["choice"] == "RESUME", where + ": no game to resume"
        assert reports[-1]["game"] == game and reports[-1]["phase"] != "error", (where, reports[-1])
        assert reports[-1]["scores"] in allowed, (where, reports[-1]["scores"], allowed)
