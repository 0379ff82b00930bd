"""The assembled city: a grid of 7x7 sections turned into squares and spaces.

Rulebook "Mise en place" step 1 (3-4 players: 4x2 city, river sections 4 and
8 in the east column) and the 2-player changes (3x2, sections 1 and 5 out).
The layout (which section, face and quarter turn sits in each slot) is part
of the state; the geometry derived from it is cached here and shared.

Squares are numbered ``r * width + c``. A thief or townsfolk on an alley square
stands on that number; a thief in a building stands on the building's id
(``"3Ab"``: section 3, face A, building b; villas are ``"villa2"`` etc.).
"""
from __future__ import annotations

from typing import Any, cast

N = 7
DIRS = "NESW"
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)
HOUSES = ("tower", "garden", "forge", "stable", "church")
CATACOMB_SECTIONS = (1, 3, 6, 8)
VILLA_SECTIONS = (2, 4, 5, 7)

_CACHE: dict[tuple[Any, ...], "City"] = {}
ROW_LETTERS = "ABCDEFGHIJKLMN"


def square_label(r: int, c: int) -> str:
    """A square's name for people: its row letter (A at the north edge) and its
    column number (1 at the west edge), as printed in the board's margins."""
    return f"{ROW_LETTERS[r]}{c + 1}"

_STEPS: dict[tuple[int, int], list[list[int]]] = {}


def _step_table(W: int, H: int) -> list[list[int]]:
    """For every square, its neighbour in each direction (-1 off the city); shared per size."""
    table = _STEPS.get((W, H))
    if table is None:
        table = []
        for idx in range(W * H):
            r, c = divmod(idx, W)
            row = []
            for d in range(4):
                rr, cc = r + DR[d], c + DC[d]
                row.append(rr * W + cc if 0 <= rr < H and 0 <= cc < W else -1)
            table.append(row)
        _STEPS[(W, H)] = table
    return table


_CACHE_SIZE = 8  # layouts are random (over a billion), so the cache keeps the recent ones only


def city_for(data: Any, layout: list[list[Any]], ncols: int) -> "City":
    key = (id(data), ncols, tuple(tuple(x) for x in layout))
    city = _CACHE.pop(key, None)
    if city is None:
        city = City(data, layout, ncols)
        if len(_CACHE) >= _CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]  # the least recently used
    _CACHE[key] = city
    return city


_STEP_TUPLES: dict[tuple[int, int], tuple[int, int]] = {}


def _step(d: int, nb: int) -> tuple[int, int]:
    """The tuple ``(d, nb)``, one shared object for every city."""
    key = (d, nb)
    return _STEP_TUPLES.setdefault(key, key)


class _Sight(dict[int, frozenset[int]]):
    """``sight[i]``: ``frozenset(lines[i])``, each made the first time it is asked for."""

    __slots__ = ("_lines",)

    def __init__(self, lines: dict[int, list[int]]) -> None:
        super().__init__()
        self._lines = lines

    def __missing__(self, i: int) -> frozenset[int]:
        got = self[i] = frozenset(self._lines[i])
        return got


def _rot_cell(r: int, c: int, k: int) -> tuple[int, int]:
    """A face square (r, c) after k clockwise quarter turns."""
    for _ in range(k):
        r, c = c, N - 1 - r
    return r, c


#: _ROT[k][r * N + c]: face square (r, c) after k quarter turns, as (row, col)
_ROT = [[_rot_cell(r, c, k) for r in range(N) for c in range(N)] for k in range(4)]


class _Lines(dict[int, list[int]]):
    """``lines[idx * 4 + d]``: the squares seen from ``idx`` looking ``d`` (see
    :meth:`City.line`), each walked along the alleys the first time it is asked
    for: a game looks from a few dozen of the city's 1,500 (square, direction)."""

    __slots__ = ("_nbr",)

    def __init__(self, nbr: list[tuple[int, ...]]) -> None:
        super().__init__()
        self._nbr = nbr

    def __missing__(self, key: int) -> list[int]:
        idx, d = divmod(key, 4)
        nbr = self._nbr
        got = []
        idx = nbr[idx][d]
        while idx >= 0:
            got.append(idx)
            idx = nbr[idx][d]
        self[key] = got
        return got


