"""The generic observation encoder: feature hashing of a JSON observation.

See :mod:`thieves.rl.observe` and docs/rl.md ("The generic encoder").
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np

SIZE = 4096

#: keys whose list value has one entry per seat, in seat order
SEAT_LISTS: dict[str, frozenset[str]] = {
    "thiefs-market": frozenset({"piles", "has_pile", "objects", "gold", "infamy", "tableau",
                                "henchmen", "scores"}),
    "thieves-den": frozenset({"players", "scores"}),
    "age-of-thieves": frozenset({"thieves", "scores"}),
    "thiefdom": frozenset({"vp", "thieves", "scores", "hideouts", "stash", "stamina", "plans",
                           "final", "hand_sizes", "kept_sizes", "missions_done"}),
    "cadwallon": frozenset({"ap", "ducats", "gangs", "to_deploy", "banked", "hand_counts", "scores"}),
}
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
