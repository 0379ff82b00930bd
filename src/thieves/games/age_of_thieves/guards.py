"""The automated city watch (Rulebook §"Aktionen der Stadtwachen") and the dungeon.

At its initiative the watch first detects (every guard, then every captain,
sees each non-hidden thief within its vigilance, counted along the paths and
ignoring fire), then moves: all guards, then all captains, each toward one
detected thief along a shortest path, arresting on entry. Choices the rules
leave open go to the start player as ordinary decisions (``assign``,
``first``, ``gstep``).
"""
from __future__ import annotations

from collections import deque
from itertools import product, repeat
from typing import TYPE_CHECKING, Any

from .notation import AotAction, figure_kind

if TYPE_CHECKING:
    from .state import AgeState

MAX_COMBOS = 4096


# -- the numbers on the city guard sheet (plus the round's event) ---------------------
def vigilance(state: AgeState, g: str) -> int:
    side = state.data.sheet["alarm" if state.alarm else "calm"]
    key = "captain_vigilance" if g[0] == "c" else "guard_vigilance"
    base = side.get(key, state.data.sheet["alarm"][key])  # captains only appear with the alarm
    ev = state.current_event()
    return max(0, int(base) + (ev.vigilance if ev else 0))


def movement(state: AgeState, g: str) -> int:
    side = state.data.sheet["alarm" if state.alarm else "calm"]
    key = "captain_movement" if g[0] == "c" else "guard_movement"
    base = side.get(key, state.data.sheet["alarm"][key])
    ev = state.current_event()
    return max(0, int(base) + (ev.movement if ev else 0))


def guard_free(state: AgeState, g: str) -> bool:
    return g not in state.exec.get("immobile", [])


def guard_at_other(state: AgeState, g: str, s: str) -> str | None:
    guards = state.guards
    if s not in guards.values() or (guards.get(g) == s and list(guards.values()).count(s) == 1):
        return None  # the usual answers, without a loop in Python
    for h, hs in guards.items():
        if h != g and hs == s:
            return h
    return None


def catchable(state: AgeState, p: int) -> bool:
    t = state.thieves[p]
    return t["left"] is None and not t["dungeon"] and not t["protected"] and not state.is_hidden(p)


def detects(state: AgeState, g: str, p: int) -> bool:
    """Hearing range along the paths; fire does not stop hearing; hidden thieves never."""
    t = state.thieves[p]
    if t["left"] is not None or t["dungeon"] or state.is_hidden(p):
        return False
    rng = vigilance(state, g) - (1 if t["id"] == "joanne" else 0)  # Joanne: reconstructed ability
    return state.data.dist[state.guards[g]].get(t["pos"], 99) <= rng


def _watch(state: AgeState) -> dict[str, Any]:
    """The watch at work (``gq``); asked for only while it is."""
    gq = state.gq
    assert gq is not None
    return gq


# -- activation ----------------------------------------------------------------------------
def begin_guards(state: AgeState, figs: list[str] | None, after: str) -> None:
    guards = state.guards
    d = state.data
    if figs is None:  # every figure: the guards by number, then the captains
        try:
            figs = sorted(guards, key=d.figure_rank.__getitem__)
        except KeyError:  # pragma: no cover - figures the box does not have
            figs = sorted(guards, key=lambda g: (g[0] != "g", int(g[1:])))
    if not figs or (figs[-1][0] == "g" and figs[0][0] == "g"):  # the usual: no captain
        groups = [figs, []]
    else:
        groups = [[g for g in figs if g[0] == "g"], [g for g in figs if g[0] == "c"]]
    # each figure's list of the thieves it detects (``detects``), in seat order; fresh
    # lists (``[]`` for each figure), made without a loop in Python
    det: dict[str, list[int]] = dict(zip(figs, map(list, repeat((), len(figs)))))
    # the test of ``detects`` for every figure and thief, each thief's part worked out once:
    # (player, space, how much less far it is heard: Joanne, reconstructed ability)
    audible = [(p, t["pos"], 1 if t["id"] == "joanne" else 0) for p, t in enumerate(state.thieves)
               if t["left"] is None and not t["dungeon"] and not state.is_hidden(p)]
    if audible:
        for group in groups:
            if not group:
                continue
            # the figures by their space (distances along the paths are symmetric: a figure
            # hears a thief when it stands within its vigilance of the thief's space)
            at = dict(zip(map(guards.__getitem__, group), group))
            if len(at) < len(group):  # two figures on one space (never at rest)
                _detect_each(state, group, audible, det)
                continue
            reach = vigilance(state, group[0])  # the same for all of a kind
            spaces = at.keys()
            for p, pos, less in audible:
                for s in spaces & d.spaces_near(pos, reach - less).keys():
                    det[at[s]].append(p)
        if state.recording:
            for g in figs:
                ps = det[g]
                if ps:
                    state.event("detects", fig=g, figure=figure_kind(g), space=guards[g], player=ps)
    state.gq = {"groups": groups, "det": det, "cur": None, "assigned": None, "after": after}
    if after == "exec":
        state.event("watch_acts")