class _Doors(dict[int, str | None]):
    """``door[idx * 4 + d]``: what a thief on alley square ``idx`` finds towards
    ``d`` (see ``City.door``), worked out the first time it is asked for. It holds
    the city's tables, not the city (no reference cycle: a city goes with its game)."""

    __slots__ = ("_steps", "_alley", "_walls", "_buildings", "_building_at", "_villa_doors")

    def __init__(self, city: "City") -> None:
        super().__init__()
        self._steps, self._alley, self._walls = city.steps, city.alley, city.walls
        self._buildings, self._building_at = city.buildings, city.building_at
        self._villa_doors = city.villa_doors

    def __missing__(self, key: int) -> str | None:
        idx, d = divmod(key, 4)
        nb = self._steps[idx][d]
        got: str | None
        if nb < 0:
            got = "enter" if idx in self._villa_doors else None
        elif self._alley[nb]:
            got = "alley" if (idx, nb) not in self._walls else "walled"
        else:
            b = self._buildings[cast(str, self._building_at[nb])]
            got = "enter" if (idx, nb) not in self._walls and idx in b["entrances"] else "climb"
        self[key] = got
        return got


class _Piece:
    """One section face turned a number of quarter turns, laid in a city ``W``
    squares wide, as offsets from its slot's north-west square: what every
    city using that face and turn shares (built once, see :func:`_piece`)."""

    __slots__ = ("data", "alley_rows", "lantern_rows", "buildings", "entrances", "walls", "around")

    def __init__(self, data: Any, sec: int, face: str, rot: int, W: int) -> None:
        sd = data.sections[f"{sec}{face}"]
        self.data = data  # (keeps the data alive while its id keys the cache)
        types = {b.id: b.type for b in sd.buildings}
        rot_cells = _ROT[rot]
        #: per row of the slot, north first: which of its 7 squares are alleys, lanterns
        self.alley_rows = [[False] * N for _ in range(N)]
        self.lantern_rows = [[False] * N for _ in range(N)]
        #: building id -> (type, offsets in reading order), in the order first met
        self.buildings: dict[str, tuple[str, list[int]]] = {}
        for k, ch in enumerate("".join(sd.grid)):
            rr, cc = rot_cells[k]
            off = rr * W + cc
            if ch == "." or ch == "L":
                self.alley_rows[rr][cc] = True
                self.lantern_rows[rr][cc] = ch == "L"
            else:
                b = self.buildings.get(ch)
                if b is None:
                    b = self.buildings[ch] = (types[ch], [])
                b[1].append(off)
        #: a location's marked entrance squares, per building id with any
        self.entrances: list[tuple[str, list[int]]] = []
        for b in sd.buildings:
            if b.entrances:
                offs = []
                for r, c in b.entrances:
                    rr, cc = _rot_cell(r, c, rot)
                    offs.append(rr * W + cc)
                self.entrances.append((b.id, offs))
        #: walls as (square offset, direction after the turn)
        self.walls: list[tuple[int, int]] = []
        walled = set()
        for r, c, side in sd.walls:
            rr, cc = _rot_cell(r, c, rot)
            d = (DIRS.index(side) + rot) % 4
            self.walls.append((rr * W + cc, d))
            walled.add((rr, cc, d))
            walled.add((rr + DR[d], cc + DC[d], (d + 2) % 4))
        #: per building (in the order of ``buildings``), its alley neighbours inside the
        #: slot (offsets): all of them, those with no wall between; and the (square
        #: offset, direction) of its sides on the slot's edge, which the city looks at
        self.around: list[tuple[list[int], list[int], list[tuple[int, int]]]] = []
        alley_rows = self.alley_rows
        for _, offs in self.buildings.values():
            near, open_, edge = set(), set(), []
            for off in offs:
                r, c = divmod(off, W)
                for d in range(4):
                    rr, cc = r + DR[d], c + DC[d]
                    if not (0 <= rr < N and 0 <= cc < N):
                        edge.append((off, d))
                    elif alley_rows[rr][cc]:
                        near.add(rr * W + cc)
                        if (r, c, d) not in walled:
                            open_.add(rr * W + cc)
            self.around.append((sorted(near), sorted(open_), edge))


_PIECES: dict[tuple[int, int, str, int, int], _Piece] = {}


def _piece(data: Any, sec: int, face: str, rot: int, W: int) -> _Piece:
    """The :class:`_Piece` of a section face, turn and city width (kept: at most
    8 sections x 2 faces x 4 turns x 2 widths per data set)."""
    key = (id(data), sec, face, rot, W)
    got = _PIECES.get(key)
    if got is None or got.data is not data:
        got = _PIECES[key] = _Piece(data, sec, face, rot, W)
    return got


