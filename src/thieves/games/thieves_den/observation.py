"""Thieves Den: the observation's shape, one key per line (what :func:`~.view.observe` builds).

The keys marked ``NotRequired`` are there only for some viewers: a player's scheme and
face-down piles for that player (everyone's at the end of the game), the hand and hidden
pick for a seated viewer, the legal actions for a viewer who has to act now; the extra
parts of a pending decision depend on its kind. tests/games/thieves_den/test_observation.py
holds real observations to exactly these keys.
"""
from typing import NotRequired, TypedDict

from thieves.core.game import EngineKeys

# (no ``from __future__ import annotations``: TypedDict reads NotRequired off the evaluated
# annotations to tell the optional keys, ``__optional_keys__``)


class SeatView(TypedDict):
    """One player's board, as the viewer sees it (``observation["players"][q]``)."""

    prestige: int
    treasures: dict[str, int]                # treasure type -> count on the board
    thieves: int                             # thieves on the board
    passed: bool
    above: list[str]                         # location cards above the board (face up)
    fences_above: list[str]                  # fences sold to this round (face up)
    left_count: int                          # collected locations (face down)
    right_count: int                         # collected fences (face down)
    hand_count: int                          # scouting cards in hand
    has_picked: bool                         # has picked this scouting step (the card is hidden)
    scheme: NotRequired[str]                 # the owner's (everyone's at the end)
    left: NotRequired[list[str]]             # likewise
    right: NotRequired[list[str]]            # likewise


class PowerView(TypedDict):
    """One power stack: its face-up tile, how many tiles it holds, the treasure paid this round."""

    tile: str | None
    left: int
    paid: str | None


class DecisionView(TypedDict):
    """The pending decision (all public): whose, what kind, how many steps left."""

    player: int
    kind: str                                # the frame kind: take, payany, rob, discard, give, sub...
    left: int | None
    mode: str | None                         # rob: take or destroy; sub: normal, cut, extra
    optional: bool                           # may be skipped with "done"
    to: NotRequired[str]                     # payany: "city" or the fence id paid a joker
    held: NotRequired[int]                   # discard: treasures held
    limit: NotRequired[int]                  # discard: the treasure limit
    among: NotRequired[list[int]]            # give: the seats the direction tile may go to


class FinalScores(TypedDict):
    """The end-of-game scoring, per seat."""

    majority: list[int]
    scheme: list[int]
    sets: list[int]


class DenView(TypedDict):
    """The game's part of an observation, as :func:`~.view.observe` builds it."""

    phase: str                               # "draft", "thieving", "handover", "end"
    round: int
    holder: int                              # seat holding the direction tile
    face: str                                # the tile's face up: "13" or "2"
    direction: str                           # "clockwise" or "counter-clockwise"
    turn: int | None                         # whose thieving turn it is (None outside thieving)
    players: list[SeatView]
    neutral: list[str]                       # 2 players: location cards beside the board
    loc_thieves: dict[str, int]              # occupied location card -> thieves on it
    fence_thieves: dict[str, int]
    fence_treasures: dict[str, dict[str, int]]
    row: list[str | None]                    # the fence row (None: an empty slot)
    fence_deck_count: int
    loc_deck_count: int
    powers: list[PowerView]
    witch_used: list[bool]
    steal_slot: int
    recruit_slot: dict[str, int]
    city: dict[str, int]
    forest: int
    decision: DecisionView | None
    final: FinalScores | None
    hand: NotRequired[list[str]]             # a seated viewer's own hand
    pick: NotRequired[str | None]            # and hidden pick
    legal: NotRequired[list[str]]            # a viewer who acts now: their legal actions


class DenObservation(DenView, EngineKeys):
    """What ``state.observation(viewer)`` returns (viewer None: the spectator): the game's
    part and the keys every game's observation has (core/game.py ``State.observation``)."""
