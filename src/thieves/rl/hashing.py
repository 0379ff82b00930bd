"""The generic observation encoder: feature hashing of a JSON observation.

See :mod:`thieves.rl.observe` and docs/rl.md ("The generic encoder").
"""
from __future__ import annotations

import marshal
import zlib
from typing import Any, Callable

import numpy as np

SIZE = 4096

#: keys whose int values (or lists of ints) are seat numbers
SEAT_VALUES = frozenset({"to_act", "viewer", "current", "start_player", "token", "holder", "first",
                         "victim", "turn", "player", "winners", "order", "start", "p", "owner",
                         "mover", "acting", "ctl"})
_SKIP = frozenset({"log", "game", "viewer"})


def _slot(key: str) -> int:
    return zlib.crc32(key.encode()) % SIZE


class Paths:
    """Feature names met so far, numbered, with their slots (shared by all calls)."""

    def __init__(self) -> None:
        self.name: list[str] = [""]
        self.child: dict[tuple[int, Any], int] = {}      # (parent id, key or index) -> id
        self.slot: dict[tuple[int, Any], int] = {}       # (id, categorical value) -> slot
        self.num: dict[int, int] = {}                    # id -> slot of its number

    def sub(self, pid: int, key: Any) -> int:
        k = (pid, key)
        got = self.child.get(k)
        if got is None:
            got = self.child[k] = len(self.name)
            self.name.append(f"{self.name[pid]}/{key}")
        return got

    def value_slot(self, pid: int, value: Any) -> int:
        k = (pid, value)
        got = self.slot.get(k)
        if got is None:
            got = self.slot[k] = _slot(f"{self.name[pid]}={value}")
        return got

    def num_slot(self, pid: int) -> int:
        got = self.num.get(pid)
        if got is None:
            got = self.num[pid] = _slot(self.name[pid])
        return got


_PATHS: dict[str, Paths] = {}


def encode(obs: dict[str, Any], n: int, viewer: int, seat_lists: frozenset[str],
            paths: Paths) -> np.ndarray:
    vals = accumulate(obs, n, viewer, seat_lists, paths)
    out = np.zeros(SIZE, dtype=np.float32)
    if vals:
        out[list(vals)] = list(vals.values())
    return out


def accumulate(obs: dict[str, Any], n: int, viewer: int, seat_lists: frozenset[str],
                paths: Paths) -> dict[int, float]:
    """slot -> value of the hashed features of ``obs`` (see the module docstring)."""
    vals: dict[int, float] = {}
    get = vals.get
    sub, value_slot, num_slot = paths.sub, paths.value_slot, paths.num_slot

    def seat(v: Any) -> Any:
        return (v - viewer) % n if type(v) is int and 0 <= v < n else v

    def add(pid: int, x: Any, key: Any) -> None:
        t = type(x)
        if t is dict:
            for k, v in x.items():
                add(sub(pid, k), v, k)
        elif t is list:
            per_seat = key in seat_lists and len(x) == n
            if per_seat:
                x = x[viewer:] + x[:viewer]
            if not per_seat and x and type(x[0]) is str and all(type(v) is str for v in x):
                for v in x:
                    s = value_slot(pid, v)
                    vals[s] = get(s, 0.0) + 1.0
            else:
                for i, v in enumerate(x):
                    add(sub(pid, i), v, key)
        elif t is int or t is float:
            if key in SEAT_VALUES:
                s = value_slot(pid, seat(x))
                vals[s] = get(s, 0.0) + 1.0
            else:
                s = num_slot(pid)
                vals[s] = get(s, 0.0) + x
        else:  # str, bool, None
            s = value_slot(pid, x)
            vals[s] = get(s, 0.0) + 1.0

    for k, v in obs.items():
        if k not in _SKIP:
            add(sub(0, k), v, k)
    return vals


