"""Phase 4 for the thieves: resolving planned cards, movement, card effects.

A resolving card becomes ``state.act`` (a small dict) and the acting player
answers its decisions one by one: ``to N12``, ``take yellow``, ``at S3``...
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import cards, guards, planning
from .notation import AotAction

if TYPE_CHECKING:
    from .state import AgeState

GEM_KINDS = ("emperor", "green", "yellow")
#: the planned card a turn action resolves (``play X`` and ``decline X`` name it themselves)
TURN_SLOT = {"sneak": "move", "sprint": "move", "cleverness": "ambush", "cunning": "ambush",
             "special": "special"}


# -- choosing which planned card to resolve (and which effect) ----------------------
def my_slots(state: AgeState, p: int) -> list[dict[str, Any]]:
    v = state.exec["value"]
    return [s for s in state.thieves[p]["plan"] if not s["shown"] and s["ap"] == v]


def turn_actions(state: AgeState, p: int, slots: list[dict[str, Any]] | None = None) -> list[str]:
    """The choices of the thief whose planned cards resolve now; ``slots`` are its
    :func:`my_slots` when the caller has them already."""
    t = state.thieves[p]
    d = state.data
    if slots is None:
        slots = my_slots(state, p)
    # the usual: one or two cards at this AP; the choices depend on these alone (each
    # card's type and the type of the card under a special)
    ct: dict[Any, str] = d.card_type  # (.get(None) is None: no card under)
    if len(slots) == 1:
        s = slots[0]
        c = s["card"]
        key: tuple[Any, ...] = (t["strong"], t["resolved"], t["dungeon"], ct.get(c, c),
                                ct.get(s.get("under")))
    elif len(slots) == 2:
        s, s2 = slots
        c, c2 = s["card"], s2["card"]
        key = (t["strong"], t["resolved"], t["dungeon"], ct.get(c, c), ct.get(s.get("under")),
               ct.get(c2, c2), ct.get(s2.get("under")))
    else:
        return turn_choices(state, t, slots)
    known = d.turn_choices.get(key)
    if known is None:
        known = d.turn_choices[key] = tuple(turn_choices(state, t, slots))
    return list(known)


def turn_choices(state: AgeState, t: dict[str, Any], slots: list[dict[str, Any]]) -> list[str]:
    """:func:`turn_actions` worked out, for thief ``t`` and its ``slots``."""
    d = state.data
    card_type = d.card_type  # a general card's type; move, ambush and special are themselves
    out: list[str] = []
    seen = set()
    for s in slots:
        c = s["card"]
        key = card_type.get(c, c)
        if key in seen:
            continue
        seen.add(key)
        # Rulebook §"Verlies": the first action after an arrest must be Move
        jailed = t["dungeon"] and c != "move"
        # Rulebook §"Basisaktionen": the lower effect only if no other action is resolved
        strong_ok = not t["resolved"]
        if c == "move":
            if not t["strong"]:
                out.append("sneak")
                if strong_ok:
                    out.append("sprint")
        elif c == "ambush":
            if not t["strong"] and not jailed:
                out.append("cleverness")
                if strong_ok:
                    out.append("cunning")
        elif c == "special":
            if not t["strong"] and not jailed:
                out.append("special")
                out.append(d.play_action[card_type[s["under"]]])
        elif not t["strong"] and not jailed:
            out.append(d.play_action[key])
        out.append(d.decline_action[key])
    return list(dict.fromkeys(out)) if len(out) > 2 else out


def _find_slot(state: AgeState, slots: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """The slot among ``slots`` (a thief's :func:`my_slots`) that an action names by
    ``key``: a card of that type first, else a special action over one."""
    if len(slots) == 1:
        return slots[0]   # the action was listed for it
    card_type = state.data.card_type
    for s in slots:
        if card_type.get(s["card"], s["card"]) == key:
            return s
    for s in slots:
        if s["card"] == "special" and card_type[s["under"]] == key:
            return s
    raise AssertionError("slot checked as legal")  # pragma: no cover


def turn_apply(state: AgeState, p: int, action: AotAction,
               slots: list[dict[str, Any]] | None = None) -> None:
    """Resolve or decline one of the cards listed by :func:`turn_actions` (``slots`` as
    there)."""
    word, arg = action.verb, action.arg
    t = state.thieves[p]
    ex = state.exec
    if slots is None:
        slots = my_slots(state, p)
    state.turn = None
    ex["last"] = [ex["value"], p]
    if word == "decline":
        s = _find_slot(state, slots, arg)
        s["shown"] = True
        if state.recording:
            state.event("decline", player=p, card=planning.slot_card(state, s, p))
        return
    s = _find_slot(state, slots, TURN_SLOT.get(word, arg))
    s["shown"] = True
    t["resolved"] = True
    if word in ("sprint", "cunning"):
        t["strong"] = True
    if state.recording:
        if word == "play":
            state.event("reveal_play", player=p, card=planning.slot_card(state, s, p), ap=s["ap"], played=arg)
        else:
            state.event("reveal", player=p, card=planning.slot_card(state, s, p), ap=s["ap"], how=word)
    if word == "sneak":
        steps = state.data.cards.basic.move["upper_steps"] + (t["id"] == "noiron")
        start_move(state, p, int(steps), pick=True)
    elif word == "sprint":
        steps = state.data.cards.basic.move["lower_steps"] + (t["id"] == "noiron")
        start_move(state, p, int(steps), pick=False)
    elif word == "cleverness":
        for _ in range(int(state.data.cards.basic.ambush["upper_draw"])):
            state.draw_card(p)
    elif word == "cunning":
        amb = state.data.cards.basic.ambush
        for _ in range(int(amb["lower_draw"])):
            state.draw_card(p)
        t["violet_new"] += int(amb["lower_violet"])
    elif word == "special":
        cards.start_special(state, p)
    else:
        cards.start_general(state, p, arg)


# -- movement (Rulebook §"Bewegen", §"Die Kanalisation nutzen", §"Juwelen") ----------
def start_move(state: AgeState, p: int, steps: int, pick: bool, safe: bool = False) -> None:
    t = state.thieves[p]
    if t["immobile"]:
        steps = 0
    state.act = {"kind": "move", "p": p, "left": steps, "pick": pick, "safe": safe,
                "entered": False, "sewered": False, "know": False, "route": [t["pos"]]}
    auto_finish(state)


def can_enter(state: AgeState, p: int, s: str) -> bool:
    d = state.data
    if d.kind[s] == "dungeon":
        return False  # no figure may move into a dungeon voluntarily
    if s in state.fire and state.thieves[p]["id"] != "zain":
        return False  # fire blocks the space (Zain: reconstructed ability)
    return True


def stealable(state: AgeState, q: int) -> bool:
    """Rulebook §"Diebstahl": a theft marker, or standing in smoke; once per round."""
    t = state.thieves[q]
    return (t["marker"] or t["pos"] in state.smoke) and not t["robbed"] and not t["dungeon"] \
        and t["left"] is None


def loot_of(state: AgeState, q: int) -> list[str]:
    t = state.thieves[q]
    out = [k for k in GEM_KINDS if (t[k] if k != "emperor" else t["emperor"])]
    if "trinket" in t["sheet"]:
        out.append("trinket")
    return out


def move_actions(state: AgeState, a: dict[str, Any]) -> list[str]:
    p = a["p"]
    t = state.thieves[p]
    here = t["pos"]
    d = state.data
    acts = []
    if a["left"] > 0 and not t["immobile"]:
        acts += [f"to {n}" for n in d.adj[here] if can_enter(state, p, n)]
        if state.alarm_district:
            acts += [f"leave {e}" for e in d.exits_from.get(here, [])
                     if d.exits[e].district == state.alarm_district]
    if a["entered"] and not a["sewered"] and is_sewer_in(state, here):
        acts += [f"sewer {s}" for s in sewer_exits(state) if s != here and can_enter(state, p, s)]
    if a["pick"]:
        for k in GEM_KINDS:
            if k in state.gems.get(here, []):
                acts.append(f"take {k}")
        if here in state.tokens:
            acts.append("take token")
        # Rulebook §"Diebstahlplättchen": a thief steals "indem er sich auf oder durch dessen
        # Feld bewegt", i.e. on a space entered during this movement (option steal_in_place)
        may_steal = a.get("moved_in") or state.options.get("steal_in_place")
        for q in (state.thieves_at(here) if may_steal else []):
            if q != p and stealable(state, q):
                acts += [f"steal {q + 1} {k}" for k in loot_of(state, q)]
    if not a["know"] and "knowcity" in t["sheet"] and not t["immobile"]:
        acts.append("know")
    acts.append("stop")
    return acts


def is_sewer_in(state: AgeState, s: str) -> bool:
    return state.data.kind[s] == "sewer_in" or state.features.get(s) == "manhole"


def sewer_exits(state: AgeState) -> list[str]:
    return state.data.of_kind["sewer_out"] + sorted(s for s, f in state.features.items() if f == "ladder")


def move_apply(state: AgeState, a: dict[str, Any], action: AotAction) -> None:
    p = a["p"]
    t = state.thieves[p]
    word, arg = action.verb, action.arg
    if word == "to":
        a["left"] -= 1
        a["entered"] = True
        if t["dungeon"]:
            # Rulebook §"Verlies": leaving the dungeon; hidden for the rest of the round
            t["dungeon"], t["escaped"] = False, True
        t["pos"] = arg
        a["moved_in"] = True
        a["route"].append(arg)
        state.event("moves", player=p, space=arg)
        thief_entered(state, p, arg, safe=a["safe"])
    elif word == "sewer":
        t["pos"] = arg
        a["route"].append(arg)
        a["moved_in"] = True
        state.event("sewer", player=p, space=arg)
        a["entered"] = False
        if t["id"] != "morius":  # the sewer ends the movement (Morius: reconstructed ability)
            a["left"] = 0
            a["sewered"] = True
        thief_entered(state, p, arg, safe=a["safe"])
    elif word == "leave":
        leave_city(state, p, arg)
    elif word == "take":
        pick_up(state, p, arg)
    elif word == "steal":
        steal(state, p, action.named_seat, action.named_kind)
    elif word == "know":
        t["sheet"].remove("knowcity")
        state.spent_tokens.append("knowcity")
        a["left"] += 1
        a["know"] = True
        state.event("know", player=p)
    elif word == "stop":
        state.act = None


def thief_entered(state: AgeState, p: int, s: str, safe: bool = False) -> None:
    """A thief walking onto a guard's space is arrested at once (§"Diebe festnehmen")."""
    if state.guard_at(s) and not safe and guards.catchable(state, p):
        guards.arrest(state, p, s)


def leave_city(state: AgeState, p: int, exit_id: str) -> None:
    """Rulebook §"Den Alarm auslösen": leave through an open gate or onto a ship."""
    t = state.thieves[p]
    state.left_count += 1
    t["left"], t["pos"] = state.left_count, None
    for s in t["plan"]:
        s["shown"] = True
    state.act = None
    state.event("leave", player=p, exit=exit_id)
    if t["emperor"]:
        state.emperor_winner = p
        state._finish("emperor")


def pick_up(state: AgeState, p: int, what: str) -> None:
    t = state.thieves[p]
    here = t["pos"]
    if what == "token":
        reveal_token(state, p, here)
        return
    state.gems[here].remove(what)
    if not state.gems[here]:
        del state.gems[here]
    state.event("take_jewel", player=p, gem=what, space=here)
    if what == "emperor":
        t["emperor"] = True
        if not state.jewel_taken:
            # Rulebook §"In die Schatzkammer eindringen": the game pauses; best-thief token and
            # (players - 1) red AP at once. The district card is drawn only after this thief's
            # action has ended (``draw_escape_district``, called from the round loop).
            state.jewel_taken = True
            t["best"] = True
            t["red"] = state.num_players - 1
            state.event("emperor_taken", player=p)
    else:
        t[what] += 1


def draw_escape_district(state: AgeState) -> None:
    """Rulebook §"In die Schatzkammer eindringen": after the thief who took the jewel has
    finished that action, the start player shuffles the district deck and draws 1 card; from
    now on thieves may leave through that district's exits."""
    state.alarm_district = state.district_deck.pop(state.rng.below(len(state.district_deck)))
    state.event("escape_district", district=state.alarm_district)


def steal(state: AgeState, p: int, q: int, kind: str) -> None:
    """Rulebook §"Diebstahl": exactly 1 jewel; a thief is robbed at most once a round."""
    v, t = state.thieves[q], state.thieves[p]
    if kind == "trinket":
        v["sheet"].remove("trinket")
        t["sheet"].append("trinket")
    elif kind == "emperor":
        v["emperor"], t["emperor"] = False, True
    else:
        v[kind] -= 1
        t[kind] += 1
    v["robbed"], v["marker"] = True, False
    state.event("steal", player=p, victim=q, gem=kind)


def mark_theft(state: AgeState, p: int, space: str, marker: bool = True) -> None:
    """A theft-symbol effect on a space: same space steals at once, else a theft marker."""
    victims = [q for q in state.thieves_at(space) if q != p and not state.thieves[q]["robbed"]
               and not state.thieves[q]["dungeon"]]
    if not victims:
        return
    if space == state.thieves[p]["pos"]:
        opts = [f"steal {q + 1} {k}" for q in victims for k in loot_of(state, q)]
        if opts:
            state.act = {"kind": "choose", "p": p, "opts": opts + ["nothing"], "then": "steal"}
        return
    for q in victims if marker else []:  # smoke needs no marker: it makes them stealable itself
        state.thieves[q]["marker"] = True
        state.event("theft_marker", player=q)


# -- city tokens (Rulebook §"Die Stadtplättchen im Detail") ----------------------------
def reveal_token(state: AgeState, p: int, s: str) -> None:
    tok = state.tokens.pop(s)
    t = state.thieves[p]
    state.event("token_revealed", player=p, token=tok, space=s)
    if tok == "stash":
        state.spent_tokens.append(tok)
        state.draw_card(p)
    elif tok == "citizens":
        state.spent_tokens.append(tok)
        dist = state.data.district[s]
        for q in state.on_board():
            tq = state.thieves[q]
            if not tq["dungeon"] and state.data.district[tq["pos"]] == dist and tq["hand"]:
                state.pending.append({"kind": "discard", "p": q, "why": "citizens"})
    elif tok == "plainclothes":
        state.spent_tokens.append(tok)
        # on this space; if a figure stands there, the nearest possible space (start player's pick)
        spots = [s] if not state.guard_at(s) else state.nearest_free_all(s)
        state.pending.append({"kind": "place_guard", "p": state.start, "why": "plainclothes", "opts": spots,
                             "on": s})
    elif tok in ("alley", "manhole", "ladder"):
        state.features[s] = tok
    else:
        t["sheet"].append(tok)


# -- dispatch -----------------------------------------------------------------------------
def act_actions(state: AgeState, a: dict[str, Any]) -> list[str]:
    k = a["kind"]
    if k == "move":
        return move_actions(state, a)
    if k == "gmove":
        return cards.gmove_actions(state, a)
    return list(a["opts"])


def act_apply(state: AgeState, a: dict[str, Any], action: AotAction) -> None:
    k = a["kind"]
    if k == "move":
        move_apply(state, a, action)
    elif k == "gmove":
        cards.gmove_apply(state, a, action)
    else:
        cards.choose_apply(state, a, action)
    auto_finish(state)


def auto_finish(state: AgeState) -> None:
    """End a movement when nothing but 'stop' is left to do."""
    a = state.act
    if a is None:
        return
    if a["kind"] == "move":
        if state.thieves[a["p"]]["pos"] is None:
            state.act = None
            return
        acts = move_actions(state, a)
        if acts == ["stop"]:
            state.act = None
        elif state._playout is not None:
            state._playout.listing = a, acts  # the next decision's choices, if it is this act's
    elif a["kind"] == "gmove" and cards.gmove_actions(state, a) == ["gstop"]:
        cards.gmove_apply(state, a, AotAction("gstop"))
        auto_finish(state)
