"""Cadwallon observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import numpy as np

from thieves.core.game import State

from ..hashing import Paths, accumulate, dense
from . import offsets

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


def encoder(state: State) -> tuple[int, Callable[[dict[str, Any], int], np.ndarray]]:
    """The tensor size and the function that fills it from an observation."""
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
    offs, size = offsets(cw_layout(n, data))
    detail_paths = Paths()
    detail_seats: frozenset[str] = frozenset()

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
        for i, x in accumulate(detail, n, viewer, detail_seats, detail_paths).items():
            v[o + i % CW_DETAIL] += x
        return dense(v, size)

    return size, encode
