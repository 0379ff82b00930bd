"""What the rules mixins share, declared once for the type checker.

``ThiefdomState`` (state.py) puts the rules together from mixins (setup, day,
townsfolk, thief, locations, cards, solo, view); each mixin reads the state's
fields and calls methods that another mixin defines. :class:`RulesBase` says
what those fields and methods are. It exists for mypy only: at run time it
is ``object``, so the mixins and the state are exactly what they were.

The fields are the snapshot's (``ThiefdomState.FIELDS``): plain JSON data.
Those that are a dict or None depending on the phase (``turn``, ``tmove``,
``draft``, ``solo``, ``final``) are ``Any``: the rules read them only in the
phase where they are set.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from thieves.core.game import State

    from .city import City
    from .notation import Action

    class RulesBase(State):
        # -- the snapshot's fields (see setup.py for their first values) --------------
        phase: str
        round: int
        layout: list[list[Any]]
        ncols: int
        villas: dict[str, dict[str, Any]]
        badges: dict[str, int]
        purses: dict[str, bool]
        dungeon: dict[str, Any]
        smugglers: dict[str, str | None]
        stacks: dict[str, list[str]]
        mission_pile: list[str]
        missions_done: list[list[str]]
        client_deck: list[str]
        client_discard: list[str]
        revealed: list[str]
        display: list[str]
        equip_deck: list[str]
        equip_discard: list[str]
        half_pile: list[str]
        tf: dict[str, dict[str, int]]
        vp: list[int]
        stash: list[dict[str, Any]]
        thieves: list[list[dict[str, Any]]]
        hideout: list[str | None]
        stamina: list[bool]
        plans: list[str | None]
        patrol: list[Any]
        first: int
        first_order: list[int]
        solo: Any
        draft: Any
        bought: list[int]
        done: list[bool]
        turn: Any
        tmove: Any
        queue: list[str]
        queue_mover: int
        schedule: list[list[Any]]
        act: int
        final: Any
        refill: bool
        hide_order: list[int]
        delivered: list[str]
        planning: list[str]
        # -- derived, not in the snapshot -------------------------------------------------
        city: City

        # -- methods one mixin defines and others call --------------------------------------
        def _gain(self, p: int, n: int) -> None: ...
        def _order(self) -> list[int]: ...
        def _advance(self) -> None: ...
        def _start_round(self) -> None: ...
        def _can_equip(self, p: int, t: int, e: str) -> bool: ...
        def _draw_equipment_possible(self) -> bool: ...
        def _draw_equipment(self) -> str: ...
        # townsfolk.py
        _occ_live: bool
        _occ_cache: dict[int, str] | None
        _watch_cache: frozenset[int] | None
        def _occ(self, without: str | None = None) -> dict[int, str]: ...
        def _occ_now(self) -> dict[int, str]: ...
        def _place(self, p: int, t: int, pos: int | str | None) -> None: ...
        def _figure_at(self, cell: int) -> str | None: ...
        def _guard_sees(self, fig: str) -> list[int]: ...
        def _resolve(self, pending: list[Any]) -> list[str]: ...
        def _check_thief_seen(self, p: int, t: int, cell: int, occ: dict[int, str] | None = None) -> bool: ...
        def _start_tmove(self, fig: str, mover: int, stop_at: int = 0, solo_roll: int = 0) -> None: ...
        # thief.py
        def _start_turn(self, p: int, t: int) -> None: ...
        def _move_actions(self) -> list[str]: ...
        def _enter_building(self, p: int, t: int, bid: str) -> None: ...
        # locations.py
        def _can_use(self, p: int, t: int, bid: str) -> bool: ...
        def _use_location(self, p: int, t: int) -> None: ...
        def _sub_actions(self) -> list[str]: ...
        def _sub_apply(self, act: Action) -> None: ...
        def _buy_actions(self, p: int, t: int, discount: int) -> list[str]: ...
        def _buy(self, p: int, t: int, e: str, at_forge: bool) -> None: ...
        # cards.py
        def _ally(self, p: int, t: int) -> str | None: ...
        def _guild_has(self, p: int, power: str) -> bool: ...
        def _card_actions(self, p: int, t: int) -> list[str]: ...
        def _card_apply(self, p: int, t: int, act: Action) -> None: ...
        def _share_actions(self, sub: dict[str, Any]) -> list[str]: ...
        def _share_apply(self, sub: dict[str, Any], act: Action) -> None: ...
        # solo.py
        def _solo_townsfolk(self) -> None: ...
        def _solo_pick(self, tm: dict[str, Any], opts: list[int]) -> int: ...
        def solo_rating(self) -> int: ...
else:
    RulesBase = object
