"""Fixed-shape observation tensors built only from ``state.observation(p)``.

Every game has a layout (``tm_layout``, ``td_layout``, ``aot_layout``,
``tf_layout``, ``cw_layout``): named blocks of fixed width per player count,
seats turned relative to the viewer (seat 0 of a tensor is always the viewer, 1
the next player, ...). What varies in shape (plans, the move or fight in
progress...) goes into a small hashed "detail" block. A game without a layout
falls back on the generic encoder, feature hashing into :data:`SIZE` numbers:

* every leaf of the observation is named by its path (dict keys, and list
  positions for lists of non-strings; a list of strings such as a hand is a
  bag of its strings, unless it is a per-seat list);
* a number adds its value to the slot of its path; a string, ``None`` or a
  boolean adds 1 to the slot of ``path=value``;
* per-seat lists (``players``, ``gold``, ...) are rotated so that position 0
  is the viewer, and seat numbers (``to_act``, ``current``, ...) become
  relative seats;
* the text log is left out (its facts are in the rest of the observation);
* slots are chosen by CRC-32, stable across machines and Python runs; two
  features may share a slot.

Because they read nothing but ``observation(p)``, the tensors hide exactly what
the observation hides: ``determinize(p, seed)`` never changes them (tested).
The layouts are documented in docs/rl.md.
"""
from __future__ import annotations

import zlib
from collections import defaultdict
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
    vals = _accumulate(obs, n, viewer, seat_lists, paths)
    out = np.zeros(SIZE, dtype=np.float32)
    if vals:
        out[list(vals)] = list(vals.values())
    return out


def _accumulate(obs: dict[str, Any], n: int, viewer: int, seat_lists: frozenset[str],
                paths: _Paths) -> dict[int, float]:
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


def _dense(values: dict[int, float], size: int) -> np.ndarray:
    """A float32 vector of ``size`` from its non-zero entries."""
    out = np.zeros(size, dtype=np.float32)
    if values:
        out[list(values)] = list(values.values())
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
        ("buys_made", 1), ("buys_allowed", 1), ("paying_card", c), ("paying_remaining", 6), ("paying_free_left", 1),
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
        v: defaultdict[int, float] = defaultdict(float)

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
            rem = pay["remaining"]
            for f in (rem.split() if isinstance(rem, str) else rem):
                if f in TM_FACES:
                    v[offs["paying_remaining"] + TM_FACES.index(f)] += 1
            v[offs["paying_free_left"]] = pay.get("free_left") or 0
        return _dense(v, size)

    return size, encode


# -- Thieves Den: a fixed layout ----------------------------------------------------------------
TD_PHASES = ("draft", "thieving", "handover", "end")
TD_KINDS = ("after_reveal", "discard", "end_turn", "gain", "give", "pay", "payany", "paythieves",
            "prestige", "recall", "refill", "refresh", "relocate", "rob", "robthief", "sub", "swap",
            "take", "thieves", "unplace")
TD_MODES = ("normal", "cut", "extra", "take", "destroy")


def td_layout(num_players: int, data: Any) -> list[tuple[str, int]]:
    """(feature block, width) of the Thieves Den tensor, in order (docs/rl.md)."""
    n, L, F = num_players, len(data.locations), len(data.fences)
    T, S, P = len(data.board.treasures), len(data.schemes), len(data.powers)
    stacks = data.board.power_stacks
    per_seat = 1 + T + 1 + 1 + L + F + 4
    return [
        ("phase", len(TD_PHASES)), ("round/3", 1), ("holder", n), ("face_13", 1),
        ("clockwise", 1), ("turn", n + 1), ("to_act", n), ("terminal", 1),
        ("seats", per_seat * n), ("own_scheme", S), ("own_left", L + F), ("own_right", L + F),
        ("hand", L), ("pick", L + 1),
        ("neutral", L), ("loc_thieves", L), ("fence_thieves", F), ("fence_treasures", F * T),
        ("row", F), ("fence_deck", 1), ("loc_deck", 1),
        ("power_tile", stacks * P), ("power_left", stacks), ("power_paid", stacks * T),
        ("witch_used", T), ("steal_slot", 1), ("recruit_slot", T), ("city", T), ("forest", 1),
        ("decision_player", n + 1), ("decision_kind", len(TD_KINDS) + 1),
        ("decision_mode", len(TD_MODES) + 1), ("decision_left", 1),
    ]


