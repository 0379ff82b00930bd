"""Thieves Den component data: pydantic models for the YAML files in ``data/``."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator

from thieves.core.data import load_model, refuse_duplicates
from thieves.core.errors import DataError

if TYPE_CHECKING:
    from .actions import Holding, TurnEntry

TREASURES = ("book", "jewel", "artifact", "fossil", "potion")
LOCATION_TYPES = ("village", "shadow_valley", "ruins", "sanctuary", "city")

Treasure = Literal["book", "jewel", "artifact", "fossil", "potion"]
LocationType = Literal["village", "shadow_valley", "ruins", "sanctuary", "city"]
FenceType = Literal["noble", "representative", "collector", "sorcerer", "mercenary", "peddler", "tinkerer"]
#: the player counts of the setup table (board.yaml ``setup``)
PlayerCount = Literal["2", "3", "4", "5"]
FENCE_TYPES: tuple[FenceType, ...] = ("noble", "representative", "collector", "sorcerer", "mercenary",
                                      "peddler", "tinkerer")

#: ability steps a location card may use (see locations.yaml)
STEP_KINDS = ("gain", "gain_any", "thieves", "prestige", "pay", "pay_any", "pay_thieves",
              "take_treasure", "take_thief", "destroy")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Step(Strict):
    """One step of an ability; exactly one field is set."""
    gain: Optional[dict[Treasure, int]] = None
    gain_any: Optional[int] = Field(None, ge=1)
    thieves: Optional[int] = Field(None, ge=1)
    prestige: Optional[int] = Field(None, ge=1)
    pay: Optional[dict[Treasure, int]] = None
    pay_any: Optional[int] = Field(None, ge=1)
    pay_thieves: Optional[int] = Field(None, ge=1)
    take_treasure: Optional[int] = Field(None, ge=1)
    take_thief: Optional[int] = Field(None, ge=1)
    destroy: Optional[int] = Field(None, ge=1)

    @model_validator(mode="after")
    def _one(self) -> "Step":
        set_ = [k for k in STEP_KINDS if getattr(self, k) is not None]
        if len(set_) != 1:
            raise ValueError(f"a step has exactly one of {', '.join(STEP_KINDS)} (got {set_})")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in STEP_KINDS if getattr(self, k) is not None)

    @property
    def value(self) -> Any:
        return getattr(self, self.kind)


class Location(Strict):
    id: str
    name: str
    name_fr: Optional[str] = None
    note: Optional[str] = None
    type: LocationType
    moon: bool
    instant: bool
    ability: list[Step] = Field(min_length=1)
    owner_bonus: list[Step] = []
    reconstructed: bool = False

    @model_validator(mode="after")
    def _bonus(self) -> "Location":
        # Rulebook "Cartes Lieu" 3: "Ce sont des Trésors ou des Voleurs"
        for s in self.owner_bonus:
            if s.kind not in ("gain", "thieves"):
                raise ValueError("an owner bonus is made of treasures or thieves")
        return self


class Fence(Strict):
    id: str
    name: str
    type: FenceType
    wants: list[Literal["book", "jewel", "artifact", "fossil", "potion", "joker"]] = Field(min_length=1)
    prestige: int = Field(ge=0)
    moon: bool
    reconstructed: bool = False
    #: why a stand-in is as it is (e.g. a redesign after playtesting)
    note: Optional[str] = None


class Power(Strict):
    id: str
    name: str
    effect: Literal["recall", "extra_thief", "double", "refresh", "prestige", "treasure", "new_location",
                    "thieves_for_treasures", "relocate", "swap", "owner_cut", "thieves"]
    amount: int = 0
    text: str
    reconstructed: bool = False


class Scheme(Strict):
    id: str
    types: list[LocationType] = Field(min_length=2, max_length=2)
    reconstructed: bool = False


class SetupRow(Strict):
    treasures_each: int = Field(ge=0)
    forest: int = Field(ge=0)


class WitchSlot(Strict):
    treasure: Treasure
    prestige: int = Field(ge=0)


class Witch(Strict):
    reconstructed: bool = False
    slots: list[WitchSlot] = Field(min_length=1)


class Majority(Strict):
    reconstructed: bool = False
    values: dict[FenceType, int]


class SchemeSets(Strict):
    reconstructed: bool = False
    values: list[int] = Field(min_length=2)  # index = number of sets, last one for "that many or more"


class Board(Strict):
    setup: dict[PlayerCount, SetupRow]
    start_thieves: int
    treasure_limit: int
    thief_limit: int
    rounds: int
    draft_hand: int
    draft_keep: int
    fence_row: int
    power_stacks: int
    power_stack_size: int
    treasures: list[Treasure]
    location_types: list[LocationType]
    witch: Witch
    majority: Majority
    scheme_sets: SchemeSets

    @model_validator(mode="after")
    def _check(self) -> "Board":
        refuse_duplicates(self.treasures, "treasure")
        refuse_duplicates(self.location_types, "location type")
        return self


class LocationsFile(Strict):
    locations: list[Location]


class FencesFile(Strict):
    fences: list[Fence]


class PowersFile(Strict):
    powers: list[Power]


class SchemesFile(Strict):
    schemes: list[Scheme]


class DenData:
    """All component data, indexed by id. Shared by every state, never mutated."""

    def __init__(self, board: Board, locations: list[Location], fences: list[Fence],
                 powers: list[Power], schemes: list[Scheme]) -> None:
        # every id and treasure name as one string object (sys.intern): the position's lists
        # hold these very objects, so the rules' dict and set lookups match them by identity
        iid = sys.intern
        self.board = board
        self.locations = {iid(c.id): c for c in locations}
        self.fences = {iid(c.id): c for c in fences}
        self.powers = {iid(c.id): c for c in powers}
        self.schemes = {iid(c.id): c for c in schemes}
        for kind, items, src in (("location", self.locations, locations), ("fence", self.fences, fences),
                                 ("power", self.powers, powers), ("scheme", self.schemes, schemes)):
            if len(items) != len(src):
                raise DataError(f"duplicate {kind} ids in the data")
        need = board.power_stacks * board.power_stack_size
        if len(self.powers) < need:
            raise DataError(f"powers.yaml: {need} power tiles are needed, found {len(self.powers)}")
        if len(self.schemes) < 5:
            raise DataError("schemes.yaml: at least 5 scheme cards are needed (one per player)")
        # pre-computed ability steps and costs, for speed: (kind, value) pairs
        self.ability_steps = {iid(c.id): [(st.kind, _interned(st.value)) for st in c.ability] for c in locations}
        self.bonus_steps = {iid(c.id): [(st.kind, _interned(st.value)) for st in c.owner_bonus] for c in locations}
        self.costs: dict[str, tuple[dict[str, int], int, int] | None] = {}
        for c in locations:
            pay: dict[str, int] = {}
            any_, thieves = 0, 0
            for kind, value in self.ability_steps[iid(c.id)]:
                if kind == "pay":
                    for t, k in value.items():
                        pay[t] = pay.get(t, 0) + k
                elif kind == "pay_any":
                    any_ += value
                elif kind == "pay_thieves":
                    thieves += value
            self.costs[iid(c.id)] = (pay, any_, thieves) if (pay or any_ or thieves) else None
        # pre-split fence wants for fast checks: specific counts and joker count
        self.fence_needs: dict[str, tuple[dict[str, int], int]] = {}
        for f in fences:
            spec: dict[str, int] = {}
            for w in f.wants:
                if w != "joker":
                    spec[iid(w)] = spec.get(w, 0) + 1
            self.fence_needs[iid(f.id)] = (spec, f.wants.count("joker"))
        # lookup tables for the legal-action hot path (the same facts, indexed for speed)
        #: how many treasures a fence wants in all, jokers included
        self.fence_total = {fid: sum(spec.values()) + jokers
                            for fid, (spec, jokers) in self.fence_needs.items()}
        #: the treasure type of each Witch slot, and each type's slot indices in board order
        self.witch_treasures = [iid(s.treasure) for s in board.witch.slots]
        self.witch_slots_of = {t: [j for j, wt in enumerate(self.witch_treasures) if wt == t]
                               for t in TREASURES}
        self.witch_prestige = [s.prestige for s in board.witch.slots]
        #: per treasure, its Witch slots from the most prestige down (ties: in slot order)
        self.witch_best_of = {t: sorted(js, key=lambda j: -self.witch_prestige[j])
                              for t, js in self.witch_slots_of.items()}
        #: each power tile's effect
        self.power_effect = {pid: tile.effect for pid, tile in self.powers.items()}
        #: power tile and scheme card ids in sorted order (setup and determinize shuffle copies)
        self.power_ids = sorted(self.powers)
        self.scheme_ids = sorted(self.schemes)
        #: "Name (id)" of each location card, as events and texts print it
        self.loc_labels = {iid(c.id): f"{c.name} ({iid(c.id)})" for c in locations}
        #: tables for the legal-action hot path, one entry per treasure holding met in play
        #: (filled by ``actions.holding``; a pure cache, the facts
        #: they hold follow from the data above)
        self.holding_memo: dict[tuple[int, ...], Holding] = {}
        #: the notation of the actions that name a card or a power stack, made once
        self.loc_actions = {c: f"loc {c}" for c in self.locations}
        self.keep_actions = {c: f"keep {c}" for c in self.locations}
        self.sell_actions = {f: f"sell {f}" for f in self.fences}
        self.recall_actions = {c: f"recall {c}" for c in self.locations}
        self.return_actions = {f: f"return {f}" for f in self.fences}
        self.power_actions = [{t: f"power {i + 1} {t}" for t in TREASURES} for i in range(board.power_stacks)]
        #: the location cards whose ability costs nothing, and the others with their costs
        self.free_locations = frozenset(c for c, cost in self.costs.items() if cost is None)
        self.costed_locations = [(c, cost) for c, cost in self.costs.items() if cost is not None]
        #: the most thieves an ability costs
        self.most_thieves_paid = max((cost[2] for cost in self.costs.values() if cost), default=0)
        #: the board's limits, and each card's type and whether it is instant, read straight
        #: off the cards above (for the playout's hot path)
        self.treasure_limit = board.treasure_limit
        self.thief_limit = board.thief_limit
        self.loc_type = {iid(c.id): iid(c.type) for c in locations}
        self.scheme_types = {iid(c.id): (iid(c.types[0]), iid(c.types[1])) for c in schemes}
        self.fence_type = {iid(f.id): f.type for f in fences}
        self.instant = frozenset(iid(c.id) for c in locations if c.instant)
        #: the :class:`~.actions.Holding` of no treasure at all (filled by ``actions.holding``)
        self.empty_holding: Holding | None = None
        #: each card's ability and owner bonus as frames for player 0 (filled by
        #: ``effects.frame_templates`` when first met)
        self.ability_frames: dict[str, list[dict[str, Any]]] = {}
        self.bonus_frames: dict[str, list[dict[str, Any]]] = {}
        #: turn action notation -> (rule function, argument, adds a treasure); filled by
        #: ``actions.turn_dispatch``
        self.turn_dispatch: dict[str, TurnEntry] = {}


def _interned(value: Any) -> Any:
    """An ability step's value with its treasure names interned (see :class:`DenData`)."""
    return {sys.intern(k): v for k, v in value.items()} if isinstance(value, dict) else value


