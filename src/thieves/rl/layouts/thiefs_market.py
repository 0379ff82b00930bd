"""Thief's Market observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import numpy as np

from thieves.core.game import State

from ..hashing import dense
from . import offsets

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


def encoder(state: State) -> tuple[int, Callable[[dict[str, Any], int], np.ndarray]]:
    """The tensor size and the function that fills it from an observation."""
    ids = list(state.data.ids)
    col = {cid: i for i, cid in enumerate(ids)}
    n = state.num_players
    offs, size = offsets(tm_layout(n, ids))

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
        return dense(v, size)

    return size, encode
