"""Routes in one click: every place the acting thief can reach this turn, with
the steps that take him there, worked out from the viewer's observation only.

The rules are the engine's (rulebook "B. Actions des voleurs", 1. Déplacement;
thief.py applies them): a move costs 1 AP and gives 3 movement points (4 with
the Shoes); a step onto a free alley square costs 1 point; stepping over an
occupied square (a thief, a noble, the carriage; never a guard) costs nothing
but must lead on to a free square, and passing an opposing thief costs 1 VP;
entering a building through an entrance costs 1 point and ends the move, with
-1 VP per opposing thief inside (not in their own hideout; not when entering
your own); the catacombs join their entrance squares (1 point); a move ends by
itself when its points are spent. A thief who steps into a guard's field of
view is seen (an attempted arrest) and his move stops there, so a route only
ever ends in a field of view, never passes through one.

Routes are the cheapest by (AP, VP, steps). Nothing here is authoritative: the
table applies each further step only while it is legal (docs/engine.md,
"Gestures"), so a route the engine disagrees with stops quietly.
"""
from __future__ import annotations

import heapq
import marshal
from typing import Any, Iterator, NamedTuple

from thieves.core.svg import memo

from .city import City, city_for

STEP = "nesw"
#: a cost (AP, VP, steps) as one number: ``AP * ap + VP * vp + steps`` (a route
#: never takes 2**20 steps nor costs 2**20 VP)
VP = 1 << 20
AP = 1 << 40
#: one paid step on: (actions, squares passed, where, VP, whether the move ends there
#: whatever points are left: a building entered, a field of view stepped into)
Way = tuple[tuple[str, ...], tuple[int, ...], "int | str", int, bool]


class Route(NamedTuple):
    """How to reach one place: the actions (the first is the click's action, the
    others its ``then``), the squares passed (for the preview) and what it costs
    (a tuple: a search makes a hundred of them)."""

    actions: tuple[str, ...]
    cells: tuple[int, ...]
    ap: int
    vp: int
    seen: bool = False          # ends in a guard's field of view (an attempted arrest)
    goal: int | str = -1        # the square (int) or building (id) it ends on
    watchers: tuple[str, ...] = ()