PACKAGE = "thieves.games.thieves_den"


_DATA: dict[str | None, "DenData"] = {}


def load_data(data_dir: str | None = None) -> DenData:
    """The validated data, read once per data directory (the web texts ask for it
    for every button label, so it must never go back to the disk)."""
    if data_dir not in _DATA:
        _DATA[data_dir] = _read_data(data_dir)
    return _DATA[data_dir]


def _read_data(data_dir: str | None) -> DenData:
    board = load_model(PACKAGE, "board.yaml", Board, data_dir)
    locs = load_model(PACKAGE, "locations.yaml", LocationsFile, data_dir).locations
    fences = load_model(PACKAGE, "fences.yaml", FencesFile, data_dir).fences
    powers = load_model(PACKAGE, "powers.yaml", PowersFile, data_dir).powers
    schemes = load_model(PACKAGE, "schemes.yaml", SchemesFile, data_dir).schemes
    data = DenData(board, locs, fences, powers, schemes)
    two_p_locs = sum(1 for c in locs if c.moon)
    if two_p_locs < 2 * board.draft_hand:
        raise DataError("locations.yaml: too few moon (2-player) location cards for a 2-player draft")
    if len(locs) < 5 * board.draft_hand:
        raise DataError("locations.yaml: too few location cards for a 5-player draft")
    return data
