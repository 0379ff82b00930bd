"""Fights, spoils, excess treasure and flights: module functions taking the state.

Rulebook §"Attaquer" and §"Déplacer un milicien": each side may add one
arcana card (attacker first; never for a militiaman), rolls its Combat value
in dice and keeps its best die; the higher wins. A side that has not played
its card yet may play a re-roll card once the dice are down (offered to the
side that is losing, which is public). Ties go to the attacker,
or to the militiaman whenever one fights. The loser flees 3 zones, moved by
the winner's side.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet

from .board import path_ends
from .constants import FLEE_ZONES, MILITIA_FINE, THEFT_DUCATS
from .movement import arrive

if TYPE_CHECKING:
    from .rules import CadwallonState


# -- starting a fight ---------------------------------------------------------
def start_combat(state: CadwallonState, attacker: str, defender: str, controller: int) -> None:
    """``controller`` plays the attacker's side (the active player)."""
    zone = state.pos[defender]
    state.pos[attacker] = zone
    state.combat = {"att": attacker, "def": defender, "zone": zone, "ctl": controller,
                    "att_card": None, "def_card": None}
    if state.recording:
        state.event("attack", char=attacker, target=defender, zone=zone)
    # Each thief's side may add one arcana card, attacker first. Guild rule no. 1: no
    # arcana card may help a militiaman (nor a heroine, who has no player). The window
    # is offered even to an empty-handed player, so skipping it reveals nothing.
    if state._is_thief(attacker):
        state.queue.append({"kind": "card", "side": "att", "player": controller})
    owner = state._owner(defender)
    if owner is not None:
        state.queue.append({"kind": "card", "side": "def", "player": owner})
    state.queue.append({"kind": "resolve", "player": None})


def combat_cards(state: CadwallonState, p: int) -> list[str]:
    card = state.data.card
    kinds = sorted({k for k in state.hands[p] if card[k].timing == "combat"})
    return ["nocard"] + [f"card {k}" for k in kinds]


def reroll_cards(state: CadwallonState, p: int) -> list[str]:
    card = state.data.card
    kinds = sorted({k for k in state.hands[p] if card[k].timing == "reroll"})
    return ["nocard"] + [f"card {k}" for k in kinds]


def _side_player(state: CadwallonState, side: str) -> int | None:
    """The player who may play arcana for a side: none for a militiaman (Guild rule
    no. 1) nor for a heroine."""
    c = state.combat
    if side == "att":
        return c["ctl"] if state._is_thief(c["att"]) else None
    return state._owner(c["def"])


def _post_roll_window(state: CadwallonState) -> None:
    """After the dice: the losing side, if it has not played its one card yet (nor
    passed this window) and holds cards, may play a re-roll card."""
    c = state.combat
    side = "def" if _attacker_wins(state) else "att"
    q = _side_player(state, side)
    if q is None or c[side + "_card"] is not None or c.get(side + "_passed") or not state.hands[q]:
        return
    state.queue.insert(0, {"kind": "reroll", "side": side, "player": q})


def play_reroll_card(state: CadwallonState, p: int, side: str, kind: str | None) -> None:
    c = state.combat
    if kind is None:
        c[side + "_passed"] = True
        if state.recording:
            state.event("reroll_pass", player=p)
        return
    state.hands[p].remove(kind)
    state.discard.append(kind)
    c[side + "_card"] = kind
    other = "def" if side == "att" else "att"
    again = side if kind == "second_chance" else other
    _roll(state, again)
    if state.recording:
        state.event("reroll", player=p, card=kind, char=c[again], dice=list(c["r" + again]))
    _post_roll_window(state)


def play_combat_card(state: CadwallonState, p: int, side: str, kind: str | None) -> None:
    if kind is None:
        if state.recording:
            state.event("fight_nocard", player=p)
        return
    state.hands[p].remove(kind)
    state.discard.append(kind)
    state.combat[side + "_card"] = kind
    if state.recording:
        state.event("fight_card", player=p, card=kind)


# -- resolving -----------------------------------------------------------------
def _dice(state: CadwallonState, fighter: str, own_card: str | None, other_card: str | None) -> int:
    n = state._combat_value(fighter)
    if state._talent(fighter) == "brawler":
        n += 1
    if own_card == "fury":
        n += 1
    if other_card == "feint":
        n -= 1
    return max(1, n)


def _roll(state: CadwallonState, side: str) -> None:
    c = state.combat
    other = "def" if side == "att" else "att"
    n = _dice(state, c[side], c[side + "_card"], c[other + "_card"])
    c["r" + side] = [state.rng.die(6) for _ in range(n)]


def _attacker_wins(state: CadwallonState) -> bool:
    c = state.combat
    att, dfn = c["att"], c["def"]
    sa: int = max(c["ratt"])
    sd: int = max(c["rdef"])
    if sa != sd:
        return sa > sd
    if state._is_militia(att) or state._is_militia(dfn):
        return state._is_militia(att)  # militiamen win ties
    if state._talent(dfn) == "stalwart" and state._is_thief(att):
        return False
    return True  # ties go to the attacker


def resolve_combat(state: CadwallonState) -> None:
    """Both sides roll; then the re-roll window; the outcome follows."""
    _roll(state, "att")
    _roll(state, "def")
    c = state.combat
    if state.recording:
        state.event("fight_dice", char=c["att"], dice=list(c["ratt"]), target=c["def"],
                    dice2=list(c["rdef"]))
    state.queue.insert(0, {"kind": "outcome", "player": None})
    _post_roll_window(state)


