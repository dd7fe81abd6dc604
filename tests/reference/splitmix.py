"""SplitMix64, the seeded stream every random choice of the C++ side documents
(core/compress/seeded_random.h): the references draw from it so their choices are the same."""
import numpy as np

MASK64 = (1 << 64) - 1


class SplitMix:
    def __init__(self, seed):
        self.s = seed & MASK64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n


def splitmix_permutation(n, seed):
    """Fisher–Yates driven by SplitMix64: the permutation the C++ side documents."""
    rng = SplitMix(seed)
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, dtype=np.int64)
