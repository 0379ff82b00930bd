"""Applying the actions, the answers to pending tasks and the automatic steps between
them, as module functions taking the state (what is legal is :mod:`.legal`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .combat import (check_carry, combat_outcome, drop_rooms, flee, flee_options,
                     play_combat_card, play_reroll_card, resolve_combat, start_combat, take_from)
from .constants import ATTACK_AP, FORCE_AP, MISSION_AP, MOVE_AP, OPEN_AP, OPEN_DUCATS
from .legal import ACT_CARDS, mission_items, seats_after
from .movement import arrive, can_leave, foes_of, move_targets, movement
from .notation import Action
from .turns import end_turn, start_turn

if TYPE_CHECKING:
    from .rules import CadwallonState


# -- applying ----------------------------------------------------------------------------
def apply_action(state: CadwallonState, player: int, action: str) -> None:
    queue = state.queue
    if queue:
        _apply_pending(state, player, queue[0], action)
        if state.queue:
            run_automatic_steps(state)
        else:
            state.combat = None
        return
    # a legal action: its verb and the word after it are read straight from the
    # notation (play and mission read the typed Action for their target and slot)
    verb, _, obj = action.partition(" ")
    obj = state.data.same.get(obj, obj)
    if verb == "act":
        do_act(state, player, obj)
    elif verb == "militia":
        do_militia(state, obj)
    elif verb == "end":
        do_end(state, player)
    elif verb == "move":
        do_move(state, player, obj)
    elif verb == "mm":
        do_militia_move(state, player, obj)
    elif verb == "gang":
        _do_gang(state, player, obj)
    elif verb == "deploy":
        state.deploy_sel = obj
    elif verb == "at":
        _do_deploy(state, player, state.deploy_sel, obj)
    elif verb == "leave":
        do_move(state, player, "leave")
    elif verb in ("open", "force"):
        _do_chest(state, player, verb)
    elif verb == "attack":
        state.ap[player] -= ATTACK_AP  # attacking is the action (1 AP) and ends the character's movement
        state.act["acted"] = state.act["moved"] = True
        start_combat(state, state.active, obj, player)
    elif verb == "talent":
        _do_talent(state, player, obj)
    elif verb == "play":
        a = Action.parse(action)
        _do_play(state, player, a.arg or "", a)
    elif verb == "mission":
        _do_mission(state, player, Action.parse(action).slot)
    if state.queue:
        run_automatic_steps(state)
    else:
        state.combat = None


def _apply_pending(state: CadwallonState, p: int, task: dict[str, Any], action: str) -> None:
    state.queue.pop(0)
    kind = task["kind"]
    if kind == "injury":  # "no" or "play niggling_injury"
        if action != "no":
            _play_injury(state, p, task["char"])
        elif state.recording:
            let_go(state, p, task)
        return
    a = Action.parse(action)
    obj = a.arg or ""  # the word after the verb, for the answers that have one
    obj = state.data.same.get(obj, obj)
    if kind == "card":
        play_combat_card(state, p, task["side"], None if a.verb == "nocard" else a.arg)
    elif kind == "reroll":
        play_reroll_card(state, p, task["side"], None if a.verb == "nocard" else a.arg)
    elif kind == "jinx":
        if a.verb == "play":
            _play_jinx(state, p)
        elif state.recording:
            let_go(state, p, task)
    elif kind == "replot":
        if a.verb == "play":  # Run during the move: the move is still to be plotted
            state.queue.insert(0, task)
            _do_play(state, p, "run", a)
            return
        dest = None if a.verb == "stay" else ("leave" if a.verb == "leave" else a.arg)
        _complete_move(state, task["char"], dest)
    elif kind == "take":
        take_from(state, task["char"], task["from"], obj)
    elif kind == "drop":
        c, k, room = task["char"], obj, a.target or ""
        tid = next(t for t in state.carried[c] if state._ttype(t) == k)
        state.carried[c].remove(tid)
        state.chests[room] = {"t": tid, "sealed": False}
        if state.recording:
            state.event("drop", char=c, treasure=k, zone=room)
    elif kind == "flee":
        flee(state, task["char"], obj)


def let_go(state: CadwallonState, p: int, task: dict[str, Any]) -> None:
    """The log line of a window let go by (Niggling injury, Jinx): the same for everybody,
    whatever the hand; only its player reads whether they held the card."""
    card = "niggling_injury" if task["kind"] == "injury" else "jinx"
    held = "kept" if card in state.hands[p] else "none"
    if task["kind"] == "injury":
        state.event("lets_move", to=[p], secret={"held": held}, player=p, char=task["char"])
    else:
        state.event("lets_roll", to=[p], secret={"held": held}, player=p)


def reaction_pass(state: CadwallonState, player: int) -> str | None:
    """A window answering another player's move: Niggling injury, Jinx, and a fight's
    arcana card or re-roll card on another player's turn (the defender's). Decided only
    from what everybody sees (the pending task, whose turn it is), never from a hand."""
    if state.over or not state.queue:
        return None
    task = state.queue[0]
    if task.get("player") != player:
        return None
    kind = task["kind"]
    if kind in ("injury", "jinx"):
        return "no"
    if kind in ("card", "reroll") and player != state.current:
        return "nocard"
    return None


def reaction_round(state: CadwallonState) -> int | None:
    """Reactions switched off "for this round" come back with the next round marker."""
    return int(state.round)


def run_automatic_steps(state: CadwallonState) -> None:
    """Run the automatic steps (dice, forced flights) until someone must decide."""
    while state.queue:
        task = state.queue[0]
        kind = task["kind"]
        if kind == "injury":  # a window someone answers (the usual case)
            break
        if kind == "resolve":
            state.queue.pop(0)
            resolve_combat(state)
        elif kind == "outcome":
            state.queue.pop(0)
            combat_outcome(state)
        elif kind == "move_end":
            c, dest = task["char"], task["dest"]
            targets = None
            if state.injured.get(c):
                targets = move_targets(state, c)
                if not (can_leave(state, c, targets) if dest == "leave" else dest in targets):
                    # the designer's ruling: the move is plotted again within the cut Movement
                    state.queue[0] = {"kind": "replot", "player": task["player"], "char": c}
                    if state.recording:
                        state.event("replot", char=c, player=task["player"])
                    break
            state.queue.pop(0)
            _complete_move(state, c, dest, targets)
        elif kind == "roll_end":
            state.queue.pop(0)
            _roll_end(state, task)
        elif kind == "flee":
            opts = flee_options(state, task["char"])
            if len(opts) > 1:
                break
            state.queue.pop(0)
            if opts:
                flee(state, task["char"], opts[0])
            elif state.recording:
                state.event("cannot_flee", char=task["char"])
        elif kind == "drop" and not drop_rooms(state):
            state.queue.pop(0)
        else:
            break
    if not state.queue:
        state.combat = None


# -- the actions ----------------------------------------------------------------------------
def do_act(state: CadwallonState, p: int, c: str) -> None:
    """§"Activer les personnages": character ``c`` becomes the active one."""
    state.active = c
    state.act = {"moved": False, "acted": False, "cards": [], "talent": False}
    state.activated.append(c)
    if state.recording:
        state.event("activate", player=p, char=c)


def do_end(state: CadwallonState, p: int) -> None:
    """Player ``p`` ends the turn (:func:`end_turn`)."""
    if state.recording:
        state.event("end_turn", player=p)
    end_turn(state)


def take_gang(state: CadwallonState, p: int, g: str) -> None:
    """Player ``p`` takes gang ``g``'s characters, to deploy (§"Mise en place" step 2)."""
    state.gangs[p] = g
    state.to_deploy[p] = [c.id for c in state.data.gang[g].characters]
    for c in state.to_deploy[p]:
        state.carried[c] = []