def _td_encoder(state: State):
    data = state.data
    n = state.num_players
    locs = {c: i for i, c in enumerate(data.locations)}
    fences = {c: i for i, c in enumerate(data.fences)}
    cards = {**locs, **{c: len(locs) + i for c, i in fences.items()}}   # location or fence
    treasures = list(data.board.treasures)
    tcol = {t: i for i, t in enumerate(treasures)}
    schemes = {c: i for i, c in enumerate(data.schemes)}
    powers = {c: i for i, c in enumerate(data.powers)}
    L, F, T, P = len(locs), len(fences), len(treasures), len(powers)
    per_seat = 1 + T + 1 + 1 + L + F + 4
    offs: dict[str, int] = {}
    at = 0
    for name, width in td_layout(n, data):
        offs[name] = at
        at += width
    size = at

    def encode(obs: dict[str, Any], viewer: int) -> np.ndarray:
        v: defaultdict[int, float] = defaultdict(float)

        def rel(q: int) -> int:
            return (q - viewer) % n

        v[offs["phase"] + TD_PHASES.index(obs["phase"])] = 1.0
        v[offs["round/3"]] = obs["round"] / 3
        v[offs["holder"] + rel(obs["holder"])] = 1.0
        v[offs["face_13"]] = float(obs["face"] == "13")
        v[offs["clockwise"]] = float(obs["direction"] == "clockwise")
        turn = obs["turn"]
        v[offs["turn"] + (n if turn is None else rel(turn))] = 1.0
        for q in obs["to_act"]:
            v[offs["to_act"] + rel(q)] = 1.0
        v[offs["terminal"]] = float(obs["terminal"])
        for q, pl in enumerate(obs["players"]):
            o = offs["seats"] + per_seat * rel(q)
            v[o] = pl["prestige"]
            for t, k in pl["treasures"].items():
                v[o + 1 + tcol[t]] = k
            o += 1 + T
            v[o] = pl["thieves"]
            v[o + 1] = float(pl["passed"])
            o += 2
            for c in pl["above"]:
                v[o + locs[c]] = 1.0
            o += L
            for c in pl["fences_above"]:
                v[o + fences[c]] = 1.0
            o += F
            v[o], v[o + 1], v[o + 2] = pl["left_count"], pl["right_count"], pl["hand_count"]
            v[o + 3] = float(pl["has_picked"])
        me = obs["players"][viewer]
        if me.get("scheme") in schemes:
            v[offs["own_scheme"] + schemes[me["scheme"]]] = 1.0
        for c in me.get("left", ()):
            v[offs["own_left"] + cards[c]] = 1.0
        for c in me.get("right", ()):
            v[offs["own_right"] + cards[c]] = 1.0
        for c in obs.get("hand", ()):
            v[offs["hand"] + locs[c]] = 1.0
        pick = obs.get("pick")
        v[offs["pick"] + (L if pick is None else locs[pick])] = 1.0
        for c in obs["neutral"]:
            v[offs["neutral"] + locs[c]] = 1.0
        for c, k in obs["loc_thieves"].items():
            v[offs["loc_thieves"] + locs[c]] = k
        for c, k in obs["fence_thieves"].items():
            v[offs["fence_thieves"] + fences[c]] = k
        for c, held in obs["fence_treasures"].items():
            for t, k in held.items():
                v[offs["fence_treasures"] + T * fences[c] + tcol[t]] = k
        for c in obs["row"]:
            if c is not None:
                v[offs["row"] + fences[c]] = 1.0
        v[offs["fence_deck"]] = obs["fence_deck_count"]
        v[offs["loc_deck"]] = obs["loc_deck_count"]
        for i, pw in enumerate(obs["powers"]):
            if pw["tile"] is not None:
                v[offs["power_tile"] + P * i + powers[pw["tile"]]] = 1.0
            v[offs["power_left"] + i] = pw["left"]
            if pw["paid"] in tcol:
                v[offs["power_paid"] + T * i + tcol[pw["paid"]]] = 1.0
        for i, used in enumerate(obs["witch_used"]):
            v[offs["witch_used"] + i] = float(used)
        v[offs["steal_slot"]] = obs["steal_slot"]
        for t, k in obs["recruit_slot"].items():
            v[offs["recruit_slot"] + tcol[t]] = k
        for t, k in obs["city"].items():
            v[offs["city"] + tcol[t]] = k
        v[offs["forest"]] = obs["forest"]
        dec = obs["decision"]
        if dec is None:
            v[offs["decision_player"] + n] = 1.0
        else:
            v[offs["decision_player"] + rel(dec["player"])] = 1.0
            kind = dec["kind"]
            v[offs["decision_kind"] + (TD_KINDS.index(kind) if kind in TD_KINDS else len(TD_KINDS))] = 1.0
            mode = dec["mode"]
            if mode is not None:
                v[offs["decision_mode"] + (TD_MODES.index(mode) if mode in TD_MODES else len(TD_MODES))] = 1.0
            v[offs["decision_left"]] = dec["left"] or 0
        return _dense(v, size)

    return size, encode


