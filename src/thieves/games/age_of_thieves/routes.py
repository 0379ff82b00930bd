"""Routes for the table: where the moving thief can get with the points left, as one click.

A movement is notated step by step (``to N12``, then ``to N13``...; ``sewer S4`` from a
sewer entrance; ``leave gate_n`` from an exit's space). The table offers every space
reachable with the points left as one target: its first step is the clickable's action,
the others go in ``then`` (docs/engine.md, "Gestures"). Everything here is read from the
viewer's observation only (the board, the figures, fire, smoke, the thief's own flags),
so a route can be wrong only where the rules look at something hidden; the table then
stops quietly at the first step that is not legal.

Rulebook §"Bewegen": step by step along the paths, any direction; §"Die Kanalisation
nutzen": entering a sewer entrance the thief may jump to any sewer exit, which ends the
movement; §"Diebe festnehmen": a thief who is not hidden, stepping onto a guard's space, is
arrested at once (so a route ends there and asks first); fire blocks a space; nobody
walks into a dungeon.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Route:
    """One target of a movement: the actions in order and the spaces walked (start first)."""

    steps: tuple[str, ...]
    spaces: tuple[str, ...]
    #: it ends on a guard's space where the thief would be arrested
    arrest: bool = False
    #: it ends by leaving the city (the thief's game is over)
    leaves: bool = False


def _hidden_at(d: Any, obs: dict[str, Any], me: dict[str, Any], space: str) -> bool:
    """Whether the viewer's thief would be hidden on ``space`` (State.is_hidden, from
    what the observation shows)."""
    if me.get("hidden_all_round"):
        return True
    if d.kind.get(space) == "hideout" or obs["features"].get(space) == "alley" or space in obs["smoke"]:
        return True
    return me["thief"] == "nikolai" and not obs["alarm"] and d.district.get(space) == "palace"


def thief_routes(d: Any, obs: dict[str, Any]) -> dict[str, Route]:
    """Targets of the viewer's movement now, by the space (or exit id) clicked.

    Empty unless the viewer is moving their thief. A space next to the thief is a
    route of one step; the others come from a breadth-first walk (the first shortest
    way in the board's order), not through a guard who would arrest the thief."""
    viewer = obs.get("viewer")
    dec = obs.get("deciding") or {}
    if viewer is None or dec.get("kind") != "move" or dec.get("player") != viewer:
        return {}
    me = obs["thieves"][viewer]
    start, left = me.get("pos"), int(dec.get("steps_left") or 0)
    legal = set(obs.get("legal", []))
    if start is None or left <= 0:
        return {}   # no step left: a jump down a sewer from here is one click already
    fire = set(obs["fire"]) if me["thief"] != "zain" else set()   # Zain: fire does not block him
    guards = set(obs["guards"].values())
    safe = bool(me.get("dungeon") or me.get("protected"))   # out of the dungeon: hidden all round

    def arrested(space: str) -> bool:
        return space in guards and not safe and not _hidden_at(d, obs, me, space)

    parent: dict[str, str | None] = {start: None}
    depth = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if depth[here] >= left or (here != start and arrested(here)):
            continue
        for n in d.adj[here]:
            if n in parent or d.kind.get(n) == "dungeon" or n in fire:
                continue
            parent[n], depth[n] = here, depth[here] + 1
            queue.append(n)

    def way(space: str) -> list[str]:
        out = [space]
        while parent[out[-1]] is not None:
            out.append(parent[out[-1]])   # type: ignore[arg-type]
        return out[::-1]

    out: dict[str, Route] = {}
    for space in parent:
        if space == start:
            continue
        walk = way(space)
        out[space] = Route(tuple(f"to {x}" for x in walk[1:]), tuple(walk), arrest=arrested(space))
    _sewer_routes(d, obs, start, parent, depth, way, arrested, fire, out)
    _exit_routes(d, obs, start, left, parent, depth, way, arrested, out)
    return {k: r for k, r in out.items() if r.steps[0] in legal}


def _sewered(d: Any, route: list[str]) -> bool:
    """Whether this movement used the sewers already (a jump between spaces not side by side)."""
    return any(b not in d.adj[a] for a, b in zip(route, route[1:]))


def _sewer_routes(d: Any, obs: dict[str, Any], start: str, parent: dict[str, Any], depth: dict[str, int],
                  way: Any, arrested: Any, fire: set[str], out: dict[str, Route]) -> None:
    """A sewer exit not reachable on foot: walk to the nearest sewer entrance (at least
    one step: the thief must enter it), then jump (Rulebook §"Die Kanalisation nutzen")."""
    dec = obs["deciding"]
    if _sewered(d, list(dec.get("route") or [start])):
        return
    features = obs["features"]
    entrances = [s for s in parent if s != start and not arrested(s)
                 and (d.kind.get(s) == "sewer_in" or features.get(s) == "manhole")]
    if not entrances:
        return
    entrance = min(entrances, key=lambda s: (depth[s], d.order_key(s)))
    exits = list(d.of_kind.get("sewer_out", [])) + sorted(s for s, f in features.items() if f == "ladder")
    walk = way(entrance)
    for x in exits:
        if x in out or x == start or x == entrance or x in fire:
            continue
        steps = tuple(f"to {s}" for s in walk[1:]) + (f"sewer {x}",)
        out[x] = Route(steps, tuple(walk) + (x,), arrest=arrested(x))


def _exit_routes(d: Any, obs: dict[str, Any], start: str, left: int, parent: dict[str, Any],
                 depth: dict[str, int], way: Any, arrested: Any, out: dict[str, Route]) -> None:
    """An open exit: walk to its space with a point left, then leave (Rulebook §"Den
    Alarm auslösen")."""
    district = obs.get("escape_district")
    if not district:
        return
    for e in d.board.exits:
        if e.district != district or e.space == start or e.space not in parent:
            continue
        if depth[e.space] >= left or arrested(e.space):
            continue
        walk = way(e.space)
        steps = tuple(f"to {s}" for s in walk[1:]) + (f"leave {e.id}",)
        out[e.id] = Route(steps, tuple(walk), leaves=True)


def guard_routes(d: Any, obs: dict[str, Any]) -> dict[str, Route]:
    """Targets of a guard the viewer moves with a card (``gstep`` step by step, ``gstop``),
    by the space clicked; ``arrest`` marks a way that ends on the viewer's own thief.

    Rulebook §"Bewegen": a guard moved by a card walks the paths step by step, arrests the
    thieves it walks into and stops there; only one figure may end on a space; fire
    blocks, nobody enters a dungeon. A route that does not end the guard's movement ends
    with ``gstop``. When every first step the rules allow now goes nearer to the viewer's
    thief (a lure: Jasmine's Seduction), each step of a route must too."""
    viewer = obs.get("viewer")
    dec = obs.get("deciding") or {}
    if viewer is None or dec.get("kind") != "gmove" or dec.get("player") != viewer:
        return {}
    g, left = dec.get("figure"), int(dec.get("steps_left") or 0)
    start = obs["guards"].get(g)
    legal = set(obs.get("legal", []))
    if start is None or left <= 0:
        return {}
    me = obs["thieves"][viewer].get("pos")
    firsts = [a.split()[1] for a in legal if a.startswith("gstep ")]
    dist = d.dist.get(me, {}) if me else {}
    lure = bool(me) and bool(firsts) and all(
        n != me and dist.get(n, 99) < dist.get(start, 99) for n in firsts)
    others = {s for h, s in obs["guards"].items() if h != g}
    caught = {t["pos"] for t in obs["thieves"] if t.get("pos") and not t.get("left") and not t.get("dungeon")
              and not t.get("protected") and not t.get("hidden")}
    fire = set(obs["fire"])
    parent: dict[str, str | None] = {start: None}
    depth = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if depth[here] >= left or (here != start and here in caught):
            continue   # out of steps, or the guard arrests there and stops
        for n in d.adj[here]:
            if n in parent or d.kind.get(n) == "dungeon" or n in fire:
                continue
            if lure and (n == me or dist.get(n, 99) >= dist.get(here, 99)):
                continue
            parent[n], depth[n] = here, depth[here] + 1
            queue.append(n)
    def may_step(here: str, n: str, left_then: int) -> bool:
        """cards.gmove_actions: a step the guard may take from ``here``."""
        if d.kind.get(n) == "dungeon" or n in fire or (left_then == 1 and n in others):
            return False
        return not lure or (n != me and dist.get(n, 99) < dist.get(here, 99))

    out: dict[str, Route] = {}
    for space in parent:
        if space == start or space in others:
            continue   # only one figure may end on a space
        walk = [space]
        while parent[walk[-1]] is not None:
            walk.append(parent[walk[-1]])   # type: ignore[arg-type]
        walk.reverse()
        steps = tuple(f"gstep {x}" for x in walk[1:])
        rest = left - depth[space]
        if space not in caught and rest > 0 and any(may_step(space, n, rest) for n in d.adj[space]):
            steps += ("gstop",)   # the same guard could still move: the route ends it
        out[space] = Route(steps, tuple(walk), arrest=space == me and me in caught)
    return {k: r for k, r in out.items() if r.steps[0] in legal}