#: per square's four neighbours (``nbr[idx]`` as a tuple): its ``ways`` and its four
#: ``forward`` entries (one per heading); shared by every city, since they depend on
#: those four numbers alone (at most 16 per square and city size)
_Ways = tuple[tuple[tuple[int, int], ...], tuple[tuple[tuple[int, int], ...], ...], tuple[int, ...]]
_WAYS: dict[tuple[int, ...], _Ways] = {}
#: a building as the city is laid: its entry in ``City.buildings``, its slot's north-west
#: square, and its piece's squares around it (next to it, open onto it, and on the slot's
#: rim with the direction across the edge)
_Around = tuple[dict[str, Any], int, tuple[list[int], list[int], list[tuple[int, int]]]]


def _ways(nb4: tuple[int, ...]) -> _Ways:
    """The ways, the four forward entries and the neighbours themselves (one shared
    tuple) of a square whose neighbours are ``nb4``."""
    got = _WAYS.get(nb4)
    if got is None:
        ways = tuple(_step(d, nb) for d, nb in enumerate(nb4) if nb >= 0)
        forward = tuple(tuple(w for w in ways if w[0] != (head + 2) % 4) for head in range(4))
        got = _WAYS[nb4] = (ways, forward, nb4)
    return got


#: per city size: the squares' notations, the look-up back and the people's labels
_NAMES: dict[tuple[int, int], tuple[list[str], dict[str, int], list[str]]] = {}


def _names(W: int, H: int) -> tuple[list[str], dict[str, int], list[str]]:
    got = _NAMES.get((W, H))
    if got is None:
        names = [f"{r}.{c}" for r in range(H) for c in range(W)]
        got = _NAMES[(W, H)] = (names, {name: idx for idx, name in enumerate(names)},
                                [square_label(r, c) for r in range(H) for c in range(W)])
    return got


