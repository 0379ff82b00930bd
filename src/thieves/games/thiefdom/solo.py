"""Solo mode: the compass, the D8, fallback arrows and the rival thieves.

Rulebook "Partie en mode solo". The townsfolk turn is automatic: reveal the
top solo patrol board, roll the D8 for a direction (1-2 N, 3-4 E, 5-6 S,
7-8 W), move its figures that way (fallback arrows: even rolls turn
clockwise, odd rolls counter-clockwise, never reversing), then roll again to
place the rival thief shown on the board.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import townsfolk
from .city import DIRS

if TYPE_CHECKING:
    from .state import ThiefdomState


def solo_townsfolk(state: ThiefdomState) -> None:
    solo = state.solo
    if not solo["pile"]:
        pile = ["S1", "S2", "S3"]
        state.rng.shuffle(pile)
        solo["pile"] = pile
    board = state.data.patrols[solo["pile"].pop()]
    solo["board"] = board.id
    roll = state.rng.die(8)
    solo["roll"] = roll
    state.event("solo_turn", board=board.id, roll=roll,
               dir=state.data.solo.compass["directions"][roll].lower())
    for fig in board.figures:
        if fig in state.tf:
            townsfolk.start_tmove(state, fig, 0, solo_roll=roll)
    # the rival thief of the board's shape goes to a location by a second roll
    r2 = state.rng.die(8)
    spot = state.data.solo.rivals[r2]
    bid = next(b for b in state.city.by_type.get(spot["type"], [])
               if state.city.buildings[b]["section"] == spot["section"])
    solo["rivals"][str(board.rival)] = bid
    state.event("rival", rival=board.rival, place=bid, roll=r2)


def solo_pick(state: ThiefdomState, tm: dict[str, Any], opts: list[int]) -> int:
    """The rolled direction if possible, else turn as the arrow shows, same way on."""
    comp = state.data.solo.compass
    want = DIRS.index(comp["directions"][tm["roll"]])
    step = 1 if comp["fallback"][tm["roll"]] == "cw" else 3
    for k in range(4):
        d = (want + k * step) % 4
        if d in opts:
            return d
    return opts[0]


def solo_rating(state: ThiefdomState) -> int:
    stars = 0
    for r in state.data.solo.ratings:
        if state.vp[0] >= r.min:
            stars = r.stars
    return stars
