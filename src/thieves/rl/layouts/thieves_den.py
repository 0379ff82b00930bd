"""Thieves Den observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import numpy as np

from thieves.core.game import State

from ..hashing import dense, vector
from . import offsets

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


def encoder(state: State) -> tuple[int, Callable[[dict[str, Any], int], np.ndarray]]:
    """The tensor size and the function that fills it from an observation."""
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
    offs, size = offsets(td_layout(n, data))

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
        return dense(v, size)

    return size, encode


def fast_encoder(state: State) -> Callable[[State, int], np.ndarray]:
    """The tensor of :func:`encoder` written straight from the state (the others'
    hands, picks, schemes and kept cards only as the counts ``_observe`` shows)."""
    data = state.data
    n = state.num_players
    locs = {c: i for i, c in enumerate(data.locations)}
    fences = {c: i for i, c in enumerate(data.fences)}
    cards = {**locs, **{c: len(locs) + i for c, i in fences.items()}}
    tcol = {t: i for i, t in enumerate(data.board.treasures)}
    schemes = {c: i for i, c in enumerate(data.schemes)}
    powers = {c: i for i, c in enumerate(data.powers)}
    L, F, T, P = len(locs), len(fences), len(tcol), len(powers)
    per_seat = 1 + T + 1 + 1 + L + F + 4
    offs, size = offsets(td_layout(n, data))
    phase_col = {ph: i for i, ph in enumerate(TD_PHASES)}
    kind_col = {k: i for i, k in enumerate(TD_KINDS)}
    mode_col = {m: i for i, m in enumerate(TD_MODES)}
    o_phase, o_round, o_holder, o_face = offs["phase"], offs["round/3"], offs["holder"], offs["face_13"]
    o_clock, o_turn, o_to_act, o_terminal = offs["clockwise"], offs["turn"], offs["to_act"], offs["terminal"]
    o_seats, o_scheme, o_left, o_right = offs["seats"], offs["own_scheme"], offs["own_left"], offs["own_right"]
    o_hand, o_pick, o_neutral, o_loc_thieves = offs["hand"], offs["pick"], offs["neutral"], offs["loc_thieves"]
    o_fence_thieves, o_fence_treasures, o_row = offs["fence_thieves"], offs["fence_treasures"], offs["row"]
    o_fence_deck, o_loc_deck, o_tile, o_power_left = offs["fence_deck"], offs["loc_deck"], offs["power_tile"], \
        offs["power_left"]
    o_paid, o_witch, o_steal, o_recruit = offs["power_paid"], offs["witch_used"], offs["steal_slot"], \
        offs["recruit_slot"]
    o_city, o_forest, o_dplayer, o_dkind = offs["city"], offs["forest"], offs["decision_player"], \
        offs["decision_kind"]
    o_dmode, o_dleft = offs["decision_mode"], offs["decision_left"]

    def encode(s: Any, viewer: int) -> np.ndarray:
        v: dict[int, float] = {}

        def rel(q: int) -> int:
            return (q - viewer) % n

        ph = s.phase
        v[o_phase + phase_col[ph]] = 1.0
        v[o_round] = s.round / 3
        v[o_holder + rel(s.holder)] = 1.0
        v[o_face] = float(s.face == "13")
        v[o_clock] = float(s.direction == 1)
        turn = s.turn if ph == "thieving" else None
        v[o_turn + (n if turn is None else rel(turn))] = 1.0
        for q in s._players_to_act():
            v[o_to_act + rel(q)] = 1.0
        v[o_terminal] = float(s.is_terminal())
        for q in range(n):
            o = o_seats + per_seat * rel(q)
            v[o] = s.prestige[q]
            for t, k in s.treasures[q].items():
                v[o + 1 + tcol[t]] = k
            o += 1 + T
            v[o] = s.thieves[q]
            v[o + 1] = float(s.passed[q])
            o += 2
            for c in s.above[q]:
                v[o + locs[c]] = 1.0
            o += L
            for c in s.fences_above[q]:
                v[o + fences[c]] = 1.0
            o += F
            v[o], v[o + 1], v[o + 2] = len(s.left[q]), len(s.right[q]), len(s.hands[q])
            v[o + 3] = float(s.picks[q] is not None)
        scheme = s.scheme[viewer]                       # the viewer's own secrets only
        if scheme in schemes:
            v[o_scheme + schemes[scheme]] = 1.0
        for c in s.left[viewer]:
            v[o_left + cards[c]] = 1.0
        for c in s.right[viewer]:
            v[o_right + cards[c]] = 1.0
        for c in s.hands[viewer]:
            v[o_hand + locs[c]] = 1.0
        pick = s.picks[viewer]
        v[o_pick + (L if pick is None else locs[pick])] = 1.0
        for c in s.neutral:
            v[o_neutral + locs[c]] = 1.0
        for c, k in s.loc_thieves.items():
            v[o_loc_thieves + locs[c]] = k
        for c, k in s.fence_thieves.items():
            v[o_fence_thieves + fences[c]] = k
        for c, held in s.fence_treasures.items():
            for t, k in held.items():
                v[o_fence_treasures + T * fences[c] + tcol[t]] = k
        for c in s.row:
            if c is not None:
                v[o_row + fences[c]] = 1.0
        v[o_fence_deck] = len(s.fence_deck)
        v[o_loc_deck] = len(s.loc_deck)
        for i, st in enumerate(s.power_stacks):
            if st:
                v[o_tile + P * i + powers[st[-1]]] = 1.0
            v[o_power_left + i] = len(st)
            paid = s.power_paid[i]
            if paid in tcol:
                v[o_paid + T * i + tcol[paid]] = 1.0
        for i, used in enumerate(s.witch_used):
            v[o_witch + i] = float(used)
        v[o_steal] = s.steal_slot
        for t, k in s.recruit_slot.items():
            v[o_recruit + tcol[t]] = k
        for t, k in s.city.items():
            v[o_city + tcol[t]] = k
        v[o_forest] = s.forest
        if not s.pending:
            v[o_dplayer + n] = 1.0
        else:
            f = s.pending[0]
            v[o_dplayer + rel(f["p"])] = 1.0
            v[o_dkind + kind_col.get(f["k"], len(TD_KINDS))] = 1.0
            mode = f.get("mode")
            if mode is not None:
                v[o_dmode + mode_col.get(mode, len(TD_MODES))] = 1.0
            v[o_dleft] = f.get("n") or 0
        return vector(v, size)

    return encode
