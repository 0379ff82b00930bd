"""Age of Thieves observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import numpy as np

from thieves.core.game import State

from ..hashing import Paths, accumulate, dense
from . import offsets

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


def encoder(state: State) -> tuple[int, Callable[[dict[str, Any], int], np.ndarray]]:
    """The tensor size and the function that fills it from an observation."""
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
    offs, size = offsets(aot_layout(n, data))
    detail_paths = Paths()
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
        for i, x in accumulate(detail, n, viewer, detail_seats, detail_paths).items():
            v[o + i % AOT_DETAIL] += x
        return dense(v, size)

    return size, encode
