"""Component data of Age of Thieves: pydantic models, loading, derived tables."""
from __future__ import annotations

from collections import deque
from typing import Any, ClassVar, Literal, Optional

from pydantic import BaseModel, ConfigDict, model_validator

from ...core.data import load_model
from ...core.errors import DataError

PKG = "thieves.games.age_of_thieves"
DISTRICTS = ("golden_domes", "empty_pot", "salty_docks", "hammerblow")
COMPASS = {"N": "golden_domes", "E": "empty_pot", "S": "salty_docks", "W": "hammerblow"}
SPACE_KINDS = ("start", "dungeon", "imperial", "sword", "guardhouse", "green", "hideout",
               "guard_alarm", "captain_alarm", "sewer_in", "sewer_out", "treasury")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Space(Strict):
    id: str
    district: Literal["palace", "golden_domes", "empty_pot", "salty_docks", "hammerblow"]
    x: int
    y: int
    kind: Optional[Literal[SPACE_KINDS]] = None  # type: ignore[valid-type]


class Exit(Strict):
    id: str
    district: Literal["golden_domes", "empty_pot", "salty_docks", "hammerblow"]
    kind: Literal["gate", "ship"]
    space: str


class Board(Strict):
    reconstructed: bool
    note: str = ""
    spaces: list[Space]
    paths: list[list[str]]
    exits: list[Exit]

    @model_validator(mode="after")
    def _check(self) -> "Board":
        ids = {s.id for s in self.spaces}
        if len(ids) != len(self.spaces):
            raise ValueError("space ids must be unique")
        for p in self.paths:
            if len(p) != 2 or p[0] not in ids or p[1] not in ids or p[0] == p[1]:
                raise ValueError(f"bad path {p}")
        for e in self.exits:
            if e.space not in ids:
                raise ValueError(f"exit {e.id} leads from unknown space {e.space}")
        kinds = [s.kind for s in self.spaces]
        # Rulebook counts: 12 sword guardhouses, 5 sewer entrances, 4 exits, 4 green jewels
        need = {"sword": 12, "sewer_in": 5, "sewer_out": 4, "green": 4, "treasury": 1,
                "start": 4, "dungeon": 4, "imperial": 4, "guard_alarm": 8, "captain_alarm": 8}
        for k, n in need.items():
            if kinds.count(k) != n:
                raise ValueError(f"the board needs {n} spaces of kind {k}, has {kinds.count(k)}")
        for d in DISTRICTS:
            for k in ("start", "dungeon", "imperial", "guard_alarm", "captain_alarm"):
                have = sum(1 for s in self.spaces if s.district == d and s.kind == k)
                want = 2 if k.endswith("alarm") else 1
                if have != want:
                    raise ValueError(f"district {d} needs {want} {k} space(s), has {have}")
            if sum(1 for e in self.exits if e.district == d) != 2:
                raise ValueError(f"district {d} needs 2 gates or ships")
        return self


class Thief(Strict):
    id: str
    name: str
    title: str
    ability: str
    ability_text: str
    special: str
    special_name: str
    special_text: str
    reconstructed: bool = False


class Thieves(Strict):
    thieves: list[Thief]


class GeneralCard(Strict):
    id: str
    name: str
    copies: int
    range: Optional[int]
    theft: bool
    effect: Literal["move_guard", "move_self", "noise", "smoke", "fire", "reposition_guard", "steal",
                    "wake_guards", "hide", "move_protected", "immobilize", "move_guards", "poison",
                    "take_token"]
    steps: int = 0
    radius: int = 0
    amount: int = 0
    text: str
    reconstructed: bool = False
    #: why a stand-in is as it is (e.g. a redesign after playtesting)
    note: str = ""


class Basic(Strict):
    move: dict[str, Any]      # numbers and effect names
    ambush: dict[str, Any]
    reconstructed: bool = False


class Cards(Strict):
    basic: Basic
    general: list[GeneralCard]

    @model_validator(mode="after")
    def _count(self) -> "Cards":
        total = sum(c.copies for c in self.general)
        if total != 70:  # Rulebook §components: 70 general action cards
            raise ValueError(f"there must be 70 general action cards, not {total}")
        return self