def dense(values: dict[int, float], size: int) -> np.ndarray:
    """A float32 vector of ``size`` from its non-zero entries."""
    out = np.zeros(size, dtype=np.float32)
    if values:
        out[list(values)] = list(values.values())
    return out


def vector(values: dict[int, float], size: int) -> np.ndarray:
    """:func:`dense` without the lists (the same float32 vector)."""
    out = np.zeros(size, dtype=np.float32)
    k = len(values)
    if k:
        out[np.fromiter(values.keys(), np.intp, k)] = np.fromiter(values.values(), np.float64, k)
    return out


#: bytes each cache of the fast encoders may hold before it starts afresh
CACHE_BYTES = 16 << 20


class FoldedDetail:
    """:func:`accumulate` of a detail dict folded into ``width`` slots, as the layout
    encoders add it (``v[offset + slot % width] += x``), with each top-level entry's
    part cached by its value (``marshal``) and the viewer.

    Parts are added entry by entry instead of in one walk, which changes the order of
    the sums: exact while every number met is whole, so a detail with another number
    is walked the reference way.
    """

    def __init__(self, n: int, seat_lists: frozenset[str], width: int, limit: int = CACHE_BYTES) -> None:
        self.n, self.seat_lists, self.width = n, seat_lists, width
        self.limit = max(64, limit // (12 * width))     # entries: a float64 part, a float32 whole
        self.paths = Paths()
        self.parts: dict[tuple[str, int, bytes], np.ndarray | None] = {}
        self.whole: dict[tuple[int, bytes], np.ndarray] = {}

    def _part(self, key: str, value: Any, viewer: int) -> np.ndarray | None:
        try:
            ck: tuple[str, int, bytes] | None = (key, viewer, marshal.dumps(value))
        except ValueError:
            ck = None
        if ck is not None:
            got = self.parts.get(ck, False)
            if got is not False:
                return got  # type: ignore[return-value]
        vals = accumulate({key: value}, self.n, viewer, self.seat_lists, self.paths)
        part: np.ndarray | None = np.zeros(self.width, dtype=np.float64)
        for i, x in vals.items():
            if not x.is_integer():
                part = None
                break
            part[i % self.width] += x                    # type: ignore[index]
        if ck is not None:
            if len(self.parts) >= self.limit:
                self.parts.clear()
            self.parts[ck] = part
        return part

    def folded(self, detail: dict[str, Any], viewer: int) -> np.ndarray:
        """The ``width`` float32 numbers that ``detail`` adds to a tensor."""
        try:
            keys: tuple[int, bytes] | None = (viewer, marshal.dumps(detail))
        except ValueError:
            keys = None
        got = self.whole.get(keys) if keys is not None else None
        if got is not None:
            return got
        acc = np.zeros(self.width, dtype=np.float64)
        for k, x in detail.items():
            if k in _SKIP:
                continue
            part = self._part(k, x, viewer)
            if part is None:
                acc[:] = 0.0
                for i, y in accumulate(detail, self.n, viewer, self.seat_lists, self.paths).items():
                    acc[i % self.width] += y
                break
            acc += part
        got = acc.astype(np.float32)
        if keys is not None:
            if len(self.whole) >= self.limit:
                self.whole.clear()
            self.whole[keys] = got
        return got


class Blocks:
    """Parts of a tensor (float32) cached by a key that decides them (the marshalled
    state fields they are written from): a part met before is copied, not rewritten.
    The cache starts afresh past ``limit`` bytes."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.memo: dict[Any, np.ndarray] = {}
        self.limit = limit
        self.size = 0

    def get(self, key: Any, width: int, fill: Callable[[dict[int, float]], None]) -> np.ndarray:
        """The part of ``key``, written by ``fill`` (into slot -> value, from 0) if new."""
        got = self.memo.get(key)
        if got is None:
            v: dict[int, float] = {}
            fill(v)
            got = vector(v, width)
            self.size += got.nbytes
            if self.size > self.limit:
                self.memo.clear()
                self.size = got.nbytes
            self.memo[key] = got
        return got
