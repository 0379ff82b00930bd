"""Pydantic models of Thiefdom's component data and the loader."""
from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import Field, model_validator

from thieves.core.data import StrictModel, load_model, refuse_duplicates

PKG = "thieves.games.thiefdom"
GOODS = ("gold", "gem", "brandy", "wine", "badge")
HOUSE_TYPES = ("tower", "garden", "forge", "stable", "church")
LOCATION_TYPES = ("market", "dealer", "tavern", "dungeon", "smuggler")


class Building(StrictModel):
    id: str
    type: Literal["tower", "garden", "forge", "stable", "church",
                  "market", "dealer", "tavern", "dungeon", "smuggler"]
    entrances: list[list[int]] = Field(default_factory=list)


class Section(StrictModel):
    section: int = Field(ge=1, le=8)
    face: Literal["A", "B"]
    river: bool = False
    reconstructed: bool = False
    grid: list[str]
    buildings: list[Building]
    walls: list[list[Any]] = Field(default_factory=list)
    note: Optional[str] = None  # why a reconstructed face is as it is

    @model_validator(mode="after")
    def _check(self) -> "Section":
        n = len(self.grid)
        if n != 7 or any(len(r) != 7 for r in self.grid):
            raise ValueError("a section grid is 7 rows of 7 squares")
        ids = {c for r in self.grid for c in r if c not in ".L"}
        if ids != {b.id for b in self.buildings}:
            raise ValueError(f"grid buildings {sorted(ids)} differ from the building list")
        for b in self.buildings:
            if b.type in LOCATION_TYPES and not b.entrances:
                raise ValueError(f"location {b.id} has no entrance")
        return self


class Sections(StrictModel):
    sections: list[Section]

    @model_validator(mode="after")
    def _check(self) -> "Sections":
        refuse_duplicates((f"{s.section}{s.face}" for s in self.sections), "section face")
        return self


class Equipment(StrictModel):
    id: str
    name: str
    cost: int = Field(ge=0)
    vp: int = Field(ge=0)
    kind: str
    reconstructed: bool = False
    note: Optional[str] = None  # why a reconstructed value is as it is


class EquipmentList(StrictModel):
    equipment: list[Equipment]


class EndBonus(StrictModel):
    good: Literal["gold", "gem", "brandy", "wine", "badge"]
    vp: int


class Client(StrictModel):
    id: str
    name: str
    effect: Optional[str] = None
    cost: int = Field(ge=0)
    vp: int = Field(ge=0)
    goods: dict[str, int] = Field(default_factory=dict)
    end_bonus: Optional[EndBonus] = None
    reconstructed: bool = False

    @property
    def power(self) -> str:
        return self.effect or self.id


class Clients(StrictModel):
    clients: list[Client]


class Mission(StrictModel):
    id: str
    deliver: dict[str, int]
    reward: dict[str, int]
    reconstructed: bool = False


class Missions(StrictModel):
    missions: list[Mission]


class Villa(StrictModel):
    id: str
    locked: Literal["art", "gems"]
    reconstructed: bool = False


class Artwork(StrictModel):
    id: str
    # goods, "vp", and "equipment: 1" for the reward icon "draw 2 cards, keep 1"
    reward: dict[Literal["vp", "gold", "gem", "brandy", "wine", "badge", "equipment"], int]
    reconstructed: bool = False


class Villas(StrictModel):
    villas: list[Villa]
    artworks: list[Artwork]


class Patrol(StrictModel):
    id: str
    players: list[int]
    first: bool = False
    figures: list[str]
    rival: Optional[int] = None
    reconstructed: bool = False
    note: Optional[str] = None  # why a reconstructed board is as it is


class Patrols(StrictModel):
    patrols: list[Patrol]


class Rating(StrictModel):
    min: int
    stars: int


class Solo(StrictModel):
    compass: dict[str, Any]
    rivals: dict[int, dict[str, Any]]
    ratings: list[Rating]

    @model_validator(mode="after")
    def _check(self) -> "Solo":
        refuse_duplicates((r.min for r in self.ratings), "rating threshold")
        refuse_duplicates((r.stars for r in self.ratings), "rating of stars")
        return self


class LootSide(StrictModel):
    guards: list[str]
    nobles: list[str]

    @model_validator(mode="after")
    def _check(self) -> "LootSide":
        refuse_duplicates(self.guards, "guard")
        refuse_duplicates(self.nobles, "noble")
        return self


#: the purse tokens of option noble_purse_fixed when board.yaml does not say (RECONSTRUCTED)
PURSE_GOODS: dict[str, Literal["gold", "gem"]] = {"A": "gold", "B": "gem", "C": "gold", "D": "gem"}


class Board(StrictModel):
    loot_board: dict[str, LootSide]
    wanted_posters: int
    # option noble_purse_fixed: what each noble's purse token shows (RECONSTRUCTED)
    purse_goods: dict[str, Literal["gold", "gem"]] = Field(
        default_factory=lambda: dict(PURSE_GOODS))
    start_vp: int
    start_hideout_gold: int
    action_points: int
    movement_points: int
    nights: int


class ThiefdomData:
    """All component data, validated; shared by every state and never mutated."""

    def __init__(self, data_dir: str | None = None) -> None:
        self.sections = {f"{s.section}{s.face}": s for s in
                         load_model(PKG, "sections.yaml", Sections, data_dir).sections}
        self.equipment = {e.id: e for e in load_model(PKG, "equipment.yaml", EquipmentList, data_dir).equipment}
        self.clients = {c.id: c for c in load_model(PKG, "clients.yaml", Clients, data_dir).clients}
        #: client id -> the power it has (its own id, or the card it copies): read on every decision
        self.power = {cid: c.power for cid, c in self.clients.items()}
        self.missions = {m.id: m for m in load_model(PKG, "missions.yaml", Missions, data_dir).missions}
        v = load_model(PKG, "villas.yaml", Villas, data_dir)
        self.villas = {x.id: x for x in v.villas}
        self.artworks = {a.id: a for a in v.artworks}
        self.patrols = {p.id: p for p in load_model(PKG, "patrols.yaml", Patrols, data_dir).patrols}
        self.solo = load_model(PKG, "solo.yaml", Solo, data_dir)
        self.board = load_model(PKG, "board.yaml", Board, data_dir)
        self.data_dir = data_dir