def _detect_each(state: AgeState, group: list[str], audible: list[tuple[int, str, int]],
                 det: dict[str, list[int]]) -> None:
    """``begin_guards``' detection figure by figure (when two figures share a space)."""
    dist = state.data.dist
    reach = vigilance(state, group[0])
    for g in group:
        near = dist[state.guards[g]]
        det[g].extend(p for p, pos, less in audible if near.get(pos, 99) <= reach - less)


def _targets(state: AgeState, g: str) -> list[str]:
    """Spaces of the thieves g detected that are still there to be chased."""
    out = []
    for p in _watch(state)["det"].get(g, []):
        t = state.thieves[p]
        if t["left"] is None and not t["dungeon"] and t["pos"] not in out:
            out.append(t["pos"])
    return sorted(out, key=state.data.order_key)


def _has_targets(state: AgeState, g: str) -> bool:
    """``bool(_targets(state, g))`` without sorting."""
    detected = _watch(state)["det"].get(g)
    return bool(detected) and any(state.thieves[p]["left"] is None and not state.thieves[p]["dungeon"]
                                  for p in detected)


def blocked_dist(state: AgeState, start: str, limit: int | None = None) -> dict[str, int]:
    """Distances from start around fire (and never through a dungeon); with a limit, only
    the spaces at most that far are sure to be there."""
    if not state.fire:
        return state.data.dist[start]
    dist = {start: 0}
    q = deque([start])
    while q:
        c = q.popleft()
        if limit is not None and dist[c] >= limit:
            continue  # the spaces beyond are farther than the limit
        for n in state.data.adj[c]:
            if n not in dist and n not in state.fire and state.data.kind[n] != "dungeon":
                dist[n] = dist[c] + 1
                q.append(n)
    return dist


def _best_assignments(state: AgeState, active: list[str]) -> list[dict[str, str]]:
    """Rulebook §"Detaillierte Regeln": as many arrests as possible (guards split up),
    then each goes for the nearest thief, then for the space with more thieves."""
    d = state.data
    opts = {g: _targets(state, g) for g in active}
    size = 1
    for g in active:
        size *= len(opts[g])
    info = {}
    for g in active:
        here = state.guards[g]
        mv = movement(state, g)
        bd = blocked_dist(state, here, limit=mv)  # only spaces within its movement matter
        detour = state.options.get("guard_fire") == "detour"
        for s in opts[g]:
            dd = d.dist[here][s]
            reach = bd.get(s, 99) <= mv if detour else (dd <= mv and bd.get(s, 99) == dd)
            catch = [p for p in state.thieves_at(s) if catchable(state, p)]
            info[g, s] = (dd, reach and bool(catch), len(catch))
    if size > MAX_COMBOS:  # pragma: no cover - far more guards than the game has
        return [{g: min(opts[g], key=lambda s: (info[g, s][0], -info[g, s][2])) for g in active}]
    best, best_score = [], None
    for combo in product(*(opts[g] for g in active)):
        reached = {s for g, s in zip(active, combo) if info[g, s][1]}
        score = (len(reached), -sum(info[g, s][0] for g, s in zip(active, combo)),
                 sum(info[g, s][2] for g, s in zip(active, combo)))
        if best_score is None or score > best_score:
            best, best_score = [dict(zip(active, combo))], score
        elif score == best_score:
            best.append(dict(zip(active, combo)))
    return best


