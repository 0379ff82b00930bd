"""Thiefdom: the observation's shape, one key per line (what :func:`~.view.observe` builds).

Keys marked ``NotRequired`` appear only at times: a thief's tucked brawl card once it
brawled, the turn's flags of Tristan and Jin once their power is used, a townsfolk move's
options while its mover must choose. tests/games/thiefdom/test_observation.py holds real
observations to exactly these keys.
"""
from typing import Any, NotRequired, TypedDict

from thieves.core.game import EngineKeys

# (no ``from __future__ import annotations``: TypedDict reads NotRequired off the evaluated
# annotations to tell the optional keys, ``__optional_keys__``)


class InventoryView(TypedDict):
    """Goods counts and artworks: a thief's, a hideout's or the Dungeon's."""

    gold: int
    gem: int
    brandy: int
    wine: int
    badge: int
    art: list[str]


class ThiefView(TypedDict):
    """One thief (``observation["thieves"][seat][thief]``)."""

    pos: int | str | None                    # alley square, building id, or not placed yet
    inv: InventoryView
    equip: list[str]                         # equipment cards
    ally: str | None                         # the client allied to this thief
    brawl: bool                              # has brawled at a tavern
    wanted: bool                             # a wanted poster
    used: list[str]                          # locations used this night
    robbed: list[str]                        # townsfolk robbed this night
    blind: list[str]                         # guards blinded by Bernhard this round
    brawled: NotRequired[str | None]         # the tucked client ("hidden" to the other seats)


class CityView(TypedDict):
    """The printed city (shared by every observation of one game) and its layout."""

    w: int
    h: int
    rows: list[Any]                          # the squares, row by row
    layout: list[list[Any]]                  # [section, side A/B, turn] per slot
    walls: list[Any]
    catacombs: dict[str, int]                # catacomb section -> the entrance square


class DraftView(TypedDict):
    """The equipment draft, as the viewer sees it (its own hand and kept cards only)."""

    stage: int
    hand: list[str]
    kept: list[str]
    hand_sizes: list[int]
    kept_sizes: list[int]


class TurnView(TypedDict):
    """The thief acting now (all public but an artwork's two drawn cards, see ``sub``)."""

    p: int
    t: int
    ap: int                                  # action points left
    mp: int                                  # movement points left
    moving: bool
    over: str | None                         # the figure it stands over while skipping
    sub: dict[str, Any] | None               # a location's or card's pending choice
    once: list[str]                          # once-a-turn powers used
    smoke: bool                              # Smoke Bomb
    shop: int                                # equipment discount at hand
    climbed: bool
    chain: list[Any]
    tristan: NotRequired[bool]
    jin: NotRequired[bool]


class TownsfolkMoveView(TypedDict):
    """A townsfolk figure on its way (the mover decides at each fork)."""

    fig: str
    mover: int
    cell: int
    start: int
    head: int
    passed: int                              # free lanterns passed
    stop: int                                # the lantern it stops at
    pending: list[Any]                       # attempted arrests to resolve
    roll: int                                # solo: the D8
    moved: bool
    seen: list[Any]
    opts: NotRequired[list[int]]             # the directions the mover may choose


class SoloView(TypedDict):
    """Solo mode: the compass side, the face-down pile's size, the rival thieves."""

    side: str
    pile: int
    rivals: dict[str, str | None]
    board: str | None
    roll: int


class FinalView(TypedDict):
    """A player's final scoring."""

    goods: int
    allies: int
    home: int
    total_goods: int
    art: int
    badge: int
    wine: int


class ThiefdomView(TypedDict):
    """The game's part of the observation (:func:`~.view.observe`)."""

    phase: str
    round: int
    first: int
    order: list[int]
    vp: list[int]
    city: CityView
    bcells: dict[str, Any]
    hideouts: list[str | None]
    houses: dict[str, list[int]]             # free houses' squares while placing hideouts
    thieves: list[list[ThiefView]]
    stash: list[InventoryView]
    stamina: list[bool]
    townsfolk: dict[str, dict[str, int]]     # figure -> its square (and a guard's facing)
    badges: dict[str, int]
    purses: dict[str, bool]
    villas: dict[str, dict[str, Any]]
    smugglers: dict[str, str | None]
    stacks: dict[str, list[str]]
    missions_left: int
    missions_done: list[list[str]]
    dungeon: InventoryView
    display: list[str]
    equip_deck: int
    client_deck: int
    client_discard: list[str]
    revealed: list[str]
    patrol: list[str | None]
    plans: list[str | None]                  # "placed" for another's secret plan
    planning: str                            # the viewer's tiles laid so far
    buildings: dict[str, list[Any]]          # building -> [type, squares]
    sight: dict[str, list[int]]              # guard -> the squares it sees
    nights: int
    draft: DraftView | None
    turn: TurnView | None
    tmove: TownsfolkMoveView | None
    solo: SoloView | None
    final: list[FinalView] | None
    solo_stars: int | None
    steps: list[str]                         # the viewer's moving thief's steps
    targets: list[str]                       # the viewer's actions aimed at a place or figure
    legal: list[str]                         # the viewer's legal actions while it must act


class ThiefdomObservation(ThiefdomView, EngineKeys):
    """What ``state.observation(viewer)`` returns (viewer None: the spectator): the game's
    part and the keys every game's observation has (core/game.py ``State.observation``)."""
