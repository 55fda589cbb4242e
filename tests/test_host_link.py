"""The device's own loop (app.Device.run) on pins it samples itself, asked by a host over its
console (layerlight.host_link), on CPython: the hardware here is the simulator's with a
sampler that reads the pins every millisecond, as the rp2 port's PIO does, and a console.
The host only asks for reports; the buttons come from the pins alone. The emulated Pico runs
the same loop on the real rp2 port (test_emulated_pico.py)."""

import json

import pytest

from layerlight import host_link
from layerlight_tools import firmware_files, simcore
from layerlight_tools.pico import session


class Done(Exception):
    """The console has nothing more to say: the test stops the loop."""


class SampledPins(simcore.SimHardware):
    """The simulator's hardware with a 1 ms sampler over pins that change at given instants
    (ms after the sampler's start), a console a host writes lines into at given ms, and
    flash writes that hold the loop for `save_ms` (the samples go on meanwhile)."""

    SAMPLE_MS = 1
    SAMPLES_KEPT = 2048

    def __init__(self, storage, changes=(), lines=(), save_ms=0):
        simcore.SimHardware.__init__(self, 16, 16, storage)
        self.changes = sorted(changes)   # (ms from time 0, button, down)
        self.glitches = {}               # ms -> buttons whose pin reads flipped in that sample alone
        self.lines = list(lines)         # (ms from time 0 or None: at once, line)
        self.origin = None
        self.save_ms = save_ms
        write = storage._write

        def held_write(name, data, before=b""):
            self.clock += self.save_ms  # the chip stops for a flash write; PIO does not
            return write(name, data, before)
        storage._write = held_write

    def start_sampling(self, origin=None):
        self.origin = self.clock if origin is None else origin
        return self.origin

    def samples_taken(self):
        return self.clock - self.origin

    def sample(self, k):
        bits = 0
        for ms, b, down in self.changes:
            if ms > k:
                break
            bits = bits | (1 << b) if down else bits & ~(1 << b)
        return bits ^ self.glitches.get(k, 0)  # noise on a lead: one sample flipped

    def idle(self, ms):
        if self.lines:
            at, line = self.lines[0]
            if at is None or self.origin is not None and self.clock - self.origin >= at:
                self.lines.pop(0)
                if " begin" in line:
                    self.origin = None  # timed lines count from the begun device's time 0
                return line
        elif ms:
            raise Done()
        self.clock += ms
        return None


class SkippingPins(SampledPins):
    """SampledPins with the rp2 sampler's same_until: the loop skips a quiet stretch of
    samples in one go (backends/__init__.py). Its idle wait lasts 47 ms, as a slow frame
    would hold the loop, so the loop finds tens of samples to take in each time."""

    def idle(self, ms):
        before = self.clock
        line = SampledPins.idle(self, ms)
        if self.clock > before:
            self.clock = before + 47
        return line

    def same_until(self, k, end, level):
        while k < end and self.sample(k) == level:
            k += 1
        return k


def reports(capsys):
    out = [line for line in capsys.readouterr().out.splitlines() if line.startswith("LL ")]
    return [json.loads(line[3:]) for line in out]


CONSOLE = []  # the last run_script's console lines


