"""What the device answers a host over its console (layerlight.host_link), on CPython: the path a
Raspberry Pi with Blinka takes. The rp2 port answers the same requests in test_emulated_pico.py."""

import json

from layerlight import host_link
from layerlight_tools import firmware_files, simcore


def device(game=None, players=0, seed=3):
    return simcore.make_device(firmware_files.device_files(None, None), 16, 16, seed, game, players)


def answers(capsys):
    out = capsys.readouterr().out.splitlines()
    assert all(line.startswith("LL ") for line in out), out
    return [json.loads(line[3:]) for line in out]


def test_a_report_at_an_instant_is_the_simulators_state_with_the_tunes_since_the_last(capsys):
    dev = device("layers", 2)
    sim_dev = device("layers", 2)
    link = host_link.HostLink()
    link.request(dev, "LL at 0 0")
    link.request(dev, "LL at 40 1")   # P1 down at 40 ms
    for now, level in ((0, 0), (10, 0), (20, 0), (30, 0), (40, 0)):
        dev.step(now, level, False)
        assert link.at(dev, now, level) == (1 if now == 40 else 0)
    first, second = answers(capsys)
    sim = simcore.Simulator(sim_dev)
    sim.run_line("wait 40", 1)
    sim.run_line("down P1", 2)
    expected = sim.state(list(sim_dev.sound.played))
    expected.pop("frame", None)
    assert first["t"] == 0 and second["t"] == 40
    got = {k: v for k, v in second.items() if k != "shown_us"}
    assert got == dict(expected, t=40)
    assert len(second["shown_us"]) == 2 and second["shown_us"][0] <= second["shown_us"][1]


def test_begin_gives_a_new_device_in_the_game_asked_for(capsys):
    dev = device()
    link = host_link.HostLink()
    new = link.request(dev, "LL begin 9 coop 3")
    assert new is not None and new is not dev and new.host is link
    assert new.state()["game"] == "coop" and new.state()["players"] == 3
    assert "LL " not in capsys.readouterr().out  # a begin is answered by the new device's run (lead_in)


def test_timed_frames_report_first_and_steady_drawing_apart_from_the_strip_write(capsys):
    dev = device("layers", 2)
    ticks = [0]

    def ticks_us():  # a clock that moves 100 us at every look
        ticks[0] += 100
        return ticks[0]
    dev.hw.ticks_us = ticks_us
    link = host_link.HostLink()
    link.request(dev, "LL time 1")
    link.request(dev, "LL time 1")  # asked twice: timed once, not twice over
    link.request(dev, "LL at 80 0")
    for now in range(0, 90, 10):
        dev.step(now, 0, now == 40)  # a press's frame comes off the 40 ms schedule
        if now >= dev.next_frame:
            dev.render()
        link.at(dev, now, 0)
    (report,) = answers(capsys)
    # render: looks at 100 and 400; the strip write inside it at 200 and 300
    assert report["frames_us"] == [200, 200, 100]
    assert link.timing == [0, 0, 0]  # counted afresh for the next report


def test_bad_requests_get_a_one_line_refusal_and_a_persons_typing_is_left_alone(capsys):
    dev = device()
    link = host_link.HostLink()
    assert link.request(dev, "hello there") is None
    assert link.request(dev, "LL") is None
    assert capsys.readouterr().out == ""
    link.request(dev, "LL jump 3")
    link.request(dev, "LL at soon 0")
    link.request(dev, "LL begin")
    link.request(dev, "LL mem")  # CPython: no MicroPython heap figures
    refused = [a["refused"] for a in answers(capsys)]
    assert refused[0] == "unknown request jump"
    assert refused[1].startswith("bad request 'LL at soon 0'")
    assert refused[2].startswith("bad request 'LL begin'")
    assert refused[3] == "no heap figures on this port"
    assert link.due == []


def test_a_report_asked_for_an_instant_already_past_is_refused(capsys):
    dev = device()
    link = host_link.HostLink()
    link.request(dev, "LL at 20 0")
    dev.step(30, 0, False)
    link.at(dev, 30, 0)
    (a,) = answers(capsys)
    assert a == {"refused": "asked for t=20, already at 30"}


def test_a_button_let_go_and_pressed_again_at_one_instant_is_two_reports_as_in_the_simulator(capsys):
    """`press A` then `press A`: A comes up and goes down at 60 ms, which no pin shows;
    LEVEL gives the report of the first line, the pins (still down) the second press."""
    dev = device("layers", 2)
    sim_dev = device("layers", 2)
    link = host_link.HostLink()
    a = 1 << 4
    link.request(dev, "LL at 60 0")       # line 1 ends with A up
    link.request(dev, "LL at 120 0")      # line 2: A down again at 60, up at 120
    level = 0
    for now in range(0, 130, 10):
        raw = a if now < 120 else 0       # the pins: A down from 0 to 120
        dev.step(now, level, False)
        level = link.at(dev, now, level)
        if raw != level:
            level = raw
            dev.step(now, level, False)
    got = answers(capsys)
    sim = simcore.Simulator(sim_dev)
    expected = []
    for no, line in enumerate(("press A", "press A"), 1):
        sim.run_line(line, no)
        state = sim.state(list(sim_dev.sound.played))
        del sim_dev.sound.played[:]
        state.pop("frame", None)
        expected.append(state)
    assert [{k: v for k, v in r.items() if k != "shown_us"} for r in got] == expected
    assert expected[0]["phase"] != expected[1]["phase"]  # each press did something