"""Cadwallon observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

import marshal
from collections import defaultdict
from typing import Any, Callable

import numpy as np

from thieves.core.game import State

from ..hashing import Blocks, FoldedDetail, Paths, accumulate, dense, vector
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


def _tables(data: Any) -> tuple[dict[str, int], int, list[str], int, dict[str, int], int, dict[str, int],
                                 dict[str, int], dict[str, int], list[str], list[str], int, int, int,
                                 dict[str, int]]:
    """What both encoders index by: zones, treasure kinds, gangs, adventures, missions
    and cards by column, the militia and the other figures, the widths of a seat, a
    character and a gang, and each character's slot in its gang."""
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
    return (zones, Z, types, T, gangs, G, advs, missions, cards, militia, others, per_seat, per_char,
            per_gang, slot_of)


def encoder(state: State) -> tuple[int, Callable[[dict[str, Any], int], np.ndarray]]:
    """The tensor size and the function that fills it from an observation."""
    data = state.data
    n = state.num_players
    (zones, Z, types, T, gangs, G, advs, missions, cards, militia, others, per_seat, per_char, per_gang,
     slot_of) = _tables(data)
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


def fast_encoder(state: State) -> Callable[[State, int], np.ndarray]:
    """The tensor of :func:`encoder` written straight from the state (the fields the
    layout reads; of the hands only the viewer's own and the others' sizes, as
    ``_observe`` shows them)."""
    data = state.data
    n = state.num_players
    (zones, Z, types, T, gangs, G, advs, missions, cards, militia, others, per_seat, per_char, per_gang,
     slot_of) = _tables(data)
    militia_col = {m: i for i, m in enumerate(militia)}
    chars_of = {g: [(ch, slot_of[ch]) for ch in data.char if data.gang_of[ch] == g] for g in data.gang_ids}
    offs, size = offsets(cw_layout(n, data))
    detail = FoldedDetail(n, frozenset(), CW_DETAIL)
    phase_col = {ph: i for i, ph in enumerate(CW_PHASES)}
    token_col = {k: i for i, k in enumerate(CW_TOKENS)}
    o_phase, o_adv, o_round, o_track = offs["phase"], offs["adventure"], offs["round/10"], offs["track/10"]
    o_first, o_current, o_to_act, o_alarm = offs["first"], offs["current"], offs["to_act"], offs["alarm"]
    o_terminal, o_seats, o_chars, o_figures = offs["terminal"], offs["seats"], offs["characters"], offs["figures"]
    o_chest, o_sealed, o_chest_t, o_room = offs["chest"], offs["chest_sealed"], offs["chest_treasure"], \
        offs["room_ducats"]
    o_port, o_tokens, o_bank, o_box, o_hand = offs["portcullis"], offs["tokens"], offs["bank/100"], \
        offs["box_count"], offs["hand"]
    o_deck, o_discard, o_missions, o_mdeck = offs["deck_count"], offs["discard"], offs["missions"], \
        offs["mission_deck_count"]
    o_mleft, o_msel, o_mroll, o_detail = offs["militia_left"], offs["militia_selected"], offs["militia_roll"], \
        offs["detail"]
    ttypes: dict[str, int] = {}
    blocks = Blocks()
    board_width = o_bank - o_chest                      # chests, room ducats, portcullis, tokens

    def ttype(token: str) -> int:
        try:
            return ttypes[token]
        except KeyError:
            base = token.rstrip("0123456789")
            got = ttypes[token] = types.index(base) if base in types else -1
            return got

    def encode(s: Any, viewer: int) -> np.ndarray:
        v: dict[int, float] = {}
        get = v.get

        def rel(q: int) -> int:
            return (q - viewer) % n

        v[o_phase + phase_col.get(s.phase, len(CW_PHASES))] = 1.0
        if s.adventure in advs:
            v[o_adv + advs[s.adventure]] = 1.0
        v[o_round] = s.round / 10
        v[o_track] = (s.adv.track or 0) / 10
        if s.first is not None:
            v[o_first + rel(s.first)] = 1.0
        cur = s.current
        v[o_current + (n if cur is None else rel(cur))] = 1.0
        for q in s._players_to_act():
            v[o_to_act + rel(q)] = 1.0
        v[o_alarm] = float(s.alarm)
        v[o_terminal] = float(s.is_terminal())
        scores = s._scores()
        gang_seat: dict[str, int] = {}
        for q in range(n):
            r = rel(q)
            o = o_seats + per_seat * r
            v[o], v[o + 1] = s.ap[q], s.ducats[q]
            g = s.gangs[q]
            if g in gangs:
                v[o + 2 + gangs[g]] = 1.0
                gang_seat[g] = r
            o += 2 + G
            v[o], v[o + 1] = len(s.hands[q]), scores[q]
            for tok in s.banked[q]:
                k = ttype(tok)
                if k >= 0:
                    v[o + 2 + k] = get(o + 2 + k, 0.0) + 1.0
            v[o + 2 + T] = len(s.to_deploy[q])
        escaped, activated, active = set(s.escaped), set(s.activated), s.active
        pos, carried, injured = s.pos, s.carried, s.injured
        zone_col = zones.get
        for g, r in gang_seat.items():
            for ch, slot in chars_of[g]:
                o = o_chars + per_char * (per_gang * r + slot)
                v[o + zone_col(pos.get(ch), Z)] = 1.0
                o += Z + 1
                held = carried.get(ch)
                if held:
                    for tok in held:
                        k = ttype(tok)
                        if k >= 0:
                            v[o + k] = get(o + k, 0.0) + 1.0
                o += T
                x = injured.get(ch, 0)
                if x:
                    v[o] = x
                if ch in activated:
                    v[o + 1] = 1.0
                if ch == active:
                    v[o + 2] = 1.0
                if ch in escaped:
                    v[o + 3] = 1.0
        for i, fig in enumerate(others):
            z = pos.get(fig)
            v[o_figures + (Z + 1) * i + (zones[z] if z in zones else Z)] = 1.0
        chests, room_ducats, portcullis, tokens = s.chests, s.room_ducats, s.portcullis, s.tokens

        def fill_board(b: dict[int, float]) -> None:
            for z, chest in chests.items():
                i = zones[z]
                b[i] = 1.0
                b[o_sealed - o_chest + i] = float(chest.get("sealed", False))
                k = ttype(chest.get("t") or "")
                if k >= 0:
                    b[o_chest_t - o_chest + T * i + k] = 1.0
            for z, k in room_ducats.items():
                b[o_room - o_chest + zones[z]] = k
            for z in portcullis:
                if z in zones:
                    b[o_port - o_chest + zones[z]] = 1.0
            for z, kind in tokens.items():
                if z in zones and kind in token_col:
                    b[o_tokens - o_chest + 2 * zones[z] + token_col[kind]] = 1.0

        board = blocks.get(marshal.dumps((chests, room_ducats, portcullis, tokens)), board_width, fill_board)
        v[o_bank] = s.bank / 100
        v[o_box] = len(s.box)
        for c in s.hands[viewer]:                   # the viewer's own hand only
            i = o_hand + cards[c]
            v[i] = get(i, 0.0) + 1.0
        v[o_deck] = len(s.deck)
        for c in s.discard:
            if c in cards:
                i = o_discard + cards[c]
                v[i] = get(i, 0.0) + 1.0
        for m in s.missions:
            if m in missions:
                v[o_missions + missions[m]] = 1.0
        v[o_mdeck] = len(s.mission_deck)
        v[o_mleft] = s.militia_left
        v[o_msel + militia_col.get(s.militia_sel, len(militia))] = 1.0
        v[o_mroll] = s.militia_roll or 0
        folded = detail.folded({
            "act": s.act, "combat": s.combat, "pending": s.queue[0] if s.queue else None,
            "deploy_selected": s.deploy_sel, "handed_in": s.handed_in}, viewer)
        out = vector(v, size)
        out[o_detail:o_detail + CW_DETAIL] = folded
        out[o_chest:o_chest + board_width] = board
        return out

    return encode
