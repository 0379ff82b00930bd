"""Thieves Den: the position's fields and what the rules mixins use of one another, declared
for the type checker.

``DenState`` (state.py) is made of mixins (actions, effects, view) that read the fields in
``DenState.FIELDS`` and call one another. At run time each mixin derives from ``object``;
for mypy it derives from :class:`DenFields`, which names those fields and methods once.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from thieves.core.game import State

    from .components import DenData
    from .notation import DenAction

    class DenFields(State):
        data: DenData
        # -- the fields (DenState.FIELDS), plain JSON data
        phase: str                               # "draft", "thieving", "handover", "end"
        round: int
        holder: int                              # seat holding the direction tile
        face: str                                # the tile's face up: "13" or "2"
        turn: int
        passed: list[bool]
        draft_kept: int
        prestige: list[int]
        treasures: list[dict[str, int]]          # per seat: treasure type -> count
        thieves: list[int]
        scheme: list[str]
        hands: list[list[str]]
        picks: list[str | None]
        above: list[list[str]]
        left: list[list[str]]
        neutral: list[str]
        loc_thieves: dict[str, int]
        fences_above: list[list[str]]
        right: list[list[str]]
        fence_thieves: dict[str, int]
        fence_treasures: dict[str, dict[str, int]]
        row: list[str | None]
        fence_deck: list[str]
        loc_deck: list[str]
        power_stacks: list[list[str]]
        power_gone: list[str]
        power_paid: list[str | None]
        witch_used: list[bool]
        steal_slot: int
        recruit_slot: dict[str, int]
        city: dict[str, int]
        forest: int
        pending: list[dict[str, Any]]            # frames, see effects.py
        final: dict[str, list[int]] | None
        # -- the options read once (DenState._read_options), not fields
        _counter_clockwise: bool                 # option first_direction
        _closed_locations: bool                  # option passed_locations = "closed"
        _short_supply_allowed: bool              # option empty_supply = "allowed"

        # -- methods one mixin uses from another
        @property
        def direction(self) -> int: ...
        def _hand_over(self, q: int) -> None: ...
        def _in_play(self) -> list[str]: ...
        def _owner(self, card: str) -> int | None: ...
        def _open_to(self, p: int, owner: int | None) -> bool: ...
        def _short_supply_ok(self) -> bool: ...
        def _power_choices(self, f: dict[str, Any]) -> list[str]: ...
        def _can_choose_power(self, f: dict[str, Any]) -> bool: ...
        def _apply_power_choice(self, p: int, f: dict[str, Any], act: DenAction) -> None: ...
        def _gain_treasure(self, p: int, t: str, n: int = 1) -> int: ...
        def _gain_thieves(self, p: int, n: int) -> int: ...
        def _add_thieves(self, p: int, n: int) -> None: ...
        def _ability_frames(self, p: int, card: str) -> list[dict[str, Any]]: ...
        def _bonus_frames(self, p: int, card: str) -> list[dict[str, Any]]: ...
        def _targets(self, p: int) -> list[int]: ...
        def _choices(self, f: dict[str, Any]) -> list[str]: ...

    MixinBase = DenFields
else:
    MixinBase = object
