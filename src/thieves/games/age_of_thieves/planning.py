"""Phase 3, planning (Rulebook §"3. Phase: Planung"), and the one-off decisions.

Planning is secret and simultaneous: every thief on the board decides at
once, in small steps (``plan move``, ``ap 3``, ``add informer``, ``next``,
``done``), and nobody sees another's choices until all are done.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import guards
from .notation import AotAction, ctype, parse_action

if TYPE_CHECKING:
    from .state import AgeState

AP_TOKENS = ("informer", "agent")
#: ``AP_ACTIONS[k]`` is "ap k" (more than a sheet's markers ever give)
AP_ACTIONS = tuple(f"ap {k}" for k in range(64))
DONE = parse_action("done")


# -- start of planning: the AP each thief has -------------------------------------
def begin_planning(state: AgeState) -> None:
    blue_ap = state.data.tokens.pieces["blue_ap"]
    for t in state.thieves:
        t["plan"], t["cur"] = [], None
        if t["left"] is not None:
            t["done"] = True
            continue
        # dungeon: 2 blue AP (Rulebook §"Verlies"); Poisoned Bola lowers the count
        blue = t["ap_next"] if t["ap_next"] is not None else blue_ap
        t["blue"] = max(0, blue - t["poison"])
        t["poison"], t["ap_next"], t["done"] = 0, None, False


def markers_free(state: AgeState, p: int) -> int:
    t = state.thieves[p]
    used: int = t["cur"]["m"] if t["cur"] else 0
    for s in t["plan"]:
        used += s["m"]
    markers: int = t["blue"] + t["red"] + t["violet"]
    return markers - used


def tokens_free(state: AgeState, p: int) -> list[str]:
    """AP-giving city tokens on the sheet not yet put on a card this planning."""
    t = state.thieves[p]
    sheet = t["sheet"]
    if "informer" not in sheet and "agent" not in sheet:  # AP_TOKENS: none to put on
        return []
    left = [x for x in sheet if x in AP_TOKENS]
    for s in t["plan"] + ([t["cur"]] if t["cur"] else []):
        for x in s["tok"]:
            left.remove(x)
    return left


def planned(state: AgeState, p: int, what: str) -> bool:
    return any(s["card"] == what for s in state.thieves[p]["plan"])


def plan_actions(state: AgeState, p: int) -> list[str]:
    t = state.thieves[p]
    cur = t["cur"]
    if cur is None:
        plan = t["plan"]
        free = t["blue"] + t["red"] + t["violet"]  # markers_free(), with no card in hand
        for s in plan:
            free -= s["m"]
        if free <= 0 and not tokens_free(state, p):
            return ["done"]
        planned = [s["card"] for s in plan]  # what planned() looks for
        acts = []
        if "move" not in planned:
            acts.append("plan move")
        if "ambush" not in planned:
            acts.append("plan ambush")
        d = state.data
        types = sorted(set(map(d.card_type.__getitem__, t["hand"])))
        acts += map(d.plan_action.__getitem__, types)
        if "special" not in planned and state.options.get("specials", True):
            acts += map(d.special_action.__getitem__, types)
        acts.append("done")
        return acts
    if cur["stage"] == "ap":
        free = markers_free(state, p)
        acts = list(AP_ACTIONS[1:free + 1]) if free < len(AP_ACTIONS) else \
            [f"ap {k}" for k in range(1, free + 1)]
        if tokens_free(state, p):
            acts.insert(0, "ap 0")
        return acts
    acts = [f"add {x}" for x in sorted(set(tokens_free(state, p)))]
    if cur["m"] + sum(state.data.ap_value[x] for x in cur["tok"]) >= 1:
        acts.append("next")
    return acts


def plan_apply(state: AgeState, p: int, action: AotAction) -> None:
    t = state.thieves[p]
    word, arg = action.verb, action.arg
    if word == "done":
        t["done"] = True
        if state.recording:
            state.event("plan_done", player=p)
            for s in t["plan"]:  # behind the screen: only this thief reads it
                state.event("my_slot", to=[p], player=p, card=slot_card(state, s, p), ap=s["ap"])
            if not t["plan"]:
                state.event("my_plan_empty", to=[p], player=p)
        return
    if word in ("plan", "special"):
        if word == "special":
            card, under = "special", take_from_hand(state, p, arg)
        elif arg in ("move", "ambush"):
            card, under = arg, None
        else:
            card, under = take_from_hand(state, p, arg), None
        t["cur"] = {"card": card, "under": under, "m": 0, "tok": [], "stage": "ap", "ap": 0,
                    "shown": None}
        return
    cur = t["cur"]
    if word == "ap":
        cur["m"] = int(arg)
        cur["stage"] = "tok"
        if not tokens_free(state, p):
            _close_slot(state, p)
        return
    if word == "add":
        cur["tok"].append(arg)
        if not tokens_free(state, p):
            _close_slot(state, p)
        return
    if word == "next":
        _close_slot(state, p)


def plan_playout(state: AgeState, below: Callable[[int], int], budget: int) -> int:
    """Random planning decisions (trusted fast path) until everyone is done or ``budget``
    decisions are played; returns how many. The same moves as the checked loop: the seat
    among those still planning, then its action, each drawn with ``below``. Only the last
    ``done`` runs the round loop (before that the loop would stop at once: planning
    raises no pending decision).

    A thief with no AP-giving token on its sheet (the usual case) is planned here
    directly (:func:`_plan_in_place`): its actions are counted and only the one drawn is
    written out, as :func:`plan_actions` lists them and :func:`plan_apply` applies them.
    A thief with such a token goes through those two."""
    thieves, history, secret = state.thieves, state.history, state.secret_steps
    planning = [p for p, t in enumerate(thieves) if not t["done"]]
    # per thief planned in place: what _planning_left keeps of it
    known: dict[int, list[Any]] = {}
    n = 0
    while n < budget:
        p = planning[0] if len(planning) == 1 else planning[below(len(planning))]
        t = thieves[p]
        mine = known.get(p)
        if mine is None:
            mine = _planning_left(t)
            if mine is None:
                # an AP-giving token (AP_TOKENS) on the sheet: the listing and the apply
                acts = plan_actions(state, p)
                action = acts[below(len(acts))]
                plan_apply(state, p, parse_action(action))
                done = t["done"]
            else:
                known[p] = mine
        if mine is not None:
            drawn = _plan_in_place(state, t, mine, below)
            done = drawn is None
            if drawn is None:
                action = "done"
                plan_apply(state, p, DONE)
            else:
                action = drawn
        if done:
            planning.remove(p)
            if not planning:
                state._advance()
        else:
            secret.append(state.ply)   # AgeState._secret_step: every planning decision but "done"
        history.append([p, action])
        state.ply += 1
        n += 1
        if not planning:
            break
    return n


def _planning_left(t: dict[str, Any]) -> list[Any] | None:
    """What :func:`plan_playout` keeps of thief ``t`` planned in place: [markers free, Move,
    Ambush and a special still to plan]; None for a thief with an AP-giving token on its
    sheet (or a card waiting for tokens), which is planned through the plain rules."""
    sheet = t["sheet"]
    cur = t["cur"]
    if "informer" in sheet or "agent" in sheet or (cur is not None and cur["stage"] != "ap"):
        return None
    free = t["blue"] + t["red"] + t["violet"]
    planned = set()
    for s in t["plan"]:
        free -= s["m"]
        planned.add(s["card"])
    if cur is not None:
        planned.add(cur["card"])
    return [free, "move" not in planned, "ambush" not in planned, "special" not in planned]


def _plan_in_place(state: AgeState, t: dict[str, Any], mine: list[Any],
                   below: Callable[[int], int]) -> str | None:
    """One planning decision of thief ``t`` without AP-giving tokens (``mine``: what
    :func:`_planning_left` keeps of it), drawn with ``below`` and applied; returns the
    action, None for "done" (not applied yet)."""
    cur = t["cur"]
    free = mine[0]
    if cur is not None:   # stage "ap" (no token to add): "ap 1" .. "ap free"
        k = below(free) + 1
        cur["m"] = cur["ap"] = k   # the slot is closed at once (_close_slot)
        del cur["stage"]
        t["plan"].append(cur)
        t["cur"] = None
        mine[0] = free - k
        return AP_ACTIONS[k] if k < len(AP_ACTIONS) else f"ap {k}"
    if free <= 0:
        below(1)   # "done" is the only choice
        return None
    return _plan_card_in_place(state, t, mine, below)


def _plan_card_in_place(state: AgeState, t: dict[str, Any], mine: list[Any],
                        below: Callable[[int], int]) -> str | None:
    """:func:`_plan_in_place` with no card in hand: the card to plan (Move, Ambush, a general
    card, a special over one, in the order of :func:`plan_actions`) or None for "done"."""
    d = state.data
    card_type = d.card_type
    _, move, ambush, special = mine
    hand = t["hand"]
    types = sorted(set(map(card_type.__getitem__, hand)))
    nt = len(types)
    first = move + ambush
    nsp = nt if special and state.options.get("specials", True) else 0
    k = below(first + nt + nsp + 1)
    if k < first:
        if move and k == 0:
            card = "move"
            mine[1] = False
        else:
            card = "ambush"
            mine[2] = False
        action = "plan " + card
        under = None
    elif k < first + nt + nsp:
        if k < first + nt:
            typ = types[k - first]
            action = d.plan_action[typ]
        else:
            typ = types[k - first - nt]
            action = d.special_action[typ]
            mine[3] = False
        for c in hand:   # take_from_hand: the first card of the type
            if card_type[c] == typ:
                break
        hand.remove(c)
        if k < first + nt:
            card, under = c, None
        else:
            card, under = "special", c
    else:
        return None
    t["cur"] = {"card": card, "under": under, "m": 0, "tok": [], "stage": "ap", "ap": 0, "shown": None}
    return action


def slot_card(state: AgeState, s: dict[str, Any], p: int) -> str:
    """The text id of a planned card: ``move``, ``ambush``, a general card type, or
    ``sp_<thief>`` for a special action card."""
    c: str = s["card"]
    if c in ("move", "ambush"):
        return c
    if c == "special":
        thief: str = state.thieves[p]["id"]
        return "sp_" + thief
    return ctype(c)


def take_from_hand(state: AgeState, p: int, typ: str) -> str:
    hand: list[str] = state.thieves[p]["hand"]
    card_type = state.data.card_type
    for c in hand:
        if card_type[c] == typ:
            hand.remove(c)
            return c
    raise AssertionError("card checked as legal")  # pragma: no cover


def _close_slot(state: AgeState, p: int) -> None:
    t = state.thieves[p]
    cur = t["cur"]
    ap = cur["m"]
    if cur["tok"]:
        ap += sum(map(state.data.ap_value.__getitem__, cur["tok"]))
    cur["ap"] = ap
    del cur["stage"]
    t["plan"].append(cur)
    t["cur"] = None


# -- the one-off decisions (start space, jewel placement, discards, guard choices) ----
def pending_actions(state: AgeState, pd: dict[str, Any]) -> list[str]:
    k = pd["kind"]
    d = state.data
    if k == "startspace":
        taken = {t["pos"] for t in state.thieves}
        return [f"start {s}" for s in d.of_kind["start"] if s not in taken]
    if k == "jewel":
        return list(map(d.jewel_action.__getitem__, pd["spots"]))
    if k == "lose":
        t = state.thieves[pd["p"]]
        return [f"lose {x}" for x in ("trinket", "yellow")
                if (x == "yellow" and t["yellow"]) or (x == "trinket" and "trinket" in t["sheet"])]
    if k == "discard":
        types = sorted(set(map(d.card_type.__getitem__, state.thieves[pd["p"]]["hand"])))
        return list(map(d.discard_action.__getitem__, types))
    if k == "place_guard":
        if not state.guard_supply:
            return [f"take {g}" for g in sorted(state.guards) if g[0] == "g"]
        if "at" in pd:
            return [f"place {pd['at']}"]
        if "opts" in pd:
            return [f"place {x}" for x in pd["opts"]]
        taken = set(state.guards.values())  # guard_at() for every space at once
        taken.update(state.fire)
        place = d.place_action
        return [place[s] for s in d.guardhouses if s not in taken]
    return guards.guard_pending_actions(state, pd)


def pending_apply(state: AgeState, pd: dict[str, Any], action: AotAction) -> None:
    k = pd["kind"]
    word, arg = action.verb, action.arg
    p = pd["p"]
    if k == "startspace":
        state.thieves[p]["pos"] = arg
        state.event("start_space", player=p, space=arg)
        state.pending.pop(0)
    elif k == "jewel":
        state.gems.setdefault(arg, []).append("yellow")
        state.yellow_supply -= 1
        state.event("jewel_placed", player=p, space=arg)
        state.pending.pop(0)
    elif k == "lose":
        state.pending.pop(0)
        guards.lose_jewel(state, p, arg)
    elif k == "discard":
        c = take_from_hand(state, p, arg)
        state.discard.append(c)
        state.event("discard", player=p, card=arg)
        hand = state.thieves[p]["hand"]
        if pd.get("why") != "limit" or len(hand) <= state.data.tokens.pieces["hand_limit"]:
            state.pending.pop(0)
    elif k == "place_guard":
        if word == "take":
            # Rulebook §"Beschränkung": no guard left, take one from the board
            del state.guards[arg]
            state.guard_supply.append(arg)
            return
        state.pending.pop(0)
        g = state.guard_supply.pop(0)
        state.put_figure(g, arg)
        if pd.get("why") == "plainclothes" and state.guards[g] == pd.get("on") \
                and state.options.get("placement_arrests") != "all":
            guards.catch_on(state, state.guards[g])  # the guard in plain clothes arrests the revealer
    else:
        guards.guard_pending_apply(state, pd, action)
