# A small seeded random generator (xorshift32).
#
# MicroPython's `random` and CPython's give different sequences for the same
# seed, and the simulator promises "same seed, same trace" on both; so shuffles
# and draws use this instead.


class Rng:
    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        s = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF
        self.state = s or 0x6D2B79F5

    def next32(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def below(self, n):
        """An int in 0..n-1."""
        return self.next32() % n

    def shuffle(self, items):
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items
