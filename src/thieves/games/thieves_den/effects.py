"""Thieves Den: effects as a queue of small steps ("frames").

Every compound effect (a location ability, an owner bonus, a power tile) is expanded into
frames in ``state.pending``. Automatic frames run at once (their handlers are registered in
:data:`AUTO_FRAMES`, here and in actions.py and state.py); a choice frame waits for its
player's decision (choices.py, which also holds the runner). Rulebook sections: "Plateau de Joueur" (8-treasure and 6-thief limits),
"Limite de la Réserve" (the supply is limited), "Clarification des Cartes" (the card
effects: destroy, take a thief, exchange, take a treasure).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...core.decisions import Steps

if TYPE_CHECKING:
    from .state import DenState

#: frames that wait for a decision; every other frame kind runs by itself
CHOICE_KINDS = frozenset({"take", "payany", "rob", "robthief", "discard", "give",
                          "sub", "recall", "relocate", "swap", "refresh"})
#: automatic frames that can add to a player's treasures (every other one only takes some away)
GAIN_KINDS = frozenset({"gain"})
#: decisions that can add to a player's treasures ("steal", "take", "rob" with the Customs
#: House) or end with a player still over the limit ("discard" takes one at a time)
LIMIT_VERBS = frozenset({"steal", "take", "rob", "discard"})

#: automatic frame kind -> what it does, ``handler(state, frame)``: each handler is registered
#: where it is written (``@AUTO_FRAMES("gain")``); :func:`~.choices.run` runs them
AUTO_FRAMES: Steps[Callable[[DenState, dict[str, Any]], None]] = Steps("Thieves Den's automatic frames")

#: how many holdings a memo table keeps before it starts again (far more than a game meets)
MEMO_LIMIT = 50_000


def can_pay(cost: tuple[dict[str, int], int, int] | None, have: dict[str, int], thieves_after: int) -> bool:
    """Whether treasures ``have`` and ``thieves_after`` thieves pay a location ability's costs
    (``DenData.costs``: pay, pay_any, pay_thieves; None: it costs nothing)."""
    if cost is None:
        return True
    pay, any_, thieves = cost
    if thieves_after < thieves:
        return False
    for t, n in pay.items():
        if have[t] < n:
            return False
    return not any_ or sum(have.values()) - sum(pay.values()) >= any_


def has_some(counts: dict[str, int]) -> bool:
    """``max(counts.values()) > 0``: some treasure is there (without max's call)."""
    for k in counts.values():
        if k > 0:
            return True
    return False


def frame_templates(steps: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    """A card's ability (or owner bonus) steps as the frames of :func:`step_frame`
    for player 0, made once per card (:func:`frames_for` copies them for a player)."""
    return [step_frame(0, kind, value) for kind, value in steps]


def frames_for(templates: list[dict[str, Any]], p: int) -> list[dict[str, Any]]:
    """Fresh copies of :func:`frame_templates`'s frames for player ``p`` (the same keys in the
    same order, a treasure table of its own in each)."""
    frames = []
    for template in templates:
        f = template.copy()
        f["p"] = p
        if "t" in f:
            f["t"] = f["t"].copy()
        frames.append(f)
    return frames


# -- gains and losses with the supply limit ------------------------------------------------------
def gain_treasure(state: DenState, p: int, t: str, n: int = 1) -> int:
    """Rulebook "Limite de la Réserve": take what the City still has, the rest is lost."""
    if n > state.city[t]:
        n = state.city[t]
    state.city[t] -= n
    state.treasures[p][t] += n
    return n


def gain_thieves(state: DenState, p: int, n: int) -> int:
    """From the Forest (as many as are left); above 6 the excess goes back (thief limit)."""
    if n > state.forest:
        n = state.forest
    state.forest -= n
    add_thieves(state, p, n)
    return n


def add_thieves(state: DenState, p: int, n: int) -> None:
    """Rulebook "Sièges": a board holds at most 6 thieves; the excess returns to the Forest."""
    lim = state.data.board.thief_limit
    state.thieves[p] += n
    if state.thieves[p] > lim:
        state.forest += state.thieves[p] - lim
        state.thieves[p] = lim


# -- location abilities as frames ----------------------------------------------------------------
def ability_frames(state: DenState, p: int, card: str) -> list[dict[str, Any]]:
    templates = state.data.ability_frames.get(card)
    if templates is None:
        templates = state.data.ability_frames[card] = frame_templates(state.data.ability_steps[card])
    return frames_for(templates, p)


def bonus_frames(state: DenState, p: int, card: str) -> list[dict[str, Any]]:
    templates = state.data.bonus_frames.get(card)
    if templates is None:
        templates = state.data.bonus_frames[card] = frame_templates(state.data.bonus_steps[card])
    return frames_for(templates, p)


def step_frame(p: int, kind: str, value: Any) -> dict[str, Any]:
    if kind == "gain":
        return {"k": "gain", "p": p, "t": dict(value)}
    if kind == "gain_any":
        return {"k": "take", "p": p, "n": value}
    if kind == "thieves":
        return {"k": "thieves", "p": p, "n": value}
    if kind == "prestige":
        return {"k": "prestige", "p": p, "n": value}
    if kind == "pay":
        return {"k": "pay", "p": p, "t": dict(value)}
    if kind == "pay_any":
        return {"k": "payany", "p": p, "n": value, "to": "city"}
    if kind == "pay_thieves":
        return {"k": "paythieves", "p": p, "n": value}
    if kind == "take_treasure":
        return {"k": "rob", "p": p, "n": value, "mode": "take"}
    if kind == "destroy":
        return {"k": "rob", "p": p, "n": value, "mode": "destroy"}
    if kind == "take_thief":
        return {"k": "robthief", "p": p, "n": value}
    raise ValueError(kind)


def can_pay_ability(state: DenState, p: int, card: str, thieves_after: int) -> bool:
    """Whether ``p`` can pay the costs in a location's ability (pay, pay_any, pay_thieves)."""
    return can_pay(state.data.costs[card], state.treasures[p], thieves_after)


# -- automatic frames ------------------------------------------------------------------------------
@AUTO_FRAMES("gain")
def auto_gain(state: DenState, f: dict[str, Any]) -> None:
    p = f["p"]
    for t, n in f["t"].items():
        got = gain_treasure(state, p, t, n)
        if state.recording:
            state.event("gain", player=p, treasure=t, n=got)


@AUTO_FRAMES("thieves")
def auto_thieves(state: DenState, f: dict[str, Any]) -> None:
    got = gain_thieves(state, f["p"], f["n"])
    if state.recording:
        state.event("thieves", player=f["p"], n=got)


@AUTO_FRAMES("prestige")
def auto_prestige(state: DenState, f: dict[str, Any]) -> None:
    state.prestige[f["p"]] += f["n"]
    if state.recording:
        state.event("prestige", player=f["p"], n=f["n"])


@AUTO_FRAMES("pay")
def auto_pay(state: DenState, f: dict[str, Any]) -> None:
    p = f["p"]
    for t, n in f["t"].items():
        n = min(n, state.treasures[p][t])
        state.treasures[p][t] -= n
        state.city[t] += n
        if state.recording:
            state.event("pay", player=p, treasure=t, n=n)


@AUTO_FRAMES("paythieves")
def auto_paythieves(state: DenState, f: dict[str, Any]) -> None:
    p = f["p"]
    n = min(f["n"], state.thieves[p])
    state.thieves[p] -= n
    state.forest += n
    if state.recording:
        state.event("pay_thieves", player=p, n=n)


# -- who a choice may target ---------------------------------------------------------------------------
def targets(state: DenState, p: int) -> list[int]:
    """Opponents who may be targeted: rulebook "Phase Voleurs": not those who have passed."""
    return [q for q in range(state.num_players) if q != p and not state.passed[q]]

