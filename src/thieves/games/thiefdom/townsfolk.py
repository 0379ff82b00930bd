"""Townsfolk: nobles, guards and the carriage; fields of view and arrests.

Rulebook "Déplacement des citadins", "Champ de vision", "Tentative
d'arrestation par un garde", "Arrestation" and the FAQ.
A move is a small state machine kept in ``self.tmove``; the mover decides
the direction wherever the rules leave a choice (start, and each branching
point that is not the stop), and everything else is automatic.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import cards, solo
from .city import DIRS, City
from .goods import empty_inv, gain, merge_into
from .notation import THIEF_REFS

if TYPE_CHECKING:
    from .state import ThiefdomState

REV = (2, 3, 0, 1)  # the opposite of each direction

#: GO[d]: the notation of a townsfolk's step towards direction d ("go n")
GO = tuple(f"go {d.lower()}" for d in DIRS)


# -- occupancy -------------------------------------------------------------
def occupancy(state: ThiefdomState, without: str | None = None) -> dict[int, str]:
    """Alley square -> figure on it ("gA", "nB", "car", "p0t1")."""
    # thieves on an alley square (not in a building, not yet placed), then the
    # townsfolk; each guild has its three thieves (written out: this runs often)
    occ = {}
    for (ref0, ref1, ref2), (th0, th1, th2) in zip(THIEF_REFS, state.thieves):
        pos = th0["pos"]
        if type(pos) is int:
            occ[pos] = ref0
        pos = th1["pos"]
        if type(pos) is int:
            occ[pos] = ref1
        pos = th2["pos"]
        if type(pos) is int:
            occ[pos] = ref2
    for fig, f in state.tf.items():
        if fig != without:
            occ[f["cell"]] = fig
    return occ


def occupancy_now(state: ThiefdomState) -> dict[int, str]:
    """:func:`occupancy`, kept between moves during a random playout (callers never
    change the dict they get)."""
    occ = state._occ_cache
    if occ is None:
        occ = occupancy(state)
        if state._occ_live:
            figures = len(state.tf)
            for ts in state.thieves:
                for th in ts:
                    if type(th["pos"]) is int:
                        figures += 1
            if len(occ) == figures:  # one figure per square
                state._occ_cache = occ
    return occ


def place(state: ThiefdomState, p: int, t: int, pos: int | str | None) -> None:
    """Thief ``t`` of player ``p`` now stands on ``pos`` (a square or a building)."""
    th = state.thieves[p][t]
    old = th["pos"]
    th["pos"] = pos
    occ = state._occ_cache
    if occ is not None:
        if type(old) is int:
            del occ[old]  # it stood there alone (kept only so)
        if type(pos) is int:
            if pos in occ:
                state._occ_cache = None  # two figures on one square: made afresh when asked
            else:
                occ[pos] = THIEF_REFS[p][t]


def _tmove_occupancy(state: ThiefdomState, tm: dict[str, Any]) -> dict[int, str]:
    """The occupancy a moving townsfolk sees: every figure but itself, or the
    kept occupancy, where the figure still stands alone on the square its move
    began from: the same answers, as the move's code asks of that square only
    whether a thief stands there, or whether it is free (where its own start
    counts as free, see _tf_free)."""
    occ = state._occ_cache
    if occ is None:
        if tm["moved"]:  # the kept occupancy has the figure where its move began
            return occupancy(state, without=tm["fig"])
        occ = occupancy_now(state)
        if occ is not state._occ_cache:
            return occupancy(state, without=tm["fig"])
    return occ


def figure_at(state: ThiefdomState, cell: int) -> str | None:
    """What stands on alley square ``cell``, as ``occupancy(state).get(cell)`` (a
    townsfolk figure before a thief, the last one found otherwise)."""
    ref = None
    for fig, f in state.tf.items():
        if f["cell"] == cell:
            ref = fig
    if ref is None:
        for (ref0, ref1, ref2), (th0, th1, th2) in zip(THIEF_REFS, state.thieves):
            if th0["pos"] == cell:
                ref = ref0
            if th1["pos"] == cell:
                ref = ref1
            if th2["pos"] == cell:
                ref = ref2
    return ref


def guard_sees(state: ThiefdomState, fig: str) -> list[int]:
    g = state.tf[fig]
    return state.city.line(g["cell"], g["face"])


# -- escapes (rulebook: "vérifiez s'ils sont en mesure d'échapper") -------------
def immune(state: ThiefdomState, p: int, t: int, fig: str, fig_cell: int) -> str | None:
    th = state.thieves[p][t]
    turn = state.turn
    if turn and turn["smoke"] and turn["p"] == p and turn["t"] == t:
        return "smoke"  # Smoke Bomb: cannot be arrested this turn
    if fig[0] == "g":
        if _blinded(state, p, t, fig):
            return "bernhard"  # Bernhard: that guard cannot arrest this thief this round
        if cards.ally_of(state, p, t) == "wibald" and state.city.section_of[fig_cell] == 7:
            return "wibald"  # Wibald: guards on the Dungeon's section cannot arrest
    return None


def _blinded(state: ThiefdomState, p: int, t: int, fig: str) -> bool:
    """Bernhard: the chosen guard "perd son champ de vision et n'est plus en mesure
    d'arrêter le voleur de votre guilde"; option bernhard_blinds_for_all: for everyone."""
    if fig in state.thieves[p][t]["blind"]:
        return True
    return state.options["bernhard_blinds_for_all"] and any(
        fig in o["blind"] for ts in state.thieves for o in ts)


