"""A model-based fuzzer of the whole device in the simulator (hypothesis' stateful testing): any
sequence, across the menu and every mode, at 8x8, 16x16 and 32x32, of presses, holds, chords,
bouncing contacts and waits, settings changed between power-ons, the power cut at any write of
the files or the save journal (before it, half done, torn at a drawn byte and bit), files
damaged, and resumes. After every step:

- no mode crashed, and no error the table did not cause (a damaged file is reported: E4);
- a timer never shows more than its length, nor less than nothing;
- every frame is drawn whole into the frame buffer (a write outside it raises in the Python
  loops the simulator runs, and is a crash);
- after a power cut or a power cycle, a game offered to RESUME comes back as the same game,
  with scores the table had seen in it.

`make test` runs it with a fixed seed (the same examples every run); `make soak` with new ones
(LAYERLIGHT_FUZZ_SEED=random, FUZZ_EXAMPLES). A failure it finds becomes a named example
below (@example-like: a test of its own with the steps written out).
"""

import os
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import flash_cuts
from layerlight import modes, persist
from layerlight.modes import settings as settings_mode
from layerlight_tools import simcore
from scenario_lib import device_files

FILES = device_files()
BUTTONS = ["A", "B", "P1", "P2", "P3", "P4"]
GAMES = [name for name in modes.names() if name not in ("settings", "history")]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))
FUZZ_SEED = os.environ.get("LAYERLIGHT_FUZZ_SEED", "20261127")


def errors(dev):
    return [line for line in dev.hw.logs if line.startswith("error E")]