def guards_run(state: AgeState) -> bool:
    """Advance the watch; False when the start player must decide something."""
    gq = _watch(state)
    while True:
        if state.ended:
            return False
        if gq["cur"] is not None:
            if not _guard_step(state):
                return False
            continue
        if not gq["groups"]:
            state.gq = None
            if gq["after"] == "exec":
                state.exec["guards_done"] = True
            return True
        group = gq["groups"][0]
        det = gq["det"]  # most figures detected nobody: _has_targets is False for them
        active = [g for g in filter(det.get, group) if _has_targets(state, g) and g in state.guards
                  and guard_free(state, g)]
        if not active:
            gq["groups"].pop(0)
            gq["assigned"] = None
            continue
        if gq["assigned"] is None:
            best = _best_assignments(state, active)
            if len(best) > 1:
                state.pending.append({"kind": "assign", "p": state.start, "opts": best})
                return False
            gq["assigned"] = best[0]
        assigned = gq["assigned"]
        first = active[0]
        same = [g for g in active if assigned.get(g) == assigned.get(first)]
        if len(same) > 1:
            # two figures after the same thief: the start player orders them
            state.pending.append({"kind": "first", "p": state.start, "opts": same})
            return False
        _start_guard(state, first)


def _start_guard(state: AgeState, g: str) -> None:
    gq = _watch(state)
    gq["groups"][0].remove(g)
    target = gq["assigned"].get(g)
    targets = _targets(state, g)
    if target not in targets:
        # its thief is gone (arrested by an earlier figure): the nearest one it detected
        here = state.guards[g]
        target = min(targets, key=lambda s: (state.data.dist[here][s],
                                             -sum(1 for p in state.thieves_at(s) if catchable(state, p)),
                                             state.data.order_key(s)))
    gq["cur"] = {"g": g, "t": target, "left": movement(state, g), "path": [state.guards[g]]}
    here = state.guards[g]
    caught = [p for p in state.thieves_at(here) if catchable(state, p)]
    if caught:  # a thief on the figure's own space is caught when the watch acts
        for p in caught:
            arrest(state, p, here)
        gq["cur"] = None


def _guard_steps(state: AgeState) -> list[str]:
    cur = _watch(state)["cur"]
    here, t = state.guards[cur["g"]], cur["t"]
    d = state.data
    if cur["left"] <= 0 or here == t:
        return []
    if state.fire and state.options.get("guard_fire") == "detour":
        # option: the figure walks the shortest way around the fire
        bt = blocked_dist(state, t)
        if here in bt:
            return [n for n in d.adj[here] if bt.get(n, 99) == bt[here] - 1]
    # Rulebook §"Diebe festnehmen": fire stops a figure on its way toward the thief; it
    # goes "as far as possible" along the shortest way (detection ignores fire)
    return [n for n in d.adj[here] if d.kind[n] != "dungeon" and n not in state.fire
            and d.dist[n][t] == d.dist[here][t] - 1]


def _guard_step(state: AgeState) -> bool:
    steps = _guard_steps(state)
    if not steps:
        _end_guard(state)
        return True
    if len(steps) > 1:
        # equally short ways: the start player picks (Rulebook: start player decides for the watch)
        state.pending.append({"kind": "gstep", "p": state.start, "opts": steps})
        return False
    _guard_enter(state, steps[0])
    return True


def _guard_enter(state: AgeState, n: str) -> None:
    cur = _watch(state)["cur"]
    g = cur["g"]
    state.guards[g] = n
    cur["left"] -= 1
    cur["path"].append(n)
    caught = [p for p in state.thieves_at(n) if catchable(state, p)]
    if caught:
        for p in caught:  # everyone catchable on the space is arrested; the figure stops
            arrest(state, p, n)
        _end_guard(state)


