"""Thief's Market observation layout (docs/rl.md, "Observation tensors")."""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, Callable, cast

import numpy as np

from thieves.core.game import State

from ..hashing import dense, vector
from . import offsets

if TYPE_CHECKING:   # the game is imported when its encoder is built, not with the layouts
    from thieves.games.thiefs_market.observation import MarketTensorInput

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

    def encode(engine_obs: dict[str, Any], viewer: int) -> np.ndarray:
        # what reference_observation_tensor hands over: _observe and the engine's counters
        obs = cast("MarketTensorInput", engine_obs)
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
            for f in pay["remaining"]:
                if f in TM_FACES:
                    v[offs["paying_remaining"] + TM_FACES.index(f)] += 1
            v[offs["paying_free_left"]] = pay["free_left"]
        return dense(v, size)

    return size, encode


def fast_encoder(state: State) -> Callable[[State, int], np.ndarray]:
    """The tensor of :func:`encoder` written straight from the state (of the infamy
    counts only the viewer's own, as ``_observe`` shows them until the end)."""
    from thieves.games.thiefs_market import effects, scoring
    from thieves.games.thiefs_market.components import FACES
    ids = list(state.data.ids)
    assert len(set(ids)) == len(ids)                     # a card's column is its index
    n = state.num_players
    c = len(ids)
    offs, size = offsets(tm_layout(n, ids))
    face_at = [FACES.index(f) for f in TM_FACES]         # KeyError in the reference otherwise
    phase_col = {ph: i for i, ph in enumerate(TM_PHASES)}
    step_col = {st: i for i, st in enumerate(TM_STEPS)}
    o_phase, o_step, o_round, o_current = offs["phase"], offs["step"], offs["round/10"], offs["current"]
    o_start, o_token, o_victim, o_to_act = offs["start_player"], offs["token"], offs["victim"], offs["to_act"]
    o_terminal, o_center, o_returning, o_piles = offs["terminal"], offs["center"], offs["returning"], offs["piles"]
    o_has_pile, o_objects, o_dice, o_gold = offs["has_pile"], offs["objects"], offs["dice_in_play"], offs["gold"]
    o_infamy, o_henchmen, o_tableau, o_market = offs["own_infamy"], offs["henchmen"], offs["tableau"], offs["market"]
    o_market_row, o_deck_sizes, o_active_row = offs["market_row"], offs["deck_sizes"], offs["active_row"]
    o_discarded, o_box, o_used, o_buys = offs["discarded"], offs["box_count"], offs["used"], offs["buys_made"]
    o_allowed, o_pay_card, o_pay_rem, o_pay_free = offs["buys_allowed"], offs["paying_card"], \
        offs["paying_remaining"], offs["paying_free_left"]
    faces = tuple(enumerate(face_at))

    def encode(s: Any, viewer: int) -> np.ndarray:
        v: dict[int, float] = {}

        def rel(q: int) -> int:
            return (q - viewer) % n

        v[o_phase + phase_col[s.phase]] = 1
        v[o_step + step_col[s.step]] = 1
        v[o_round] = s.round / 10
        v[o_current + rel(s.current)] = 1
        v[o_start + rel(s.start_player)] = 1
        tok = s.token
        v[o_token + (n if tok < 0 else rel(tok))] = 1
        vic = s.victim
        v[o_victim + (n if vic < 0 else rel(vic))] = 1
        for q in s._players_to_act():
            v[o_to_act + rel(q)] = 1
        v[o_terminal] = float(s.is_terminal())
        center, returning = s.center, s.returning
        for k, i in faces:
            v[o_center + k] = center[i]
            v[o_returning + k] = returning[i]
        piles, has_pile, gold, tableau = s.piles, s.has_pile, s.gold, s.tableau
        for q in range(n):
            r = rel(q)
            pile = piles[q]
            o = o_piles + 6 * r
            for k, i in faces:
                v[o + k] = pile[i]
            v[o_has_pile + r] = float(has_pile[q])
            v[o_objects + r] = s.objects(q)
            v[o_gold + r] = gold[q]
            v[o_henchmen + r] = scoring.henchmen(s, q)
            o = o_tableau + c * r
            for card in tableau[q]:
                v[o + card] = 1
        v[o_dice] = s.num_dice
        v[o_infamy] = s.infamy[viewer] or 0            # the viewer's own count only
        for ri, row in enumerate(s.rows):
            for k, card in enumerate(row[:5]):
                v[o_market + card] = 1
                v[o_market_row + 5 * ri + k] = 1
            v[o_deck_sizes + ri] = len(s.decks[ri])
        v[o_active_row + s.active_row] = 1
        get = v.get
        for card in s.discarded:
            v[o_discarded + card] = get(o_discarded + card, 0.0) + 1
        v[o_box] = len(s.box)
        for card in s.used:
            v[o_used + card] = 1
        buying = s.phase == "buy"
        v[o_buys] = s.buys if buying else 0
        v[o_allowed] = effects.allowed_buys(s, s.current) if buying else 0
        if s.pay_card >= 0:
            v[o_pay_card + s.pay_card] = 1
            paying = list(s.paying) + [0, 0]
            for k, i in faces:
                if i < len(paying) and paying[i]:
                    v[o_pay_rem + k] = get(o_pay_rem + k, 0.0) + paying[i]
            v[o_pay_free] = (effects.discount(s, s.current) - s.waived) or 0
        return vector(v, size)

    return encode
