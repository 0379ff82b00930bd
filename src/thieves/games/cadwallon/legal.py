"""What a player may do now: the legal actions of each phase and of each pending
task (the answers of a fight, an interrupt, a flight), as module functions taking the
state. The notation and its typed parse are in :mod:`.notation`; applying an action is
:mod:`.actions`."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .combat import combat_cards, drop_rooms, flee_options, reroll_cards
from .constants import ATTACK_AP, FORCE_AP, MISSION_AP, MOVE_AP, OPEN_AP
from .movement import (attack_targets, blocked_zones, can_leave, militia_targets, move_targets,
                       reach_now)

if TYPE_CHECKING:
    from .rules import CadwallonState

ACT_CARDS = {"run": "move", "secret_passage": "move", "rooftops": "move",
             "skeleton_key": "action", "hidden_purse": "action"}
# played on the active character before its move / before its action
MOVE_CARDS = tuple(k for k, step in ACT_CARDS.items() if step == "move")
ACTION_CARDS = tuple(k for k, step in ACT_CARDS.items() if step == "action")
PLAY = {k: f"play {k}" for k in ACT_CARDS}
ACT_CARD_PLAYS = frozenset(PLAY.values())
ACT_CARD_SET = frozenset(ACT_CARDS)
# played in the main phase, outside an activation
HAND_CARD_SET = frozenset(("second_wind", "pickpocket", "reinforced_lock"))
# shared answers (a listing is never changed by its callers: legal_actions hands out copies)
NO_PLAY = ["no"]
INJURY_PLAY = ["no", "play niggling_injury"]
JINX_PLAY = ["no", "play jinx"]
MISSION = [f"mission {i + 1}" for i in range(9)]


@lru_cache(maxsize=None)
def _pickpockets(n: int, p: int) -> tuple[str, ...]:
    return tuple(f"play pickpocket P{q + 1}" for q in range(n) if q != p)


@lru_cache(maxsize=None)
def seats_after(n: int, p: int) -> tuple[int, ...]:
    """The other seats of an ``n``-player game, clockwise from the left of seat ``p``."""
    return tuple((p + i) % n for i in range(1, n))


def pickpockets(n: int, p: int) -> tuple[str, ...]:
    """``play pickpocket P<q>`` for every other seat q of an ``n``-player game, in seat order."""
    return _pickpockets(n, p)


# -- legal actions --------------------------------------------------------------------
def legal_actions(state: CadwallonState, player: int) -> list[str]:
    if state.queue:
        return pending_actions(state, state.queue[0])
    ph = state.phase
    if ph == "main":
        return main_actions(state, player)
    if ph == "militia":
        return list(state.data.militia_actions)
    if ph == "militia_move":
        return militia_move_actions(state, player)
    if ph == "gang":
        return [f"gang {g}" for g in state.data.gang_ids if g not in state.gangs]
    if ph == "deploy":
        if state.deploy_sel is None:
            return [f"deploy {c}" for c in state.to_deploy[player]]
        occupied = state._occupied_zones()
        return [f"at {z}" for z in state.data.deployment if z not in occupied and z not in state.tokens]
    return main_actions(state, player)


def militia_move_actions(state: CadwallonState, p: int) -> list[str]:
    """Where player ``p`` may move the militiaman rolled for (or leave him)."""
    out = ["mm stay"]
    out += map(state.data.mm_action.__getitem__,
               militia_targets(state, state.militia_sel, state.militia_roll, p))
    return out


def pending_actions(state: CadwallonState, task: dict[str, Any]) -> list[str]:
    kind = task["kind"]
    if kind == "injury":
        return INJURY_PLAY if "niggling_injury" in state.hands[task["player"]] else NO_PLAY
    if kind == "card":
        return combat_cards(state, task["player"])
    if kind == "reroll":
        return reroll_cards(state, task["player"])
    if kind == "jinx":
        return JINX_PLAY if "jinx" in state.hands[task["player"]] else NO_PLAY
    if kind == "replot":
        c = task["char"]
        targets = move_targets(state, c)
        out = [f"move {z}" for z in sorted(targets)]
        if can_leave(state, c, targets):
            out.append("leave")
        out.append("stay")
        # Run is played during your own character's move, so it may answer the injury
        if "run" in state.hands[task["player"]] and "run" not in state.act["cards"]:
            out.append("play run")
        return out
    if kind == "take":
        return [f"take {k}" for k in sorted({state._ttype(t) for t in state.carried[task["from"]]})]
    if kind == "drop":
        kinds = sorted({state._ttype(t) for t in state.carried[task["char"]]})
        return [f"drop {k} {r}" for k in kinds for r in drop_rooms(state)]
    if kind == "flee":
        flee = state.data.flee_action
        return [flee[z] for z in flee_options(state, task["char"])]
    return []


def main_actions(state: CadwallonState, p: int) -> list[str]:
    return main_listing(state, p)[0]


def main_listing(state: CadwallonState, p: int, rest: list[str] | None = None
                 ) -> tuple[list[str], dict[str, int] | None, int, int]:
    """The main phase's actions of player ``p``, with what the active character's move
    was worked out from: its targets (:func:`move_targets`, None when it may not move)
    and its Movement (:func:`movement`), for the playout to hand to :func:`do_move`;
    and where the actions outside the activation begin (``act``, the hand's own cards,
    missions, ``end``). ``rest``: those actions when the caller knows them already (an
    activation, or an arcana card played on it, changes none of them but the ``act``
    of the character activated)."""
    out: list[str] = []
    c = state.active
    targets: dict[str, int] | None = None
    mv = 0
    if c is not None:
        targets, mv = _activation_listing(state, p, c, out)
    split = len(out)
    if rest is not None:
        out += rest
    else:
        _turn_listing(state, p, out)
    return out, targets, mv, split


def _activation_listing(state: CadwallonState, p: int, c: str, out: list[str]
                        ) -> tuple[dict[str, int] | None, int]:
    """Add to ``out`` what the active character ``c`` may still do (move, leave, open,
    force, attack, its talent, the arcana cards played on it); its move's targets and
    Movement (None and 0 when it may not move)."""
    d = state.data
    ap = state.ap[p]
    hand = state.hands[p]
    pos = state.pos
    targets = None
    mv = 0
    act = state.act
    played = act["cards"]
    if not act["moved"] and ap >= MOVE_AP:
        # :func:`move_targets` and :func:`movement`, written out
        mv = d.move_of[c]
        if played:
            if "run" in played:
                mv += 2
            walls = 1 if "secret_passage" in played else 0
            rooftops = "rooftops" in played
        else:
            walls, rooftops = 0, False
        injured = state.injured
        if injured:
            mv -= injured.get(c, 0)
        if mv < 0:
            mv = 0
        targets = reach_now(state, pos[c], mv, walls, rooftops)
        if targets:
            move = d.move_action
            for z in sorted(targets):
                out.append(move[z])
        if state.alarm and can_leave(state, c, targets, mv):
            out.append("leave")
    if not act["acted"]:
        here = pos[c]
        chest = state.chests.get(here)
        if chest is not None:
            if ap >= OPEN_AP and not chest["sealed"]:
                out.append("open")
            if ap >= FORCE_AP:
                out.append("force")
        # :func:`attack_targets` only when someone is next door
        if ap >= ATTACK_AP and not d.adj_set[here].isdisjoint(pos.values()):
            for t in attack_targets(state, c):
                out.append(d.attack_action[t])
    if not act["talent"]:
        tal = d.talent_of[c]
        if tal == "shadow_step":
            if ap >= d.talent[tal].cost:
                blocked = blocked_zones(state)
                talent = d.talent_action
                for z in d.step_or_wall[pos[c]]:
                    if z not in blocked:
                        out.append(talent[z])
        elif tal == "sleight":
            out.extend(map(d.talent_action.__getitem__, sorted(set(hand))))
    if hand and not ACT_CARD_SET.isdisjoint(hand):
        if not act["moved"]:
            for k in MOVE_CARDS:
                if k in hand and k not in played:
                    out.append(PLAY[k])
        if not act["acted"]:
            for k in ACTION_CARDS:
                if k in hand and k not in played:
                    out.append(PLAY[k])
    return targets, mv


def _turn_listing(state: CadwallonState, p: int, out: list[str]) -> None:
    """Add to ``out`` the actions outside the activation: ``act`` (a character of the gang
    not activated yet), the hand's own cards, the missions met, ``end``."""
    d = state.data
    ap = state.ap[p]
    hand = state.hands[p]
    pos = state.pos
    g = state.gangs[p]
    held: list[str] = []  # the treasures the gang's characters in the district carry
    if g is not None and ap >= 1:  # no AP left: no more characters can be activated
        activated, act_action = state.activated, d.act_action
        if ap >= MISSION_AP:
            carried = state.carried
            for x in d.gang_chars[g]:
                if x in pos:
                    if x not in activated:
                        out.append(act_action[x])
                    if carried[x]:
                        held += carried[x]
        else:
            for x in d.gang_chars[g]:
                if x in pos and x not in activated:
                    out.append(act_action[x])
    if hand and not HAND_CARD_SET.isdisjoint(hand):
        if "second_wind" in hand:
            out.append("play second_wind")
        if "pickpocket" in hand:
            out += pickpockets(state.num_players, p)
        if "reinforced_lock" in hand:
            chests, lock = state.chests, d.lock_action
            for z in sorted(chests):
                if not chests[z]["sealed"]:
                    out.append(lock[z])
    if held:  # missions (3 AP)
        out += missions_met(state, held)
    out.append("end")




