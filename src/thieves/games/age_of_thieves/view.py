"""What each player may see: observation, text board, action descriptions, reasons."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import IllegalAction
from ...core.rng import Rng
from .notation import AotAction, ctype
from . import guards, planning
from .components import COMPASS
from .observation import AotObservation, SlotView, ThiefView

if TYPE_CHECKING:
    from .presentation import AotPresentation
    from .state import AgeState


def slot_view(state: AgeState, s: dict[str, Any], p: int, viewer: int | None) -> SlotView:
    mine = viewer == p
    out: SlotView = {"ap": s["ap"] if (mine or s["shown"] is not None) else None,
                      "special": s["card"] == "special", "done": bool(s["shown"])}
    if mine or s["shown"]:
        out["card"] = s["card"] if s["card"] in ("move", "ambush", "special") else ctype(s["card"])
        if s.get("under"):
            out["under"] = ctype(s["under"])
        out["tokens"] = list(s["tok"])
    return out


def hand_count(state: AgeState, p: int, hidden_plan: bool) -> int:
    """The cards thief ``p`` holds as the others see them at the table: the general
    cards and the basic action cards Move and Ambush, and the special action card
    when specials are played (Rulebook §"Spielvorbereitung": all three are taken in
    hand), less the cards planned. While ``p`` plans behind the screen
    (``hidden_plan``) every card counts as held: nobody sees what went behind it."""
    t = state.thieves[p]
    held = len(t["hand"]) + 2 + bool(state.options.get("specials", True))
    for s in t["plan"] + ([t["cur"]] if t["cur"] else []):
        for c in (s["card"], s.get("under")):
            if c and c not in ("move", "ambush", "special"):
                held += 1   # a general card taken from the hand
            if c and not hidden_plan:
                held -= 1   # a planned card lies face down before the thief
    return held


def observe(state: AgeState, viewer: int | None) -> AotObservation:
    plan_phase = state.phase == "plan"
    thieves: list[ThiefView] = []
    for p, t in enumerate(state.thieves):
        mine = viewer == p
        hidden_plan = plan_phase and not mine
        hand_n = hand_count(state, p, hidden_plan)
        view: ThiefView = {"thief": t["id"], "name": state.tname(p), "pos": t["pos"], "yellow": t["yellow"],
                "green": t["green"], "emperor": t["emperor"], "best": t["best"], "vp": state.vp(p),
                "sheet": sorted(t["sheet"]), "hand_count": hand_n, "dungeon": t["dungeon"],
                "hidden": t["pos"] is not None and state.is_hidden(p), "theft_marker": t["marker"],
                "hidden_all_round": bool(t["cloak"] or t["escaped"]),
                "robbed": t["robbed"], "protected": t["protected"], "immobile": t["immobile"],
                "left": t["left"], "planning_done": t["done"],
                "plan": [] if hidden_plan else [slot_view(state, s, p, viewer) for s in t["plan"]]}
        if mine:
            view["hand"] = sorted(map(ctype, t["hand"]))
            view["ap"] = {"blue": t["blue"], "red": t["red"], "violet": t["violet"],
                          "violet_next": t["violet_new"]}
            if plan_phase:
                view["ap_free"] = planning.markers_free(state, p)
                view["tokens_free"] = planning.tokens_free(state, p)
                view["building"] = ({k: v for k, v in t["cur"].items() if k in ("card", "m", "tok", "stage")}
                                    if t["cur"] else None)
        elif not plan_phase:
            view["ap"] = {"blue": t["blue"], "red": t["red"], "violet": t["violet"]}
        thieves.append(view)
    ev = state.current_event()
    deciding_now = deciding(state, ev)
    watch = {k: [guards.vigilance(state, g), guards.movement(state, g)]
             for k, g in (("guard", "g0"), ("captain", "c0"))}
    obs: AotObservation = {
        "round": state.round, "phase": state.phase, "start_player": state.start, "alarm": state.alarm,
        "escape_district": state.alarm_district, "guard_initiative": state.die,
        "watch_acted": state.phase == "exec" and bool(state.exec.get("guards_done")),
        "event": ({"id": ev.id, "name": ev.name, "direction": ev.direction} if ev else None),
        "calm_events_left": len(state.calm_deck), "alarm_events_left": len(state.alarm_deck),
        "action_deck": len(state.deck), "discard": sorted(map(ctype, state.discard)),
        "guards": dict(state.guards), "watch": watch, "gems": {s: list(v) for s, v in state.gems.items()},
        "face_down_tokens": sorted(state.tokens), "features": dict(state.features),
        "smoke": sorted(state.smoke), "fire": sorted(state.fire),
        "supply": {"yellow": state.yellow_supply, "guards": len(state.guard_supply),
                   "captains": len(state.captain_supply)},
        "thieves": thieves, "deciding": deciding_now,
        "result": state.ended, "winners": state._winners() if state.ended else [],
        # the viewer's own choices now, so the table can make them clickable on the board
        "legal": state.legal_actions(viewer) if viewer is not None else [],
    }
    return obs


# -- text board and action words for the terminal (the presentation's, in English) ------------

def deciding(state: AgeState, ev: Any) -> dict[str, Any] | None:
    """Who decides what now (the observation's ``deciding``; ``ev``: the current event).
    The RL layout's fast encoder reads it too."""
    deciding: dict[str, Any] | None = None
    if state.pending:
        pd = state.pending[0]
        deciding = {"kind": pd["kind"], "player": pd["p"]}
        for k in ("why", "at", "on"):
            if k in pd:
                deciding[k] = pd[k]
        if pd["kind"] in ("gstep", "first") and state.gq and state.gq.get("cur"):
            deciding.update(figure=state.gq["cur"]["g"], route=list(state.gq["cur"]["path"]))
        if pd["kind"] == "jewel" and ev is not None and ev.direction:
            deciding["district"] = COMPASS[ev.direction]
    elif state.act:
        a = state.act
        deciding = {"kind": a["kind"], "player": a["p"]}
        if a["kind"] == "move":
            deciding["steps_left"] = a["left"]
            deciding["sprint"] = not a["pick"]
            deciding["route"] = list(a.get("route", []))
        elif a["kind"] == "gmove":
            deciding.update(figure=a["g"], steps_left=a["left"], route=[a["start"]] + a.get("path", []))
        else:
            deciding["then"] = a["then"]
            if "g" in a:
                deciding["figure"] = a["g"]
    elif state.turn is not None and state.phase == "exec":
        deciding = {"kind": "turn", "player": state.turn, "ap": state.exec.get("value")}
    return deciding


def _presentation(state: AgeState, viewer: int | None) -> AotPresentation:
    shown: AotPresentation = state.game.presentation(
        viewer, [state.player_name(q) for q in range(state.num_players)], "en", state.options.get("data_dir"))
    return shown


def render_text(state: AgeState, player: int | None) -> str:
    return _presentation(state, player).text_view(state.observation(player))


def describe_action(state: AgeState, action: str) -> str:
    to_act = state._players_to_act()
    viewer = to_act[0] if to_act else None
    return _presentation(state, viewer).action_text(state.observation(viewer), action)


def explain(state: AgeState, p: int, text: str) -> str | None:
    try:
        action = AotAction.parse(text)
    except IllegalAction as e:
        return str(e)
    word, arg = action.verb, action.arg
    if state.phase == "plan" and not state.pending:
        t = state.thieves[p]
        if word == "plan" and arg in ("move", "ambush") and planning.planned(state, p, arg):
            return f"{arg} is already planned this round"
        if word in ("plan", "special") and arg in state.data.general and \
                all(ctype(c) != arg for c in t["hand"]):
            return f"you have no {state.data.general[arg].name} in hand"
        if word == "ap" and action.named_count > planning.markers_free(state, p):
            return f"you have only {planning.markers_free(state, p)} AP markers left"
        if word == "next":
            return "a planned card needs at least 1 AP"
    if state.act and state.act["kind"] == "move" and word == "to":
        here = state.thieves[p]["pos"]
        if arg not in state.data.adj.get(here, []):
            return f"{arg} is not next to {here}"
        if arg in state.fire:
            return f"fire blocks {arg}"
        if state.data.kind.get(arg) == "dungeon":
            return "nobody may move into a dungeon"
        if state.act["left"] <= 0:
            return "no movement points left"
    if word == "leave":
        if not state.alarm_district:
            return "nobody may leave the city before the Emperors' Jewel is stolen"
        return f"you may leave only through an open exit of {state.alarm_district}, from its space"
    if word == "take" and state.act and state.act["kind"] == "move" and not state.act["pick"]:
        return "a Sprint is movement only: no picking up, no theft"
    if word == "steal":
        return "you may steal only from a thief on your space with a theft marker or in smoke, once a round"
    if state.phase == "exec" and state.turn == p and word in ("sneak", "cleverness", "play", "special") \
            and state.thieves[p]["dungeon"] and word != "sneak":
        return "in the dungeon your first action must be Move"
    if word == "sprint" and state.thieves[p]["resolved"]:
        return "Sprint only when you resolve no other action this round"
    return None


# -- hidden information for search bots ---------------------------------------------------------
def _unplan(state: AgeState, q: int) -> None:
    """Undo thief ``q``'s planning: its cards back to its hand, its markers and tokens
    free, not done. Others see nothing of a plan being made but "done" and the cards
    held in all, so a copy for another seat must not keep it."""
    t = state.thieves[q]
    for s in t["plan"] + ([t["cur"]] if t["cur"] else []):
        for c in (s["card"], s.get("under")):
            if c and c not in ("move", "ambush", "special"):
                t["hand"].append(c)
    t["plan"], t["cur"] = [], None
    t["done"] = False


def _random_plan(state: AgeState, q: int, rng: Rng) -> None:
    """Plan for thief ``q`` at random until done, recording nothing: a plan another
    seat cannot tell from the real one (it sees only "done" and the cards held)."""
    recording = state.recording
    state.mute()
    while not state.thieves[q]["done"]:
        acts = planning.plan_actions(state, q)
        planning.plan_apply(state, q, AotAction.parse(acts[rng.below(len(acts))]))
    if recording:
        state.unmute()


def _reshape_hidden_slots(state: AgeState, q: int, slots: list[dict[str, Any]], pool: list[str],
                          rng: Rng) -> None:
    """Make up thief ``q``'s face-down planned cards (``slots``) afresh during the execution.

    Another seat sees of such a card only its AP (public since the screens were lifted)
    and whether it is a special action card (laid open behind the screen, Rulebook
    §"Spezialaktionen"), and which AP-giving city tokens it holds (the sheet before and
    after). How many general cards the plan holds is kept (a known limit: since the hand
    counts include Move and Ambush, another seat cannot tell it). So: the same number of general cards,
    drawn from ``pool``; the rest Move and Ambush, each at most once in a plan and not if
    already shown; the tokens spread anew over the cards so that each keeps its AP and has
    at least 0 markers of its own. Nothing else of the real cards is read."""
    plain = [s for s in slots if s["card"] != "special"]
    general = sum(1 for s in plain if s["card"] not in ("move", "ambush"))
    shown = {s["card"] for s in state.thieves[q]["plan"] if s["shown"]}
    basics = [b for b in ("move", "ambush") if b not in shown]
    n_basic = len(plain) - general
    rng.shuffle(basics)
    order = list(range(len(plain)))
    rng.shuffle(order)
    for k, i in enumerate(order):
        plain[i]["card"] = basics[k] if k < n_basic else pool.pop()
    for s in slots:
        if s["card"] == "special":
            s["under"] = pool.pop()
    toks = sorted((tok for s in slots for tok in s["tok"]),
                  key=lambda tok: (-state.data.ap_value[tok], tok))
    room = [s["ap"] for s in slots]
    placed = _spread_tokens(state, toks, room, rng)
    for s in slots:
        s["tok"] = []
    for tok, i in zip(toks, placed):
        slots[i]["tok"].append(tok)
    for s, left in zip(slots, room):
        s["m"] = left


def _spread_tokens(state: AgeState, toks: list[str], room: list[int], rng: Rng) -> list[int]:
    """Put each token (largest first) on a random card with room for its AP; ``room`` is
    each card's AP and ends as the markers left on it. With tokens of 1 and 2 AP the
    first try always fits; other token values are searched with backtracking."""
    value = state.data.ap_value
    out: list[int] = []

    def place(k: int) -> bool:
        if k == len(toks):
            return True
        v = value[toks[k]]
        fits = [i for i, r in enumerate(room) if r >= v]
        rng.shuffle(fits)
        for i in fits:
            room[i] -= v
            out.append(i)
            if place(k + 1):
                return True
            out.pop()
            room[i] += v
        return False

    if not place(0):  # pragma: no cover - the real placement is one that fits
        raise AssertionError("no placement of the planned tokens")
    return out


def _events_seen(state: AgeState) -> tuple[list[str], list[str]] | None:
    """The calm and alarm event cards drawn so far (public when drawn), read from the
    log; None when the log is incomplete (a muted copy) and the count is off."""
    calm: list[str] = []
    alarm: list[str] = []
    for e in state.log:
        if type(e) is dict:
            key = e["key"]
            if key == "event_calm":
                calm.append(e["args"]["event"])
            elif key == "event_alarm":
                alarm.append(e["args"]["event"])
    pieces = state.data.tokens.pieces
    all_calm = [e.id for e in state.data.events.calm]
    all_alarm = [e.id for e in state.data.events.alarm]
    drawn_calm = min(pieces["calm_events"], len(all_calm)) - len(state.calm_deck)
    drawn_alarm = min(pieces["alarm_events"], len(all_alarm)) - len(state.alarm_deck)
    if (not state.alarm and len(calm) != drawn_calm) or len(alarm) != drawn_alarm:
        return None
    return calm, alarm


def _redraw_events(state: AgeState, rng: Rng) -> None:
    """The event decks from the cards not seen yet: which ones were put back in the box
    unseen at the setup is hidden too, not only their order."""
    seen = _events_seen(state)
    if seen is None:
        for deck in (state.calm_deck, state.alarm_deck):
            deck.sort()
            rng.shuffle(deck)
        return
    for deck, cards, drawn in ((state.calm_deck, state.data.events.calm, seen[0]),
                               (state.alarm_deck, state.data.events.alarm, seen[1])):
        if not deck:
            continue
        unseen = sorted(e.id for e in cards)
        for ev in drawn:
            unseen.remove(ev)
        rng.shuffle(unseen)
        deck[:] = unseen[:len(deck)]


def determinize(state: AgeState, player: int, seed: int) -> AgeState:
    """Re-deal everything ``player`` cannot see, from what it may know only.

    Others' hands and the action deck; while planning, a rival's plan (undone, and made up
    at random if the rival was done); during the execution, a rival's face-down planned
    cards (their AP and special cards stay, see :meth:`_reshape_hidden_slots`); face-down
    city tokens with the unused ones in the box; the event decks from the cards not seen
    yet; the district deck; and a new generator."""
    new = state.clone()
    rng = Rng.from_seed(seed)
    new.rng = Rng.from_seed(seed ^ 0x9E37)
    replan = []
    if new.phase == "plan" and not new.pending:
        for q, t in enumerate(new.thieves):
            if q != player and t["left"] is None:
                if t["done"]:
                    replan.append(q)
                _unplan(new, q)
    pool = list(new.deck)
    hidden: list[tuple[int, list[dict[str, Any]]]] = []
    for q, t in enumerate(new.thieves):
        if q == player:
            continue
        pool += t["hand"]
        slots = [s for s in t["plan"] if s["shown"] is False]  # face down, AP public
        if slots:
            hidden.append((q, slots))
            for s in slots:
                for c in (s["card"], s.get("under")):
                    if c and c not in ("move", "ambush", "special"):
                        pool.append(c)
    pool.sort()  # sorted first: the re-deal must not depend on the real order
    rng.shuffle(pool)
    new.deck = [pool.pop() for _ in range(len(new.deck))]
    for q, t in enumerate(new.thieves):
        if q != player:
            t["hand"] = [pool.pop() for _ in range(len(t["hand"]))]
    for q, slots in hidden:
        _reshape_hidden_slots(new, q, slots, pool, rng)
    for q in replan:
        _random_plan(new, q, rng)
    toks = sorted(list(new.tokens.values()) + new.box_tokens)
    rng.shuffle(toks)
    for s in sorted(new.tokens):
        new.tokens[s] = toks.pop()
    new.box_tokens = toks
    _redraw_events(new, rng)
    new.district_deck.sort()
    rng.shuffle(new.district_deck)
    return new