# -- Cadwallon: a fixed layout plus a small hashed block ----------------------------------------
CW_PHASES = ("gang", "deploy", "militia", "militia_move", "main", "over")
CW_TOKENS = ("civilian", "zombie")
CW_DETAIL = 256          # hashed slots for the activation, fight and interrupt in progress


def cw_layout(num_players: int, data: Any) -> list[tuple[str, int]]:
    """(feature block, width) of the Cadwallon tensor, in order (docs/rl.md)."""
    n, Z = num_players, len(data.zone_ids)
    G, T = len(data.gang_ids), len(data.treasures.types)
    A, M, C = len(data.adventure), len(data.mission), len(data.card)
    per_seat = 1 + 1 + G + 1 + 1 + T + 1
    per_char = (Z + 1) + T + 4
    per_gang = max(len(c) for c in data.gang_chars.values())
    figures = len(data.militia_ids) + len(data.heroine)
    return [
        ("phase", len(CW_PHASES) + 1), ("adventure", A), ("round/10", 1), ("track/10", 1),
        ("first", n), ("current", n + 1), ("to_act", n), ("alarm", 1), ("terminal", 1),
        ("seats", per_seat * n), ("characters", per_char * per_gang * n), ("figures", (Z + 1) * figures),
        ("chest", Z), ("chest_sealed", Z), ("chest_treasure", Z * T), ("room_ducats", Z),
        ("portcullis", Z), ("tokens", Z * len(CW_TOKENS)),
        ("bank/100", 1), ("box_count", 1), ("hand", C), ("deck_count", 1), ("discard", C),
        ("missions", M), ("mission_deck_count", 1), ("militia_left", 1),
        ("militia_selected", len(data.militia_ids) + 1), ("militia_roll", 1),
        ("detail", CW_DETAIL),
    ]


