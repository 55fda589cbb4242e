# The device: owns the loop, the buttons, the screen and the running mode.
#
# One path, every loop: hardware buttons -> debounced events -> the menu or
# the running mode (pure state) -> a screen drawn into the frame buffer ->
# the pixel driver. `step(now)` does one pass, so the loop can also be driven
# from outside (the simulator, tests) one step at a time.

import gc
import sys

from layerlight import buttons, font, modes, persist, screens
from layerlight.buttons import Buttons
from layerlight.rng import Rng
from layerlight.runtime import forget_modules, print_exception
from layerlight.screens import ERR_MODE, ERR_SAVED
from layerlight.sound import Sound

FRAME_MS = 40          # redraw at 25 fps (at once after a button event)
LISTEN_MS = 50         # while catching up, a host's lines are read this often (it sends them 600 ms ahead)
STEP_MS = 10           # the game steps on a 10 ms grid, the simulator's too
LOOP_MS = 5            # the loop's idle wait between two steps
MISSED = 0x80          # a sample the hardware could not take (backends/__init__.py)
ERROR_SHOW_MS = 4000
PRESS_LIGHT_MS = 150   # how long a press lights its spot on the matrix
QUIET_MS = 250         # the flash's erases ahead wait this long after the last button event
RACE_PHASES = ("race", "solve")  # a race runs: no erase ahead (each stops the chip for ~45 ms)

FINAL_PHASES = ("final", "result")  # a game there has ended: the play log takes it when it is left
PAUSE_ITEMS = ("RESUME", "SCORES", "END")
# Where the loop is, marked as it runs (hw.mark: on the rp2 port one store to a register the
# emulated Pico records with its instant; elsewhere nothing): what a press's time is spent on,
# read off the emulated chip without a print to change it (tests/bench/bench_marks.py).
M_STEP = 1      # a step of the game's time begins
M_EVENTS = 2    # the button events of the step taken in (menus and modes' press handlers)
M_TICK = 3      # the mode's tick done
M_SAVED = 4     # what changed saved (the journal's record on flash), a finished game left
M_DRAWN = 5     # the frame drawn
M_SHOWN = 6     # the frame handed to the strip (its wire time is the sender's)
M_LEFT = 7      # a game that ended logged (the play log), after the menu is on the wire
M_TIDIED = 8    # the erase ahead done, at a quiet moment
M_IDLE = 9      # the loop waits for the console and the next sample
M_AWAKE = 10    # the wait over
M_SAVING = 11   # a save begins (save_game: the game's state to a journal record, its page program)
M_SAVE_DONE = 12  # that save on flash
M_COLLECTED = 13  # a garbage collection made while the loop idles (COLLECT_AFTER)
# A save makes about 5 KB of garbage (the journal's texts), and the collection it sets off
# once the heap is full lands in some press's save: 10-20 ms of the chip between the press and
# its light. The device's own loop collects after this many saves instead, once the frame that
# shows the last one is out and nothing is waiting to be taken in (MicroPython only: CPython's
# collector is another thing, and the simulator does not run this loop).
COLLECT_AFTER = 3 if sys.implementation.name == "micropython" else 0
# offered while the mode has something to take back (its can_undo() says so)
PAUSE_ITEMS_UNDO = ("RESUME", "UNDO", "SCORES", "END")


