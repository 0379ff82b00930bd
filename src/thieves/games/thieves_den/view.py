"""Thieves Den: what each player may see, texts for people, and reasons for illegal actions.

Hidden information (rulebook "Plateau de Joueur" and "Phase Reconnaissance"): the cards in a
player's draft hand and the card just picked, the scheme card, and the face-down piles of
collected locations (left) and fences (right) are seen by their owner only, until the end
of the game. Everything else (boards, tokens, face-up cards) is public.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import card_owner, in_play, open_to, short_supply_ok
from .choices import choices
from .notation import DenAction, NotationError
from .observation import DecisionView, DenView, SeatView

if TYPE_CHECKING:
    from .state import DenState

#: the actions of a thieving turn (the others answer a pending decision)
TURN_VERBS = ("loc", "sell", "power", "witch", "steal", "recruit", "pass")


# -- observation -------------------------------------------------------------------------------
def observe(state: DenState, player: int | None) -> DenView:
    """What ``player`` (None: a spectator) sees of the position (see observation.py)."""
    end = state.phase == "end"
    players: list[SeatView] = []
    for q in range(state.num_players):
        mine = end or q == player
        d: SeatView = {
            "prestige": state.prestige[q],
            "treasures": dict(state.treasures[q]),
            "thieves": state.thieves[q],
            "passed": state.passed[q],
            "above": list(state.above[q]),
            "fences_above": list(state.fences_above[q]),
            "left_count": len(state.left[q]),
            "right_count": len(state.right[q]),
            "hand_count": len(state.hands[q]),
            "has_picked": state.picks[q] is not None,
        }
        if mine:
            d["scheme"] = state.scheme[q]
            d["left"] = list(state.left[q])
            d["right"] = list(state.right[q])
        players.append(d)
    obs: DenView = {
        "phase": state.phase,
        "round": state.round,
        "holder": state.holder,
        "face": state.face,
        "direction": "clockwise" if state.direction == 1 else "counter-clockwise",
        "turn": state.turn if state.phase == "thieving" else None,
        "players": players,
        "neutral": list(state.neutral),
        "loc_thieves": dict(state.loc_thieves),
        "fence_thieves": dict(state.fence_thieves),
        "fence_treasures": {k: dict(v) for k, v in state.fence_treasures.items()},
        "row": list(state.row),
        "fence_deck_count": len(state.fence_deck),
        "loc_deck_count": len(state.loc_deck),
        "powers": [{"tile": s[-1] if s else None, "left": len(s), "paid": state.power_paid[i]}
                   for i, s in enumerate(state.power_stacks)],
        "witch_used": list(state.witch_used),
        "steal_slot": state.steal_slot,
        "recruit_slot": dict(state.recruit_slot),
        "city": dict(state.city),
        "forest": state.forest,
        "decision": public_decision(state),
        "final": state.final,
    }
    if player is not None:
        obs["hand"] = list(state.hands[player])
        obs["pick"] = state.picks[player]
        if player in state._players_to_act():
            # the viewer's own legal actions, so a drawing can mark exactly what is clickable
            obs["legal"] = state.legal_actions(player)
    return obs


def public_decision(state: DenState) -> DecisionView | None:
    """The pending decision, as everyone may see it (all its parts are public)."""
    if not state.pending:
        return None
    f = state.pending[0]
    k = f["k"]
    d: DecisionView = {"player": f["p"], "kind": k, "left": f.get("n"), "mode": f.get("mode"),
         "optional": bool(f.get("opt"))}
    if k == "payany":
        d["to"] = f["to"]           # "city" (an ability cost) or the fence id (its joker)
    elif k == "discard":
        d["held"] = sum(state.treasures[f["p"]].values())
        d["limit"] = state.data.board.treasure_limit
    elif k == "give":
        d["among"] = list(f["among"])
    return d


# -- reasons ---------------------------------------------------------------------------------------------
def explain(state: DenState, p: int, action: str) -> str | None:
    try:
        act = DenAction.parse(action)
    except NotationError as exc:
        return str(exc)
    v = act.verb
    if state.pending:
        f = state.pending[0]
        return (f"player {p + 1} must first decide: {f['k']} "
                f"(legal: {', '.join(choices(state, f)[:8])})")
    if state.phase == "draft":
        if v == "keep":
            return f"{act.card} is not in your hand"
        return "during scouting the only action is 'keep <card id>'"
    have = state.treasures[p]
    if v not in TURN_VERBS:
        return f"{v!r} is not a turn action; on your turn: {', '.join(TURN_VERBS)}"
    if v == "loc":
        c = act.card
        if c not in in_play(state):
            return f"{c} is not a face-up location card in play"
        if state.loc_thieves.get(c):
            return f"the action space of {c} is already taken"
        if state.thieves[p] < 1:
            return "you have no thief on your board"
        if not open_to(state, p, card_owner(state, c)):
            return f"{c} belongs to a player who has passed (option passed_locations=closed)"
        return f"you cannot pay the cost of {c}"
    if v == "sell":
        if act.card not in state.row:
            return f"{act.card} is not in the fence row"
        if state.thieves[p] < 1:
            return "selling needs a thief on your board"
        return f"you do not have every treasure {act.card} wants"
    if v == "steal":
        if state.thieves[p] < 2:
            return "stealing a treasure needs 2 thieves on your board"
        if act.treasure is None:
            if not any(state.city.values()):
                return "the City is empty (option empty_supply=forbidden)"
            return "say which treasure, e.g. 'steal book' ('steal' alone only when the City is empty)"
        if not short_supply_ok(state):
            return "the City has no treasure of that type (option empty_supply=forbidden)"
        return "the City has no treasure of that type: steal one it has"
    if v == "recruit":
        if state.forest < 1 and not short_supply_ok(state):
            return "the Forest has no thief left (option empty_supply=forbidden)"
        return "recruiting needs those 2 treasures on your board (e.g. 'recruit book potion')"
    if v == "witch":
        if have[act.named_treasure] < 1:
            return f"you have no {act.treasure}"
        return "the Witch's slot for that treasure is already taken this round"
    if v == "power":
        i = act.named_stack
        if i >= len(state.power_stacks):
            return f"there are {len(state.power_stacks)} power stacks"
        if not state.power_stacks[i]:
            return "that stack has no power tile left"
        if state.power_paid[i] is not None:
            return "that power tile is already used this round"
        if have[act.named_treasure] < 1:
            return f"you have no {act.treasure} to pay with"
        return "that power tile's effect is impossible now (no target, or nothing left to do once paid)"
    return None