def _cw_encoder(state: State):
    data = state.data
    n = state.num_players
    zones = {z: i for i, z in enumerate(data.zone_ids)}
    Z = len(zones)
    types = [t.id for t in data.treasures.types]
    T = len(types)
    gangs = {g: i for i, g in enumerate(data.gang_ids)}
    G = len(gangs)
    advs = {a: i for i, a in enumerate(data.adventure)}
    missions = {m: i for i, m in enumerate(data.mission)}
    cards = {c: i for i, c in enumerate(data.card)}
    militia = list(data.militia_ids)
    others = militia + list(data.heroine)
    per_seat = 1 + 1 + G + 1 + 1 + T + 1
    per_char = (Z + 1) + T + 4
    per_gang = max(len(c) for c in data.gang_chars.values())
    slot_of = {c: k for chars in data.gang_chars.values() for k, c in enumerate(chars)}
    offs: dict[str, int] = {}
    at = 0
    for name, width in cw_layout(n, data):
        offs[name] = at
        at += width
    size = at
    detail_paths = _Paths()
    detail_seats = frozenset()

    def ttype(token: str) -> int:
        base = token.rstrip("0123456789")
        return types.index(base) if base in types else -1

    def encode(obs: dict[str, Any], viewer: int) -> np.ndarray:
        v: defaultdict[int, float] = defaultdict(float)

        def rel(q: int) -> int:
            return (q - viewer) % n

        ph = obs["phase"]
        v[offs["phase"] + (CW_PHASES.index(ph) if ph in CW_PHASES else len(CW_PHASES))] = 1.0
        if obs["adventure"] in advs:
            v[offs["adventure"] + advs[obs["adventure"]]] = 1.0
        v[offs["round/10"]] = obs["round"] / 10
        v[offs["track/10"]] = (obs["track"] or 0) / 10
        if obs["first"] is not None:
            v[offs["first"] + rel(obs["first"])] = 1.0
        cur = obs["current"]
        v[offs["current"] + (n if cur is None else rel(cur))] = 1.0
        for q in obs["to_act"]:
            v[offs["to_act"] + rel(q)] = 1.0
        v[offs["alarm"]] = float(obs["alarm"])
        v[offs["terminal"]] = float(obs["terminal"])
        gang_seat: dict[str, int] = {}
        for q in range(n):
            r = rel(q)
            o = offs["seats"] + per_seat * r
            v[o], v[o + 1] = obs["ap"][q], obs["ducats"][q]
            g = obs["gangs"][q]
            if g in gangs:
                v[o + 2 + gangs[g]] = 1.0
                gang_seat[g] = r
            o += 2 + G
            v[o], v[o + 1] = obs["hand_counts"][q], obs["scores"][q]
            for tok in obs["banked"][q]:
                k = ttype(tok)
                if k >= 0:
                    v[o + 2 + k] += 1.0
            v[o + 2 + T] = len(obs["to_deploy"][q])
        escaped, activated = set(obs["escaped"]), set(obs["activated"])
        pos, carried, injured = obs["positions"], obs["carried"], obs["injured"]
        for ch in data.char:
            g = data.gang_of[ch]
            if g not in gang_seat:
                continue
            o = offs["characters"] + per_char * (per_gang * gang_seat[g] + slot_of[ch])
            z = pos.get(ch)
            v[o + (zones[z] if z in zones else Z)] = 1.0
            o += Z + 1
            for tok in carried.get(ch, ()):
                k = ttype(tok)
                if k >= 0:
                    v[o + k] += 1.0
            o += T
            v[o] = injured.get(ch, 0)
            v[o + 1] = float(ch in activated)
            v[o + 2] = float(ch == obs["active"])
            v[o + 3] = float(ch in escaped)
        for i, fig in enumerate(others):
            z = pos.get(fig)
            v[offs["figures"] + (Z + 1) * i + (zones[z] if z in zones else Z)] = 1.0
        for z, chest in obs["chests"].items():
            i = zones[z]
            v[offs["chest"] + i] = 1.0
            v[offs["chest_sealed"] + i] = float(chest.get("sealed", False))
            k = ttype(chest.get("t") or "")
            if k >= 0:
                v[offs["chest_treasure"] + T * i + k] = 1.0
        for z, k in obs["room_ducats"].items():
            v[offs["room_ducats"] + zones[z]] = k
        for z in obs["portcullis"]:
            if z in zones:
                v[offs["portcullis"] + zones[z]] = 1.0
        for z, kind in obs["tokens"].items():
            if z in zones and kind in CW_TOKENS:
                v[offs["tokens"] + len(CW_TOKENS) * zones[z] + CW_TOKENS.index(kind)] = 1.0
        v[offs["bank/100"]] = obs["bank"] / 100
        v[offs["box_count"]] = obs["box_count"]
        for c in obs["hand"] or ():
            v[offs["hand"] + cards[c]] += 1.0
        v[offs["deck_count"]] = obs["deck_count"]
        for c in obs["discard"]:
            if c in cards:
                v[offs["discard"] + cards[c]] += 1.0
        for m in obs["missions"]:
            if m in missions:
                v[offs["missions"] + missions[m]] = 1.0
        v[offs["mission_deck_count"]] = obs["mission_deck_count"]
        v[offs["militia_left"]] = obs["militia_left"]
        sel = obs["militia_selected"]
        v[offs["militia_selected"] + (militia.index(sel) if sel in militia else len(militia))] = 1.0
        v[offs["militia_roll"]] = obs["militia_roll"] or 0
        # the activation, fight and interrupt in progress: hashed, seats relative
        detail = {k: obs[k] for k in ("act", "combat", "pending", "deploy_selected", "handed_in")}
        o = offs["detail"]
        for i, x in _accumulate(detail, n, viewer, detail_seats, detail_paths).items():
            v[o + i % CW_DETAIL] += x
        return _dense(v, size)

    return size, encode