def _do_gang(state: CadwallonState, p: int, g: str) -> None:
    """§"Mise en place" step 2: each player chooses a gang (in seat order)."""
    take_gang(state, p, g)
    state.event("gang", player=p, gang=g)
    if p + 1 < state.num_players:
        state.current = p + 1
    else:  # step 10: the first player deploys first
        state.phase, state.current = "deploy", state.first


def _do_deploy(state: CadwallonState, p: int, c: str, z: str) -> None:
    """§"Mise en place" step 10: one character at a time, clockwise, in an empty zone."""
    state.to_deploy[p].remove(c)
    state.deploy_sel = None
    state.pos[c] = z
    state.event("deploy", player=p, char=c, zone=z)
    if any(state.to_deploy):
        q = (p + 1) % state.num_players
        while not state.to_deploy[q]:
            q = (q + 1) % state.num_players
        state.current = q
    else:
        state.current = state.first
        state.event("round", round=1)
        start_turn(state)


def do_militia(state: CadwallonState, m: str) -> None:
    """§"Déplacer un milicien": one die; the 'distracted' face means he stays put."""
    roll = state.rng.die(6)
    if state.recording:
        state.event("militia_roll", player=state.current, militia=m, roll=roll)
    if roll == state.options["militia_still_face"]:
        if state.recording:
            state.event("militia_still", militia=m)
        _militia_done(state)
    else:
        state.phase, state.militia_sel, state.militia_roll = "militia_move", m, roll


