"""The seeded random generator that every game keeps in its state.

All chance in a game (dice, shuffles, draws) comes from this generator, so
the same seed and actions give the same game. Its whole state is one
64-bit integer: copying and serializing it is free.

The algorithm is SplitMix64 (Steele, Lea & Flood, 2014), a small,
well-tested generator with a full 2**64 period.
"""
from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix_seed(seed: int) -> int:
    """Spread a small seed over 64 bits so that seeds 0, 1, 2 differ well."""
    z = (seed * _GOLDEN + 0x632BE59BD9B4E019) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64 generator with the few draws board games need."""

    __slots__ = ("state",)

    def __init__(self, state: int = 0) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> "Rng":
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed must be an integer")
        return cls(_mix_seed(seed & _MASK))

    def next64(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both included."""
        return low + self.below(high - low + 1)

    def die(self, sides: int = 6) -> int:
        """One roll of a die numbered 1..sides."""
        return 1 + self.below(sides)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#018x})"