def _end_guard(state: AgeState) -> None:
    cur = _watch(state)["cur"]
    g = cur["g"]
    # only one figure may end on a space: stop on the last free space of the way
    for s in reversed(cur["path"]):
        if guard_at_other(state, g, s) is None:
            state.guards[g] = s
            break
    if state.guards[g] != cur["path"][0]:
        state.event("guard_moved", fig=g, figure=figure_kind(g), space=state.guards[g],
                   route=cur["path"])
    _watch(state)["cur"] = None


# -- the watch's open choices, made by the start player ---------------------------------------
def guard_pending_actions(state: AgeState, pd: dict[str, Any]) -> list[str]:
    k = pd["kind"]
    if k == "gstep":
        return [f"gstep {s}" for s in pd["opts"]]
    if k == "first":
        return [f"first {g}" for g in pd["opts"]]
    if k == "assign":
        return ["assign " + " ".join(f"{g}>{s}" for g, s in sorted(a.items())) for a in pd["opts"]]
    return []  # pragma: no cover


def guard_pending_apply(state: AgeState, pd: dict[str, Any], action: AotAction) -> None:
    word, arg = action.verb, action.arg
    state.pending.pop(0)
    if word == "gstep":
        _guard_enter(state, arg)
    elif word == "first":
        _start_guard(state, arg)
    elif word == "assign":
        _watch(state)["assigned"] = action.assignment


# -- the dungeon (Rulebook §"Verlies") ------------------------------------------------------------
def catch_on(state: AgeState, s: str) -> None:
    for p in state.thieves_at(s):
        if catchable(state, p):
            arrest(state, p, s)


def lose_jewel(state: AgeState, p: int, kind: str) -> None:
    t = state.thieves[p]
    if kind == "trinket":
        t["sheet"].remove("trinket")
        state.spent_tokens.append("trinket")
    else:
        t["yellow"] -= 1
        state.yellow_supply += 1
    state.event("loses", player=p, gem=kind)


def arrest(state: AgeState, p: int, s: str) -> None:
    d = state.data
    t = state.thieves[p]
    dist = d.district[s]
    # 1. lose 1 jewel: the Emperors' Jewel to the imperial guardhouse (or stays in the Palace)
    if t["emperor"]:
        t["emperor"] = False
        place = s if dist == "palace" else d.imperial[dist]
        state.gems.setdefault(place, []).append("emperor")
        state.event("emperor_dropped", space=place)
    elif t["yellow"] and "trinket" in t["sheet"]:
        # two cheapest jewels of 1 VP: the thief chooses which to give up
        state.pending.append({"kind": "lose", "p": p})
    elif t["yellow"] or "trinket" in t["sheet"]:
        lose_jewel(state, p, "yellow" if t["yellow"] else "trinket")
    elif t["green"]:
        t["green"] -= 1
        state.green_supply += 1
    # 2. discard 1 action card (the thief chooses)
    if t["hand"]:
        state.pending.append({"kind": "discard", "p": p, "why": "arrest"})
    # 3. to a dungeon: the district's, a drawn district's from the Palace, the alarm district's
    if state.alarm:
        where = state.alarm_district
        assert where is not None   # drawn before the alarm is raised
    elif dist == "palace":
        where = state.district_deck[state.rng.below(len(state.district_deck))]
    else:
        where = dist
    t["pos"] = d.dungeon[where]
    t["dungeon"], t["arrested"], t["escaped"], t["cloak"], t["marker"] = True, True, False, False, False
    for slot in t["plan"]:
        if slot["shown"] is False:
            slot["shown"] = True  # no further actions this round; the AP are set aside
    if state.act and state.act.get("p") == p:
        state.act = None
    if state.turn == p:
        state.turn = None
    state.event("arrested", player=p, space=s, district=where, dungeon=t["pos"])
