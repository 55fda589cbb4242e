# Buzzer sounds: short tunes played without blocking.
#
# A tune is a flat tuple of (frequency Hz, duration ms) pairs; 0 Hz is a rest.
# `update(now)` is called every loop and changes the tone when a note ends.

TUNES = {
    "tick": (2200, 12),
    "join": (880, 60, 1320, 80),
    "ok": (1320, 70, 1760, 90),
    "finish": (1568, 60, 2093, 90),
    "refused": (110, 250),
    "wrong": (220, 180, 165, 260),
    "beep": (1760, 90),
    "timeout": (880, 120, 0, 60, 660, 120, 0, 60, 440, 300),
    "steal": (660, 70, 440, 110),
    "fanfare": (523, 110, 659, 110, 784, 110, 1047, 320),
    "error": (196, 200, 0, 80, 196, 200),
    "reveal": (988, 60, 1319, 60, 1976, 120),
}


class Sound:
    """Plays one tune at a time on a tone(freq) function; later tunes replace earlier ones."""

    def __init__(self, tone, enabled=True):
        self._tone = tone
        self.enabled = enabled
        self._tune = None
        self._at = 0
        self._until = 0
        self.last = None        # name of the last tune started (for traces)
        self.played = []        # names started since the simulator last emptied it

    def play(self, name, now):
        self.last = name
        self.played.append(name)
        if len(self.played) > 16:
            del self.played[0]
        if not self.enabled:
            return
        self._tune = TUNES[name]
        self._at = 0
        self._start_note(now)

    def _start_note(self, now):
        tune = self._tune
        self._tone(tune[self._at])
        self._until = now + tune[self._at + 1]

    def update(self, now):
        if self._tune is None or now < self._until:
            return
        self._at += 2
        if self._at >= len(self._tune):
            self._tune = None
            self._tone(0)
        else:
            self._start_note(now)
