"""Short games of every mode for the emulated Pico (tests/test_emulated_pico.py, make bench).

Short timer settings, so that a whole game, final included, takes seconds of
the Pico's time: the emulator runs at about half real time. Each script is
written against the settings and seed given with it.
"""

from scenario_lib import Player, coop_game, otlo_game, paper_world_game

SHORT = {"timer_s": 5, "countdown_s": 3, "attack_s": 30, "otlo_solo_cards": 3}


def race_game(game, seed):
    p = Player(game, players=2, seed=seed, config=SHORT)
    for r in range(6):
        p.play_round([1 + r % 2, 2 - r % 2], ["A", "B" if r == 2 else "A"], level_presses=r % 3)
    assert p.state()["phase"] == "final", p.state()
    p.do("wait 1000")
    p.do("press A")
    return p.script


def time_attack(game):
    return ("press A\npress A\npress A\npress P4\nhold B 1000\npress A\npress B\npress A\npress B\n"
            "wait 29000\nwait 1000\npress A\n")


def games():
    """[(name, script, game, players, seed)]: one short game of every mode."""
    coop, _, _ = coop_game()
    paper, _, _ = paper_world_game()
    otlo, _, _ = otlo_game()
    return [
        ("layers", race_game("layers", 4), "layers", 2, 4),
        ("layers-plus", race_game("layers-plus", 8), "layers-plus", 2, 8),
        ("time-attack", time_attack("time-attack"), "time-attack", 1, 1),
        ("time-attack-plus", time_attack("time-attack-plus"), "time-attack-plus", 1, 1),
        ("otlo", otlo, "otlo", 4, 5),
        # entered at the simulator's pace, no pause after an entry: a save is a page program
        # of the journal (firmware/layerlight/journal.py), not 100-200 ms of file writes
        ("coop", coop, "coop", 4, 1),
        ("paper-world", paper, "paper-world", 4, 1),
    ]


def close_race(game, seed, rng, short_seat=None):
    """A 4-seat round of Layers or Layers+: the reveal, then the four seats
    press within 300 ms, the first 20-150 ms after the reveal (while its save is written), at
    milliseconds off the 10 ms grid; every finisher verified right, on to the scores. The seat
    `short_seat` presses for 20 ms only (the others 70). Returns (script, the order pressed)."""
    p = Player(game, players=4, seed=seed, config=SHORT)  # the script does not depend on the size
    if p.state()["phase"] == "round_tile":
        p.do("press A")
    p.do("press A")
    assert p.state()["phase"] == "race", p.state()
    first = rng.randint(20, 150)
    times = sorted([first] + [first + rng.randint(1, 300) for _ in range(3)])
    while len(set(times)) < 4:  # four distinct milliseconds (a tie is another test's)
        times = sorted(set(times) | {times[-1] + 1})
    seats = [1, 2, 3, 4]
    rng.shuffle(seats)
    if short_seat is not None:
        # the short press last, 16 ms after the press before it, whose frame is then on the
        # wire (the press is taken once two readings agree, and its frame drawn after that;
        # earlier presses may still fall inside the reveal's save, when no frame goes out)
        j = seats.index(short_seat)
        k = 3
        seats[j], seats[k] = seats[k], seats[j]
        times = sorted(times)
        times[k] = times[k - 1] + 16
        times = sorted(times)
        assert len(set(times)) == 4
    events = []
    for t, seat in zip(times, seats):
        events.append((t, "down", seat))
        events.append((t + (20 if seat == short_seat else 70), "up", seat))
    events.sort()
    now = 0
    for t, what, seat in events:
        if t > now:
            p.do("wait %d" % (t - now))
            now = t
        p.do("%s P%d" % (what, seat))
    p.do("wait 300")
    assert p.state()["finish_order"] == seats, (p.state(), seats)
    while p.state()["phase"] == "verify":
        p.do("press A")
    p.do("wait 1000")
    return p.script, seats