def missions_met(state: CadwallonState, held: list[str]) -> tuple[str, ...]:
    """``mission <slot>`` for each face-up mission the treasures ``held`` (token ids)
    meet. Answers are remembered by the tokens and the missions (a few hundred kinds
    in a game; the memo is emptied when it grows past 4096)."""
    missions = state.missions
    key = (tuple(held), tuple(missions))
    memo = state.data.missions_memo
    met = memo.get(key)
    if met is None:
        kinds = [state._ttype(t) for t in held]
        count, needs = kinds.count, state.data.mission_needs
        out = []
        for i, m in enumerate(missions):
            if m is not None:
                for k, n in needs[m]:
                    if count(k) < n:
                        break
                else:
                    out.append(MISSION[i])
        met = tuple(out)
        if len(memo) >= 4096:
            memo.clear()
        memo[key] = met
    return met


def mission_items(state: CadwallonState, p: int, mid: str) -> list[list[str]] | None:
    """[character, treasure] pairs handed in for mission ``mid``, or None if unmet."""
    need = dict(state.data.mission[mid].needs)
    picked = []
    for c in state._thieves_of(p):
        for t in state.carried[c]:
            k = state._ttype(t)
            if need.get(k, 0) > 0:
                need[k] -= 1
                picked.append([c, t])
    return picked if not any(need.values()) else None
