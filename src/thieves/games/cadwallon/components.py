"""Component data of Cadwallon: pydantic models, loading and derived tables.

Every YAML file in ``data/`` is validated here. :func:`load` returns a
:class:`CadwallonData` with the board graph pre-computed (neighbours,
walls, distances) so the rules never search the YAML at play time.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Literal, Optional

from pydantic import Field, model_validator

from ...core.data import StrictModel, load_model, refuse_duplicates
from ...core.errors import DataError

PKG = "thieves.games.cadwallon"


# -- board -------------------------------------------------------------------
class Zone(StrictModel):
    id: str
    kind: Literal["street", "room"]
    cell: list[int] = Field(min_length=2, max_length=2)
    name: Optional[str] = None
    role: Optional[Literal["vault", "guard_room", "library", "magister"]] = None
    deployment: bool = False


class Connection(StrictModel):
    a: str
    b: str
    kind: Literal["line", "arrow"]  # white line (street to street) or green arrow (door)


class Board(StrictModel):
    reconstructed: bool = True
    note: str = ""
    columns: int
    rows: int
    zones: list[Zone]
    connections: list[Connection]
    walls: list[list[str]]
    roofed: list[str] = []
    portcullis_slots: list[str] = []

    @model_validator(mode="after")
    def _check(self) -> "Board":
        ids = {z.id for z in self.zones}
        if len(ids) != len(self.zones):
            raise ValueError("zone ids must be unique")
        kinds = {z.id: z.kind for z in self.zones}
        refuse_duplicates((frozenset((c.a, c.b)) for c in self.connections), "connection")
        refuse_duplicates(self.roofed, "roofed zone")
        refuse_duplicates(self.portcullis_slots, "portcullis slot")
        pairs = set()
        for c in self.connections:
            if c.a not in ids or c.b not in ids:
                raise ValueError(f"connection {c.a}-{c.b} names an unknown zone")
            if c.kind == "line" and not (kinds[c.a] == kinds[c.b] == "street"):
                raise ValueError(f"white line {c.a}-{c.b} must join two street zones")
            if c.kind == "arrow" and "room" not in (kinds[c.a], kinds[c.b]):
                raise ValueError(f"green arrow {c.a}-{c.b} must lead into a room")
            pairs.add(frozenset((c.a, c.b)))
        for w in self.walls:
            if len(w) != 2 or w[0] not in ids or w[1] not in ids:
                raise ValueError(f"wall {w} must name two known zones")
            if frozenset(w) in pairs:
                raise ValueError(f"{w[0]}-{w[1]} is both a connection and a wall")
        for role in ("vault", "guard_room", "library", "magister"):
            if sum(1 for z in self.zones if z.role == role) != 1:
                raise ValueError(f"the board needs exactly one room with role {role}")
        for z in self.zones:
            if z.role and z.kind != "room":
                raise ValueError(f"{z.id} has role {z.role} but is not a room")
            if z.deployment and z.kind != "street":
                raise ValueError(f"deployment zone {z.id} must be a street zone")
        deploy = {z.id for z in self.zones if z.deployment}
        for slot in self.portcullis_slots:
            if slot not in deploy:
                raise ValueError(f"portcullis slot {slot} is not a deployment zone")
        if sum(z.deployment for z in self.zones) < 16:
            raise ValueError("16 thieves need at least 16 deployment zones")
        if sum(z.kind == "room" for z in self.zones) > 24:
            raise ValueError("there are only 24 chest tokens, one per room")
        return self


# -- characters ----------------------------------------------------------------
class Character(StrictModel):
    id: str
    name: str
    combat: int = Field(ge=1, le=6)
    movement: int = Field(ge=1, le=8)
    spirit: int = Field(ge=1, le=6)
    talent: Optional[str] = None
    reconstructed: bool = False


class Gang(StrictModel):
    id: str
    name: str
    color: str
    characters: list[Character] = Field(min_length=4, max_length=4)


class Militiaman(StrictModel):
    id: str
    name: str
    combat: int
    start: Literal["vault", "guard_room"]


class Heroine(StrictModel):
    id: str
    name: str
    combat: int
    movement: int
    spirit: int


class Talent(StrictModel):
    id: Literal["brawler", "stalwart", "cutpurse", "locksmith", "lucky_hands", "nimble",
                "shadow_step", "sleight"]
    name: str
    cost: int = Field(ge=0, le=1)
    text: str
    reconstructed: bool = False


class Characters(StrictModel):
    gangs: list[Gang] = Field(min_length=4, max_length=4)
    militiamen: list[Militiaman] = Field(min_length=2, max_length=2)
    heroines: list[Heroine] = Field(min_length=2, max_length=2)
    talents: list[Talent]

    @model_validator(mode="after")
    def _check(self) -> "Characters":
        known = {t.id for t in self.talents}
        for g in self.gangs:
            for c in g.characters:
                if c.talent is not None and c.talent not in known:
                    raise ValueError(f"{c.id} has unknown talent {c.talent}")
        return self


# -- treasures, arcana, missions, adventures ----------------------------------------
class TreasureType(StrictModel):
    id: str
    name: str
    set_values: list[int] = Field(min_length=1)
    reconstructed: bool = False


class Treasures(StrictModel):
    types: list[TreasureType]
    mixes: dict[str, dict[str, int]]
    reconstructed_mixes: list[str] = []
    ducats_in_bank: int = Field(ge=0)
    carry_limit: int = Field(ge=1)

    @model_validator(mode="after")
    def _check(self) -> "Treasures":
        by_id = {t.id: t for t in self.types}
        for name, mix in self.mixes.items():
            if sum(mix.values()) != 24:
                raise ValueError(f"treasure mix {name} must have 24 tokens")
            for t, n in mix.items():
                if t not in by_id:
                    raise ValueError(f"mix {name} names unknown treasure {t}")
                if n > len(by_id[t].set_values):
                    raise ValueError(f"mix {name}: {n} {t} but only {len(by_id[t].set_values)} set values")
        return self


class ArcanaCard(StrictModel):
    kind: str
    name: str
    count: int = Field(ge=1)
    timing: Literal["combat", "reroll", "activation", "interrupt", "turn"]
    text: str
    reconstructed: bool = False


# every kind the engine has a rule for, with the moment the rule plays it
ARCANA_TIMING = {"fury": "combat", "feint": "combat", "slippery": "combat",
                 "second_chance": "reroll", "jinx": "reroll",
                 "run": "activation", "secret_passage": "activation", "rooftops": "activation",
                 "skeleton_key": "activation", "hidden_purse": "activation",
                 "niggling_injury": "interrupt",
                 "second_wind": "turn", "pickpocket": "turn", "reinforced_lock": "turn"}
ARCANA_KINDS = set(ARCANA_TIMING)


class Arcana(StrictModel):
    cards: list[ArcanaCard]

    @model_validator(mode="after")
    def _check(self) -> "Arcana":
        refuse_duplicates((c.kind for c in self.cards), "arcana kind")
        if sum(c.count for c in self.cards) != 60:
            raise ValueError("the arcana deck must have 60 cards")
        for c in self.cards:
            if c.kind not in ARCANA_KINDS:
                raise ValueError(f"arcana kind {c.kind} has no rule in the engine")
            if c.timing != ARCANA_TIMING[c.kind]:
                raise ValueError(f"arcana kind {c.kind} is played at timing "
                                 f"{ARCANA_TIMING[c.kind]!r}, not {c.timing!r}")
        return self


class Mission(StrictModel):
    id: str
    name: str
    needs: dict[str, int]
    reward: int = Field(ge=0)
    spirit_test: bool = False
    reconstructed: bool = False
    #: why a stand-in is as it is (e.g. a redesign after playtesting)
    note: str = ""


class Missions(StrictModel):
    missions: list[Mission] = Field(min_length=3)


class Event(StrictModel):
    round: int = Field(ge=2)
    effect: Literal["alarm", "portcullis", "ducats", "draw", "reseal", "new_missions", "remove_tokens"]
    zones: list[str] = []
    zone: Optional[str] = None
    amount: int = 0
    token: Optional[Literal["civilian", "zombie"]] = None
    text: str = ""


class AdventureSetup(StrictModel):
    ducats: dict[str, int] = {}
    tokens: dict[str, Literal["civilian", "zombie"]] = {}
    heroines: dict[str, str] = {}


class Special(StrictModel):
    militia_fines_to_vault: bool = False
    mission_bonus: int = 0
    militia_moves_after_alarm: int = 1


class Adventure(StrictModel):
    id: str
    name: str
    story: str
    track: int = Field(ge=2, le=20)
    setup: AdventureSetup = AdventureSetup()
    special: Special = Special()
    events: list[Event]
    reconstructed: bool = False

    @model_validator(mode="after")
    def _check(self) -> "Adventure":
        if sum(e.effect == "alarm" for e in self.events) != 1:
            raise ValueError(f"adventure {self.id} must raise the alarm exactly once")
        drops = [z for e in self.events for z in e.zones]
        if len(drops) > 9:
            raise ValueError(f"adventure {self.id} uses more than the 9 portcullis tokens")
        for e in self.events:
            if e.round > self.track:
                raise ValueError(f"adventure {self.id}: event on round {e.round} beyond the track")
        return self


class Adventures(StrictModel):
    adventures: list[Adventure] = Field(min_length=8, max_length=8)


# -- the loaded bundle -----------------------------------------------------------------
class CadwallonData:
    """All component data plus derived board tables (shared, never mutated)."""

    def __init__(self, data_dir: str | None) -> None:
        self.board = load_model(PKG, "board.yaml", Board, data_dir)
        self.characters = load_model(PKG, "characters.yaml", Characters, data_dir)
        self.treasures = load_model(PKG, "treasures.yaml", Treasures, data_dir)
        self.arcana = load_model(PKG, "arcana.yaml", Arcana, data_dir)
        self.missions = load_model(PKG, "missions.yaml", Missions, data_dir)
        self.adventures = load_model(PKG, "adventures.yaml", Adventures, data_dir)
        self._index_board()
        self._index_figures()
        self._make_lookups()
        self._make_notations()
        self._check_references()

    def _index_board(self) -> None:
        """The zones, their kinds and roles, what is next to what and how far."""
        b = self.board
        self.zone = {z.id: z for z in b.zones}
        self.zone_ids = [z.id for z in b.zones]
        self.rooms = [z.id for z in b.zones if z.kind == "room"]
        self.is_room = {z.id: z.kind == "room" for z in b.zones}
        self.deployment = [z.id for z in b.zones if z.deployment]
        self.role: dict[str, str] = {z.role: z.id for z in b.zones if z.role}
        # (the tables hold the zones' own id strings, one object per zone)
        same = {z: z for z in self.zone_ids}
        self.adj: dict[str, list[str]] = {z: [] for z in self.zone_ids}
        for c in b.connections:
            self.adj[c.a].append(same[c.b])
            self.adj[c.b].append(same[c.a])
        self.wall_adj: dict[str, list[str]] = {z: [] for z in self.zone_ids}
        for a, w in b.walls:
            self.wall_adj[a].append(same[w])
            self.wall_adj[w].append(same[a])
        for z in self.zone_ids:
            self.adj[z].sort()
            self.wall_adj[z].sort()
        self.dist = {z: self._bfs(z) for z in self.zone_ids}

    def _index_figures(self) -> None:
        """Characters, gangs, talents, militiamen, heroines, treasures, cards, missions and
        adventures by id."""
        self.char: dict[str, Character] = {}
        self.gang_of: dict[str, str] = {}
        for g in self.characters.gangs:
            for ch in g.characters:
                self.char[ch.id] = ch
                self.gang_of[ch.id] = g.id
        self.gang = {g.id: g for g in self.characters.gangs}
        self.gang_ids = [g.id for g in self.characters.gangs]
        self.talent: dict[str, Talent] = {t.id: t for t in self.characters.talents}
        self.militia = {m.id: m for m in self.characters.militiamen}
        self.heroine = {h.id: h for h in self.characters.heroines}
        self.ttype = {t.id: t for t in self.treasures.types}
        self.card = {c.kind: c for c in self.arcana.cards}
        self.mission = {m.id: m for m in self.missions.missions}
        self.adventure = {a.id: a for a in self.adventures.adventures}

    def _make_lookups(self) -> None:
        """Lookup tables for the hot path (legal actions, fights, events)."""
        self.gang_chars = {g.id: [c.id for c in g.characters] for g in self.characters.gangs}
        self.talent_of = {c: ch.talent for c, ch in self.char.items()}
        # (a thief's id wins over a militiaman's, which wins over a heroine's, as in _name)
        figures: list[Heroine | Militiaman | Character] = [
            *self.heroine.values(), *self.militia.values(), *self.char.values()]
        self.name_of = {f.id: f.name for f in figures}
        self.combat_of = {f.id: f.combat for f in figures}
        self.militia_ids = sorted(self.militia)
        self.movement_of = {c: ch.movement for c, ch in self.char.items()}
        #: a thief's Movement with its talent (Nimble: +1), before cards and injuries
        self.move_of = {c: ch.movement + (1 if ch.talent == "nimble" else 0) for c, ch in self.char.items()}
        self.deployment_set = frozenset(self.deployment)
        #: treasure token id (``red3``) -> its type (``red``), for every token of every mix
        self.ttype_of = {f"{t}{i + 1}": t for mix in self.treasures.mixes.values()
                         for t, count in mix.items() for i in range(count)}
        #: mission -> what it needs as (treasure type, count) pairs
        self.mission_needs = {m.id: tuple(m.needs.items()) for m in self.missions.missions}
        #: (zone, length) -> :func:`.board.path_ends` (filled as games ask)
        self.path_ends_memo: dict[tuple[str, int], Any] = {}
        #: (tokens carried, face-up missions) -> the ``mission <slot>`` actions they meet
        #: (a memo of :func:`.legal.missions_met`, filled as games ask)
        self.missions_memo: dict[tuple[tuple[str, ...], tuple[str | None, ...]], tuple[str, ...]] = {}

    def _make_notations(self) -> None:
        """The action notations the hot path hands out, made once, and the tables reading them
        back; the figures each gang may attack; where a shadow step may go."""
        self.move_action = {z: f"move {z}" for z in self.zone_ids}
        self.act_action = {c: f"act {c}" for c in self.char}
        self.talent_action = {x: f"talent {x}" for x in [*self.zone_ids, *self.card]}
        self.attack_action = {f: f"attack {f}" for f in self.name_of}
        self.mm_action = {z: f"mm {z}" for z in self.zone_ids}
        self.militia_actions = tuple(f"militia {m}" for m in self.militia_ids)
        #: the notations back to their objects (``act E1`` -> ``E1``, ``move c3`` -> ``c3``)
        self.act_char = {a: c for c, a in self.act_action.items()}
        self.move_zone = {a: z for z, a in self.move_action.items()}
        self.militia_of = dict(zip(self.militia_actions, self.militia_ids))
        #: a zone's or a figure's id -> the one id string the tables hold (an action's word
        #: after the verb is read as that string: look-ups find it at once)
        self.same = {x: x for x in [*self.zone_ids, *self.name_of]}
        self.mm_zone = {a: z for z, a in self.mm_action.items()}
        self.mm_zone["mm stay"] = "stay"
        self.flee_action = {z: f"flee {z}" for z in self.zone_ids}
        self.lock_action = {z: f"play reinforced_lock {z}" for z in self.zone_ids}
        #: gang -> the figures its thieves (and a militiaman it moves) may attack: the thieves
        #: of the other gangs and the heroines (never a militiaman)
        self.foes_of = {g: frozenset(c for c, h in self.gang_of.items() if h != g) | frozenset(self.heroine)
                        for g in self.gang_ids}
        self.adj_set = {z: frozenset(self.adj[z]) for z in self.zone_ids}
        # shadow step: one zone through a white line, a green arrow or a red wall
        self.step_or_wall = {z: sorted(set(self.adj[z]) | set(self.wall_adj[z])) for z in self.zone_ids}

    def _check_references(self) -> None:
        """Every treasure, zone and heroine the missions and adventures name exists."""
        for m in self.missions.missions:
            for t in m.needs:
                if t not in self.ttype:
                    raise DataError(f"missions.yaml: mission {m.id} needs unknown treasure {t}")
        for adv in self.adventures.adventures:
            for e in adv.events:
                for z in e.zones:
                    if z not in self.board.portcullis_slots:
                        raise DataError(f"adventures.yaml: {adv.id}: {z} is not a portcullis slot of the board")
                if e.effect == "ducats" and self.resolve(e.zone) is None:
                    raise DataError(f"adventures.yaml: {adv.id}: unknown zone {e.zone}")
            for z in list(adv.setup.ducats) + list(adv.setup.tokens) + list(adv.setup.heroines.values()):
                if self.resolve(z) is None:
                    raise DataError(f"adventures.yaml: {adv.id}: unknown zone {z}")
            for h in adv.setup.heroines:
                if h not in self.heroine:
                    raise DataError(f"adventures.yaml: {adv.id}: unknown heroine {h}")

    def zone_of(self, name: str | None) -> str:
        """:meth:`resolve` for a name the data checks have found (:meth:`_check_references`)."""
        zone = self.resolve(name)
        assert zone is not None, f"unknown zone {name}"
        return zone

    def resolve(self, name: str | None) -> str | None:
        """A zone id from a zone id or a room role (``vault``...)."""
        if name is None or name in self.zone:
            return name
        return self.role.get(name)  # a role name, or None

    def _bfs(self, start: str) -> dict[str, int]:
        dist = {start: 0}
        todo = deque([start])
        while todo:
            z = todo.popleft()
            for n in self.adj[z]:
                if n not in dist:
                    dist[n] = dist[z] + 1
                    todo.append(n)
        return dist

    def set_value(self, ttype: str, count: int) -> int:
        """Ducats that ``count`` treasures of one type are worth to one gang."""
        if count <= 0:
            return 0
        vals = self.ttype[ttype].set_values
        return vals[min(count, len(vals)) - 1]


def load(data_dir: str | None = None) -> CadwallonData:
    return CadwallonData(data_dir)