class Device(RuleBasedStateMachine):
    """The model: what the table has seen of the game in play (its scores), what it was told to
    expect of the files (damaged on purpose: an E4 is the device reporting it, not a crash)."""

    @initialize(size=st.sampled_from([8, 16, 32]), dev_seed=st.integers(0, 2**16),
                game=st.sampled_from(GAMES), players=st.integers(1, 4))
    def power_on(self, size, dev_seed, game, players):
        self.size = size
        self.storage = flash_cuts.new_storage(FILES)
        self.flash = simcore.SimFlash()
        self.seed = dev_seed
        self.seen = {}            # game name -> every scores list the table saw in it
        self.damaged = False      # a file was damaged on purpose since the last clean boot
        self.dev = simcore.make_device(None, size, size, dev_seed, None, 2, self._log, storage=self.storage,
                                       flash=self.flash)
        self.sim = simcore.Simulator(self.dev, frames=True)
        if game in ("coop", "paper-world") and players < 2:
            players = 2
        if game in ("layers", "layers-plus") and players < 2:
            players = 2
        if game.startswith("time-attack"):
            players = 1
        self.dev.start_game(game, list(range(players)), 0)
        self.no = 0

    def _log(self, line):
        pass  # SimHardware keeps every line in hw.logs as well

    # --- the table -------------------------------------------------------------------------

    def _line(self, line):
        self.no += 1
        try:
            self.sim.run_line(line, self.no)
        except simcore.PowerCut:
            self._reboot()
            return
        self._saw()

    def _saw(self):
        s = self.dev.state()
        if self.dev.game is not None and s.get("scores") is not None:
            self.seen.setdefault(s["game"], []).append(list(s["scores"]))

    @rule(button=st.sampled_from(BUTTONS))
    def press(self, button):
        self._line("press %s" % button)

    @rule(button=st.sampled_from(BUTTONS), ms=st.sampled_from([600, 1200, 1700, 3000]))
    def hold(self, button, ms):
        self._line("hold %s %d" % (button, ms))

    @rule()
    def chord(self):
        self._line("press A B")

    @rule(bits=st.integers(0, 63), ms=st.integers(0, 400))
    def bounce(self, bits, ms):
        """A contact that flips a few times within the debounce window, then holds."""
        try:
            for k in range(4):
                self.dev.hw.pressed = bits if k % 2 == 0 else 0
                self.sim.t += 2
                self.dev.step(self.sim.t)
            self.dev.hw.pressed = bits
            self.sim.advance(ms)
            self.dev.hw.pressed = 0
            self.sim.advance(30)
        except simcore.PowerCut:
            self._reboot()
            return
        self._saw()

    @rule(ms=st.sampled_from([50, 300, 1000, 5000, 20000, 70000]))
    def wait(self, ms):
        self._line("wait %d" % ms)

    # --- the power, the files, the settings ---------------------------------------------------

    def _reboot(self):
        """The power comes back over what the flash and the files hold now."""
        self.storage = flash_cuts.after_power_on(self.storage)
        self.flash = self.flash.after_power_on()
        self.dev = simcore.make_device(None, self.size, self.size, self.seed, None, 2, self._log,
                                       storage=self.storage, flash=self.flash)
        self.sim = simcore.Simulator(self.dev, frames=True)
        self.no = 0
        if self.dev.menu_items()[0] == "resume":
            self._line("press A")  # RESUME
            s = self.dev.state()
            if self.dev.game is not None and s.get("scores") is not None and not self.damaged:
                seen = self.seen.get(s["game"], [])
                assert list(s["scores"]) in seen or s["scores"] == [0] * len(s["scores"]), (
                    "resumed %s with scores %s the table never saw (saw %s)" % (s["game"], s["scores"], seen[-5:]))
        self.damaged = False

    @rule(after=st.integers(0, 40), how=st.sampled_from(["cut", "partial", "torn", "random"]),
          byte_seed=st.integers(0, 2**16), where=st.sampled_from(["journal", "files"]))
    def power_cut(self, after, how, byte_seed, where):
        """The power goes at a write `after` writes from now (of the journal's or of the files),
        struck as `how`; the table goes on pressing until it does."""
        if where == "journal":
            self.flash.fault = (len(self.flash.ops) + after, ("random", byte_seed) if how == "random" else how)
        else:
            self.storage.fault = (self.storage.writes + after, "partial" if how in ("partial", "torn", "random") else "cut")
        rnd = random.Random(byte_seed)
        for _ in range(60):
            before = (len(self.flash.ops), self.storage.writes)
            try:
                self.no += 1
                self.sim.run_line(rnd.choice(["press A", "press B", "press P1", "press P2", "wait 700"]), self.no)
            except simcore.PowerCut:
                self._reboot()
                return
            self._saw()
            if (len(self.flash.ops), self.storage.writes) == before and rnd.random() < 0.1:
                break
        self.flash.fault = None
        self.storage.fault = None
        self._reboot()  # the plug pulled all the same, between writes

    @rule()
    def power_cycle(self):
        self._reboot()

    @rule(values=st.fixed_dictionaries({}, optional={
        key: st.sampled_from(list(choices)) for _label, key, choices in settings_mode.ITEMS if key}))
    def settings_then_power_on(self, values):
        """SETTINGS changed (the menu writes settings.json), then the device is switched off and on."""
        self.storage.files[persist.SETTINGS] = persist.encode(values)
        self._reboot()

    @rule(size=st.sampled_from([8, 16, 32]))
    def rewired_then_power_on(self, size):
        """The builder changes the matrix (layerlight.json's width and height: a bigger panel, or
        a 32x32 taken down to one panel) while a game is saved, then switches on and resumes."""
        self.size = size
        self._reboot()

    @rule(name=st.sampled_from([persist.GAME, persist.BESTS, persist.SETTINGS, "plays.log"]),
          at=st.integers(0, 10**6), xor=st.integers(1, 255))
    def damage_a_file(self, name, at, xor):
        """A byte of a file on flash changed (wear, a bad write long ago): the next power-on says
        so and goes on."""
        data = self.storage.files.get(name)
        if not data:
            return
        data = bytearray(data)
        data[at % len(data)] ^= xor
        self.storage.files[name] = bytes(data)
        self.damaged = True
        self._reboot()

    @rule(start=st.sampled_from(GAMES + ["settings", "history"]), players=st.integers(1, 4))
    def from_the_menu(self, start, players):
        """Back to the menu (END from the pause menu or the game's end) and another mode."""
        if self.dev.where == "menu":
            items = self.dev.menu_items()
            if start in items:
                for _ in range(items.index(start)):
                    self._line("press B")
                self._line("press A")

    # --- what must always hold ---------------------------------------------------------------

    @invariant()
    def nothing_crashed(self):
        if not hasattr(self, "dev"):
            return
        bad = [line for line in errors(self.dev) if " E4 " not in line and "E4:" not in line
               and not line.startswith("error E4")]
        assert not bad, self.dev.hw.logs[-8:]

    @invariant()
    def a_timer_shows_at_most_its_length(self):
        if not hasattr(self, "dev") or self.dev.game is None:
            return
        s = self.dev.state()
        t = s.get("timer_ms")
        if t is None:
            return
        cfg = self.dev.cfg
        longest = 1000 * max(cfg["timer_s"], cfg["countdown_s"], cfg["attack_s"], cfg.get("coop_turn_s") or 0,
                             300)  # a game resumed from a longer setting keeps its own length
        assert 0 <= t <= longest, (s["game"], s["phase"], t)

    @invariant()
    def the_frame_is_whole(self):
        if not hasattr(self, "dev"):
            return
        # a write past the end raises in the Python loops (a crash, above); a slice written with
        # the wrong length would grow or shrink the buffer instead: its length says so
        assert len(self.dev.fb.buf) == self.size * self.size * 3


