"""Fixed-shape observation tensors built only from ``state.observation(p)``.

The tensor of player ``p`` is a float32 vector of :data:`SIZE` numbers made
from the JSON observation by feature hashing, with seats turned relative to
the viewer (seat 0 of the tensor is always the viewer, 1 the next player
clockwise, ...):

* every leaf of the observation is named by its path (dict keys, and list
  positions for lists of non-strings; a list of strings such as a hand is a
  bag of its strings);
* a number adds its value to the slot of its path; a string, ``None`` or a
  boolean adds 1 to the slot of ``path=value``;
* per-seat lists (``players``, ``gold``, ...) are rotated so that position 0
  is the viewer, and seat numbers (``to_act``, ``current``, ...) become
  relative seats;
* the text log is left out (its facts are in the rest of the observation).

Because it reads nothing but ``observation(p)``, the tensor hides exactly what
the observation hides: ``determinize(p, seed)`` never changes it (tested).
Slots are chosen by CRC-32, stable across machines and Python runs. Collisions
happen (two features sharing a slot); a game-specific encoder would avoid them.
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from thieves.core.game import State

SIZE = 2048

#: keys whose list value has one entry per seat, in seat order
SEAT_LISTS: dict[str, frozenset[str]] = {
    "thiefs-market": frozenset({"piles", "has_pile", "objects", "gold", "infamy", "tableau",
                                "henchmen", "scores"}),
    "thieves-den": frozenset({"players", "scores"}),
    "age-of-thieves": frozenset({"thieves", "scores"}),
    "thiefdom": frozenset({"vp", "thieves", "scores", "guilds", "hands", "players"}),
    "cadwallon": frozenset({"ap", "ducats", "gangs", "to_deploy", "banked", "hand_counts", "scores"}),
}
#: keys whose int values (or lists of ints) are seat numbers
SEAT_VALUES = frozenset({"to_act", "viewer", "current", "start_player", "token", "holder", "first",
                         "victim", "turn", "player", "winners", "order", "start", "p", "owner",
                         "mover", "acting"})
_SKIP = frozenset({"log", "game", "viewer"})


def _slot(key: str) -> int:
    return zlib.crc32(key.encode()) % SIZE


class _Encoder:
    __slots__ = ("vec", "n", "viewer", "seat_lists", "cache")

    def __init__(self, n: int, viewer: int, seat_lists: frozenset[str]) -> None:
        self.vec = np.zeros(SIZE, dtype=np.float32)
        self.n = n
        self.viewer = viewer
        self.seat_lists = seat_lists

    def seat(self, v: Any) -> Any:
        if type(v) is int and 0 <= v < self.n:
            return (v - self.viewer) % self.n
        return v

    def add(self, path: str, x: Any, key: str) -> None:
        t = type(x)
        if t is dict:
            for k, v in x.items():
                if path == "" and k in _SKIP:
                    continue
                self.add(f"{path}/{k}", v, k)
        elif t is list:
            if key in self.seat_lists and len(x) == self.n:
                x = x[self.viewer:] + x[:self.viewer]
            if key in SEAT_VALUES:
                x = [self.seat(v) for v in x]
            if x and all(type(v) is str for v in x):
                for v in x:
                    self.vec[_slot(f"{path}={v}")] += 1.0
            else:
                for i, v in enumerate(x):
                    self.add(f"{path}/{i}", v, key)
        elif t is int or t is float:
            if key in SEAT_VALUES:
                self.vec[_slot(f"{path}={self.seat(x)}")] += 1.0
            else:
                self.vec[_slot(path)] += float(x)
        else:  # str, bool, None
            self.vec[_slot(f"{path}={x}")] += 1.0


def observation_tensor(state: State, player: int) -> np.ndarray:
    """The fixed-shape float32 observation of ``player`` (shape ``(SIZE,)``)."""
    obs = state.observation(player)
    enc = _Encoder(state.num_players, player, SEAT_LISTS.get(state.game.slug, frozenset({"scores"})))
    enc.add("", obs, "")
    return enc.vec


def observation_shape(slug: str, num_players: int) -> tuple[int]:
    """The tensor shape of a game at a player count (the same for every game now)."""
    return (SIZE,)