# -- Age of Thieves: a fixed layout plus a small hashed block -------------------------------------
AOT_PHASES = ("draw", "plan", "exec", "cleanup", "over")
AOT_GEMS = ("yellow", "green", "emperor")
AOT_DETAIL = 256         # hashed: event, escape district, the decision and plans in progress
_AOT_FLAGS = ("emperor", "best", "dungeon", "hidden", "theft_marker", "hidden_all_round", "robbed",
              "protected", "immobile", "planning_done")


def aot_layout(num_players: int, data: Any) -> list[tuple[str, int]]:
    """(feature block, width) of the Age of Thieves tensor, in order (docs/rl.md)."""
    n, S = num_players, len(data.board.spaces)
    K = len(data.cards.general) + 3          # general cards, move, ambush, other
    TK = len(data.tokens.city_tokens)
    per_seat = (len(data.thief_ids) + (S + 1) + 3 + len(_AOT_FLAGS) + TK + 1
                + (len(data.exits) + 1) + 4)
    return [
        ("phase", len(AOT_PHASES) + 1), ("round/10", 1), ("start_player", n), ("alarm", 1),
        ("guard_initiative", 1), ("watch_acted", 1), ("events_left", 2), ("action_deck", 1),
        ("to_act", n), ("terminal", 1), ("winners", n), ("discard", K),
        ("guards", S), ("captains", S), ("gems", S * len(AOT_GEMS)), ("face_down_token", S),
        ("features", S * TK), ("smoke", S), ("fire", S), ("supply", 3),
        ("seats", per_seat * n), ("hand", K), ("violet_next", 1), ("ap_free", 1),
        ("tokens_free", TK), ("detail", AOT_DETAIL),
    ]


