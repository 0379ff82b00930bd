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


class _Paths:
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


_PATHS: dict[str, _Paths] = {}


def _encode(obs: dict[str, Any], n: int, viewer: int, seat_lists: frozenset[str],
            paths: _Paths) -> np.ndarray:
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
            if key in seat_lists and len(x) == n:
                x = x[viewer:] + x[:viewer]
            if key in SEAT_VALUES:
                x = [seat(v) for v in x]
            if x and type(x[0]) is str and all(type(v) is str for v in x):
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
    out = np.zeros(SIZE, dtype=np.float32)
    if vals:
        out[list(vals)] = list(vals.values())
    return out


def observation_tensor(state: State, player: int) -> np.ndarray:
    """The fixed-shape float32 observation of ``player`` (shape ``(SIZE,)``).

    It reads ``state.observation(player)`` without its text log (the engine's
    ``_observe`` plus the same public fields the contract adds), which is what
    the tensor uses.
    """
    if not state._is_player(player):
        raise ValueError(f"there is no player {player!r}")
    obs = state._observe(player)
    obs["num_players"] = state.num_players
    obs["ply"] = state.ply
    obs["to_act"] = state._players_to_act()
    obs["terminal"] = state.is_terminal()
    slug = state.game.slug
    paths = _PATHS.get(slug)
    if paths is None:
        paths = _PATHS[slug] = _Paths()
    return _encode(obs, state.num_players, player, SEAT_LISTS.get(slug, frozenset({"scores"})), paths)


def observation_shape(slug: str, num_players: int) -> tuple[int]:
    """The tensor shape of a game at a player count (the same for every game now)."""
    return (SIZE,)