def _attempt(state: ThiefdomState, ref: str, fig: str, fig_cell: int, pending: list[list[Any]]) -> None:
    if any(x[0] == ref for x in pending):
        return
    pending.append([ref, fig, fig_cell])


def resolve(state: ThiefdomState, pending: list[list[Any]]) -> list[str]:
    """Laid-down thieves escape or are arrested; returns the arrested refs."""
    arrested = []
    for ref, fig, cell in pending:
        p, t = int(ref[1]), int(ref[3])
        if not isinstance(state.thieves[p][t]["pos"], int):
            continue
        why = immune(state, p, t, fig, cell)
        if why:
            state.event("escape", player=p, thief=THIEF_REFS[p][t], fig=fig, why=why)
        else:
            arrest(state, p, t, fig)
            arrested.append(ref)
    return arrested


def arrest(state: ThiefdomState, p: int, t: int, fig: str) -> None:
    """Rulebook "Arrestation": back to the hideout, -2 VP, goods to the Dungeon
    (solo: discarded), wanted poster cleared."""
    th = state.thieves[p][t]
    place(state, p, t, state.hideout[p])
    th["wanted"] = False
    if state.num_players > 1:
        merge_into(state.dungeon, th["inv"])
    th["inv"] = empty_inv()
    gain(state, p, -2)
    state.event("arrest", player=p, thief=THIEF_REFS[p][t], fig=fig, place=th["pos"])
    turn = state.turn
    if turn and turn["p"] == p and turn["t"] == t:
        turn["moving"] = False
        turn["mp"] = 0
        turn["over"] = None
        turn["chain"] = []
        turn["sub"] = None


def check_thief_seen(state: ThiefdomState, p: int, t: int, cell: int, occ: dict[int, str] | None = None) -> bool:
    """A thief moved onto ``cell``: attempted arrest if a guard sees it (case 3).
    Returns True when there was an attempt: the thief's move is then interrupted
    at once, whether it escapes (Wibald) or is arrested. A Smoke Bomb thief
    ignores the guards' fields of view and a guard blinded by Bernhard has none
    for this thief, so neither makes an attempt."""
    turn = state.turn
    if turn and turn["smoke"] and turn["p"] == p and turn["t"] == t:
        return False
    sight = state.city.sight
    watched = state._watch_cache
    if watched is None and state._occ_live:
        watched = state._watch_cache = frozenset().union(
            *[sight[f["cell"] * 4 + f["face"]] for fig, f in state.tf.items() if fig[0] == "g"])
    if watched is not None and cell not in watched:
        return False  # no guard sees that square
    pending: list[list[Any]] = []
    ref = THIEF_REFS[p][t]
    for fig, f in state.tf.items():
        if fig[0] == "g" and cell in sight[f["cell"] * 4 + f["face"]] and not _blinded(state, p, t, fig):
            _attempt(state, ref, fig, f["cell"], pending)
    if pending:
        resolve(state, pending)
        return True
    return False


# -- townsfolk movement -------------------------------------------------------------
def start_tmove(state: ThiefdomState, fig: str, mover: int, stop_at: int = 0, solo_roll: int = 0) -> None:
    f = state.tf[fig]
    if not stop_at:
        stop_at = 2 if fig == "car" else 1  # the carriage stops at the 2nd free lantern
    head = f["face"] if fig[0] == "g" else -1  # guards: straight, left or right only
    state.tmove = {"fig": fig, "mover": mover, "cell": f["cell"], "start": f["cell"], "head": head,
                  "passed": 0, "stop": stop_at, "pending": [], "roll": solo_roll, "moved": False,
                  "seen": []}
    run_tmove(state)