def _aot_encoder(state: State):
    data = state.data
    n = state.num_players
    spaces = {sp.id: i for i, sp in enumerate(data.board.spaces)}
    S = len(spaces)
    kinds = [c.id for c in data.cards.general] + ["move", "ambush"]
    kcol = {k: i for i, k in enumerate(kinds)}
    K = len(kinds) + 1
    toks = {t.id: i for i, t in enumerate(data.tokens.city_tokens)}
    TK = len(toks)
    thief_ids = {t: i for i, t in enumerate(data.thief_ids)}
    exits = {e: i for i, e in enumerate(data.exits)}
    per_seat = len(thief_ids) + (S + 1) + 3 + len(_AOT_FLAGS) + TK + 1 + (len(exits) + 1) + 4
    offs: dict[str, int] = {}
    at = 0
    for name, width in aot_layout(n, data):
        offs[name] = at
        at += width
    size = at
    detail_paths = _Paths()
    detail_seats = frozenset({"plans"})

    def encode(obs: dict[str, Any], viewer: int) -> np.ndarray:
        v: defaultdict[int, float] = defaultdict(float)

        def rel(q: int) -> int:
            return (q - viewer) % n

        ph = obs["phase"]
        v[offs["phase"] + (AOT_PHASES.index(ph) if ph in AOT_PHASES else len(AOT_PHASES))] = 1.0
        v[offs["round/10"]] = obs["round"] / 10
        if obs["start_player"] is not None:
            v[offs["start_player"] + rel(obs["start_player"])] = 1.0
        v[offs["alarm"]] = float(obs["alarm"])
        v[offs["guard_initiative"]] = obs["guard_initiative"] or 0
        v[offs["watch_acted"]] = float(obs["watch_acted"])
        v[offs["events_left"]] = obs["calm_events_left"]
        v[offs["events_left"] + 1] = obs["alarm_events_left"]
        v[offs["action_deck"]] = obs["action_deck"]
        for q in obs["to_act"]:
            v[offs["to_act"] + rel(q)] = 1.0
        v[offs["terminal"]] = float(obs["terminal"])
        for q in obs["winners"]:
            v[offs["winners"] + rel(q)] = 1.0
        for c in obs["discard"]:
            v[offs["discard"] + kcol.get(c, K - 1)] += 1.0
        for g, sp in obs["guards"].items():
            if sp in spaces:
                v[offs["captains" if g[0] == "c" else "guards"] + spaces[sp]] += 1.0
        for sp, gems in obs["gems"].items():
            for gem in gems:
                if gem in AOT_GEMS:
                    v[offs["gems"] + len(AOT_GEMS) * spaces[sp] + AOT_GEMS.index(gem)] += 1.0
        for sp in obs["face_down_tokens"]:
            v[offs["face_down_token"] + spaces[sp]] = 1.0
        for sp, kind in obs["features"].items():
            if kind in toks:
                v[offs["features"] + TK * spaces[sp] + toks[kind]] = 1.0
        for sp in obs["smoke"]:
            v[offs["smoke"] + spaces[sp]] = 1.0
        for sp in obs["fire"]:
            v[offs["fire"] + spaces[sp]] = 1.0
        sup = obs["supply"]
        o = offs["supply"]
        v[o], v[o + 1], v[o + 2] = sup["yellow"], sup["guards"], sup["captains"]
        plans = []
        for q, t in enumerate(obs["thieves"]):
            o = offs["seats"] + per_seat * rel(q)
            if t["thief"] in thief_ids:
                v[o + thief_ids[t["thief"]]] = 1.0
            o += len(thief_ids)
            v[o + spaces.get(t["pos"], S)] = 1.0
            o += S + 1
            v[o], v[o + 1], v[o + 2] = t["yellow"], t["green"], t["vp"]
            o += 3
            for k, flag in enumerate(_AOT_FLAGS):
                v[o + k] = float(bool(t[flag]))
            o += len(_AOT_FLAGS)
            for tok in t["sheet"]:
                if tok in toks:
                    v[o + toks[tok]] += 1.0
            o += TK
            v[o] = t["hand_count"]
            o += 1
            v[o + exits.get(t["left"], len(exits))] = 1.0
            o += len(exits) + 1
            ap = t.get("ap")
            if ap is not None:                     # hidden during the others' planning
                v[o], v[o + 1], v[o + 2], v[o + 3] = ap["blue"], ap["red"], ap["violet"], 1.0
            plans.append(t["plan"])
        me = obs["thieves"][viewer]
        for c in me.get("hand", ()):
            v[offs["hand"] + kcol.get(c, K - 1)] += 1.0
        v[offs["violet_next"]] = me.get("ap", {}).get("violet_next", 0)
        v[offs["ap_free"]] = me.get("ap_free", 0)
        for tok in me.get("tokens_free", ()):
            if tok in toks:
                v[offs["tokens_free"] + toks[tok]] += 1.0
        detail = {"plans": plans, "building": me.get("building"), "deciding": obs["deciding"],
                  "event": obs["event"], "escape_district": obs["escape_district"],
                  "result": obs["result"]}
        o = offs["detail"]
        for i, x in _accumulate(detail, n, viewer, detail_seats, detail_paths).items():
            v[o + i % AOT_DETAIL] += x
        return _dense(v, size)

    return size, encode