class Device:
    """The whole device above the hardware layer."""

    FRAME_MS = FRAME_MS  # for host_link's frame timing

    def __init__(self, hw, cfg, seed=1):
        self.hw = hw
        self.mark = getattr(hw, "mark", _unmarked)  # the loop's markers (M_*)
        self.cfg = cfg
        self.log = hw.log
        self.fb = hw.framebuffer()
        self.buttons = Buttons()
        self.sound = Sound(hw.tone, cfg["sound"])
        self.rng = Rng(seed)
        self.now = 0
        self.game = None          # the running (or kept) mode
        self.game_name = None
        self.where = "menu"       # menu | game | pause | error
        self.menu_index = 0
        self.menu_since = 0
        self.pause_index = 0
        self.pause_items = PAUSE_ITEMS
        self.error_code = 0
        self.error_until = 0
        self.paused_total = 0
        self.paused_at = 0
        self.next_frame = 0
        self.answering = False    # a button event asked for a frame (run() sends it at once)
        self.lit_until = [0] * buttons.COUNT  # a press lights its button's spot briefly
        self.deck_path = None     # the Layers mission deck, checked at boot
        self.deck_crc = None
        self.decks = {}           # kind -> deck opened for the running mode
        self.storage = hw.storage
        self.saves = persist.open_saves(hw, self.log)  # the running game's saves
        self.quiet_from = 0       # the last button event: the flash's erases wait a while after it
        self.leaving = None       # (record,): a game's end still to log and clear (game_over)
        self.files_due = []       # [(name, object)]: files to write once the frame is out (flush_outbox)
        self.bests = {}
        self.saved = None         # a game saved on flash that can be resumed
        self.host = None          # a host's requests (host_link), once one asks
        self.played_from = 0      # game time the running game's clock counts from
        self.ended_ms = None      # how long it had been played when it reached its final
        self.plays_last = 0       # the play log's last number (startup reads it)
        self.game_n = 0           # the running game's number in the play log, given at its start
        self.lag = 0              # the most samples the loop was behind (run), since a host asked
        self.lost_ms = 0          # samples lost because the loop fell further behind than kept
        self.lost_note = None     # what lost() has yet to write into the error log
        self.saves_since_collect = 0  # saves made since the loop last collected (COLLECT_AFTER)
        from layerlight import startup  # what only boot needs, let go afterwards
        startup.prepare(self)
        import sys
        self.boot_modules = list(sys.modules)  # what stays loaded whatever mode runs

    # --- what is kept on flash ------------------------------------------------

    def _bad_file(self, message):
        self.fail(ERR_SAVED, message)

    def save_game(self):
        """The running game to flash (self.saves: a record appended to the journal, or a new
        file renamed over the old one), on flash when this returns: what is drawn next is saved."""
        self.mark(M_SAVING)
        game = self.game
        game.dirty = False
        snap = game.snapshot()
        if snap is None:
            return
        deck = game.ctx.deck
        self.saved = {"game": self.game_name, "deck": None if deck is None else deck.crc,
                      "rng": self.rng.state, "snap": snap, "ms": self.played_ms(), "n": self.game_n}
        record = self.play_record("final")
        if record is not None:  # at its final: logged even if the power goes before it is left
            self.saved["record"] = record
        try:
            self.saves.save(self.saved, getattr(game, "GROWN", ()))
        except (OSError, ValueError) as e:
            self.log("could not save %s: %s" % (self.saves.name, e))
        self.saved.pop("record", None)  # kept on flash only: the game in memory gives it again
        self.saves_since_collect += 1
        self.mark(M_SAVE_DONE)

    def flush_outbox(self):
        """The mode's other files (bests, settings): in effect now, written once the frame that
        shows the change is out (finish_leaving). A file write on LittleFS holds the chip for
        tens of ms (its page programs and metadata), and a press's light would wait for it:
        CO.OP's final waited for bests.json. They are not the game (the journal holds that)."""
        for name, obj in self.game.outbox:
            self.files_due.append((name, obj))
            if name == persist.SETTINGS:  # only the settings menu writes them: it is loaded
                from layerlight.modes.settings import apply
                apply(self, obj)
        del self.game.outbox[:]

    def drop_game(self):
        """Let go of the mode, and of the modules it loaded.

        Only one mode is in memory at a time: loaded from .mpy files, a mode's
        bytecode sits in the heap (tens of KB for the larger ones), so the
        modules that were not there at boot are dropped when the menu comes
        back, and the device's peak stays the peak of its largest mode.
        """
        self.game = None
        self.decks.clear()  # opened again (a header and a checksum) by the next game that needs one
        forget_modules([name for name in sys.modules
                        if name.startswith("layerlight.") and name not in self.boot_modules])
        # MicroPython's collector is conservative: it reads a bytearray's bytes as
        # possible pointers, and the last frame's pixels were seen to keep the
        # mode's bytecode alive (measured in tests/bench/bench_memory.py). The
        # menu redraws it anyway.
        self.fb.clear()
        gc.collect()

    def played_ms(self):
        """How long the running game has been played (pauses and power cuts left out)."""
        return self.game_time() - self.played_from

    def play_record(self, ended):
        """The running game as a play log record (ended: "final", or "end" from the
        pause menu), or None if it has not ended; written by write_play once the mode
        is let go, so the log's code never adds to a mode's peak heap."""
        if self.game is None or self.game_name not in modes.GAMES:
            return None
        if ended == "final" and getattr(self.game, "phase", None) not in FINAL_PHASES:
            return None
        from layerlight.play_record import record_of
        try:
            return record_of(self, ended)
        except Exception as e:  # a record the mode cannot give must not lose the game's end
            print_exception(e, self.log)
            return None
        finally:
            forget_modules(("layerlight.play_record",))

    def write_play(self, record):
        if record is not None:
            from layerlight.playlog import PlayLog
            n = PlayLog(self.storage, self.log).append(record)
            if n is not None:
                self.plays_last = n
            forget_modules(("layerlight.playlog",))

    def give_way(self):
        """A new mode starts: a game kept from before the menu is let go. One that had
        ended (only its final screen was left), in memory or saved at its final before a
        power cut, is logged and over: it cannot be resumed (and logged) again."""
        record = self.play_record("final")
        if record is None and self.game is None and self.saved is not None:
            record = self.saved.get("record")
        if record is not None:
            self.game_over(record)
        elif self.game is not None:
            self.drop_game()

    def game_over(self, record=None):
        """A game ended: the menu comes back at once, and once it is drawn (finish_leaving)
        the game's record (play_record) goes into the play log, then nothing is left to
        resume on flash. The saved game holds the record from its final on, so a power cut
        before or between the two leaves it, logged when the next mode starts (once: it has
        its number); the menu is not kept waiting for the play log's file write."""
        self.drop_game()
        self.saved = None
        self.where = "menu"
        self.menu_index = 0
        self.leaving = (record,)

    def finish_leaving(self):
        """What is left to write once the frame is drawn: the mode's files (flush_outbox), and
        a game's end once the menu is (game_over), if anything."""
        due = self.files_due
        while due:
            name, obj = due.pop(0)
            persist.save(self.storage, name, obj, self.log)
        if self.leaving is None:
            return
        record = self.leaving[0]
        self.leaving = None
        self.write_play(record)
        try:
            self.saves.clear()
        except OSError as e:
            self.log("could not remove %s: %s" % (self.saves.name, e))

    # --- decks and errors -------------------------------------------------

    def open_deck(self, kind, report=True):
        """The deck of a kind ("layers", "otlo") for the mode about to run (launch.open_deck)."""
        from layerlight import launch
        return launch.open_deck(self, kind, report)

    def fail(self, code, message):
        """An error glyph and code on the matrix, the message on the console and in the
        error log on flash; the device goes on."""
        self.log("error E%d: %s" % (code, message))
        persist.append_log(self.storage, "t=%d E%d %s" % (self.now, code, message), self.log)
        self.error_code = code
        self.error_until = self.now + ERROR_SHOW_MS
        self.where = "error"
        self.sound.play("error", self.now)
        self.next_frame = self.now

    # --- games --------------------------------------------------------------

    def menu_items(self):
        items = modes.names()
        if (self.game is not None and not self.game.done) or self.saved is not None:
            items = ["resume"] + items
        return items

    def start_game(self, name, seats=None, first_player=None, saved=None):
        """Start a mode (or resume a saved game: saved = what save_game wrote)."""
        if saved is None:
            self.give_way()
        elif self.game is not None:
            self.drop_game()
        self.finish_leaving()  # a game that just ended is logged (and its save cleared) first
        from layerlight import launch
        self.game = launch.start(self, name, seats, first_player, saved)
        forget_modules(("layerlight.launch",))  # not needed while the game runs

    def resume(self):
        """Back into the kept game, or the one saved on flash (after a power cut)."""
        if self.game is not None and not self.game.done:
            self.where = "game"
        elif self.saved is not None:
            self.start_game(self.saved["game"], saved=self.saved)

    def game_time(self):
        return self.now - self.paused_total

    def _guard(self, fn, *args):
        """Run a mode call; an exception in a mode never takes the device down."""
        try:
            fn(*args)
            return True
        except Exception as e:
            print_exception(e, self.log)
            self.fail(ERR_MODE, "%s crashed: %s" % (self.game_name, e))
            self.drop_game()
            return False

    # --- the loop -----------------------------------------------------------

    def step(self, now, raw=None, show=True):
        """One pass of the loop at time `now` (ms since boot), with the buttons
        down as `raw` (default: as the hardware reads them now); `show` False
        leaves the drawing to a later step."""
        mark = self.mark
        mark(M_STEP)
        self.now = now
        if raw is None:
            raw = self.hw.read_buttons()
        events = self.buttons.update(now, raw)
        if events:
            self.quiet_from = now
        for ev in events:
            if buttons.kind_of(ev) == buttons.PRESS:
                self.lit_until[buttons.button_of(ev)] = now + PRESS_LIGHT_MS
            self.dispatch(ev)
            self.next_frame = now  # answer a press within this frame
            self.answering = True
        mark(M_EVENTS)
        if self.where == "game":
            self._guard(self.game.tick, self.game_time())
            mark(M_TICK)
            self.after_game_call()
            mark(M_SAVED)
        elif self.where == "error" and now >= self.error_until:
            self.where = "menu"
        self.sound.update(now)
        if show and now >= self.next_frame:
            self.render()
            self.next_frame = now + FRAME_MS
        if show:
            self.finish_leaving()
            mark(M_LEFT)
            self.tidy(raw)
            mark(M_TIDIED)
        self.hw.feed()

    def tidy(self, raw):
        """The flash work that can wait (the journal's erases ahead, one sector at a time), at a
        quiet moment only: no button down, QUIET_MS since the last button event, no race."""
        if raw or self.now - self.quiet_from < QUIET_MS or not self.saves.wants_tidy():
            return
        if self.where == "game" and getattr(self.game, "phase", None) in RACE_PHASES:
            return
        try:
            self.saves.tidy()
        except OSError as e:
            self.log("could not erase ahead in %s: %s" % (self.saves.name, e))

    def after_game_call(self):
        """Save what changed; leave a finished game."""
        game = self.game
        if game is None:
            return
        if getattr(game, "phase", None) in FINAL_PHASES:
            if self.ended_ms is None:
                self.ended_ms = self.played_ms()
        else:
            self.ended_ms = None  # not ended yet, or an undo took the end back
        if game.outbox:
            self.flush_outbox()
        if game.dirty:
            self.save_game()
        if game.done:
            if self.game_name in modes.GAMES:
                record = self.play_record("final")
                self.game_over(record)
            else:
                self.drop_game()
                self.where = "menu"
                self.menu_index = 0

    def render(self):
        """Draw the current screen and push it to the LEDs."""
        self.answering = False
        fb = self.fb
        if self.where == "game" and not self._guard(self.game.draw, fb, self.game_time()):
            pass  # the crash switched us to the error screen, drawn below
        if self.where != "game":
            fb.clear()
        if self.where == "menu":
            items = self.menu_items()
            i = self.menu_index % len(items)
            text = "RESUME" if items[i] == "resume" else modes.label(items[i])
            screens.menu(fb, text, self._scroll(text), i, len(items))
        elif self.where == "pause":
            item = self.pause_items[self.pause_index]
            screens.menu(fb, item, self._scroll(item), self.pause_index, len(self.pause_items), screens.RING)
        elif self.where == "error":
            screens.error(fb, self.error_code)
        for b in range(buttons.COUNT):
            if self.now < self.lit_until[b]:
                screens.press_light(fb, b)
        self.mark(M_DRAWN)
        self.hw.show(fb)
        self.mark(M_SHOWN)

    def _scroll(self, text):
        width = font.text_width(text)
        if width <= self.fb.width:
            return -((self.fb.width - width) // 2)
        span = width + self.fb.width
        return ((self.now - self.menu_since) // 80) % span - self.fb.width // 2

    def dispatch(self, ev):
        kind = buttons.kind_of(ev)
        b = buttons.button_of(ev)
        now = self.now
        if kind == buttons.MENU:
            if self.where in ("game", "pause"):
                self.log("back to the menu; the game is kept")
            self.where = "menu"
            self.menu_index = 0
            self.menu_since = now
            return
        if self.where == "menu":
            self._menu_event(kind, b)
        elif self.where == "pause":
            self._pause_event(kind, b)
        elif self.where == "game":
            if kind == buttons.HOLD and b == buttons.A:
                self.where = "pause"
                self.pause_index = 0
                # UNDO only when there is something to take back (it cannot change while paused)
                can_undo = getattr(self.game, "can_undo", None)
                self.pause_items = PAUSE_ITEMS_UNDO if can_undo is not None and can_undo() else PAUSE_ITEMS
                self.paused_at = now
                self.sound.play("tick", now)
                return
            self._guard(self.game.handle, ev, self.game_time())
            self.after_game_call()
        elif self.where == "error" and kind == buttons.RELEASE:
            self.where = "menu"

    def _menu_event(self, kind, b):
        if kind == buttons.PRESS:
            self.sound.play("tick", self.now)
        if kind != buttons.RELEASE:
            return
        items = self.menu_items()
        if b == buttons.B:
            self.menu_index = (self.menu_index + 1) % len(items)
            self.menu_since = self.now
        elif b == buttons.A:
            choice = items[self.menu_index % len(items)]
            if choice == "resume":
                self.resume()
            else:
                self.start_game(choice)

    def _pause_event(self, kind, b):
        if kind != buttons.RELEASE:
            return
        if b == buttons.B:
            self.pause_index = (self.pause_index + 1) % len(self.pause_items)
        elif b == buttons.A:
            choice = self.pause_items[self.pause_index]
            self.paused_total += self.now - self.paused_at
            if choice == "UNDO":
                self.where = "game"  # back to the table, to watch the change
                self._guard(self.game.undo, self.game_time())
                self.after_game_call()  # saved: a power cut now resumes the undone state
            elif choice == "END" and hasattr(self.game, "end_game"):
                self.where = "game"  # a score keeper goes on to its final scoring
                self.game.end_game(self.game_time())
                self.after_game_call()
            elif choice == "END":
                record = self.play_record("end")
                self.game_over(record)
            else:
                self.where = "game"
                if choice == "SCORES" and hasattr(self.game, "show_scores"):
                    self.game.show_scores(self.game_time())

    def state(self):
        """The trace keys of docs/trace.md (trace.py: only the simulator asks)."""
        from layerlight.trace import device_state
        return device_state(self)

    def run(self):
        """The device's own loop, forever: the game steps on the 10 ms grid, and
        at every instant the buttons changed.

        The hardware samples the buttons (every millisecond by PIO on the rp2
        port) and keeps the samples, so the game sees every change at its own
        instant however long a frame, a flash write or a collection held the
        loop: it catches up over the samples and draws the latest. At each
        instant the time passes first with the buttons as they were, then a
        change counts, exactly as the simulator steps: the device and
        `layerlight sim` agree. Two player buttons in one sample are a tie
        (buttons.py breaks it).

        Returns only when a host asks to begin again (layerlight.host_link):
        the new Device to run.
        """
        hw = self.hw
        host = self.host
        origin = None
        prepare = getattr(hw, "prepare_sampling", None)
        if prepare is not None:
            prepare()  # before the lead-in: reading 0 must come at instant 0, not after the set-up
        if host is not None:  # a host began this device: its time 0 comes a lead-in later
            origin = host.lead_in(self)
        hw.start_sampling(origin)
        unit = hw.SAMPLE_MS
        kept = hw.SAMPLES_KEPT
        per = max(1, STEP_MS // unit)  # samples from one grid instant to the next
        same_until = getattr(hw, "same_until", None)
        heard = 0  # the sample at which the host's lines were last read while catching up
        level = 0
        done = -1  # the latest sample taken in: instant 0's is the first (a grid instant)
        while True:
            taken = hw.samples_taken()
            # a sample is taken in once the next one is there: a change counts when the
            # next sample agrees, filed under the first (a glitch on a lead, one sample
            # long, is not a press; real presses keep their milliseconds and order)
            while done < taken - 1:
                if host is not None and done - heard >= LISTEN_MS // unit:
                    heard = done
                    # a host's requests that came while a long step (a save) held
                    # the loop: read before the instants they ask about go by
                    again = self.listen(0)
                    if again is not None:
                        return again
                    taken = hw.samples_taken()  # a request may have held it too (LL hold)
                if taken - done > self.lag:
                    self.lag = taken - done
                if taken - done > kept:  # fell behind the samples kept: the oldest are gone
                    # on from an eighth of the ring inside its end: at the very end, any
                    # hiccup while catching up would lose a sample or two more, again and again
                    done = self.lost(done, taken - kept + kept // 8, level, unit)
                if same_until is not None:
                    # the samples before the next grid instant (or one a host asked about)
                    # that still show `level` change nothing: skipped in one tight loop
                    k = done + 1
                    stop = min(taken - 1, (k + per - 1) // per * per)
                    if host is not None and host.due:
                        stop = min(stop, max(k, -(-host.due[0] // unit)))
                    if stop > k:
                        done = same_until(k, stop, level) - 1
                done += 1
                raw = hw.sample(done)
                after = hw.sample(done + 1)
                if not after & MISSED:
                    raw ^= (raw ^ after) & (raw ^ level) & ~MISSED
                now = done * unit
                if now % STEP_MS == 0:
                    level = self.instant(now, level, raw, True)
                    taken = hw.samples_taken()  # a step may have held the loop (a save)
                elif raw != level and not raw & MISSED or host is not None and host.asks(now):
                    level = self.instant(now, level, raw, False)
                    taken = hw.samples_taken()
                if self.answering:
                    # a button event changed what is shown: its frame goes out now, not once
                    # the loop has caught up (a press's light would wait for every step of
                    # the catching up; the frame is the state at the press's own instant)
                    self.render()
                    self.next_frame = self.now + FRAME_MS
                    taken = hw.samples_taken()
            if self.lost_note is not None:
                persist.append_log(self.storage, self.lost_note, self.log)
                self.lost_note = None
            if self.now >= self.next_frame:
                self.render()
                self.next_frame = self.now + FRAME_MS
            self.finish_leaving()  # the menu is on the wire: a game's end is logged now
            self.mark(M_LEFT)
            self.tidy(level)  # caught up with the samples: an erase now delays no press taken
            if COLLECT_AFTER and self.saves_since_collect >= COLLECT_AFTER:
                self.saves_since_collect = 0
                gc.collect()  # caught up and the frame out: the garbage of the saves, now
                self.mark(M_COLLECTED)
            self.mark(M_IDLE)
            again = self.listen(LOOP_MS)
            self.mark(M_AWAKE)
            if again is not None:
                return again
            host = self.host

    def lost(self, done, first, level, unit):
        """The loop fell further behind than the hardware keeps samples (held by something
        longer than the ring): the samples after `done` up to `first` are dropped. Say so on
        the console and in the error log, with whether a button's level changed across the
        gap (a press or release there was lost); returns where to go on from."""
        gone = (first - done) * unit
        self.lost_ms += gone
        changed = (level ^ self.hw.sample(first + 1)) & ~MISSED
        names = [buttons.NAMES[b] for b in range(buttons.COUNT) if changed >> b & 1]
        message = "buttons: %d ms of readings lost after t=%d (the loop was held longer than the %d ms kept); %s" % (
            gone, done * unit, self.hw.SAMPLES_KEPT * unit,
            "changed across the gap: " + " ".join(names) if names else "no button changed across the gap")
        self.log(message)
        # into the error log once the loop has caught up: a flash write now would hold it
        # again at the ring's very end, and lose more
        note = "t=%d %s" % (done * unit, message)
        self.lost_note = note if self.lost_note is None else self.lost_note + "\n" + note
        return first

    def instant(self, now, level, raw, grid):
        """One instant of the device's time: the grid's step with the buttons as they
        were (`level`), then their change to `raw` (unless MISSED), then what a host
        asked about it. Returns the buttons as they now are."""
        host = self.host
        asked = host is not None and host.asks(now)
        if grid or asked:
            self.step(now, level, False)
        if raw != level and not raw & MISSED:
            if level & ~raw and raw & ~level:
                # buttons let go and others pressed in one reading: the releases first,
                # a step of their own, as two script lines at one instant in the simulator
                self.step(now, level & raw, False)
            level = raw
            self.step(now, level, False)
        if asked:
            host.report(self, now)
        return level

    def listen(self, ms):
        """Wait up to ms for a host's lines and answer every one that came; a new
        Device when the host asks to begin again."""
        line = self.hw.idle(ms)
        while line is not None:  # a host asks (only then is host_link loaded)
            from layerlight import host_link
            if self.host is None:
                self.host = host_link.HostLink()
            again = self.host.request(self, line)
            if again is not None:
                return again
            line = self.hw.idle(0)
        return None


def boot(hw=None, storage=None, seed=None):
    """Load the config, open the hardware and return the Device (not yet running)."""
    from layerlight import startup
    return startup.boot(Device, hw, storage, seed)


def _unmarked(code):
    """The loop's markers where the hardware has none (the simulator, a Pi): nothing."""