def _tf_free(state: ThiefdomState, cell: int, occ: dict[int, str], start: int) -> bool:
    return cell == start or cell not in occ


def tf_options(state: ThiefdomState, tm: dict[str, Any], occ: dict[int, str]) -> list[int]:
    """Directions from the figure's square that lead to a legal stop."""
    out = []
    head = tm["head"]
    passed, stop, start = tm["passed"], tm["stop"], tm["start"]
    city = state.city
    first = city.first_lanterns
    if head >= 0:
        ways = city.forward[tm["cell"] * 4 + head]  # never a 180-degree turn
    else:
        ways = city.ways[tm["cell"]]  # no heading yet: any way
    # a figure may loop back over its own way, but never goes round the same way twice
    seen = tm["seen"]
    last = passed + 1 >= stop  # one more free lantern ends the move
    if last and not seen:
        # the move begins (nothing gone through yet): below, written out
        for d, nb in ways:
            for c in (first[nb * 4 + d] or _first_lanterns(city, nb, d))[0]:
                if c == start or c not in occ:
                    out.append(d)
                    break
            else:
                if _tf_reach(city.forward, city.lantern, nb, d, passed, stop, start, occ, set()):
                    out.append(d)
        return out
    been = set(map(tuple, seen))
    # the states already gone through with as many lanterns behind as now
    been_now = {c * 4 + d for c, d, k in seen if k == passed} if last and seen else None
    for d, nb in ways:
        if (nb, d, passed) in been:
            continue  # the way it has gone already (what _tf_reach would answer)
        if last:
            # the first lanterns ahead tell, unless the way there crosses the
            # figure's own way (then search)
            lanterns, region = first[nb * 4 + d] or _first_lanterns(city, nb, d)
            if not been_now or region.isdisjoint(been_now):
                for c in lanterns:
                    if c == start or c not in occ:
                        break
                else:
                    c = -1
                if c >= 0:
                    out.append(d)  # a free one: what _tf_reach would answer
                    continue
        if _tf_reach(city.forward, city.lantern, nb, d, passed, stop, start, occ, set(been)):
            out.append(d)
    return out


def run_tmove(state: ThiefdomState, choice: int | None = None) -> None:
    """Advance the current townsfolk move until it stops or needs a decision."""
    tm = state.tmove
    fig = tm["fig"]
    occ = state._occ_cache  # (what _tmove_occupancy answers when there is one)
    if occ is None:
        occ = _tmove_occupancy(state, tm)
    city = state.city
    forward, nbr, lantern, lines = city.forward, city.nbr, city.lantern, city.lines
    figure, guard, start, stop = state.tf[fig], fig[0] == "g", tm["start"], tm["stop"]
    seen, pending = tm["seen"], tm["pending"]
    if guard:
        state._watch_cache = None  # the guard's field of view moves with it
    # ``sure``: the step about to be taken is one that tf_options offered, so a
    # stop lies ahead along it. Where the square it leads to has one way on only,
    # the search that found that stop went on that way (it never passes a state
    # twice, and the only state the step adds to tm["seen"] is its own first one):
    # the options there are that way alone, with no need to search again.
    sure = choice is not None and choice in tm.get("opts", ())
    while True:
        if choice is None:
            ways: tuple[tuple[int, int], ...] = forward[tm["cell"] * 4 + tm["head"]] if sure else ()
            opts = [ways[0][0]] if len(ways) == 1 else tf_options(state, tm, occ)
            if not opts:
                if not tm["moved"]:
                    state.event("tf_stays", fig=fig)
                break
            if tm["roll"]:
                choice = solo.solo_pick(state, tm, opts)
            elif len(opts) > 1:
                tm["opts"] = opts
                return  # the mover decides
            else:
                choice = opts[0]
            sure = True  # a choice among opts
        d = choice
        choice = None
        tm.pop("opts", None)
        cell = nbr[tm["cell"]][d]
        passed = tm["passed"]
        seen.append([cell, d, passed])
        tm["cell"] = cell
        tm["head"] = d
        tm["moved"] = True
        figure["cell"] = cell
        if guard:
            # _tf_sight: the square the guard steps on, then the squares it sees
            ref = occ.get(cell)
            if ref and ref[0] == "p":
                _attempt(state, ref, fig, cell, pending)
            for c in lines[cell * 4 + d]:
                ref = occ.get(c)
                if ref and ref[0] == "p":
                    _attempt(state, ref, fig, cell, pending)
        elif cell in occ:  # (_tf_sight: nobody there to see otherwise)
            _tf_sight(state, tm, cell, occ)
        if lantern[cell] and (cell == start or cell not in occ):  # a free lantern (_tf_free)
            tm["passed"] = passed = passed + 1
            if passed >= stop:
                break
    # the move ends: a guard faces the way of its last step
    if guard:
        if tm["moved"]:
            figure["face"] = tm["head"]
        _tf_sight(state, tm, tm["cell"], occ, final=True)
    if tm["moved"]:
        if guard:
            state.event("guard_moves", fig=fig, sq=city.labels[tm["cell"]], dir="nesw"[figure["face"]])
        else:
            state.event("tf_moves", fig=fig, sq=city.labels[tm["cell"]])
    state.tmove = None
    kept = state._occ_cache
    if kept is not None and tm["moved"]:
        del kept[start]  # (kept only while the figure stood there alone)
        if tm["cell"] in kept:
            state._occ_cache = None  # two figures on one square: made afresh when asked
        else:
            kept[tm["cell"]] = fig
    if pending:
        resolve(state, pending)


