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
    out = np.zeros(SIZE, dtype=np.float32)
    if vals:
        out[list(vals)] = list(vals.values())
    return out


# -- Thief's Market: a fixed layout ---------------------------------------------------------
TM_PHASES = ("split", "lucky", "buy", "over")
TM_STEPS = ("", "take", "return", "pay")
TM_FACES = "RWBGYP"
TM_ROWS = "ABC"


def tm_layout(num_players: int, card_ids: list[str]) -> list[tuple[str, int]]:
    """(feature block, width) of the Thief's Market tensor, in order (docs/rl.md)."""
    n, c = num_players, len(card_ids)
    return [
        ("phase", len(TM_PHASES)), ("step", len(TM_STEPS)), ("round/10", 1),
        ("current", n), ("start_player", n), ("token", n + 1), ("victim", n + 1),
        ("to_act", n), ("terminal", 1),
        ("center", 6), ("returning", 6), ("piles", 6 * n), ("has_pile", n), ("objects", n),
        ("dice_in_play", 1), ("gold", n), ("own_infamy", 1), ("henchmen", n),
        ("tableau", c * n), ("market", c), ("market_row", 3 * 5), ("deck_sizes", 3),
        ("active_row", 3), ("discarded", c), ("box_count", 1), ("used", c),
        ("buys_made", 1), ("buys_allowed", 1), ("paying_card", c), ("paying_remaining", 6),
    ]


def _tm_encoder(state: State):
    ids = list(state.data.ids)
    col = {cid: i for i, cid in enumerate(ids)}
    n = state.num_players
    offs: dict[str, int] = {}
    at = 0
    for name, width in tm_layout(n, ids):
        offs[name] = at
        at += width
    size = at

    def encode(obs: dict[str, Any], viewer: int) -> np.ndarray:
        v = [0.0] * size

        def rel(q: int) -> int:
            return (q - viewer) % n

        v[offs["phase"] + TM_PHASES.index(obs["phase"])] = 1
        v[offs["step"] + TM_STEPS.index(obs["step"])] = 1
        v[offs["round/10"]] = obs["round"] / 10
        v[offs["current"] + rel(obs["current"])] = 1
        v[offs["start_player"] + rel(obs["start_player"])] = 1
        tok = obs["token"]
        v[offs["token"] + (n if tok < 0 else rel(tok))] = 1
        vic = obs["victim"]
        v[offs["victim"] + (n if vic < 0 else rel(vic))] = 1
        for q in obs["to_act"]:
            v[offs["to_act"] + rel(q)] = 1
        v[offs["terminal"]] = float(obs["terminal"])
        o = offs["center"]
        for k, f in enumerate(TM_FACES):
            v[o + k] = obs["center"][f]
        o = offs["returning"]
        for k, f in enumerate(TM_FACES):
            v[o + k] = obs["returning"][f]
        for q in range(n):
            r = rel(q)
            pile = obs["piles"][q]
            o = offs["piles"] + 6 * r
            for k, f in enumerate(TM_FACES):
                v[o + k] = pile[f]
            v[offs["has_pile"] + r] = float(obs["has_pile"][q])
            v[offs["objects"] + r] = obs["objects"][q]
            v[offs["gold"] + r] = obs["gold"][q]
            v[offs["henchmen"] + r] = obs["henchmen"][q]
            o = offs["tableau"] + len(ids) * r
            for cid in obs["tableau"][q]:
                v[o + col[cid]] = 1
        v[offs["dice_in_play"]] = obs["dice_in_play"]
        v[offs["own_infamy"]] = obs["infamy"][viewer] or 0
        for ri, row in enumerate(TM_ROWS):
            for k, cid in enumerate(obs["market"][row][:5]):
                v[offs["market"] + col[cid]] = 1
                v[offs["market_row"] + 5 * ri + k] = 1
            v[offs["deck_sizes"] + ri] = obs["deck_sizes"][row]
        v[offs["active_row"] + TM_ROWS.index(obs["active_row"])] = 1
        for cid in obs["discarded"]:
            v[offs["discarded"] + col[cid]] += 1
        v[offs["box_count"]] = obs["box_count"]
        for cid in obs["used"]:
            v[offs["used"] + col[cid]] = 1
        v[offs["buys_made"]] = obs["buys_made"]
        v[offs["buys_allowed"]] = obs["buys_allowed"]
        pay = obs["paying"]
        if pay is not None:
            v[offs["paying_card"] + col[pay["card"]]] = 1
            for f in pay["remaining"].split():
                if f in TM_FACES:
                    v[offs["paying_remaining"] + TM_FACES.index(f)] += 1
        return np.array(v, dtype=np.float32)

    return size, encode


#: game slug -> builder of (size, encode(obs, viewer)) for a state's game and player count
ENCODERS = {"thiefs-market": _tm_encoder}
_built: dict[tuple[str, int, Any], tuple[int, Any]] = {}


def _encoder_of(state: State) -> tuple[int, Any] | None:
    slug = state.game.slug
    if slug not in ENCODERS:
        return None
    key = (slug, state.num_players, state.options.get("data_dir"))
    got = _built.get(key)
    if got is None:
        got = _built[key] = ENCODERS[slug](state)
    return got


def observation_tensor(state: State, player: int) -> np.ndarray:
    """The fixed-shape float32 observation of ``player`` (see :func:`observation_shape`).

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
    special = _encoder_of(state)
    if special is not None:
        return special[1](obs, player)
    slug = state.game.slug
    paths = _PATHS.get(slug)
    if paths is None:
        paths = _PATHS[slug] = _Paths()
    return _encode(obs, state.num_players, player, SEAT_LISTS.get(slug, frozenset({"scores"})), paths)


def observation_shape(slug: str, num_players: int, data_dir: str | None = None) -> tuple[int]:
    """The tensor shape of a game at a player count."""
    if slug in ENCODERS:
        import thieves
        st = thieves.load_game(slug).new_game(num_players, 0, {"data_dir": data_dir} if data_dir else None)
        return (_encoder_of(st)[0],)
    return (SIZE,)