class Event(Strict):
    id: str
    name: str
    direction: Optional[Literal["N", "E", "S", "W"]] = None
    vigilance: int = 0
    movement: int = 0
    draw: int = 0
    violet: int = 0
    reinforce: int = 0
    reconstructed: bool = False


class Events(Strict):
    calm: list[Event]
    alarm: list[Event]

    @model_validator(mode="after")
    def _count(self) -> "Events":
        if len(self.calm) != 12 or len(self.alarm) != 11:
            raise ValueError("there are 12 calm and 11 alarm events")
        if any(e.direction is None for e in self.calm) or any(e.direction for e in self.alarm):
            raise ValueError("calm events show a compass direction, alarm events none")
        return self


class CityToken(Strict):
    id: str
    name: str
    count: int
    timing: Literal["instant", "keep", "board"]
    ap: int = 0
    vp: int = 0


class Tokens(Strict):
    city_tokens: list[CityToken]
    pieces: dict[str, int]
    values: dict[str, int]
    guard_sheet: dict[str, Any]   # "calm"/"alarm" -> number name -> value

    #: the counts the rules read from ``pieces``
    REQUIRED_PIECES: ClassVar[tuple[str, ...]] = (
        "alarm_events", "blue_ap", "calm_events", "captains", "dungeon_ap", "guards",
        "hand_limit", "jewel_distance", "start_hand", "yellow_jewels")

    @model_validator(mode="after")
    def _count(self) -> "Tokens":
        if sum(t.count for t in self.city_tokens) != 51:
            raise ValueError("there are 51 city tokens")
        missing = [k for k in self.REQUIRED_PIECES if k not in self.pieces]
        if missing:
            raise ValueError(f"pieces lacks {', '.join(missing)}")
        return self