def _militia_done(state: CadwallonState) -> None:
    state.militia_left -= 1
    state.militia_sel, state.militia_roll = None, 0
    state.phase = "militia" if state.militia_left > 0 else "main"


def do_militia_move(state: CadwallonState, p: int, z: str) -> None:
    m = state.militia_sel
    _militia_done(state)
    if z == "stay":
        if state.recording:
            state.event("militia_stay", militia=m, zone=state.pos[m])
        return
    victim = None
    if z in state.pos.values():  # someone is there: a figure he may attack (a target)
        foes = foes_of(state, p)  # the figures he may attack (:func:`militia_may_attack`)
        for c, cz in state.pos.items():
            if cz == z and c in foes:
                victim = c
                break
    if victim is None:
        state.pos[m] = z
        if state.recording:
            state.event("militia_move", militia=m, zone=z)
    else:  # entering a character's zone starts a fight and ends his move
        start_combat(state, m, victim, p)


def do_move(state: CadwallonState, p: int, dest: str, targets: dict[str, int] | None = None,
            mv: int | None = None) -> None:
    """§"Se déplacer": a move costs 1 AP. ``dest`` is a zone or "leave" (§"Quitter le
    quartier": leaving is part of a move). Opponents may interrupt it with Niggling
    injury before it is completed. ``targets`` and ``mv``: :func:`move_targets` and
    :func:`movement` of the active character when the caller has them already."""
    c = state.active
    state.ap[p] -= MOVE_AP
    state.act["moved"] = True
    if targets is None:
        targets = move_targets(state, c)
    if mv is None:
        mv = movement(state, c)
    hands = state.hands
    holders = [q for q in seats_after(state.num_players, p) if hands[q]]
    if holders and _injury_bites(state, c, dest, targets, mv):
        if state.recording:
            if dest == "leave":
                state.event("sets_off_leave", char=c, zone=state.pos[c])
            else:
                state.event("sets_off", char=c, zone=state.pos[c], dest=dest)
        queue = state.queue
        for q in holders:
            queue.append({"kind": "injury", "player": q, "char": c, "dest": dest})
        queue.append({"kind": "move_end", "player": p, "char": c, "dest": dest})
        return
    _complete_move(state, c, dest, targets, mv)


def _card_holders_after(state: CadwallonState, p: int) -> list[int]:
    """The opponents of ``p``, clockwise from its left, who hold at least one arcana card.
    Each is offered the window whatever its cards, so that a pass never tells what a hand
    holds; an empty hand is public, so its player is not asked."""
    hands = state.hands
    return [q for q in seats_after(state.num_players, p) if hands[q]]


def _injury_bites(state: CadwallonState, c: str, dest: str, targets: dict[str, int], mv: int) -> bool:
    """Niggling injury (designer's ruling): played at the start, during or at the end of an
    enemy thief's move, it cuts that move's Movement by 2. The window opens only when the
    cut would change something (the declared move, or the Movement point an attack after
    it needs, would exceed the cut Movement), which everybody can see. ``mv``: the
    character's :func:`movement`."""
    if "niggling_injury" not in state.data.card or state.injured.get(c):
        return False
    if dest == "leave":
        need = min((0 if z == state.pos[c] else targets[z]) + 1 for z in state.data.deployment
                   if z not in state.portcullis and (z == state.pos[c] or z in targets))
        return need > mv - 2
    spare = 1 if state.options["attack_needs_movement"] and not state.act["acted"] else 0
    return targets[dest] + spare > mv - 2


def _play_injury(state: CadwallonState, q: int, c: str) -> None:
    state.hands[q].remove("niggling_injury")
    state.discard.append("niggling_injury")
    state.injured[c] = 2
    # one Niggling injury per move: the other opponents' windows close
    state.queue = [t for t in state.queue if t["kind"] != "injury"]
    if state.recording:
        state.event("injury", player=q, card="niggling_injury", char=c)