def combat_outcome(state: CadwallonState) -> None:
    c = state.combat
    att, dfn = c["att"], c["def"]
    att_wins = _attacker_wins(state)
    winner, loser = (att, dfn) if att_wins else (dfn, att)
    if state.recording:
        state.event("fight_won", char=winner, target=loser)
    loser_card = c["att_card"] if loser == att else c["def_card"]
    # the side that moves the loser: the winner's owner, or for a militiaman the
    # player controlling it; a heroine's flights are left to the attacker's left neighbour
    if state._is_militia(winner):
        mover = c["ctl"]
    elif state._is_heroine(winner):
        mover = (c["ctl"] + 1) % state.num_players
    else:
        mover = state._owner(winner)
    c["winner"], c["loser"], c["mover"] = winner, loser, mover
    # the fight stays on the table (both sides' dice, cards, result) until the next one
    fight = state.fight = c.copy()  # its lists (the dice) copied too
    for k, v in c.items():
        if type(v) is list:
            fight[k] = v.copy()
    if loser_card == "slippery":
        if state.recording:
            state.event("slips", char=loser)
    elif state._is_militia(winner):
        _militia_fine(state, loser)
    elif state._is_thief(winner) and not state._is_militia(loser):
        _spoils(state, winner, loser)
    state.queue.append({"kind": "flee", "player": mover, "char": loser})


def _militia_fine(state: CadwallonState, loser: str) -> None:
    """A beaten character's gang pays 2 ducats (all it has if fewer) to the bank."""
    p = state._owner(loser)
    if p is None:
        return
    fine = min(MILITIA_FINE, state.ducats[p])
    state.ducats[p] -= fine
    if state.adv.special.militia_fines_to_vault:
        # The Duke's Treasure: fines go to the vault, not the bank (reconstructed reading)
        room = state.data.role[state.options["fines_room"]]
        state.room_ducats[room] = state.room_ducats.get(room, 0) + fine
        if state.recording:
            state.event("fine_room", player=p, n=fine, zone=room)
    else:
        state.bank += fine
        if state.recording:
            state.event("fine_bank", player=p, n=fine)


def _spoils(state: CadwallonState, winner: str, loser: str) -> None:
    """The winning thief takes one treasure, or 2 ducats if the loser has none."""
    wp = state._owner(winner)
    loot = state.carried.get(loser, [])
    if loot:
        kinds = sorted({state._ttype(t) for t in loot})
        if len(kinds) == 1:
            take_from(state, winner, loser, kinds[0])
        else:
            state.queue.append({"kind": "take", "player": wp, "char": winner, "from": loser})
        return
    lp = state._owner(loser)
    if lp is None:  # a heroine without a treasure has nothing to give (reconstructed)
        if state.recording:
            state.event("nothing", char=loser)
        return
    assert wp is not None  # the winner is a thief here
    amount = 3 if state._talent(winner) == "cutpurse" else THEFT_DUCATS
    got = min(amount, state.ducats[lp])
    state.ducats[lp] -= got
    state.ducats[wp] += got
    if state.recording:
        state.event("takes_ducats", char=winner, n=got, target=loser)


def take_from(state: CadwallonState, winner: str, loser: str, ttype: str) -> None:
    tid = next(t for t in state.carried[loser] if state._ttype(t) == ttype)
    state.carried[loser].remove(tid)
    state.carried[winner].append(tid)
    if state.recording:
        state.event("takes_treasure", char=winner, treasure=ttype, target=loser)
    check_carry(state, winner)


def check_carry(state: CadwallonState, char: str) -> None:
    """Carrying limit: a 4th treasure is put down in an empty room (owner chooses)."""
    if len(state.carried[char]) > state.data.treasures.carry_limit and drop_rooms(state):
        state.queue.insert(0, {"kind": "drop", "player": state._owner(char), "char": char})


def drop_rooms(state: CadwallonState) -> list[str]:
    occupied = set(state.pos.values())
    return [r for r in state.data.rooms
            if r not in occupied and r not in state.chests and r not in state.tokens]


# -- fleeing -------------------------------------------------------------------
def flee_options(state: CadwallonState, char: str) -> list[str]:
    """The zones where ``char``'s flight may end. The last answer is remembered with
    everything it was worked out from (the automatic step asks, then the listing of
    the choice); the list is shared: never mutate it."""
    pos = state.pos
    start = pos[char]
    key = (start, tuple(pos.values()), tuple(state.tokens), tuple(state.portcullis))
    memo = state._flee_memo
    if memo is not None and memo[0] == key:
        return memo[1]
    # :func:`.board.flee_ends` from the board's paths: the longest whose zones are all
    # open to enter and whose last zone is empty
    occupied = set(pos.values())
    tokens = state.tokens
    ends, paths, every = path_ends(state.data, start, FLEE_ZONES)
    closed = every.intersection(state.portcullis) if state.options["portcullis_blocks_zone"] else ()
    out: list[str] = []
    empty: AbstractSet[str]
    for k in range(FLEE_ZONES - 1, -1, -1):
        if closed:
            empty = {p[-1] for p in paths[k] if closed.isdisjoint(p)}.difference(occupied, tokens)
        else:
            empty = ends[k].difference(occupied, tokens)
        if empty:
            out = sorted(empty)
            break
    state._flee_memo = (key, out)
    return out


def flee(state: CadwallonState, char: str, zone: str) -> None:
    state.pos[char] = zone
    if state.recording:
        state.event("flees", char=char, zone=zone)
    arrive(state, char, zone)
