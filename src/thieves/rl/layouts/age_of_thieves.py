"""Age of Thieves observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

import marshal
from collections import defaultdict
from typing import Any, Callable

import numpy as np

from thieves.core.game import State

from ..hashing import CACHE_BYTES, Blocks, FoldedDetail, Paths, accumulate, dense, vector
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


def _tables(data: Any) -> tuple[dict[str, int], int, list[str], dict[str, int], int, dict[str, int], int,
                                 dict[str, int], dict[str, int]]:
    """What both encoders index by: spaces, card kinds, city tokens, thieves and exits by column."""
    spaces = {sp.id: i for i, sp in enumerate(data.board.spaces)}
    S = len(spaces)
    kinds = [c.id for c in data.cards.general] + ["move", "ambush"]
    kcol = {k: i for i, k in enumerate(kinds)}
    K = len(kinds) + 1
    toks = {t.id: i for i, t in enumerate(data.tokens.city_tokens)}
    TK = len(toks)
    thief_ids = {t: i for i, t in enumerate(data.thief_ids)}
    exits = {e: i for i, e in enumerate(data.exits)}
    return spaces, S, kinds, kcol, K, toks, TK, thief_ids, exits


def encoder(state: State) -> tuple[int, Callable[[dict[str, Any], int], np.ndarray]]:
    """The tensor size and the function that fills it from an observation."""
    data = state.data
    n = state.num_players
    spaces, S, kinds, kcol, K, toks, TK, thief_ids, exits = _tables(data)
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


def fast_encoder(state: State) -> Callable[[State, int], np.ndarray]:
    """The tensor of :func:`encoder` written straight from the state (the fields the
    layout reads, hidden as ``_observe`` hides them: the others' hands, their action
    points and plans while they plan, their unfinished plan)."""
    from thieves.games.age_of_thieves.notation import ctype
    from thieves.games.age_of_thieves.planning import markers_free, tokens_free
    from thieves.games.age_of_thieves.view import deciding, hand_count, slot_view
    data = state.data
    n = state.num_players
    spaces, S, kinds, kcol, K, toks, TK, thief_ids, exits = _tables(data)
    NT, NX, NF = len(thief_ids), len(exits), len(_AOT_FLAGS)
    per_seat = NT + (S + 1) + 3 + NF + TK + 1 + (NX + 1) + 4
    offs, size = offsets(aot_layout(n, data))
    detail = FoldedDetail(n, frozenset({"plans"}), AOT_DETAIL)
    phase_col = {ph: i for i, ph in enumerate(AOT_PHASES)}
    gem_col = {g: i for i, g in enumerate(AOT_GEMS)}
    o_phase, o_round, o_start, o_alarm = offs["phase"], offs["round/10"], offs["start_player"], offs["alarm"]
    o_init, o_watch, o_events, o_deck = offs["guard_initiative"], offs["watch_acted"], offs["events_left"], \
        offs["action_deck"]
    o_to_act, o_terminal, o_winners, o_discard = offs["to_act"], offs["terminal"], offs["winners"], offs["discard"]
    o_guards, o_captains, o_gems, o_fdt = offs["guards"], offs["captains"], offs["gems"], offs["face_down_token"]
    o_features, o_smoke, o_fire, o_supply = offs["features"], offs["smoke"], offs["fire"], offs["supply"]
    o_seats, o_hand, o_violet, o_ap_free = offs["seats"], offs["hand"], offs["violet_next"], offs["ap_free"]
    o_tokens_free, o_detail = offs["tokens_free"], offs["detail"]
    kind_of: dict[str, int] = {}
    blocks = Blocks()
    made: dict[tuple[int, bytes], np.ndarray] = {}                   # the folded detail by its sources
    made_limit = max(64, CACHE_BYTES // (4 * AOT_DETAIL))
    board_width = o_supply - o_guards                   # guards, captains, gems, tokens, smoke, fire

    def kind_col(c: str) -> int:
        try:
            return kind_of[c]
        except KeyError:
            got = kind_of[c] = kcol.get(ctype(c), K - 1)
            return got


    def encode(s: Any, viewer: int) -> np.ndarray:
        v: dict[int, float] = {}
        get = v.get

        def rel(q: int) -> int:
            return (q - viewer) % n

        ph = s.phase
        planning = ph == "plan"
        v[o_phase + phase_col.get(ph, len(AOT_PHASES))] = 1.0
        v[o_round] = s.round / 10
        if s.start is not None:
            v[o_start + rel(s.start)] = 1.0
        v[o_alarm] = float(s.alarm)
        v[o_init] = s.die or 0
        v[o_watch] = float(ph == "exec" and bool(s.exec.get("guards_done")))
        v[o_events] = len(s.calm_deck)
        v[o_events + 1] = len(s.alarm_deck)
        v[o_deck] = len(s.deck)
        for q in s._players_to_act():
            v[o_to_act + rel(q)] = 1.0
        v[o_terminal] = float(s.is_terminal())
        if s.ended:
            for q in s._winners():
                v[o_winners + rel(q)] = 1.0
        for c in s.discard:
            i = o_discard + kind_col(c)
            v[i] = get(i, 0.0) + 1.0
        guards, gems_at, face_down, features, smoke, fire = s.guards, s.gems, s.tokens, s.features, s.smoke, s.fire

        def fill_board(b: dict[int, float]) -> None:
            for g, sp in guards.items():
                if sp in spaces:
                    i = (o_captains if g[0] == "c" else o_guards) - o_guards + spaces[sp]
                    b[i] = b.get(i, 0.0) + 1.0
            for sp, gems in gems_at.items():
                for gem in gems:
                    if gem in gem_col:
                        i = o_gems - o_guards + 3 * spaces[sp] + gem_col[gem]
                        b[i] = b.get(i, 0.0) + 1.0
            for sp in face_down:
                b[o_fdt - o_guards + spaces[sp]] = 1.0
            for sp, kind in features.items():
                if kind in toks:
                    b[o_features - o_guards + TK * spaces[sp] + toks[kind]] = 1.0
            for sp in smoke:
                b[o_smoke - o_guards + spaces[sp]] = 1.0
            for sp in fire:
                b[o_fire - o_guards + spaces[sp]] = 1.0

        board = blocks.get(marshal.dumps((guards, gems_at, face_down, features, smoke, fire)), board_width,
                           fill_board)
        v[o_supply], v[o_supply + 1], v[o_supply + 2] = s.yellow_supply, len(s.guard_supply), \
            len(s.captain_supply)
        for q, t in enumerate(s.thieves):
            mine = q == viewer
            hidden_plan = planning and not mine
            o = o_seats + per_seat * rel(q)
            if t["id"] in thief_ids:
                v[o + thief_ids[t["id"]]] = 1.0
            o += NT
            pos = t["pos"]
            v[o + spaces.get(pos, S)] = 1.0
            o += S + 1
            v[o], v[o + 1], v[o + 2] = t["yellow"], t["green"], s.vp(q)
            o += 3
            flags = (t["emperor"], t["best"], t["dungeon"], pos is not None and s.is_hidden(q), t["marker"],
                     t["cloak"] or t["escaped"], t["robbed"], t["protected"], t["immobile"], t["done"])
            for k, flag in enumerate(flags):
                if flag:
                    v[o + k] = 1.0
            o += NF
            for tok in t["sheet"]:
                if tok in toks:
                    i = o + toks[tok]
                    v[i] = get(i, 0.0) + 1.0
            o += TK
            v[o] = hand_count(s, q, hidden_plan)
            o += 1
            v[o + exits.get(t["left"], NX)] = 1.0
            o += NX + 1
            if mine or not planning:                # hidden during the others' planning
                v[o], v[o + 1], v[o + 2], v[o + 3] = t["blue"], t["red"], t["violet"], 1.0
        me = s.thieves[viewer]
        for c in me["hand"]:
            i = o_hand + kind_col(c)
            v[i] = get(i, 0.0) + 1.0
        v[o_violet] = me["violet_new"]
        building = None
        if planning:
            v[o_ap_free] = markers_free(s, viewer)
            for tok in tokens_free(s, viewer):
                if tok in toks:
                    i = o_tokens_free + toks[tok]
                    v[i] = get(i, 0.0) + 1.0
            building = ({k: x for k, x in me["cur"].items() if k in ("card", "m", "tok", "stage")}
                        if me["cur"] else None)
        else:
            v[o_ap_free] = 0
        ev = s.current_event()
        # the hashed detail, cached by what it is made from
        try:
            gq = s.gq.get("cur") if s.gq else None
            raw: tuple[int, bytes] | None = (viewer, marshal.dumps((
                ph, [t["plan"] for t in s.thieves], me["cur"], s.pending[0] if s.pending else None, gq, s.act,
                s.turn, s.exec.get("value"), ev.id if ev else None, s.alarm_district, s.ended)))
        except ValueError:
            raw = None
        folded = made.get(raw) if raw is not None else None
        if folded is None:
            plans = [[] if planning and q != viewer else [slot_view(s, x, q, viewer) for x in t["plan"]]
                     for q, t in enumerate(s.thieves)]
            folded = detail.folded({
                "plans": plans, "building": building, "deciding": deciding(s, ev),
                "event": ({"id": ev.id, "name": ev.name, "direction": ev.direction} if ev else None),
                "escape_district": s.alarm_district, "result": s.ended}, viewer)
            if raw is not None:
                if len(made) >= made_limit:
                    made.clear()
                made[raw] = folded
        out = vector(v, size)
        out[o_detail:o_detail + AOT_DETAIL] = folded
        out[o_guards:o_guards + board_width] = board
        return out

    return encode