class City:
    """Geometry of one assembled city (immutable).

    A game's city is drawn at random, so one is built per game: the build puts
    together what each section face and turn shares (:func:`_piece`) and what
    each square's neighbours decide (:func:`_ways`), both kept between games."""

    def __init__(self, data: Any, layout: list[list[Any]], ncols: int) -> None:
        self.ncols = ncols
        self.W = W = N * ncols
        self.H = H = 2 * N
        size = W * H
        #: steps[idx][d]: the square next to ``idx`` towards ``d`` (-1 off the city)
        self.steps = _step_table(W, H)
        self.building_at: list[str | None] = [None] * size
        self.alley = [False] * size
        self.lantern = [False] * size
        self.section_of = [0] * size
        self.walls: set[tuple[int, int]] = set()
        self.buildings: dict[str, dict[str, Any]] = {}
        self.slots: list[dict[str, Any]] = []
        self.entrance_cell: dict[int, int] = {}     # section -> outer entrance square
        loc_entrances, around = self._lay_sections(data, layout)
        self._link_alleys()
        self._open_buildings(around, loc_entrances)
        self._mark_landmarks()
        #: door[idx * 4 + d]: what a thief on alley square ``idx`` finds towards ``d``:
        #: "alley" (a square: free or not is the position's), "walled" (the same behind
        #: a wall), "enter"
        #: (a building through its entrance, or a villa off the city edge), "climb"
        #: (a building's wall: Climbing Tools only) or None (the city edge)
        self.door: dict[int, str | None] = _Doors(self)
        self.by_type: dict[str, list[str]] = {}
        for bid, b in sorted(self.buildings.items()):
            self.by_type.setdefault(b["type"], []).append(bid)
        #: lines[idx * 4 + d]: the alley squares seen from ``idx`` looking ``d`` (see :meth:`line`)
        self.lines: dict[int, list[int]] = _Lines(self.nbr)
        #: sight[idx * 4 + d]: the same squares as a set (is a square in that field of view?),
        #: made when first asked: a game looks from the guards' few squares only (a
        #: set for every square and direction held about 430 KB per live table)
        self.sight = _Sight(self.lines)
        #: the lanterns first reached from each (square, heading), filled by the rules as asked
        self.first_lanterns: list[tuple[tuple[int, ...], frozenset[int]] | None] = [None] * (size * 4)
        #: the squares' notations and labels (see :meth:`name`, :meth:`label`), per size
        self._names, self._cell_of, self.labels = _names(W, H)
        #: results of pure geometric questions the rules ask again and again (fields of
        #: view, Grappling Hook targets), filled by the rules code as they come up
        self.memo: dict[tuple[Any, ...], Any] = {}

    def _lay_sections(self, data: Any, layout: list[list[Any]]) -> tuple[dict[str, list[int]], list[_Around]]:
        """Each slot's section, face and turn: its squares, lanterns, buildings and walls;
        returns the locations' marked entrances and each building's squares around it
        (its piece's, by offset from the slot's north-west square)."""
        W, H, ncols = self.W, self.H, self.ncols
        steps, building_at, buildings, walls = self.steps, self.building_at, self.buildings, self.walls
        alley, lantern, section_of = self.alley, self.lantern, self.section_of
        loc_entrances: dict[str, list[int]] = {}
        around: list[_Around] = []
        for i, (sec, face, rot) in enumerate(layout):
            R, C = divmod(i, ncols)
            self.slots.append({"section": sec, "face": face, "rot": rot, "row": R, "col": C})
            piece = _piece(data, sec, face, rot, W)
            base = R * N * W + C * N  # the slot's north-west square
            whole_row = [sec] * N
            for rr in range(N):
                at = base + rr * W
                section_of[at:at + N] = whole_row
                alley[at:at + N] = piece.alley_rows[rr]
                lantern[at:at + N] = piece.lantern_rows[rr]
            for (ch, (btype, offs)), sides in zip(piece.buildings.items(), piece.around):
                bid = f"{sec}{face}{ch}"
                cells = [base + off for off in offs]
                for idx in cells:
                    building_at[idx] = bid
                buildings[bid] = {"id": bid, "type": btype, "cells": cells, "section": sec}
                around.append((buildings[bid], base, sides))
            for ch, offs in piece.entrances:
                loc_entrances.setdefault(f"{sec}{face}{ch}", []).extend(base + off for off in offs)
            for off, d in piece.walls:
                idx = base + off
                nb = steps[idx][d]
                if nb >= 0:
                    walls.add((idx, nb))
                    walls.add((nb, idx))
            # the outer entrance of this section: middle of its north or south edge
            er = 0 if R == 0 else H - 1
            self.entrance_cell[sec] = er * W + C * N + 3
        return loc_entrances, around

    def _link_alleys(self) -> None:
        """The edge lanterns, then each alley square's neighbours and ways on."""
        W, H = self.W, self.H
        size = W * H
        alley, lantern, steps = self.alley, self.lantern, self.steps
        # the square of every section opening on the city edge (north, south, west) is a lantern
        edge = ([c for c in range(3, W, N)] + [(H - 1) * W + c for c in range(3, W, N)]
                + [r * W for r in range(3, H, N)])
        for idx in edge:
            if alley[idx]:
                lantern[idx] = True
        # alley neighbours (no wall between)
        closed = [-1, -1, -1, -1]
        rows = [[nb if nb >= 0 and alley[nb] else -1 for nb in steps[idx]] if alley[idx]
                else closed for idx in range(size)]
        for idx, nb in self.walls:
            row = rows[idx]
            if nb in row:
                row[row.index(nb)] = -1
        #: nbr[idx][d]: the alley square next to alley square ``idx`` towards ``d`` with
        #: no wall between (-1: none); forward[idx * 4 + head]: the ``(direction,
        #: square)`` steps on from ``idx`` for a figure heading ``head``: no 180-degree
        #: turn, in direction order; ways[idx]: every ``(direction, square)`` step from
        #: ``idx`` (all three shared by every city: one tuple per square's neighbours)
        known = _WAYS.get
        found = [known(key) or _ways(key) for key in map(tuple, rows)]
        self.nbr: list[tuple[int, ...]] = [got[2] for got in found]
        self.ways: list[tuple[tuple[int, int], ...]] = [got[0] for got in found]
        self.forward: list[tuple[tuple[int, int], ...]] = [ways for got in found for ways in got[1]]

    def _open_buildings(self, around: list[_Around], loc_entrances: dict[str, list[int]]) -> None:
        steps, alley, walls = self.steps, self.alley, self.walls
        # building entrances: any adjacent alley square for houses, marked ones for locations
        # (inside its slot from the slot's piece, across the slot's edge from the city)
        for b, base, (near_in, open_in, rim) in around:
            near = [base + off for off in near_in]
            adj = [base + off for off in open_in]
            for off, d in rim:
                idx = base + off
                nb = steps[idx][d]
                if nb >= 0 and alley[nb]:
                    near.append(nb)
                    if (idx, nb) not in walls:
                        adj.append(nb)
            if rim:
                near = sorted(set(near))
                adj = sorted(set(adj))
            b["adjacent"] = adj
            b["entrances"] = adj.copy() if b["type"] in HOUSES else sorted(set(loc_entrances.get(b["id"], [])))
            b["all_adjacent"] = near

    def _mark_landmarks(self) -> None:
        """Catacombs, villas, nobles' and the carriage's starts, the river's spaces."""
        W, H = self.W, self.H
        sections = {s["section"] for s in self.slots}
        self.catacombs = [self.entrance_cell[s] for s in CATACOMB_SECTIONS if s in sections]
        self.catacomb_section = {self.entrance_cell[s]: s for s in CATACOMB_SECTIONS if s in sections}
        self.villa_sections = [s for s in VILLA_SECTIONS if s in sections]
        self.noble_starts = self._noble_starts()
        for s in self.villa_sections:
            cell = self.entrance_cell[s]
            self.buildings[f"villa{s}"] = {"id": f"villa{s}", "type": "villa", "cells": [], "section": s,
                                           "adjacent": [cell], "entrances": [cell], "all_adjacent": [cell]}
        # the carriage starts at the lantern nearest the entrance marked on the VP board:
        # RECONSTRUCTED as the west opening of the north-west section
        self.carriage_start = 3 * W
        # spaces next to the river (Juma): the buildings and the alley squares
        # (quays) on the east edge of the river sections
        self.river_spaces: list[Any] = sorted({self.building_at[r * W + W - 1] for r in range(H)
                                               if self.building_at[r * W + W - 1]})
        self.river_cells: list[int] = [r * W + W - 1 for r in range(H) if self.alley[r * W + W - 1]]
        #: the squares in front of the villas (a thief there enters off the city edge)
        self.villa_doors = {self.entrance_cell[s] for s in self.villa_sections}

    def _noble_starts(self) -> list[int]:
        """The lantern nearest each catacomb, where a noble starts (rulebook,
        "Mise en place" 11): searched along the alleys from the square in
        front of the catacomb, that square itself left free so the catacomb
        can be used from the first night. Two catacombs never share one."""
        taken = set(self.catacombs)
        starts = []
        for start in self.catacombs:
            seen = {start}
            frontier = [start]
            found = -1
            while frontier and found < 0:
                nxt = []
                for idx in frontier:
                    for nb in self.nbr[idx]:
                        if nb >= 0 and nb not in seen:
                            seen.add(nb)
                            nxt.append(nb)
                for idx in sorted(nxt):
                    if self.lantern[idx] and idx not in taken:
                        found = idx
                        break
                frontier = nxt
            starts.append(found if found >= 0 else start)
            taken.add(starts[-1])
        return starts

    def _step(self, idx: int, d: int) -> int:
        return self.steps[idx][d]

    def line(self, idx: int, d: int) -> list[int]:
        """Alley squares seen from ``idx`` looking ``d``: straight on until a
        building, a wall or the city edge (rulebook "Champ de vision")."""
        return self.lines[idx * 4 + d]

    def name(self, idx: int) -> str:
        """The square's notation ``row.col``."""
        return self._names[idx]

    def label(self, idx: int) -> str:
        """The square as the board's margins name it: row letter, column number ("D12")."""
        return self.labels[idx]

    def parse(self, text: str) -> int:
        got = self._cell_of.get(text)
        if got is not None:
            return got
        row, col = text.split(".")
        r, c = int(row), int(col)
        if not (0 <= r < self.H and 0 <= c < self.W):
            raise ValueError(text)
        return r * self.W + c

    def wall_pairs(self) -> list[list[int]]:
        """The walls as sorted ``[a, b]`` square pairs with a < b (cached: callers copy)."""
        cached = getattr(self, "_wall_pairs", None)
        if cached is None:
            cached = self._wall_pairs = sorted([a, b] for a, b in self.walls if a < b)
        return cached

    def building_cells(self) -> dict[str, list[int]]:
        """One square per building to draw its label on: its first cell, or for a
        villa (off the board) the square in front of it (cached: callers copy)."""
        cached = getattr(self, "_bcells", None)
        if cached is None:
            cached = self._bcells = {b: x["cells"][:1] or x["adjacent"][:1] for b, x in self.buildings.items()}
        return cached

    def grid_rows(self) -> list[str]:
        """One text row per square row: '.' alley, 'L' lantern, a letter per building type."""
        cached = getattr(self, "_rows", None)
        if cached is not None:
            return list(cached)
        code = {"tower": "T", "garden": "G", "forge": "F", "stable": "S", "church": "C", "market": "M",
                "dealer": "D", "tavern": "V", "dungeon": "J", "smuggler": "X"}
        rows = []
        for r in range(self.H):
            s = []
            for c in range(self.W):
                i = r * self.W + c
                if self.alley[i]:
                    s.append("L" if self.lantern[i] else ".")
                else:
                    s.append(code[self.buildings[cast(str, self.building_at[i])]["type"]])
            rows.append("".join(s))
        self._rows = rows
        return list(rows)
