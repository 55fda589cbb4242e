# Debounced buttons turned into events.
#
# The hardware layer is polled every few milliseconds for a bit mask of the
# buttons held down. A change counts at once (a race is decided by who pressed
# first, and every press must answer within a frame), then the button ignores
# further changes for DEBOUNCE_MS: contact bounce is shorter than that.
# Events are small ints, kind * 8 + button, so reading buttons allocates nothing.

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
        self.events = []

    def update(self, now, raw):
        """Feed the raw pressed-bits at time `now` (ms); returns the list of new events."""
        ev = self.events
        del ev[:]  # keep the same list: no allocation per poll
        changed = raw ^ self.state
        if changed:
            for b in range(COUNT):
                bit = 1 << b
                if not changed & bit or now - self._changed_at[b] < DEBOUNCE_MS:
                    continue
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