def _tf_sight(state: ThiefdomState, tm: dict[str, Any], cell: int, occ: dict[int, str], final: bool = False) -> None:
    """Attempted arrests while a townsfolk moves (cases 1, 2 and wanted thieves)."""
    fig = tm["fig"]
    if fig[0] == "g":
        pending = tm["pending"]
        if not final:  # the square it steps on, then the squares it sees
            ref = occ.get(cell)
            if ref and ref[0] == "p":
                _attempt(state, ref, fig, cell, pending)
        for c in state.city.lines[cell * 4 + (tm["head"] if not final else state.tf[fig]["face"])]:
            ref = occ.get(c)
            if ref and ref[0] == "p":
                _attempt(state, ref, fig, cell, pending)
    else:
        ref = occ.get(cell)
        if ref and ref[0] == "p" and state.thieves[int(ref[1])][int(ref[3])]["wanted"]:
            _attempt(state, ref, fig, cell, tm["pending"])


def tmove_actions(state: ThiefdomState) -> list[str]:
    return [GO[d] for d in state.tmove["opts"]]


def _first_lanterns(city: City, cell: int, head: int) -> tuple[tuple[int, ...], frozenset[int]]:
    """The lantern squares a townsfolk entering ``cell`` heading ``head`` may reach
    first (passing no other lantern, never turning back), and the states
    (square, heading), as ``square * 4 + heading``, on the ways there, lanterns
    included. Geometry only, so
    remembered by the city. If one of these lanterns is free and the figure has
    not been in any of these states yet (with as many lanterns behind it), the
    search of :func:`_tf_reach` for one more free lantern finds it."""
    memo = city.first_lanterns
    key = cell * 4 + head
    got = memo[key]
    if got is None:
        forward = city.forward  # (indexed by the state itself: square * 4 + heading)
        lantern = city.lantern
        states: set[int] = set()
        lanterns = []
        todo = [key]
        pop, push = todo.pop, todo.append
        while todo:
            state = pop()
            if state in states:
                continue
            states.add(state)
            at = state >> 2
            if lantern[at]:
                lanterns.append(at)
                continue
            for d, nb in forward[state]:
                push(nb * 4 + d)
        got = memo[key] = (tuple(lanterns), frozenset(states))
    return got


def _tf_reach(forward: list[tuple[tuple[int, int], ...]], lantern: list[bool], cell: int, head: int,
              passed: int, stop: int, start: int, occ: dict[int, str], seen: set[tuple[int, int, int]]) -> bool:
    """Can a townsfolk entering ``cell`` heading ``head``, with ``passed`` free lanterns
    behind it, go on to its ``stop``-th free lantern without a 180-degree turn and
    without going round the same way twice (the states in ``seen``)? A search over
    the states (square, heading, lanterns passed): what follows a state depends on
    the state alone, so the order of the search does not change the answer.
    ``forward`` is the city's ``forward`` table, ``lantern`` its lantern squares."""
    todo = [(cell, head, passed)]
    pop, push = todo.pop, todo.append
    while todo:
        key = pop()
        if key in seen:
            continue
        seen.add(key)
        cell, head, passed = key
        if lantern[cell] and (cell == start or cell not in occ):  # a free lantern (_tf_free)
            passed += 1
            if passed >= stop:
                return True
        for d, nb in forward[cell * 4 + head]:
            push((nb, d, passed))
    return False
