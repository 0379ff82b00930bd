"""Thieves Den: the decisions a pending frame waits for, and the frame runner.

A choice frame (:data:`~.effects.CHOICE_KINDS`) waits for its player's decision: the legal
choices (:func:`choices`), whether there is any (:func:`can_choose`) and what one does
(:func:`apply_choice`); the power tiles' own choices are in actions.py. :func:`run` runs
the automatic frames (:data:`~.effects.AUTO_FRAMES`) in between and keeps the treasure limit.
Rulebook sections: "Plateau de Joueur" (the 8-treasure limit), "Clarification des Cartes"
(destroy, take a thief, take a treasure).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import apply_power_choice, can_choose_power, power_choices
from .components import TREASURES
from .effects import AUTO_FRAMES, CHOICE_KINDS, GAIN_KINDS, add_thieves, gain_treasure, has_some, targets
from .notation import DenAction
from .rounds import hand_over

if TYPE_CHECKING:
    from .state import DenState

#: the notation of the choices that name a treasure, made once
TAKE_ACTIONS = {t: f"take {t}" for t in TREASURES}
PAY_ACTIONS = {t: f"pay {t}" for t in TREASURES}
DISCARD_ACTIONS = {t: f"discard {t}" for t in TREASURES}
#: ``rob <seat> <treasure>`` and ``rob <seat>`` by 0-based seat (5 players at most)
ROB_ACTIONS = [{t: f"rob {q + 1} {t}" for t in TREASURES} for q in range(5)]
ROB_THIEF_ACTIONS = [f"rob {q + 1}" for q in range(5)]


# -- the frame runner ------------------------------------------------------------------------
def run(state: DenState, check: bool = True) -> None:
    """Run automatic frames until a decision is needed (or nothing is pending).
    ``check``: the decision just applied may have put someone over the treasure limit.

    Not :func:`thieves.core.decisions.run_steps`: between two frames this runner looks at
    the treasure limit (after a gain only), and it drops a choice frame that has nothing to
    choose; both would cost a call per frame through its ``waits`` test."""
    pend = state.pending
    auto = AUTO_FRAMES.handlers
    while True:
        # Rulebook "Coffres au Trésor": over 8 treasures, at any moment, the owner must
        # discard the excess of their choice (the new one or an older one). Only a decision
        # or a gaining frame adds treasures, so nobody can go over in between.
        if check and not (pend and pend[0]["k"] == "discard"):
            check = False
            limit = state.data.treasure_limit
            for q, have in enumerate(state.treasures):
                if sum(have.values()) > limit:   # the first player in seat order who is over
                    pend.insert(0, {"k": "discard", "p": q})
                    break
        if not pend:
            return
        f = pend[0]
        k = f["k"]
        if k in CHOICE_KINDS:
            if can_choose(state, f):
                return
            pend.pop(0)   # nothing can be chosen: the step does nothing
            continue
        pend.pop(0)
        auto[k](state, f)
        if k in GAIN_KINDS:
            check = True


# -- the choice frames ---------------------------------------------------------------------------
def choices(state: DenState, f: dict[str, Any]) -> list[str]:
    """The legal choices of the pending frame ``f`` (the power tiles': :func:`~.actions.power_choices`)."""
    k, p = f["k"], f["p"]
    if k == "take":
        city = state.city
        return [TAKE_ACTIONS[t] for t in TREASURES if city[t] > 0]
    if k == "payany":
        have = state.treasures[p]
        return [PAY_ACTIONS[t] for t in TREASURES if have[t] > 0]
    if k == "discard":
        have = state.treasures[p]
        return [DISCARD_ACTIONS[t] for t in TREASURES if have[t] > 0]
    if k == "rob":
        return [ROB_ACTIONS[q][t] for q in targets(state, p) for t in TREASURES if state.treasures[q][t] > 0]
    if k == "robthief":
        return [ROB_THIEF_ACTIONS[q] for q in targets(state, p) if state.thieves[q] > 0]
    if k == "give":
        return [f"give {q + 1}" for q in f["among"]]
    return power_choices(state, f)


def can_choose(state: DenState, f: dict[str, Any]) -> bool:
    """``bool(choices(state, f))``, without building the list for the simple frames."""
    k = f["k"]
    if k == "take":
        return has_some(state.city)
    if k == "payany" or k == "discard":
        return has_some(state.treasures[f["p"]])
    if k == "rob":
        return any(has_some(state.treasures[q]) for q in targets(state, f["p"]))
    if k == "robthief":
        return any(state.thieves[q] > 0 for q in targets(state, f["p"]))
    if k == "give":
        return bool(f["among"])
    return can_choose_power(state, f)


def apply_choice(state: DenState, p: int, act: DenAction) -> None:
    f = state.pending[0]
    k = f["k"]
    if k == "take":
        gain_treasure(state, p, act.named_treasure)
        if state.recording:
            state.event("take", player=p, treasure=act.treasure)
    elif k == "payany":
        t = act.named_treasure
        state.treasures[p][t] -= 1
        dest = f["to"]
        if dest == "city":
            state.city[t] += 1
        else:   # paying a joker on a fence card
            load = state.fence_treasures[dest]
            load[t] = load.get(t, 0) + 1
        if state.recording:
            state.event("pay", player=p, treasure=t, n=1)
    elif k == "discard":
        # discarded treasures return to the City [interpretation]
        state.treasures[p][act.named_treasure] -= 1
        state.city[act.named_treasure] += 1
        if state.recording:
            state.event("discard", player=p, treasure=act.treasure, n=state.data.treasure_limit)
        state.pending.pop(0)
        return
    elif k == "rob":
        q, t = act.named_seat, act.named_treasure
        state.treasures[q][t] -= 1
        if f["mode"] == "take":   # Customs House: onto your board
            state.treasures[p][t] += 1
            if state.recording:
                state.event("rob", player=p, victim=q, treasure=t)
        else:                     # Witch's Hut: back to the supply
            state.city[t] += 1
            if state.recording:
                state.event("destroy", player=p, victim=q, treasure=t)
    elif k == "robthief":        # Guild
        q = act.named_seat
        state.thieves[q] -= 1
        add_thieves(state, p, 1)
        if state.recording:
            state.event("rob_thief", player=p, victim=q)
    elif k == "give":
        state.pending.pop(0)
        hand_over(state, act.named_seat)
        return
    else:
        apply_power_choice(state, p, f, act)
        return
    f["n"] -= 1
    if f["n"] <= 0:
        state.pending.pop(0)