# -- Thiefdom: a fixed layout plus a hashed block ---------------------------------------------------
TD_GOODS = ("gold", "gem", "brandy", "wine", "badge")
TF_PHASES = ("draft", "buy", "hideout", "plan", "action", "over")
TF_DETAIL = 512          # hashed: plans, the turn and move in progress, draft, allies, missions...
TF_FIGURES = ("gA", "gB", "gC", "gD", "nA", "nB", "nC", "nD", "car")


def tf_layout(num_players: int, data: Any) -> list[tuple[str, int]]:
    """(feature block, width) of the Thiefdom tensor, in order (docs/rl.md)."""
    n = num_players
    cells = _tf_cells(data)
    sections = len({s.section for s in data.sections.values()})
    E, CL = len(data.equipment), len(data.clients)
    thief = (cells + 2) + len(TD_GOODS) + 1 + E + 2
    return [
        ("phase", len(TF_PHASES) + 1), ("round/6", 1), ("first", n), ("order", n * n),
        ("to_act", n), ("terminal", 1), ("vp", n), ("layout", sections * (sections + 2 + 4)),
        ("hideout", n * (cells + 1)), ("thieves", n * 3 * thief),
        ("stash", n * (len(TD_GOODS) + 1)), ("stamina", n), ("missions_done", n),
        ("figures", len(TF_FIGURES) * (cells + 1 + 4)), ("badges", 4), ("purses", 4),
        ("dungeon", len(TD_GOODS) + 1), ("display", E), ("decks", 3), ("client_discard", CL),
        ("detail", TF_DETAIL),
    ]


