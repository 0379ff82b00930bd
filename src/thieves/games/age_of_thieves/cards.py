"""General action cards and the thieves' special actions (texts in cards.yaml, thieves.yaml).

Each card becomes ``state.act``: a ``choose`` among targets (``guard g4``,
``at E30``, ``thief 2``, ``steal 2 green`` ...) or a ``gmove`` (moving guards
step by step with ``gstep``/``gstop``). Rulebook §"Aktionskarten und Fähigkeiten
einsetzen": range counts along the paths; a thief in a dungeon is never a target.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import actions, guards
from .notation import AotAction, figure_kind

if TYPE_CHECKING:
    from .state import AgeState


# -- general cards and special actions -------------------------------------------------
def in_range(state: AgeState, p: int, rng: int | None, s: str) -> bool:
    if rng is None:
        return True
    return state.data.dist[state.thieves[p]["pos"]].get(s, 99) <= rng


def spaces_in_range(state: AgeState, p: int, rng: int | None) -> list[str]:
    """Every space that passes ``in_range``, in board order."""
    if rng is None:
        return list(state.data.adj)
    return list(state.data.spaces_within(state.thieves[p]["pos"], rng))


def targetable_thieves(state: AgeState, p: int, rng: int | None, others: bool = True) -> list[int]:
    """Thieves on the board, not in a dungeon (§"Verlies": no target there)."""
    return [q for q in state.on_board() if (q != p or not others) and not state.thieves[q]["dungeon"]
            and in_range(state, p, rng, state.thieves[q]["pos"])]


def guards_in(state: AgeState, p: int, rng: int | None, captains: bool = False) -> list[str]:
    return sorted(g for g, s in state.guards.items() if (captains or g[0] == "g")
                  and in_range(state, p, rng, s))


def start_general(state: AgeState, p: int, typ: str) -> None:
    c = state.data.general[typ]
    e = c.effect
    t = state.thieves[p]
    if e == "move_self":
        actions.start_move(state, p, c.steps, pick=True)
    elif e == "move_protected":
        t["protected"] = True
        actions.start_move(state, p, c.steps, pick=True)
    elif e == "hide":
        t["cloak"] = True
    elif e == "move_guard":
        choose(state, p, [f"guard {g}" for g in guards_in(state, p, c.range)], "beacon", steps=c.steps)
    elif e == "move_guards":
        queue = [g for g in guards_in(state, p, c.range) if guards.guard_free(state, g)]
        if queue:
            state.act = {"kind": "gmove", "p": p, "g": queue[0], "left": c.steps, "queue": queue[1:],
                        "steps": c.steps, "lure": False, "path": [], "start": state.guards[queue[0]]}
            actions.auto_finish(state)
    elif e in ("noise", "smoke"):
        kind, at = state.data.kind, state.data.at_action
        choose(state, p, [at[s] for s in spaces_in_range(state, p, c.range) if kind[s] != "dungeon"],
                     e, steps=c.steps, radius=c.radius)
    elif e == "fire":
        choose(state, p, _fire_spots(state, p, c.range), "fire")
    elif e == "reposition_guard":
        choose(state, p, [f"guard {g}" for g in guards_in(state, p, None)], "orders")
    elif e == "steal":
        choose(state, p, [f"steal {q + 1} {k}" for q in targetable_thieves(state, p, c.range)
                         if not state.thieves[q]["robbed"] for k in actions.loot_of(state, q)], "steal")
    elif e == "wake_guards":
        figs = [g for g in guards_in(state, p, c.range)]
        if figs:
            guards.begin_guards(state, figs, "card")
    elif e == "immobilize":
        choose(state, p, _trap_opts(state, p, c.range), "trap")
    elif e == "poison":
        choose(state, p, [f"thief {q + 1}" for q in targetable_thieves(state, p, c.range)], "bola",
                     amount=c.amount)
    elif e == "take_token":
        choose(state, p, [f"token {q + 1} {x}" for q in targetable_thieves(state, p, c.range)
                         for x in sorted(set(state.thieves[q]["sheet"]))], "rats")


def start_special(state: AgeState, p: int) -> None:
    """Each thief's special action (all reconstructed, see thieves.yaml)."""
    t = state.thieves[p]
    sp = state.data.thieves[t["id"]].special
    if sp == "sewer_run":
        choose(state, p, [f"at {s}" for s in actions.sewer_exits(state) if actions.can_enter(state, p, s)],
               "reposition_self")
    elif sp == "rooftops":
        actions.start_move(state, p, 3, pick=True, safe=True)
    elif sp == "seduction":
        choose(state, p, [f"guard {g}" for g in guards_in(state, p, 4)], "lure")
    elif sp == "clockwork_trap":
        choose(state, p, _trap_opts(state, p, 3), "trap")
    elif sp == "confiscate":
        choose(state, p, [f"steal {q + 1} {k}" for q in targetable_thieves(state, p, 2)
                          if not state.thieves[q]["robbed"] for k in actions.loot_of(state, q) if k != "emperor"],
               "steal")
    elif sp == "firebomb":
        choose(state, p, _fire_spots(state, p, 3), "fire")


def _fire_spots(state: AgeState, p: int, rng: int | None) -> list[str]:
    """A free space: no figures (Rulebook §"freies Feld"), no dungeon."""
    figures = set(state.guards.values())  # guard_at() for every space at once
    thieves = {t["pos"] for t in state.thieves if t["left"] is None}  # and thieves_at()
    kind, at = state.data.kind, state.data.at_action
    return [at[s] for s in spaces_in_range(state, p, rng) if kind[s] != "dungeon"
            and s not in figures and s not in thieves and s not in state.fire]