def city_of(data: Any, obs: dict[str, Any]) -> City:
    """The printed city of the observation (its layout is public)."""
    c = obs["city"]
    return city_for(data, c["layout"], c["w"] // 7)


#: routes already planned, by the position they were planned from (route_key)
_PLANNED = memo(256)
#: the ways on from each place (_Planner.ways_from), by what they depend on (_Planner.world):
#: a few thousand small tuples each, so only the latest worlds (one turn's moves) are kept
_WAYS = memo(16)


def route_key(obs: dict[str, Any]) -> bytes | None:
    """Everything routes are planned from, serialized; None when the viewer's thief
    may not move now (not his turn, a location's choices, a townsfolk moving...)."""
    tu = obs.get("turn")
    viewer = obs.get("viewer")
    if not tu or tu.get("p") != viewer or obs.get("tmove") or tu.get("sub") is not None or tu.get("over"):
        return None
    legal = obs.get("legal") or ()
    if not tu.get("moving") and "move" not in legal:
        return None
    return marshal.dumps((viewer, obs["city"]["layout"], obs["thieves"], obs["townsfolk"], obs.get("sight"), tu,
                          obs["hideouts"], (obs.get("solo") or {}).get("rivals"), legal), 2)


def plan_routes(data: Any, obs: dict[str, Any], key: bytes | None = None) -> dict[int | str, Route]:
    """Every square and building the acting viewer's thief can reach this turn,
    each with its cheapest route; empty unless the viewer's thief may move now.
    ``key``: :func:`route_key` of ``obs``, if known."""
    key = key or route_key(obs)
    if key is None:
        return {}
    got: dict[int | str, Route] | None = _PLANNED.get(key)
    if got is None:
        got = _PLANNED.put(key, _Planner(data, obs).search())
    return got


class _Planner:
    def __init__(self, data: Any, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.city = city_of(data, obs)
        tu = obs["turn"]
        self.p, self.t = tu["p"], tu["t"]
        th = obs["thieves"][self.p][self.t]
        self.me = th
        self.full_mp = data.board.movement_points + (1 if "shoes" in th["equip"] else 0)  # Shoes: 4
        self.smoke = bool(tu.get("smoke"))
        # who stands where on the alleys (the mover's own square is free once he leaves it)
        occ: dict[int, str] = {}
        for q, ts in enumerate(obs["thieves"]):
            for k, o in enumerate(ts):
                if isinstance(o["pos"], int) and (q, k) != (self.p, self.t):
                    occ[o["pos"]] = f"p{q}t{k}"
        for fig, f in obs["townsfolk"].items():
            occ[f["cell"]] = fig
        self.occ = occ
        # the squares a guard sees (a guard blinded by Bernhard sees nothing of this thief)
        blind = set(th.get("blind") or ())
        self.watch: dict[int, list[str]] = {}
        if not self.smoke:
            for g, cells in (obs.get("sight") or {}).items():
                if g not in blind:
                    for c in cells:
                        self.watch.setdefault(c, []).append(g)
        self.benjamin = th.get("ally") == "benjamin"
        hide = obs["hideouts"]
        self.own_hideout = hide[self.p]
        #: the ways on from each place reached so far (ways_from; set by search)
        self._ways: dict[int, list[tuple[tuple[str, ...], tuple[int, ...], int, int, bool]]] = {}
        #: the places of the search (:meth:`place`): the squares, then the buildings as
        #: first met by any search in this city (numbered alike from one search to the next)
        self.squares = self.city.W * self.city.H
        self.places: dict[str, int] = self.city.memo.setdefault(("route places",), {})
        self.buildings: list[str] = self.city.memo.setdefault(("route buildings",), [])
        self.k = 1
        # opposing thieves inside each building (not those at home in their own hideout)
        self.inside: dict[str, int] = {}
        for q, ts in enumerate(obs["thieves"]):
            if q == self.p:
                continue
            for o in ts:
                if isinstance(o["pos"], str) and hide[q] != o["pos"]:
                    self.inside[o["pos"]] = self.inside.get(o["pos"], 0) + 1
        for bid in ((obs.get("solo") or {}).get("rivals") or {}).values():
            if isinstance(bid, str):
                self.inside[bid] = self.inside.get(bid, 0) + 1
        #: everything a step from a place depends on but the place (the ways on from
        #: each place are kept by it: from one step of a move to the next only the
        #: mover stands elsewhere, and he is never in his own way)
        self.world = (self.city, tuple(sorted(occ.items())), tuple(sorted(self.watch)),
                      tuple(sorted(self.inside.items())), bool(th.get("wanted")), self.p, self.benjamin,
                      self.smoke, self.own_hideout)

    # -- the search ---------------------------------------------------------------------
    # A state (where the thief is, the movement points of the move under way: 0 when
    # not moving) is one number, ``place * K + points``, a place being a square or,
    # past the squares, a building (:meth:`place`); a cost (AP, VP, steps) is one
    # number too, compared as the three in that order (:data:`AP`, :data:`VP`).
    def search(self) -> dict[int | str, Route]:
        tu = self.obs["turn"]
        start = self.me["pos"]
        mp = tu.get("mp", 0) if tu.get("moving") else 0
        ap = tu.get("ap", 0)
        full_mp, ways_from = self.full_mp, self.ways_from
        k = self.k = max(full_mp, mp) + 1
        ways_key = (k, self.world)
        kept = _WAYS.get(ways_key)
        self._ways = kept if kept is not None else _WAYS.put(ways_key, {})
        home = self.place(start)
        watched = {c for c in self.watch if c != start}   # (squares: their place is the square)
        s0 = home * k + mp
        best: dict[int, int] = {s0: 0}
        came: dict[int, tuple[int, tuple[str, ...], tuple[int, ...]]] = {}
        heap: list[tuple[int, int, int]] = [(0, 0, s0)]
        heappop, heappush = heapq.heappop, heapq.heappush
        order = 0
        found: dict[int, tuple[int, int]] = {}   # place -> (cost, state) of its cheapest route
        while heap:
            cost, _, state = heappop(heap)
            if best[state] != cost:
                continue
            here, left = divmod(state, k)
            if here != home:
                if here not in found:   # (the first popped is the cheapest)
                    found[here] = (cost, state)
                if here in watched:
                    continue  # seen: the move stops there
            # not moving: a new move (1 AP, the full points) first, unless the turn's points are spent
            now = cost if left else cost + AP
            if now // AP > ap:
                continue
            on = (left or full_mp) - 1   # every paid step costs 1 point (passing over occupied squares is free)
            for acts, cells, there, paid, ends in ways_from(here):
                nxt = there if ends or on == 0 else there + on
                c = now + paid
                was = best.get(nxt)
                if was is None or c < was:
                    best[nxt] = c
                    came[nxt] = (state, acts if left else ("move",) + acts, cells)
                    order += 1
                    heappush(heap, (c, order, nxt))
        first: tuple[tuple[str, ...], tuple[int, ...]] = ((), (start,) if isinstance(start, int) else ())
        paths: dict[int, tuple[tuple[str, ...], tuple[int, ...]]] = {s0: first}
        return {self.where(here): self.route(self.where(here), cost, self.path(state, came, paths))
                for here, (cost, state) in found.items()}

    def place(self, pos: int | str) -> int:
        """A square's number, or a building's past the squares (given as first met)."""
        if isinstance(pos, int):
            return pos
        got = self.places.get(pos)
        if got is None:
            got = self.places[pos] = self.squares + len(self.buildings)
            self.buildings.append(pos)
        return got

    def where(self, place: int) -> int | str:
        """The square or building of a place (:meth:`place`)."""
        return place if place < self.squares else self.buildings[place - self.squares]

    @staticmethod
    def path(state: int, came: dict[int, tuple[int, tuple[str, ...], tuple[int, ...]]],
             paths: dict[int, tuple[tuple[str, ...], tuple[int, ...]]]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The actions and squares that reach ``state`` from the start (``paths``
        keeps those of each state found so far: routes share their beginnings)."""
        chain = []
        cur = state
        while cur not in paths:
            chain.append(cur)
            cur = came[cur][0]
        acts, cells = paths[cur]
        for st in reversed(chain):
            _, a, c = came[st]
            acts, cells = acts + a, cells + c
            paths[st] = (acts, cells)
        return acts, cells

    def route(self, goal: int | str, cost: int, path: tuple[tuple[str, ...], tuple[int, ...]]) -> Route:
        seen = isinstance(goal, int) and goal in self.watch
        return Route(path[0], path[1], cost // AP, cost % AP // VP, seen, goal,
                     tuple(self.watch.get(goal, ())) if isinstance(goal, int) else ())

    def ways_from(self, here: int) -> list[tuple[tuple[str, ...], tuple[int, ...], int, int, bool]]:
        """One paid step of a move from place ``here``: (actions, squares passed, the
        state it reaches with no points left, its cost as a number, whether the move
        ends there whatever its points: a building, a field of view). Kept per place
        for this search: a place is reached with different points left."""
        got = self._ways.get(here)
        if got is None:
            k = self.k
            got = self._ways[here] = [(acts, cells, self.place(new) * k, vp * VP + len(cells), ends)
                                      for acts, cells, new, vp, ends in self._ways_from(self.where(here))]
        return got

    def _ways_from(self, pos: int | str) -> Iterator[Way]:
        city = self.city
        if isinstance(pos, str):
            if pos not in city.buildings:
                return
            for c in city.buildings[pos]["adjacent"]:
                if c not in self.occ:
                    yield (f"exit {city.name(c)}",), (c,), c, 0, c in self.watch
            return
        yield from self.steps_from(pos, (), (), 0, frozenset())
        if pos in city.catacomb_section:
            for c, sec in city.catacomb_section.items():
                if c != pos and c not in self.occ:
                    yield (f"cata {sec}",), (c,), c, 0, c in self.watch

    def steps_from(self, pos: int, acts: tuple[str, ...], cells: tuple[int, ...], vp: int,
                   chain: frozenset[int]) -> list[Way]:
        """The paid steps from ``pos`` (over occupied squares, on to a free one)."""
        out: list[Way] = []
        self._steps(pos, acts, cells, vp, chain, out)
        return out

    def _steps(self, pos: int, acts: tuple[str, ...], cells: tuple[int, ...], vp: int,
               chain: frozenset[int], out: list[Way]) -> None:
        occ, watch = self.occ, self.watch
        for a, bid, nb in self.doors(pos):
            if bid is not None:
                out.append((acts + (a,), cells, bid, vp + self.entry_cost(bid), True))
                continue
            if nb in chain:
                continue
            ref = occ.get(nb)
            if ref is None:
                out.append((acts + (a,), cells + (nb,), nb, vp, nb in watch))
                continue
            # over an occupied square: free, on to a free one; never a guard, never where
            # a guard sees (the attempt would stop the move), never a wanted thief onto
            # a noble or the carriage (an attempted arrest)
            if ref[0] == "g" or nb in watch or (ref[0] in "nc" and self.me.get("wanted")):
                continue
            cost = 1 if ref[0] == "p" and int(ref[1]) != self.p and not self.benjamin and not self.smoke else 0
            self._steps(nb, acts + (a,), cells + (nb,), vp + cost, chain | {nb}, out)

    def doors(self, pos: int) -> tuple[tuple[str, str | None, int], ...]:
        """The ways out of square ``pos``, in the order n, e, s, w: (step, the building
        it enters or None, the alley square it reaches); kept per city (City.memo)."""
        kept: dict[int, tuple[tuple[str, str | None, int], ...]] = self.city.memo.setdefault(("route doors",), {})
        got = kept.get(pos)
        if got is None:
            city = self.city
            ways: list[tuple[str, str | None, int]] = []
            for d in range(4):
                kind = city.door[pos * 4 + d]
                nb = city.steps[pos][d]
                if kind == "enter":
                    bid = city.building_at[nb] if nb >= 0 else next(
                        (f"villa{s}" for s in city.villa_sections if city.entrance_cell[s] == pos), None)
                    if bid is not None:
                        ways.append((STEP[d], bid, nb))
                elif kind == "alley":
                    ways.append((STEP[d], None, nb))
            got = kept[pos] = tuple(ways)
        return got

    def entry_cost(self, bid: str) -> int:
        """Entering a building: -1 VP per opposing thief inside, not when entering your own hideout."""
        if bid == self.own_hideout or self.benjamin:
            return 0
        return self.inside.get(bid, 0)