TestDevice = Device.TestCase
TestDevice.settings = settings(max_examples=EXAMPLES, stateful_step_count=40, deadline=None,
                               suppress_health_check=list(HealthCheck), derandomize=FUZZ_SEED != "random")


# --- what the fuzzer found, each a test of its own ------------------------------------------

def test_a_resumed_layers_plus_race_takes_its_first_press():
    """Found by the fuzzer: Layers+ switched off in a race and resumed crashed at the next press
    ('Mode' object has no attribute 'countdown': the countdown was set up for new games only)."""
    storage, flash = flash_cuts.new_storage(FILES), simcore.SimFlash()
    dev = simcore.make_device(None, 8, 8, 0, None, 2, storage=storage, flash=flash)
    dev.start_game("layers-plus", [0, 1], 0)
    sim = simcore.Simulator(dev, frames=True)
    sim.run_line("hold A 600", 1)
    assert dev.state()["phase"] == "race"
    dev = simcore.make_device(None, 8, 8, 0, None, 2, storage=flash_cuts.after_power_on(storage),
                              flash=flash.after_power_on())
    sim = simcore.Simulator(dev, frames=True)
    for no, line in enumerate(["press A", "press P1", "press P2", "wait 4000"], 1):
        sim.run_line(line, no)
    assert not errors(dev), dev.hw.logs[-3:]
    assert dev.state()["game"] == "layers-plus" and dev.state()["phase"] == "verify"


def test_a_time_attack_resumed_under_a_shorter_attack_setting_draws_its_sand():
    """Found by the fuzzer (shrunk to three steps): time attack started, ATTACK set to 1:00 while
    switched off, RESUME: the sand ring was lit past its end (bytearray index out of range; on
    the chip, native_draw.ring wrote past the frame)."""
    storage, flash = flash_cuts.new_storage(FILES), simcore.SimFlash()
    dev = simcore.make_device(None, 8, 8, 0, None, 2, storage=storage, flash=flash)
    dev.start_game("time-attack", [0], 0)
    simcore.Simulator(dev, frames=True).run_line("press A", 1)
    storage = flash_cuts.after_power_on(storage)
    storage.files[persist.SETTINGS] = persist.encode({"attack_s": 60})
    dev = simcore.make_device(None, 8, 8, 0, None, 2, storage=storage, flash=flash.after_power_on())
    sim = simcore.Simulator(dev, frames=True)
    for no, line in enumerate(["press A", "wait 1000", "press B"], 1):
        sim.run_line(line, no)
    assert not errors(dev), dev.hw.logs[-3:]
    assert dev.state()["game"] == "time-attack"
