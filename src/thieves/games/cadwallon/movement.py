"""Where a figure may go and whom it may attack, as module functions taking the state:
§"Se déplacer" (a character's move), §"Quitter le quartier" (leaving the district),
§"Déplacer un milicien" (a militiaman's move) and §"Attaquer" (the targets). The zone
graph's searches are in :mod:`.board`."""
from __future__ import annotations

from functools import partial
from itertools import chain, compress
from typing import TYPE_CHECKING

from .board import open_reach, reach

if TYPE_CHECKING:
    from .rules import CadwallonState


def enterable(state: CadwallonState, z: str) -> bool:
    """Not closed by a portcullis (option: a portcullis only closes the exit)."""
    return not (state.options["portcullis_blocks_zone"] and z in state.portcullis)


def blocked_zones(state: CadwallonState) -> set[str]:
    """The zones nobody may enter now: occupied, holding a token, or closed by a
    portcullis."""
    blocked = set(state.pos.values())
    blocked.update(state.tokens)
    if state.options["portcullis_blocks_zone"]:
        blocked.update(state.portcullis)
    return blocked


def movement(state: CadwallonState, c: str) -> int:
    """Movement of thief ``c`` for its move now (talent, Run, a Niggling injury played
    during this move)."""
    mv = state.data.move_of[c]
    act = state.act
    if act and state.active == c and "run" in act["cards"]:
        mv += 2
    injured = state.injured
    if injured:
        mv -= injured.get(c, 0)
    return mv if mv > 0 else 0


def arrive(state: CadwallonState, c: str, zone: str) -> None:
    """Loose ducats in a zone go to the gang of the thief who stops there (reconstructed)."""
    if zone in state.room_ducats and state._is_thief(c):
        p = state._player(c)
        amount = state.room_ducats.pop(zone)
        state.ducats[p] += amount
        if state.recording:
            state.event("picks_up", char=c, n=amount, zone=zone)


def move_targets(state: CadwallonState, c: str) -> dict[str, int]:
    """§"Se déplacer": empty zones within Movement through empty adjacent zones."""
    cards = state.act["cards"] if state.act and state.active == c else ()
    return reach_now(state, state.pos[c], movement(state, c), 1 if "secret_passage" in cards else 0,
                     "rooftops" in cards)


def reach_now(state: CadwallonState, start: str, steps: int, walls: int = 0,
              rooftops: bool = False) -> dict[str, int]:
    """:func:`.board.reach` from ``start`` around the zones blocked now (see
    :func:`blocked_zones`); ``rooftops``: blocked zones open to pass through (not closed by a
    portcullis). The last answer is remembered with everything it was worked out from
    (a move asks again when it is applied; the next decision often asks the same); the
    dict is shared: never mutate it."""
    key = (start, steps, walls, rooftops, tuple(state.pos.values()), tuple(state.tokens),
           tuple(state.portcullis))
    memo = state._reach_memo
    if memo is not None and memo[0] == key:
        return memo[1]
    blocked = blocked_zones(state)
    if walls or rooftops:
        out = reach(state.data, start, steps, blocked, walls=walls,
                    through=partial(enterable, state) if rooftops else None)
    else:  # the usual move: the search may add to its own copy of the blocked zones
        blocked.add(start)
        out = open_reach(state.data, start, steps, blocked)
    state._reach_memo = (key, out)
    return out


def can_leave(state: CadwallonState, c: str, targets: dict[str, int], mv: int | None = None) -> bool:
    """§"Quitter le quartier": after the alarm, from an open deployment zone, with one
    Movement point left to step off the board (``mv``: :func:`movement` of ``c`` when
    the caller has it already)."""
    if not state.alarm:
        return False
    if mv is None:
        mv = movement(state, c)
    deployment, closed = state.data.deployment_set, state.portcullis
    here = state.pos[c]
    if here in deployment and here not in closed and mv >= 1:
        return True
    for z in deployment.intersection(targets):
        if targets[z] < mv and z not in closed:
            return True
    return False


def militia_targets(state: CadwallonState, m: str, roll: int, p: int) -> list[str]:
    """§"Déplacer un milicien": up to ``roll`` zones; he may end his move by entering a
    zone holding a character he may attack (not of the mover's gang, not a militiaman;
    heroines are left alone, reconstructed)."""
    d = state.data
    adj = d.adj
    pos = state.pos
    here = pos[m]
    # :func:`reach_now` without its memo (the next decision asks about someone else)
    blocked = blocked_zones(state)
    blocked.add(here)
    inner = [here] if roll > 0 else []
    moves = open_reach(d, here, roll, blocked, inner)
    # the zones next to where he may stop with a step to spare (``inner``); one holding a
    # character he may attack can be entered
    near = set(chain.from_iterable(map(adj.__getitem__, inner)))
    if near.isdisjoint(pos.values()):  # nobody to attack on the way (the usual case)
        return sorted(moves)
    out = set(moves)
    foes = foes_of(state, p)
    closed = state.portcullis if state.options["portcullis_blocks_zone"] else ()
    for c in compress(pos, map(near.__contains__, pos.values())):
        z = pos[c]
        if c in foes and z not in closed:
            out.add(z)
    return sorted(out)


def foes_of(state: CadwallonState, p: int) -> frozenset[str]:
    """The figures player ``p`` may attack (:func:`militia_may_attack`): the thieves of
    the other gangs and the heroines."""
    g = state.gangs[p]
    if g is None:
        return frozenset(c for c in state.pos if militia_may_attack(state, c, p))
    return state.data.foes_of[g]


def militia_may_attack(state: CadwallonState, c: str, p: int) -> bool:
    """§"Déplacer un milicien": entering a zone holding a character starts a fight; the
    mover may not attack a character of his own gang nor the other militiaman (so a
    heroine, who belongs to no gang, may be attacked)."""
    d = state.data
    return (c in d.char and state._owner(c) != p) or c in d.heroine


def attack_targets(state: CadwallonState, c: str) -> list[str]:
    """§"Attaquer": an enemy thief or a heroine in an adjacent zone; never a militiaman.
    §"Se déplacer": a character enters an enemy's zone to attack it, so after a move the
    step into that zone needs a Movement point left (option attack_needs_movement)."""
    act = state.act
    if (state.options["attack_needs_movement"] and act is not None and state.active == c
            and act["moved"] and act.get("left", 1) < 1):
        return []
    pos = state.pos
    adj = state.data.adj_set[pos[c]]
    if adj.isdisjoint(pos.values()):  # nobody next door (the usual case)
        return []
    d = state.data
    foes = d.foes_of[d.gang_of[c]]  # an active character's gang always has its player
    closed = state.portcullis if state.options["portcullis_blocks_zone"] else ()
    out = [t for t in compress(pos, map(adj.__contains__, pos.values()))
           if t in foes and pos[t] not in closed]
    out.sort()
    return out