def _complete_move(state: CadwallonState, c: str, dest: str | None, targets: dict[str, int] | None = None,
                   mv: int | None = None) -> None:
    """The move ends in ``dest`` (a zone, "leave", or None: the character stays put).
    ``targets`` and ``mv``: :func:`move_targets` and :func:`movement` of ``c`` when the
    caller has them already."""
    if dest == "leave":
        state.injured.pop(c, None)
        _do_leave(state, state._player(c), c)
        return
    if dest is None:
        state.act["left"] = movement(state, c)
        if state.recording:
            state.event("stays", char=c, zone=state.pos[c])
    else:
        if targets is None:
            targets = move_targets(state, c)
        if mv is None:
            mv = movement(state, c)
        state.act["left"] = mv - targets[dest]
        if state.recording:
            state.event("moves", char=c, zone=state.pos[c], dest=dest)
        state.pos[c] = dest
        if dest in state.room_ducats:
            arrive(state, c, dest)
    if state.injured:
        state.injured.pop(c, None)


def _do_leave(state: CadwallonState, p: int, c: str) -> None:
    """§"Quitter le quartier": the character and its treasures are out of play, safe."""
    del state.pos[c]
    state.escaped.append(c)
    state.banked[p] += state.carried[c]
    if state.recording:
        state.event("leaves", char=c, n=len(state.carried[c]))
    state.carried[c] = []
    state.active, state.act = None, None


def _do_chest(state: CadwallonState, p: int, how: str) -> None:
    """§"Ouvrir un coffre": open = 1 AP and a die <= Spirit; force = 2 AP, automatic."""
    c = state.active
    zone = state.pos[c]
    state.act["acted"] = True
    if how == "force":
        state.ap[p] -= FORCE_AP
        if state.recording:
            state.event("forces", char=c, zone=zone)
    else:
        state.ap[p] -= OPEN_AP
        spirit = state.data.char[c].spirit
        if state._talent(c) == "locksmith":
            spirit += 1
        if "skeleton_key" in state.act["cards"]:
            spirit += 2
        if not _open_roll(state, c, spirit):
            return
        if _jinx_window(state, p, {"what": "open", "char": c, "spirit": spirit}):
            return
    _open_chest(state, p, c)


def _open_roll(state: CadwallonState, c: str, spirit: int) -> bool:
    """§"Ouvrir un coffre": one die, at most Spirit (Lucky hands: one re-roll per activation)."""
    roll = state.rng.die(6)
    if roll > spirit and state._talent(c) == "lucky_hands" and not state.act.get("lucky"):
        state.act["lucky"] = True
        if state.recording:
            state.event("lucky", char=c, roll=roll)
        roll = state.rng.die(6)
    if roll > spirit:
        if state.recording:
            state.event("open_fail", char=c, roll=roll, spirit=spirit)
        return False
    if state.recording:
        state.event("open_ok", char=c, roll=roll, spirit=spirit)
    return True


def _jinx_window(state: CadwallonState, p: int, roll: dict[str, Any]) -> bool:
    """After a successful roll of player ``p`` (opening a chest, a Spirit test), each
    opponent holding cards may play Jinx to have it rolled again. True if a window opens."""
    if "jinx" not in state.data.card:
        return False
    holders = _card_holders_after(state, p)
    if not holders:
        return False
    for q in holders:
        state.queue.append({"kind": "jinx", "player": q})
    state.queue.append({"kind": "roll_end", "player": p, "ok": True, **roll})
    return True


def _play_jinx(state: CadwallonState, q: int) -> None:
    state.hands[q].remove("jinx")
    state.discard.append("jinx")
    state.queue = [t for t in state.queue if t["kind"] != "jinx"]
    task = state.queue[0]  # the roll_end task
    if state.recording:
        state.event("jinx", player=q, card="jinx")
    if task["what"] == "open":
        task["ok"] = _open_roll(state, task["char"], task["spirit"])
    else:
        task["ok"] = _spirit_test(state, task["player"], task["mission"], task["spirit"])


def _roll_end(state: CadwallonState, task: dict[str, Any]) -> None:
    p = task["player"]
    if task["what"] == "open":
        if task["ok"]:
            _open_chest(state, p, task["char"])
    elif task["ok"]:
        _mission_reward(state, p, task["slot"])


