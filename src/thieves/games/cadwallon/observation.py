"""What a Cadwallon observation holds, key by key (the dict ``State.observation`` hands
to every viewer: a seat, or ``None`` for a spectator). The game's part is written by
:meth:`~.rules.CadwallonState._observe`; the engine adds :class:`~thieves.core.game.EngineKeys`. Every key is
there for every viewer; what a viewer may not see is ``None`` or a count (another hand,
the decks, the box)."""
from __future__ import annotations

from typing import Any, TypedDict

from thieves.core.game import EngineKeys


class Chest(TypedDict):
    """A chest token in a room: the treasure on its face, and whether it shows its chest
    face (sealed: it can only be forced)."""
    t: str
    sealed: bool


class CadwallonView(TypedDict):
    """The keys of :meth:`~.rules.CadwallonState._observe`."""
    adventure: str
    round: int
    track: int                       # the last round of the adventure's turn track
    phase: str                       # gang, deploy, militia, militia_move, main, over
    first: int
    current: int
    alarm: bool
    portcullis: list[str]            # the zones closed by a portcullis
    ap: list[int]                    # Action Points left, by seat
    ducats: list[int]                # by seat
    bank: int
    gangs: list[str | None]          # by seat (None before the seat chooses one)
    positions: dict[str, str]        # figure -> zone, for every figure in the district
    to_deploy: list[list[str]]       # by seat, the characters still to deploy
    deploy_selected: str | None
    carried: dict[str, list[str]]    # character -> the treasure tokens it carries
    chests: dict[str, Chest]         # room -> its chest
    room_ducats: dict[str, int]      # zone -> loose ducats lying there
    tokens: dict[str, str]           # zone -> the adventure token on it
    banked: list[list[str]]          # by seat, the treasures brought out of the district
    escaped: list[str]               # the characters out of the district
    handed_in: list[str]             # the treasures handed in for missions
    box_count: int                   # the chest tokens left in the box (unseen)
    hand: list[str] | None           # the viewer's own arcana cards (None for a spectator)
    hand_counts: list[int]           # by seat
    deck_count: int
    discard: list[str]
    missions: list[str | None]       # the face-up missions by slot (None: an empty slot)
    mission_deck_count: int
    activated: list[str]             # the characters activated this round
    active: str | None
    act: dict[str, Any] | None       # the activation's record: moved, acted, cards, talent...
    injured: dict[str, int]          # character -> Movement lost to a Niggling injury
    militia_left: int                # militiaman moves left this turn
    militia_selected: str | None
    militia_roll: int
    combat: dict[str, Any] | None    # the fight being settled
    fight: dict[str, Any] | None     # the last fight settled, shown until the next one
    pending: dict[str, Any] | None   # the first pending task (a fight's window, an interrupt...)
    scores: list[float]              # by seat, as the game would end now
    legal: list[str]                 # the viewer's own legal actions (none for a spectator)


class CadwallonObservation(CadwallonView, EngineKeys):
    """A whole observation, as a viewer receives it."""
