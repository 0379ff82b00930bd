"""The seeded random generator that every game keeps in its state.

All chance in a game (dice, shuffles, draws) comes from this generator, so
the same seed and actions give the same game. Its whole state is one
64-bit integer: copying and serializing it is free.

The default algorithm is SplitMix64 (Steele, Lea & Flood, 2014), a small,
well-tested generator with a full 2**64 period. It is fast, which
simulations need, but it is not a secret: a few of its outputs give away its
state, and a 64-bit seed can be searched.

:class:`KeyedRng` is the generator for games where people must not be able
to work out hidden cards from what they see (the web server's tables): a
keyed BLAKE2b in counter mode, keyed by a seed of 128 bits or more. Its
outputs tell nothing about its key or its other outputs. It has the same
draws as :class:`Rng`; :func:`make_rng` picks one by name and
:func:`rng_from_json` restores either from a snapshot.
"""
from __future__ import annotations

import hashlib
import struct
import sys
from typing import Any, MutableSequence, Protocol, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


#: rejection limits of :meth:`Rng.below` by bound (the largest multiple of n below 2**64)
_LIMITS: dict[int, int] = {}


def _limit(n: int) -> int:
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    limit = (1 << 64) - ((1 << 64) % n)
    if n <= 4096:  # the bounds games use; keeps the memo small
        _LIMITS[n] = limit
    return limit


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
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _limit(n)
        while True:  # next64, written out: the hottest call of every playout
            self.state = s = (self.state + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
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

    kind = "splitmix"

    def copy(self) -> "Rng":
        return Rng(self.state)

    def to_json(self) -> int | dict[str, Any]:
        """The snapshot value of the generator (an integer, as always)."""
        return self.state

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#018x})"


#: SplitMix64 outputs :func:`splitmix_batch` mixes at once
BATCH = 32
#: the state's advance over one batch
BATCH_STEP = BATCH * _GOLDEN & _MASK
#: 64-bit lanes, 128 bits apart, in one integer: a lane of ones in each, and lane i holding
#: (i + 1) steps of the generator
_LANES = sum(_MASK << 128 * i for i in range(BATCH))
_ONES = sum(1 << 128 * i for i in range(BATCH))
_STEPS = sum(((i + 1) * _GOLDEN & _MASK) << 128 * i for i in range(BATCH))
_LITTLE_ENDIAN = sys.byteorder == "little" and struct.calcsize("Q") == 8


def splitmix_batch(state: int) -> list[int]:
    """The next :data:`BATCH` outputs of :meth:`Rng.next64` from generator state ``state``,
    mixed all at once: each lane of one integer holds one state, and a lane's products
    (under 128 bits) never reach the next lane. About a fifth of the cost of as many
    :meth:`Rng.next64` calls.

    >>> r = Rng(7)
    >>> splitmix_batch(7)[:3] == [r.next64() for _ in range(3)]
    True
    """
    x = (state * _ONES + _STEPS) & _LANES
    x = ((x ^ (x >> 30) & _LANES) * 0xBF58476D1CE4E5B9) & _LANES
    x = ((x ^ (x >> 27) & _LANES) * 0x94D049BB133111EB) & _LANES
    x ^= x >> 31 & _LANES
    if _LITTLE_ENDIAN:   # the lanes as machine words: each lane's low word, then its zero word
        return memoryview(x.to_bytes(16 * BATCH, "little")).cast("Q").tolist()[::2]
    return [x >> 128 * i & _MASK for i in range(BATCH)]


class Below(Protocol):
    """What a playout draws from: :class:`Rng` or its :class:`Draws`."""

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        ...


class Draws:
    """The draws of ``rng.below`` taken :data:`BATCH` SplitMix64 outputs at a time, for a
    playout's hot loop: the same numbers in the same order, about a third cheaper a draw.

    The generator's state is written back by :meth:`close` (use ``with``); until then
    ``rng`` must not be drawn from directly. Any other generator (a :class:`KeyedRng`)
    is drawn through its own :meth:`~Rng.below`.

    >>> a, b = Rng(3), Rng(3)
    >>> with Draws(b) as d:
    ...     xs = [d.below(6) for _ in range(40)]
    >>> xs == [a.below(6) for _ in range(40)] and a.state == b.state
    True
    """

    __slots__ = ("rng", "below", "_base", "_zs", "_j")

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self._j = 0
        if type(rng) is Rng:
            self._base = rng.state
            self._zs = splitmix_batch(self._base)
            self.below = self._below
        else:
            self.below = rng.below

    def _below(self, n: int) -> int:
        """:meth:`Rng.below` from the batch."""
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _limit(n)
        zs, j = self._zs, self._j
        while True:
            if j == BATCH:
                self._base = base = (self._base + BATCH_STEP) & _MASK
                self._zs = zs = splitmix_batch(base)
                j = 0
            x = zs[j]
            j += 1
            if x < limit:
                self._j = j
                return x % n

    def close(self) -> None:
        """Hand the generator its state after the draws taken."""
        if type(self.rng) is Rng:
            self.rng.state = (self._base + self._j * _GOLDEN) & _MASK

    def __enter__(self) -> "Draws":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: the BLAKE2b personalisation that makes this project's streams its own
_PERSON = b"thieves-rng-v1"


class KeyedRng(Rng):
    """A keyed BLAKE2b stream in counter mode, with the draws of :class:`Rng`.

    Block ``i`` of the stream is ``BLAKE2b-512(key, i)``, cut into eight
    64-bit words; ``count`` is how many words were drawn. The key is a
    BLAKE2b hash of the seed, so any integer seed works, but only a seed of
    128 random bits or more makes the stream unguessable. Its whole state is
    ``(key, count)``: copying and serializing stay exact and cheap.
    """

    __slots__ = ("key", "count", "_block", "_words")

    kind = "keyed"

    def __init__(self, key: bytes, count: int = 0) -> None:
        if not isinstance(key, bytes) or not 16 <= len(key) <= 64:
            raise ValueError("a keyed generator needs a key of 16 to 64 bytes")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError("the draw count must be a non-negative integer")
        self.key = key
        self.count = count
        self._block = -1
        self._words: tuple[int, ...] = ()

    @classmethod
    def from_seed(cls, seed: int) -> "KeyedRng":
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed must be an integer")
        key = hashlib.blake2b(str(seed).encode("ascii"), digest_size=32, person=_PERSON).digest()
        return cls(key)

    @property
    def state(self) -> int:  # type: ignore[override]  # read-only: (key, count) is the state here
        raise AttributeError("a keyed generator's state is (key, count); use to_json()")

    def below(self, n: int) -> int:
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _limit(n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def next64(self) -> int:
        n = self.count
        block, word = divmod(n, 8)
        if block != self._block:
            digest = hashlib.blake2b(block.to_bytes(16, "little"), key=self.key, digest_size=64,
                                     person=_PERSON).digest()
            self._words = tuple(int.from_bytes(digest[i:i + 8], "little") for i in range(0, 64, 8))
            self._block = block
        self.count = n + 1
        return self._words[word]

    def copy(self) -> "KeyedRng":
        new = KeyedRng(self.key, self.count)
        new._block, new._words = self._block, self._words
        return new

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key.hex(), "count": self.count}

    def __repr__(self) -> str:  # never shows the key
        return f"KeyedRng(count={self.count})"


#: generator kinds by name (``Game.new_game(..., rng=...)``)
RNG_KINDS = ("splitmix", "keyed")


def make_rng(kind: str, seed: int) -> Rng:
    """A new generator of ``kind`` ("splitmix" or "keyed") from ``seed``."""
    if kind == "splitmix":
        return Rng.from_seed(seed)
    if kind == "keyed":
        return KeyedRng.from_seed(seed)
    raise ValueError(f"unknown generator {kind!r}; generators are: {', '.join(RNG_KINDS)}")


def rng_from_json(value: Any) -> Rng:
    """A generator from its snapshot value: an integer (SplitMix64) or a keyed object."""
    if isinstance(value, dict):
        if value.get("kind") != "keyed":
            raise ValueError(f"unknown generator {value.get('kind')!r} in the snapshot")
        return KeyedRng(bytes.fromhex(value["key"]), int(value["count"]))
    return Rng(int(value))