class AotData:
    """All component data plus derived tables (distances, neighbours)."""

    def __init__(self, board: Board, thieves: Thieves, cards: Cards, events: Events, tokens: Tokens) -> None:
        self.board, self.cards, self.events, self.tokens = board, cards, events, tokens
        self.thieves = {t.id: t for t in thieves.thieves}
        self.thief_ids = [t.id for t in thieves.thieves]
        self.general = {c.id: c for c in cards.general}
        self.space = {s.id: s for s in board.spaces}
        self._order = {s.id: (s.y, s.x) for s in board.spaces}
        self.kind = {s.id: s.kind for s in board.spaces}
        self.district = {s.id: s.district for s in board.spaces}
        self.adj: dict[str, list[str]] = {s.id: [] for s in board.spaces}
        for a, b in board.paths:
            self.adj[a].append(b)
            self.adj[b].append(a)
        for v in self.adj.values():
            v.sort(key=self.order_key)
        self.exits = {e.id: e for e in board.exits}
        self.exits_from: dict[str, list[str]] = {}
        for e in board.exits:
            self.exits_from.setdefault(e.space, []).append(e.id)
        self.dungeon: dict[str, str] = {s.district: s.id for s in board.spaces if s.kind == "dungeon"}
        self.imperial: dict[str, str] = {s.district: s.id for s in board.spaces if s.kind == "imperial"}
        self.of_kind: dict[str, list[str]] = {}
        for s in board.spaces:
            if s.kind:
                self.of_kind.setdefault(s.kind, []).append(s.id)
        self.districts: dict[str, list[str]] = {}
        for s in board.spaces:
            self.districts.setdefault(s.district, []).append(s.id)
        self.guardhouses = [s.id for s in board.spaces if s.kind in ("sword", "guardhouse", "imperial")]
        self.dist = {s: self._bfs(s) for s in self.adj}
        self.ap_value = {t.id: t.ap for t in tokens.city_tokens}
        self.sheet = tokens.guard_sheet
        # lookup tables for the hot paths (derived once; the lists above stay the reference)
        self.token_name = {t.id: t.name for t in tokens.city_tokens}
        self.calm_event: dict[str, Event] = {}
        self.alarm_event: dict[str, Event] = {}
        for ev in events.calm:
            self.calm_event.setdefault(ev.id, ev)  # the first card with an id, as a search finds it
        for ev in events.alarm:
            self.alarm_event.setdefault(ev.id, ev)
        # where a yellow jewel may go (§1b): the district's spaces but its dungeon, and for each
        # space the spaces closer than the jewel distance (a thief there rules the space out)
        far = tokens.pieces["jewel_distance"]
        self.jewel_candidates = {dd: [s for s in ss if self.kind[s] != "dungeon"]
                                 for dd, ss in self.districts.items()}
        self.too_near = {s: frozenset(q for q in self.adj if ds.get(q, 99) < far)
                         for s, ds in self.dist.items()}
        self.jewel_candidate_set = {dd: frozenset(ss) for dd, ss in self.jewel_candidates.items()}
        #: a space's place in board order (the order of board.yaml's spaces)
        self.board_index = {s.id: i for i, s in enumerate(board.spaces)}
        # a general card's type by instance id (``beacon3`` -> ``beacon``), and the planning
        # actions that name a type
        self.card_type = {f"{c.id}{i + 1}": c.id for c in cards.general for i in range(c.copies)}
        self.plan_action = {c.id: f"plan {c.id}" for c in cards.general}
        self.special_action = {c.id: f"special {c.id}" for c in cards.general}
        self.play_action = {c.id: f"play {c.id}" for c in cards.general}
        self.at_action = {s: f"at {s}" for s in self.adj}
        self.place_action = {s: f"place {s}" for s in self.adj}
        self.jewel_action = {s: f"jewel {s}" for s in self.adj}
        self.discard_action = {c.id: f"discard {c.id}" for c in cards.general}
        self._within: dict[tuple[str, int], list[str]] = {}
        #: every figure in the order the watch moves them: the guards by number, then the captains
        self.figure_order = [f"g{i + 1}" for i in range(tokens.pieces["guards"])] + \
            [f"c{i + 1}" for i in range(tokens.pieces["captains"])]
        #: a figure's place in that order
        self.figure_rank = {g: i for i, g in enumerate(self.figure_order)}
        self._near: dict[tuple[str, int], dict[str, None]] = {}
        #: a turn's choices with one or two planned cards at its AP, by (strong, resolved, in
        #: the dungeon, then each card's type and the type of the card under it), filled as
        #: met (``actions.turn_actions``)
        self.turn_choices: dict[tuple[Any, ...], tuple[str, ...]] = {}
        self.decline_action = {k: f"decline {k}" for k in ["move", "ambush", "special"] + list(self.general)}

    def spaces_within(self, s: str, r: int) -> list[str]:
        """The spaces at most ``r`` steps from ``s`` along the paths, in board order (worked out
        once per space and range; the list is shared: do not change it)."""
        out = self._within.get((s, r))
        if out is None:
            near = self.dist[s]
            out = self._within[s, r] = [q for q in self.adj if near.get(q, 99) <= r]
        return out

    def spaces_near(self, s: str, r: int) -> dict[str, None]:
        """:meth:`spaces_within` as the keys of a dict (none for a space not on the board),
        for set operations on ``.keys()``: unlike a frozenset, a dict of strings is not
        walked by the garbage collector (worked out once per space and range)."""
        out = self._near.get((s, r))
        if out is None:
            out = self._near[s, r] = dict.fromkeys(self.spaces_within(s, r) if s in self.dist else ())
        return out

    def of_district(self, district: str) -> list[str]:
        return self.districts.get(district, [])

    def order_key(self, sid: str) -> tuple[int, int]:
        return self._order[sid]  # (y, x) of the space: board order, top to bottom

    def _bfs(self, start: str) -> dict[str, int]:
        dist = {start: 0}
        q = deque([start])
        while q:
            c = q.popleft()
            for n in self.adj[c]:
                if n not in dist:
                    dist[n] = dist[c] + 1
                    q.append(n)
        return dist


def load_data(data_dir: str | None) -> AotData:
    board = load_model(PKG, "board.yaml", Board, data_dir)
    thieves = load_model(PKG, "thieves.yaml", Thieves, data_dir)
    cards = load_model(PKG, "cards.yaml", Cards, data_dir)
    events = load_model(PKG, "events.yaml", Events, data_dir)
    tokens = load_model(PKG, "tokens.yaml", Tokens, data_dir)
    data = AotData(board, thieves, cards, events, tokens)
    n_tokens = sum(1 for s in board.spaces if s.kind in ("guardhouse", "imperial", "sword")
                   and not (s.district == "palace" and s.kind == "guardhouse"))
    if n_tokens > 51:  # Rulebook §setup 3: tokens are dealt from the 51
        raise DataError("board.yaml: more guardhouses than city tokens")
    return data