def run_script(capsys, script, game=None, players=0, seed=3, save_ms=0, end_ms=None, glitches=(), pins=SampledPins,
               last_only=False):
    """Play a script on SampledPins through Device.run, as the emulated Pico's session plays it
    (session.Timeline: its changes on the pins, a report asked at each instant where lines end),
    with `glitches` ((ms, button)) flipping a pin for one sample. Returns the reports."""
    timeline = session.Timeline().read(script.split("\n"))
    storage = simcore.MemoryStorage(firmware_files.device_files(None, None))
    dev = simcore.make_device(None, 16, 16, 1, None, 0, storage=storage)
    hw = pins(storage, [(us // 1000, b, down) for us, b, down in timeline.changes])
    hw.glitches = {}
    for ms, b in glitches:
        hw.glitches[ms] = hw.glitches.get(ms, 0) | 1 << b
    run_script.storage, run_script.hw = storage, hw
    dev.hw = hw  # the same device, on the sampled pins
    for i in timeline.reported()[-1:] if last_only else timeline.reported():
        hw.lines.append((0, "LL at %d" % timeline.ends[i][0]))
    begin = "LL begin %d" % seed + (" %s %d" % (game, players) if game else "")
    hw.lines.insert(0, (None, begin))
    last = timeline.ends[-1][0] if timeline.ends else 0
    hw.lines.append((end_ms if end_ms is not None else last + 20, "LL mem"))  # (refused on CPython)
    hw.save_ms = save_ms
    dev.storage.writes = 0
    capsys.readouterr()
    try:
        while dev is not None:
            dev = dev.run()
    except Done:
        pass
    out = capsys.readouterr().out
    CONSOLE[:] = out.splitlines()
    got = [json.loads(line[3:]) for line in CONSOLE if line.startswith("LL ")]
    return [r for r in got if "t" in r or "refused" in r and "heap" not in r["refused"]]


def sim_reports(script, game=None, players=0, seed=3):
    """The simulator's trace, once per instant where lines end (after the last line there)."""
    storage = simcore.MemoryStorage(firmware_files.device_files(None, None))
    dev = simcore.make_device(None, 16, 16, seed, game, players or 2, storage=storage) if game else \
        simcore.make_device(None, 16, 16, seed, storage=storage)
    sim = simcore.Simulator(dev)
    timeline = session.Timeline().read(script.split("\n"))
    keep = set(timeline.reported())
    out, sounds, i = [], [], 0
    for no, line in enumerate(script.split("\n"), 1):
        if sim.run_line(line, no):
            sounds += dev.sound.played
            del dev.sound.played[:]
            if i in keep:
                s = sim.state(sounds)
                s.pop("frame", None)
                out.append(s)
                sounds = []
            i += 1
    return out


def same(got, expected):
    assert len(got) == len(expected), (got, expected)
    for r, s in zip(got, expected):
        r = {k: v for k, v in r.items() if k != "shown_us"}
        assert r == s


def race(lines):
    """Reveal a mission (seed 3, 3 seats), wait 3 s, then the lines."""
    return "\n".join(["press A", "press A", "wait 3003"] + lines)


def test_reports_at_instants_are_the_simulators_trace(capsys):
    script = race(["down P2", "wait 7", "down P3", "wait 200", "up P2", "up P3", "wait 40", "press P1", "wait 500"])
    same(run_script(capsys, script, "layers", 3), sim_reports(script, "layers", 3))


@pytest.mark.parametrize("pins", [SampledPins, SkippingPins], ids=["each-sample", "skipping"])
def test_presses_1_ms_apart_inside_one_step_keep_their_order_while_a_save_holds_the_loop(pins, capsys):
    """P3, P1 and P2 1 ms apart, none on the 10 ms grid, while every flash write holds the
    loop for 150 ms: the samples keep their milliseconds, so the order is the presses'
    (also where the loop skips the samples that show no change: never past one that does)."""
    script = race(["down P3", "wait 1", "down P1", "wait 1", "down P2", "wait 300"])
    got = run_script(capsys, script, "layers", 3, save_ms=150, pins=pins)
    assert got[-1]["finish_order"] == [3, 1, 2]
    same(got, sim_reports(script, "layers", 3))
    # asked about once, at the end (as a table plays: no report at each press to stop at)
    got = run_script(capsys, script, "layers", 3, save_ms=150, pins=pins, last_only=True)
    assert got[-1]["finish_order"] == [3, 1, 2]
    same([dict(got[-1], sound=None)], [dict(sim_reports(script, "layers", 3)[-1], sound=None)])  # (the whole game's tunes)


def test_presses_in_the_same_millisecond_are_a_tie_taken_in_turn(capsys):
    """Two rounds, each with P1 and P2 in the same millisecond: the first tie goes to P1, the
    next to P2 (the seat after the last tie's winner), on the pins as in the simulator."""
    round_1 = race(["down P1 P2", "wait 100", "up P1 P2", "wait 100", "press P3", "wait 100",
                    "press A", "press A", "press A", "press A"])
    script = round_1 + "\n" + "\n".join(["press A", "press A", "wait 2000", "down P2 P1", "wait 100"])
    got = run_script(capsys, script, "layers", 3)
    firsts = [r["finish_order"][:2] for r in got if r["phase"] == "race" and len(r["finish_order"]) >= 2]
    assert firsts[0] == [1, 2] and firsts[-1] == [2, 1]
    same(got, sim_reports(script, "layers", 3))


def test_a_button_let_go_and_pressed_again_at_one_instant_gets_a_real_gap_on_the_pin(capsys):
    timeline = session.Timeline().read(["press A", "press A"])
    a = 4
    # the gap is two samples long: one sample alone would be a glitch (app.Device.run)
    assert timeline.changes == [(0, a, True), (60000, a, False), (62000, a, True), (120000, a, False)]
    assert timeline.reported() == [0, 1]
    same(run_script(capsys, "press A\npress A\nwait 100"), sim_reports("press A\npress A\nwait 100"))


def test_lines_ending_at_one_instant_get_one_report_after_the_last():
    timeline = session.Timeline().read(["wait 100", "down A", "down B", "wait 50", "up A", "up B"])
    assert [timeline.ends[i][0] for i in timeline.reported()] == [100, 150]


def test_a_report_asked_for_an_instant_already_past_is_refused(capsys):
    storage = simcore.MemoryStorage(firmware_files.device_files(None, None))
    dev = simcore.make_device(None, 16, 16, 1, storage=storage)
    dev.hw = hw = SampledPins(storage)
    hw.lines = [(None, "LL begin 3"), (30, "LL at 20"), (60, "LL mem")]
    capsys.readouterr()
    with pytest.raises(Done):
        while dev is not None:
            dev = dev.run()
    refused = [r["refused"] for r in reports(capsys) if "refused" in r]
    assert refused[0].startswith("asked for t=20, already at ")
    assert int(refused[0].split()[-1]) > 20


def test_begin_gives_a_new_device_in_the_game_asked_for(capsys):
    dev = simcore.make_device(firmware_files.device_files(None, None), 16, 16, 3)
    link = host_link.HostLink()
    new = link.request(dev, "LL begin 9 coop 3")
    assert new is not None and new is not dev and new.host is link
    assert new.state()["game"] == "coop" and new.state()["players"] == 3
    assert "LL " not in capsys.readouterr().out  # a begin is answered by the new device's run (lead_in)


def test_timed_frames_report_first_and_steady_drawing_apart_from_the_strip_write(capsys):
    dev = simcore.make_device(firmware_files.device_files(None, None), 16, 16, 3, "layers", 2)
    ticks = [0]

    def ticks_us():  # a clock that moves 100 us at every look
        ticks[0] += 100
        return ticks[0]
    dev.hw.ticks_us = ticks_us
    link = host_link.HostLink()
    dev.host = link
    link.request(dev, "LL time 1")
    link.request(dev, "LL time 1")  # asked twice: timed once, not twice over
    link.request(dev, "LL at 80")
    for now in range(0, 90, 10):
        dev.step(now, 0, now == 40)  # a press's frame comes off the 40 ms schedule
        if now >= dev.next_frame:
            dev.render()
        if link.asks(now):
            link.report(dev, now)
    (report,) = reports(capsys)
    # render: looks at 100 and 400; the strip write inside it at 200 and 300
    assert report["frames_us"] == [200, 200, 100]
    assert link.timing == [0, 0, 0]  # counted afresh for the next report


def test_bad_requests_get_a_one_line_refusal_and_a_persons_typing_is_left_alone(capsys):
    dev = simcore.make_device(firmware_files.device_files(None, None), 16, 16, 3)
    link = host_link.HostLink()
    assert link.request(dev, "hello there") is None
    assert link.request(dev, "LL") is None
    assert capsys.readouterr().out == ""
    link.request(dev, "LL jump 3")
    link.request(dev, "LL at soon")
    link.request(dev, "LL at 20 1")  # the buttons' level: the host has no say in it
    link.request(dev, "LL begin")
    link.request(dev, "LL mem")  # CPython: no MicroPython heap figures
    refused = [a["refused"] for a in reports(capsys)]
    assert refused[0] == "unknown request jump"
    assert refused[1].startswith("bad request 'LL at soon'")
    assert refused[2] == "LL at T: the device reads its buttons from its pins"
    assert refused[3].startswith("bad request 'LL begin'")
    assert refused[4] == "no heap figures on this port"
    assert link.due == []


def test_a_press_that_ends_where_the_next_begins_counts_first(capsys):
    """A comes up (the reveal) in the very millisecond P1 goes down: the pins show both in one
    sample; the release counts first, so P1's press is the race's, as in the simulator."""
    script = "press A\npress A\npress P1\nwait 100"
    got = run_script(capsys, script, "layers", 3)
    assert got[-1]["finish_order"] == [1]
    same(got, sim_reports(script, "layers", 3))


@pytest.mark.parametrize("entry", __import__("pico_games").games(), ids=lambda e: e[0])
def test_every_modes_short_game_through_the_sampled_loop_is_the_simulators(entry, capsys):
    """The emulated Pico's games (tests/pico_games.py), through Device.run on pins sampled every
    millisecond: report for report the simulator's trace (a quick check of what
    test_emulated_pico.py then does on the rp2 port)."""
    name, script, game, players, seed = entry
    same(run_script(capsys, script, game, players, seed), sim_reports(script, game, players, seed))


@pytest.mark.parametrize("entry", __import__("pico_games").games(), ids=lambda e: e[0])
def test_a_loop_that_skips_quiet_samples_plays_every_mode_as_the_simulator(entry, capsys):
    """The same games on pins whose sampler offers same_until (the rp2 port's), so the loop
    skips the samples where nothing changed up to the next step, change or report, with a
    save holding the loop 30 ms: report for report the simulator's trace."""
    name, script, game, players, seed = entry
    got = run_script(capsys, script, game, players, seed, save_ms=30, pins=SkippingPins)
    same(got, sim_reports(script, game, players, seed))


def quiet_moments(script, buttons, n, spacing=37, clear_ms=25):
    """(ms from time 0, button): every `spacing` ms, the buttons in turn, where that button
    did not change within clear_ms: noise that cannot touch the button's own presses."""
    timeline = session.Timeline().read(script.split("\n"))
    end = timeline.ends[-1][0]
    out = []
    for i in range(n):
        t, b = 5 + i * spacing, buttons[i % len(buttons)]
        if t < end and all(abs(t - us // 1000) > clear_ms for us, c, _d in timeline.changes if c == b):
            out.append((t, b))
    return out


def test_one_sample_pulses_on_every_player_pin_during_a_race_change_nothing(capsys):
    """Noise on the leads (a pin reads low, or high, for one sample) before, during and after
    a close race, on P1-P4 in turn: the same finish order and reports as the simulator."""
    script = race(["down P2", "wait 7", "down P3", "wait 1", "down P1", "wait 150", "up P1 P2 P3",
                   "wait 100", "press P4", "wait 300"])
    glitches = quiet_moments(script, [0, 1, 2, 3], 1000, spacing=5)
    first = min(us // 1000 for us, b, down in session.Timeline().read(script.split("\n")).changes if b == 1)
    assert sum(first - 30 < t < first + 10 for t, _b in glitches) >= 4  # some right at the race's first press
    got = run_script(capsys, script, "layers", 3, glitches=glitches)
    assert got[-1]["finish_order"][:3] == [2, 3, 1]
    same(got, sim_reports(script, "layers", 3))


def test_one_sample_pulses_on_a_and_b_in_a_score_keeper_change_nothing(capsys):
    name, script, game, players, seed = [e for e in __import__("pico_games").games() if e[0] == "coop"][0]
    glitches = quiet_moments(script, [4, 5], 200, spacing=97)
    assert len(glitches) > 60
    same(run_script(capsys, script, game, players, seed, glitches=glitches),
         sim_reports(script, game, players, seed))


def test_a_real_press_counts_at_its_first_sample_and_one_1_ms_earlier_still_wins(capsys):
    """Two samples agreeing make a press, filed under the first:
    P3 1 ms before P1 wins, each stamped with its own first millisecond (the finish times are the simulator's)."""
    script = race(["wait 11", "down P3", "wait 1", "down P1", "wait 300"])
    got = run_script(capsys, script, "layers", 3)
    assert got[-1]["finish_order"][:2] == [3, 1]
    same(got, sim_reports(script, "layers", 3))


def test_a_loop_held_past_the_samples_kept_says_what_was_lost(capsys):
    """The reveal's save holds the loop 3 s (two flash writes of 1.5 s: more than the 2048
    samples SampledPins keeps) and P2 presses 100 ms into it: the console and the error log
    say how many ms of samples were lost and that P2 changed across the gap."""
    script = race(["wait 100", "down P2", "wait 3500", "up P2", "wait 200"]).replace("wait 3003", "wait 10")
    run_script(capsys, script, "layers", 3, save_ms=1500)
    lost = [line for line in run_script.hw.logs if "ms of readings lost" in line]
    assert lost, run_script.hw.logs  # (later saves, the error log's own write included, hold it again)
    gone = int(lost[0].split("buttons: ")[1].split(" ms")[0])
    assert 2 * 1500 - 2048 + 2048 // 8 - 20 <= gone <= 2 * 1500 - 2048 + 2048 // 8 + 20, lost
    assert "changed across the gap: P2" in lost[0]
    log = run_script.storage.read_bytes("errors.log").decode()
    assert lost[0] in log


def test_a_loop_that_keeps_up_loses_nothing_and_says_nothing(capsys):
    """Saves that hold the loop 1.8 s (two writes of 0.9 s), inside the 2048 samples kept."""
    script = race(["wait 100", "down P2", "wait 300", "up P2", "wait 200"]).replace("wait 3003", "wait 10")
    got = run_script(capsys, script, "layers", 3, save_ms=900)
    assert not [line for line in run_script.hw.logs if "lost" in line]
    assert got[-1]["finish_order"][:1] == [2]