def _tf_cells(data: Any) -> int:
    sections = len({s.section for s in data.sections.values()})
    return (2 * 7) * ((sections // 2) * 7)       # the assembled city: 2 rows of sections of 7 x 7


def _tf_encoder(state: State):
    data = state.data
    n = state.num_players
    cells = _tf_cells(data)
    sections = len({s.section for s in data.sections.values()})
    equip = {e: i for i, e in enumerate(data.equipment)}
    E = len(equip)
    clients = {c: i for i, c in enumerate(data.clients)}
    thief = (cells + 2) + len(TD_GOODS) + 1 + E + 2
    offs: dict[str, int] = {}
    at = 0
    for name, width in tf_layout(n, data):
        offs[name] = at
        at += width
    size = at
    detail_paths = _Paths()
    detail_seats = frozenset({"plans", "missions_done", "thieves"})

    def encode(obs: dict[str, Any], viewer: int) -> np.ndarray:
        v: defaultdict[int, float] = defaultdict(float)

        def rel(q: int) -> int:
            return (q - viewer) % n

        bcells = obs["bcells"]

        def cell_of(pos: Any) -> int:
            """A square index, a building's first square, or -1."""
            if type(pos) is int:
                return pos if 0 <= pos < cells else -1
            got = bcells.get(pos) if isinstance(pos, str) else None
            return got[0] if got else -1

        ph = obs["phase"]
        v[offs["phase"] + (TF_PHASES.index(ph) if ph in TF_PHASES else len(TF_PHASES))] = 1.0
        v[offs["round/6"]] = obs["round"] / 6
        if obs["first"] is not None:
            v[offs["first"] + rel(obs["first"])] = 1.0
        for k, q in enumerate(obs["order"]):
            if k < n:
                v[offs["order"] + n * k + rel(q)] = 1.0
        for q in obs["to_act"]:
            v[offs["to_act"] + rel(q)] = 1.0
        v[offs["terminal"]] = float(obs["terminal"])
        for q in range(n):
            v[offs["vp"] + rel(q)] = obs["vp"][q]
        for k, entry in enumerate(obs["city"]["layout"][:sections]):
            sec, face, rot = entry
            o = offs["layout"] + (sections + 6) * k
            v[o + (int(sec) - 1) % sections] = 1.0
            v[o + sections + (face == "B")] = 1.0
            v[o + sections + 2 + int(rot) % 4] = 1.0
        for q, h in enumerate(obs["hideouts"]):
            c = cell_of(h)
            v[offs["hideout"] + (cells + 1) * rel(q) + (c if c >= 0 else cells)] = 1.0
        for q, ts in enumerate(obs["thieves"]):
            for t, th in enumerate(ts[:3]):
                o = offs["thieves"] + thief * (3 * rel(q) + t)
                pos = th["pos"]
                c = cell_of(pos)
                v[o + (c if c >= 0 else cells)] = 1.0
                v[o + cells + 1] = float(isinstance(pos, str))          # inside a building
                o += cells + 2
                inv = th["inv"]
                for k, gd in enumerate(TD_GOODS):
                    v[o + k] = inv.get(gd, 0)
                v[o + len(TD_GOODS)] = len(inv.get("art", ()))
                o += len(TD_GOODS) + 1
                for e in th["equip"]:
                    e = e.split(".")[0]
                    if e in equip:
                        v[o + equip[e]] += 1.0
                o += E
                v[o], v[o + 1] = float(th["brawl"]), float(th["wanted"])
        for q, st in enumerate(obs["stash"]):
            o = offs["stash"] + (len(TD_GOODS) + 1) * rel(q)
            for k, gd in enumerate(TD_GOODS):
                v[o + k] = st.get(gd, 0)
            v[o + len(TD_GOODS)] = len(st.get("art", ()))
        for q, x in enumerate(obs["stamina"]):
            v[offs["stamina"] + rel(q)] = float(bool(x))
        for q, done in enumerate(obs["missions_done"]):
            v[offs["missions_done"] + rel(q)] = len(done)
        for i, fig in enumerate(TF_FIGURES):
            f = obs["townsfolk"].get(fig)
            o = offs["figures"] + (cells + 5) * i
            c = cell_of(f["cell"]) if f else -1
            v[o + (c if c >= 0 else cells)] = 1.0
            if f and f.get("face") is not None:
                v[o + cells + 1 + int(f["face"]) % 4] = 1.0
        for i, fig in enumerate(TF_FIGURES[:4]):
            v[offs["badges"] + i] = obs["badges"].get(fig, 0) or 0
            v[offs["purses"] + i] = float(bool(obs["purses"].get(TF_FIGURES[4 + i])))
        dg = obs["dungeon"] or {}
        for k, gd in enumerate(TD_GOODS):
            v[offs["dungeon"] + k] = dg.get(gd, 0)
        v[offs["dungeon"] + len(TD_GOODS)] = len(dg.get("art", ()))
        for e in obs["display"]:
            e = e.split(".")[0]
            if e in equip:
                v[offs["display"] + equip[e]] += 1.0
        v[offs["decks"]] = obs["equip_deck"]
        v[offs["decks"] + 1] = obs["client_deck"]
        v[offs["decks"] + 2] = obs["missions_left"]
        for c in obs["client_discard"]:
            if c in clients:
                v[offs["client_discard"] + clients[c]] += 1.0
        detail = {k: obs.get(k) for k in ("plans", "draft", "turn", "tmove", "solo", "final",
                                          "villas", "smugglers", "stacks", "revealed", "patrol",
                                          "missions_done", "hand", "allies")}
        detail["thieves"] = [[{k: th.get(k) for k in ("ally", "used", "robbed", "blind", "brawled")}
                              for th in ts] for ts in obs["thieves"]]
        o = offs["detail"]
        for i, x in _accumulate(detail, n, viewer, detail_seats, detail_paths).items():
            v[o + i % TF_DETAIL] += x
        return _dense(v, size)

    return size, encode


#: game slug -> builder of (size, encode(obs, viewer)) for a state's game and player count
ENCODERS = {"thiefdom": _tf_encoder, "thiefs-market": _tm_encoder, "thieves-den": _td_encoder, "cadwallon": _cw_encoder,
            "age-of-thieves": _aot_encoder}
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