def _trap_opts(state: AgeState, p: int, rng: int | None) -> list[str]:
    return [f"guard {g}" for g in guards_in(state, p, rng)] + \
           [f"thief {q + 1}" for q in targetable_thieves(state, p, rng, others=False)]


def choose(state: AgeState, p: int, opts: list[str], then: str, **kw: Any) -> None:
    if not opts:
        state.event("no_target", player=p)
        return
    state.act = {"kind": "choose", "p": p, "opts": opts, "then": then, **kw}


def choose_apply(state: AgeState, a: dict[str, Any], action: AotAction) -> None:
    p, then = a["p"], a["then"]
    word, arg = action.verb, action.arg
    state.act = None
    if a.get("after"):
        state.act = {"kind": "choose", "p": p, **a["after"]}
    if word == "nothing":
        return
    if then == "steal":
        actions.steal(state, p, action.named_seat, action.named_kind)
    elif then in ("beacon", "lure", "noise_guard"):
        if guards.guard_free(state, arg):
            state.act = {"kind": "gmove", "p": p, "g": arg, "left": 2 if then == "lure" else a["steps"],
                        "queue": [], "lure": then == "lure", "path": [], "start": state.guards[arg]}
            actions.auto_finish(state)
    elif then == "noise":
        # guards and captains near the target (Rulebook §"Diebstahl", example 1)
        near = [g for g, s in sorted(state.guards.items()) if guards.guard_free(state, g)
                and state.data.dist[arg].get(s, 99) <= a["radius"]]
        follow = ({"opts": [f"guard {g}" for g in near] + ["nothing"], "then": "noise_guard",
                   "steps": a["steps"]} if near else None)
        actions.mark_theft(state, p, arg)
        if state.act is not None:  # an immediate theft first, then the guard
            state.act["after"] = follow
        elif follow:
            state.act = {"kind": "choose", "p": p, **follow}
    elif then == "smoke":
        for s in [arg] + state.data.adj[arg]:
            if state.data.kind[s] != "dungeon" and s not in state.smoke:
                state.smoke.append(s)
        state.event("smoke", player=p, space=arg)
        actions.mark_theft(state, p, arg, marker=False)
    elif then == "fire":
        state.fire.append(arg)
        state.event("fire", player=p, space=arg)
    elif then == "orders":
        choose(state, p, [f"to {s}" for s in state.data.guardhouses if not state.guard_at(s)
                         and s not in state.fire], "orders_to", g=arg)
    elif then == "orders_to":
        state.guards[a["g"]] = arg  # repositioned: no arrests on the way (§"Versetzen")
        state.event("orders", fig=a["g"], space=arg)
        if state.options.get("placement_arrests") == "all":
            guards.catch_on(state, arg)  # option: it arrests on arrival
    elif then == "reposition_self":
        state.thieves[p]["pos"] = arg
        state.event("reposition_self", player=p, space=arg)
        actions.thief_entered(state, p, arg)  # as after the sewers: a guard there arrests at once
    elif then == "trap":
        if word == "guard":
            state.exec.setdefault("immobile", []).append(arg)
            state.event("trap_guard", fig=arg, figure=figure_kind(arg), space=state.guards[arg])
        else:
            state.thieves[action.named_seat]["immobile"] = True
            state.event("trap_thief", victim=action.seat)
    elif then == "bola":
        state.thieves[action.named_seat]["poison"] += a["amount"]
        state.event("bola", victim=action.seat, n=a["amount"])
    elif then == "rats":
        q, x = action.named_seat, action.named_kind
        state.thieves[q]["sheet"].remove(x)
        state.thieves[p]["sheet"].append(x)
        state.event("rats", player=p, victim=q, token=x)


# -- moving a guard with a card ----------------------------------------------------------
def gmove_actions(state: AgeState, a: dict[str, Any]) -> list[str]:
    g = a["g"]
    here = state.guards[g]
    d = state.data
    acts = []
    if a["left"] > 0:
        for n in d.adj[here]:
            if d.kind[n] == "dungeon" or n in state.fire:
                continue
            if a["left"] == 1 and state.guard_at(n):
                continue  # only one guard may end on a space
            if a["lure"]:
                me = state.thieves[a["p"]]["pos"]
                if n == me or d.dist[n][me] >= d.dist[here][me]:
                    continue
            acts.append(f"gstep {n}")
    acts.append("gstop")
    return acts


def gmove_apply(state: AgeState, a: dict[str, Any], action: AotAction) -> None:
    word, arg = action.verb, action.arg
    g = a["g"]
    if word == "gstep":
        state.guards[g] = arg
        a.setdefault("path", []).append(arg)
        a["left"] -= 1
        caught = [q for q in state.thieves_at(arg) if guards.catchable(state, q)]
        if not caught:
            return
        # a guard moved by a card arrests the thieves it walks into and stops (§"Bewegen")
        for q in caught:
            guards.arrest(state, q, arg)
    # only one figure may end on a space: back to the last free space of its way
    start = a.get("start", state.guards[g])
    for back in reversed([start] + a.get("path", [])):
        if guards.guard_at_other(state, g, back) is None:
            state.guards[g] = back
            break
    if state.guards[g] != start:
        state.event("guard_moved", fig=g, figure=figure_kind(g), space=state.guards[g],
                   route=[start] + a.get("path", []))
    if a["queue"]:
        a["g"] = a["queue"].pop(0)
        a["left"], a["path"], a["start"] = a["steps"], [], state.guards[a["g"]]
    else:
        state.act = None