def _open_chest(state: CadwallonState, p: int, c: str) -> None:
    zone = state.pos[c]
    chest = state.chests.pop(zone)
    state.carried[c].append(chest["t"])
    # §"Les trésors": the player also takes 1 ducat from the bank
    gain = OPEN_DUCATS + (2 if "hidden_purse" in state.act["cards"] else 0)
    gain = min(gain, state.bank)
    state.bank -= gain
    state.ducats[p] += gain
    if state.recording:
        state.event("chest_taken", char=c, treasure=state._ttype(chest["t"]), n=gain, zone=zone)
    check_carry(state, c)


def _do_talent(state: CadwallonState, p: int, arg: str) -> None:
    c = state.active
    state.act["talent"] = True
    if arg in state.data.zone:  # shadow step: 1 AP, one zone, even through a red wall
        state.ap[p] -= state.data.talent["shadow_step"].cost
        if state.recording:
            state.event("shadow_step", char=c, zone=state.pos[c], dest=arg)
        state.pos[c] = arg
        arrive(state, c, arg)
    else:  # sleight of hand: discard an arcana card for 1 AP
        state.hands[p].remove(arg)
        state.discard.append(arg)
        state.ap[p] += 1
        if state.recording:
            state.event("sleight", char=c, card=arg)


def _do_play(state: CadwallonState, p: int, kind: str, a: Action) -> None:
    """Arcana cards cost no AP; their effects are documented in data/arcana.yaml."""
    state.hands[p].remove(kind)
    state.discard.append(kind)
    if kind in ACT_CARDS:
        state.act["cards"].append(kind)
        if state.recording:
            state.event("play_on", player=p, card=kind, char=state.active)
    elif kind == "second_wind":
        state.ap[p] += 1
        if state.recording:
            state.event("second_wind", player=p, card=kind)
    elif kind == "pickpocket":
        q = a.seat
        assert q is not None  # the notation names the seat robbed
        got = min(2, state.ducats[q])
        state.ducats[q] -= got
        state.ducats[p] += got
        if state.recording:
            state.event("pickpocket", player=p, card=kind, n=got, victim=q)
    elif kind == "reinforced_lock":
        assert a.target is not None  # the notation names the chest's room
        state.chests[a.target]["sealed"] = True
        if state.recording:
            state.event("reinforced_lock", player=p, card=kind, zone=a.target)


def _do_mission(state: CadwallonState, p: int, slot: int) -> None:
    """§"Cartes mission": 3 AP, hand in the treasures, take the reward; refill the slot."""
    mid = state.missions[slot]
    assert mid is not None  # a mission is used only from a filled slot
    m = state.data.mission[mid]
    state.ap[p] -= MISSION_AP
    if m.spirit_test:  # reconstructed: one die <= the best Spirit in the gang
        best = max(state.data.char[c].spirit for c in state._thieves_of(p))
        if not _spirit_test(state, p, mid, best):
            return
        if _jinx_window(state, p, {"what": "mission", "slot": slot, "mission": mid, "spirit": best}):
            return
    _mission_reward(state, p, slot)


def _spirit_test(state: CadwallonState, p: int, mid: str, spirit: int) -> bool:
    roll = state.rng.die(6)
    if roll > spirit:
        if state.recording:
            state.event("spirit_fail", player=p, mission=mid, roll=roll, spirit=spirit)
        return False
    if state.recording:
        state.event("spirit_ok", player=p, mission=mid, roll=roll, spirit=spirit)
    return True


def _mission_reward(state: CadwallonState, p: int, slot: int) -> None:
    """Hand in the treasures, take the reward; the slot is refilled at once."""
    mid = state.missions[slot]
    items = mission_items(state, p, mid) if mid is not None else None
    assert mid is not None and items is not None  # met when the mission was offered
    m = state.data.mission[mid]
    for c, t in items:
        state.carried[c].remove(t)
        state.handed_in.append(t)
    reward = min(m.reward + state.adv.special.mission_bonus, state.bank)
    state.bank -= reward
    state.ducats[p] += reward
    if state.recording:
        state.event("mission_done", player=p, mission=mid, n=reward)
    state.mission_discard.append(mid)
    state.missions[slot] = state.mission_deck.pop() if state.mission_deck else None
