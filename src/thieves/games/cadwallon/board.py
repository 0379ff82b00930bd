"""Movement on the zone graph: moves, militia moves, attacks in reach and flights.

Rulebook §"Se déplacer" (Movement): zones are adjacent through a white line
or a green arrow; red walls, portcullises and roofed buildings cannot be
crossed; a zone must be empty of every character to be entered; a fleeing
character may pass through occupied zones but must stop in an empty one.
"""
from __future__ import annotations

from typing import Callable, Collection, Iterable

from .components import CadwallonData


def reach(data: CadwallonData, start: str, steps: int, blocked: Collection[str],
          walls: int = 0, through: Callable[[str], bool] | None = None) -> dict[str, int]:
    """Zones reachable from ``start`` in at most ``steps`` steps -> fewest steps used.

    ``blocked``: the zones that may not be entered (a figure, a token, a portcullis).
    ``walls``: how many red walls the move may cross (secret passage).
    ``through(z)``: the zone may be passed through without stopping (rooftops),
    even if it is blocked; such zones are never returned as destinations.
    """
    if not walls and through is None:
        return open_reach(data, start, steps, {start, *blocked})
    adj, wall_adj = data.adj, data.wall_adj
    out: dict[str, int] = {}
    # with a secret passage the search state is (zone, walls still crossable): ``seen[w]``
    # holds the zones entered with ``w`` walls left
    seen: list[set[str]] = [set() for _ in range(walls + 1)]
    seen[walls].add(start)
    frontier = [(start, walls)]
    for depth in range(1, steps + 1):
        nxt: list[tuple[str, int]] = []
        for z, w in frontier:
            for links, nw in ((adj[z], w), (wall_adj[z], w - 1)) if w else ((adj[z], w),):
                entered = seen[nw]
                for n in links:
                    if n in entered:
                        continue
                    if n not in blocked:
                        entered.add(n)
                        nxt.append((n, nw))
                        if n != start and n not in out:
                            out[n] = depth
                    elif through is not None and through(n):
                        entered.add(n)
                        nxt.append((n, nw))
        frontier = nxt
        if not frontier:
            break
    return out


def open_reach(data: CadwallonData, start: str, steps: int, seen: set[str],
               inner: list[str] | None = None) -> dict[str, int]:
    """The usual move of :func:`reach`: breadth-first through empty zones only. ``seen``:
    the blocked zones and ``start``; the search adds (some of) the zones it reaches to it.
    ``inner``: a list that gets the zones reached in fewer than ``steps`` steps (those a
    step more can leave)."""
    adj = data.adj
    out: dict[str, int] = {}
    if steps <= 0:
        return out
    add = seen.add
    frontier = [start]
    for depth in range(1, steps):
        nxt = []
        for z in frontier:
            for n in adj[z]:
                if n not in seen:
                    add(n)
                    nxt.append(n)
                    out[n] = depth
        if not nxt:
            return out
        if inner is not None:
            inner += nxt
        frontier = nxt
    for z in frontier:  # the last step: nothing goes on from there
        for n in adj[z]:
            if n not in seen:
                out[n] = steps
    return out


def flee_ends(data: CadwallonData, start: str, length: int, enterable: Callable[[str], bool],
              empty: Callable[[str], bool]) -> list[str]:
    """End zones of the longest flight (at most ``length`` zones) that stops in an empty zone.

    Rulebook §"Attaquer" (fleeing): the flight may pass through occupied zones,
    never enters the same zone twice, must end in an empty zone and goes the
    full 3 zones when it can, otherwise as far as it can.
    """
    ends_by_len: dict[int, set[str]] = {}
    adj = data.adj
    seen = {start}  # the zones of the flight so far

    def walk(z: str, depth: int) -> None:
        if depth and empty(z):
            ends_by_len.setdefault(depth, set()).add(z)
        if depth == length:
            return
        for n in adj[z]:
            if n not in seen and enterable(n):
                seen.add(n)
                walk(n, depth + 1)
                seen.discard(n)

    walk(start, 0)
    if not ends_by_len:
        return []
    return sorted(ends_by_len[max(ends_by_len)])


#: :func:`path_ends`'s answer: for k = 1 .. length, the ends of the paths of k steps and the
#: paths themselves (the zones entered, in order), then every zone on them
PathEnds = tuple[tuple[frozenset[str], ...], tuple[tuple[tuple[str, ...], ...], ...], frozenset[str]]


def path_ends(data: CadwallonData, start: str, length: int) -> PathEnds:
    """The paths of 1 .. ``length`` steps from ``start`` that never enter a zone twice, through
    any zones: ``ends[k - 1]``, where those of ``k`` steps end; ``paths[k - 1]``, the zones
    each enters; ``every``, the zones of them all. Worked out once per board and start
    (remembered on ``data``).

    :func:`flee_ends` is the longest ``k`` whose paths through open zones end in an empty
    zone."""
    key = (start, length)
    memo = data.path_ends_memo
    found = memo.get(key)
    if found is None:
        paths: list[list[tuple[str, ...]]] = [[] for _ in range(length)]
        adj = data.adj

        def walk(path: tuple[str, ...]) -> None:
            if len(path) > 1:
                paths[len(path) - 2].append(path[1:])
            if len(path) > length:
                return
            for n in adj[path[-1]]:
                if n not in path:
                    walk(path + (n,))

        walk((start,))
        ends = tuple(frozenset(p[-1] for p in ps) for ps in paths)
        found = memo[key] = (ends, tuple(map(tuple, paths)), frozenset().union(*ends))
    return found


def adjacent(data: CadwallonData, zone: str) -> Iterable[str]:
    return data.adj[zone]
