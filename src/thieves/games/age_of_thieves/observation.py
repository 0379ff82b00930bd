"""What a viewer's observation of Age of Thieves holds (:func:`view.observe`), key by key.

The engine adds its own keys around these (``game``, ``viewer``, ``to_act``, ``log`` ...,
see ``State.observation``). A seat reads its own hand, action points and the card it is
planning; the others, and a spectator, see only counts, and nothing of a plan while it
is made behind the screen (Rulebook §"3. Phase: Planung").

(No ``from __future__ import annotations`` here: ``TypedDict`` reads ``NotRequired`` from
the annotations themselves, which must not be strings for it.)
"""
from typing import Any, NotRequired, TypedDict


class SlotView(TypedDict):
    """A planned card as a viewer sees it: its AP once the screens are lifted (the owner
    always), what it is once played (the owner always)."""
    ap: int | None
    special: bool
    done: bool
    card: NotRequired[str]
    under: NotRequired[str]
    tokens: NotRequired[list[str]]


class ThiefView(TypedDict):
    """One thief; ``hand``, ``ap_free``, ``tokens_free`` and ``building`` only for its own
    seat (the last three while planning), ``ap`` for its seat and, outside planning, all."""
    thief: str
    name: str
    pos: str | None
    yellow: int
    green: int
    emperor: bool
    best: bool
    vp: int
    sheet: list[str]
    hand_count: int
    dungeon: bool
    hidden: bool
    theft_marker: bool
    hidden_all_round: bool
    robbed: bool
    protected: bool
    immobile: bool
    left: int | None
    planning_done: bool
    plan: list[SlotView]
    hand: NotRequired[list[str]]
    ap: NotRequired[dict[str, int]]
    ap_free: NotRequired[int]
    tokens_free: NotRequired[list[str]]
    building: NotRequired[dict[str, Any] | None]


class EventView(TypedDict):
    id: str
    name: str
    direction: str | None


class SupplyView(TypedDict):
    yellow: int
    guards: int
    captains: int


class AotObservation(TypedDict):
    """The game's part of an observation."""
    round: int
    phase: str
    start_player: int
    alarm: bool
    escape_district: str | None
    guard_initiative: int
    watch_acted: bool
    event: EventView | None
    calm_events_left: int
    alarm_events_left: int
    action_deck: int
    discard: list[str]
    guards: dict[str, str]
    #: "guard" / "captain" -> [vigilance, movement]
    watch: dict[str, list[int]]
    gems: dict[str, list[str]]
    face_down_tokens: list[str]
    features: dict[str, str]
    smoke: list[str]
    fire: list[str]
    supply: SupplyView
    thieves: list[ThiefView]
    #: who decides what now (view.deciding): its keys depend on the decision
    deciding: dict[str, Any] | None
    result: str | None
    winners: list[int]
    legal: list[str]
