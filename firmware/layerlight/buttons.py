# Debounced buttons turned into events.
#
# The device feeds a bit mask of the buttons held down at every instant where
# it changed (sampled every millisecond by the rp2 port's PIO) and on its 10 ms
# grid. A change counts at once (a race is decided by who pressed first, and
# every press must answer within a frame), then the button ignores further
# changes for DEBOUNCE_MS: contact bounce is shorter than that.
# Events are small ints, kind * 8 + button, so reading buttons allocates nothing.
#
# (The device gives releases and presses read in one millisecond as two
# updates, releases first: app.Device.instant.)
# A tie: two or more player buttons pressed in the same millisecond (one
# update). No seat may win ties by its number, so they are taken in turn: the
# first tie starts from P1, and each later tie starts from the seat after the
# last tie's winner (round robin). The simulator runs this same code, so a
# script's `down P2 P3` and the chip's two pins falling together agree.

P1, P2, P3, P4, A, B = 0, 1, 2, 3, 4, 5
COUNT = 6
NAMES = ("P1", "P2", "P3", "P4", "A", "B")

PRESS = 1      # button went down (act at once: race presses, joins, feedback)
RELEASE = 2    # button came up after a short press (A = confirm, B = no/cycle)
HOLD = 3       # button held down past its hold time (once)
HELD_UP = 4    # button came up after a HOLD
MENU = 5       # A and B held together for COMBO_MS: back to the main menu

DEBOUNCE_MS = 20
HOLD_MS = (1500, 1500, 1500, 1500, 1500, 600)  # B holds sooner: "hold B to see the solution"
COMBO_MS = 3000


def event(kind, button):
    return kind * 8 + button


def kind_of(ev):
    return ev >> 3


def button_of(ev):
    return ev & 7


def button_index(name):
    """Index of a button name like 'P3' or 'a' (ValueError if unknown)."""
    return NAMES.index(name.upper())


class Buttons:
    """Debouncer and event maker for the six buttons."""

    def __init__(self):
        self.state = 0              # debounced bits
        self._changed_at = [-DEBOUNCE_MS] * COUNT
        self._down_at = [0] * COUNT
        self._held = 0              # bits of buttons whose HOLD fired (or that are part of the combo)
        self._combo_at = -1
        self._combo_done = False
        self.tie_from = 0           # the seat the next tie between player buttons starts from
        self.events = []

    def update(self, now, raw):
        """Feed the raw pressed-bits at time `now` (ms); returns the list of new events."""
        ev = self.events
        del ev[:]  # keep the same list: no allocation per poll
        if not raw and not self.state:
            # nothing down before or now (most of the time): nothing to tell, and the
            # combo was reset when the last button went up (the loop calls this at every
            # 10 ms step: on the chip the whole update costs more than the rest of a step)
            return ev
        changed = raw ^ self.state
        if changed:
            start = 0
            tie = False
            seats = 0                   # player buttons going down in this update
            for b in range(4):
                if changed & raw & (1 << b) and now - self._changed_at[b] >= DEBOUNCE_MS:
                    seats |= 1 << b
            if seats & (seats - 1):     # more than one: a tie, taken in turn
                start = self.tie_from
                tie = True
            for i in range(COUNT):
                b = (start + i) & 3 if i < 4 else i
                bit = 1 << b
                if not changed & bit or now - self._changed_at[b] < DEBOUNCE_MS:
                    continue
                if tie and raw & bit and b < 4:
                    self.tie_from = (b + 1) & 3  # the winner goes to the back of the line
                    tie = False
                self._changed_at[b] = now
                self.state ^= bit
                if raw & bit:
                    self._down_at[b] = now
                    ev.append(PRESS * 8 + b)
                else:
                    ev.append((HELD_UP if self._held & bit else RELEASE) * 8 + b)
                    self._held &= ~bit
        both = (1 << A) | (1 << B)
        if self.state & both == both:
            if self._combo_at < 0:
                self._combo_at = now
                # holding both is a combo: neither counts as a hold of its own
                self._held |= both
            elif not self._combo_done and now - self._combo_at >= COMBO_MS:
                self._combo_done = True
                ev.append(MENU * 8)
        elif self.state & both == 0:
            self._combo_at = -1
            self._combo_done = False
        for b in range(COUNT):
            bit = 1 << b
            if self.state & bit and not self._held & bit and now - self._down_at[b] >= HOLD_MS[b]:
                self._held |= bit
                ev.append(HOLD * 8 + b)
        return ev
