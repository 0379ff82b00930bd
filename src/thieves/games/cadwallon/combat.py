"""Fights, spoils, excess treasure and flights (a mixin of the game state).

Rulebook §"Attaquer" and §"Déplacer un milicien": each side may add one
arcana card (attacker first; never for a militiaman), rolls its Combat value
in dice and keeps its best die; the higher wins. A side that has not played
its card yet may play a re-roll card once the dice are down (offered to the
side that is losing, which is public). Ties go to the attacker,
or to the militiaman whenever one fights. The loser flees 3 zones, moved by
the winner's side.
"""
from __future__ import annotations

from typing import AbstractSet, Any

from .board import path_ends

from .constants import FLEE_ZONES, MILITIA_FINE, THEFT_DUCATS
from .base import CadwallonBase


class CombatMixin(CadwallonBase):
    # -- starting a fight ---------------------------------------------------------
    def _start_combat(self, attacker: str, defender: str, controller: int) -> None:
        """``controller`` plays the attacker's side (the active player)."""
        zone = self.pos[defender]
        self.pos[attacker] = zone
        self.combat = {"att": attacker, "def": defender, "zone": zone, "ctl": controller,
                       "att_card": None, "def_card": None}
        if self.recording:
            self.event("attack", char=attacker, target=defender, zone=zone)
        # Each thief's side may add one arcana card, attacker first. Guild rule no. 1: no
        # arcana card may help a militiaman (nor a heroine, who has no player). The window
        # is offered even to an empty-handed player, so skipping it reveals nothing.
        if self._is_thief(attacker):
            self.queue.append({"kind": "card", "side": "att", "player": controller})
        owner = self._owner(defender)
        if owner is not None:
            self.queue.append({"kind": "card", "side": "def", "player": owner})
        self.queue.append({"kind": "resolve", "player": None})

    def _combat_cards(self, p: int) -> list[str]:
        card = self.data.card
        kinds = sorted({k for k in self.hands[p] if card[k].timing == "combat"})
        return ["nocard"] + [f"card {k}" for k in kinds]

    def _reroll_cards(self, p: int) -> list[str]:
        card = self.data.card
        kinds = sorted({k for k in self.hands[p] if card[k].timing == "reroll"})
        return ["nocard"] + [f"card {k}" for k in kinds]

    def _side_player(self, side: str) -> int | None:
        """The player who may play arcana for a side: none for a militiaman (Guild rule
        no. 1) nor for a heroine."""
        c = self.combat
        if side == "att":
            return c["ctl"] if self._is_thief(c["att"]) else None
        return self._owner(c["def"])

    def _post_roll_window(self) -> None:
        """After the dice: the losing side, if it has not played its one card yet (nor
        passed this window) and holds cards, may play a re-roll card."""
        c = self.combat
        side = "def" if self._attacker_wins() else "att"
        q = self._side_player(side)
        if q is None or c[side + "_card"] is not None or c.get(side + "_passed") or not self.hands[q]:
            return
        self.queue.insert(0, {"kind": "reroll", "side": side, "player": q})

    def _play_reroll_card(self, p: int, side: str, kind: str | None) -> None:
        c = self.combat
        if kind is None:
            c[side + "_passed"] = True
            if self.recording:
                self.event("reroll_pass", player=p)
            return
        self.hands[p].remove(kind)
        self.discard.append(kind)
        c[side + "_card"] = kind
        other = "def" if side == "att" else "att"
        again = side if kind == "second_chance" else other
        self._roll(again)
        if self.recording:
            self.event("reroll", player=p, card=kind, char=c[again], dice=list(c["r" + again]))
        self._post_roll_window()

    def _play_combat_card(self, p: int, side: str, kind: str | None) -> None:
        if kind is None:
            if self.recording:
                self.event("fight_nocard", player=p)
            return
        self.hands[p].remove(kind)
        self.discard.append(kind)
        self.combat[side + "_card"] = kind
        if self.recording:
            self.event("fight_card", player=p, card=kind)

    # -- resolving -----------------------------------------------------------------
    def _dice(self, fighter: str, own_card: str | None, other_card: str | None) -> int:
        n = self._combat_value(fighter)
        if self._talent(fighter) == "brawler":
            n += 1
        if own_card == "fury":
            n += 1
        if other_card == "feint":
            n -= 1
        return max(1, n)

    def _roll(self, side: str) -> None:
        c = self.combat
        other = "def" if side == "att" else "att"
        n = self._dice(c[side], c[side + "_card"], c[other + "_card"])
        c["r" + side] = [self.rng.die(6) for _ in range(n)]

    def _attacker_wins(self) -> bool:
        c = self.combat
        att, dfn = c["att"], c["def"]
        sa, sd = max(c["ratt"]), max(c["rdef"])
        if sa != sd:
            return sa > sd
        if self._is_militia(att) or self._is_militia(dfn):
            return self._is_militia(att)  # militiamen win ties
        if self._talent(dfn) == "stalwart" and self._is_thief(att):
            return False
        return True  # ties go to the attacker

    def _resolve_combat(self) -> None:
        """Both sides roll; then the re-roll window; the outcome follows."""
        self._roll("att")
        self._roll("def")
        c = self.combat
        if self.recording:
            self.event("fight_dice", char=c["att"], dice=list(c["ratt"]), target=c["def"],
                       dice2=list(c["rdef"]))
        self.queue.insert(0, {"kind": "outcome", "player": None})
        self._post_roll_window()

    def _combat_outcome(self) -> None:
        c = self.combat
        att, dfn = c["att"], c["def"]
        att_wins = self._attacker_wins()
        winner, loser = (att, dfn) if att_wins else (dfn, att)
        if self.recording:
            self.event("fight_won", char=winner, target=loser)
        loser_card = c["att_card"] if loser == att else c["def_card"]
        # the side that moves the loser: the winner's owner, or for a militiaman the
        # player controlling it; a heroine's flights are left to the attacker's left neighbour
        if self._is_militia(winner):
            mover = c["ctl"]
        elif self._is_heroine(winner):
            mover = (c["ctl"] + 1) % self.num_players
        else:
            mover = self._owner(winner)
        c["winner"], c["loser"], c["mover"] = winner, loser, mover
        # the fight stays on the table (both sides' dice, cards, result) until the next one
        fight = self.fight = c.copy()  # its lists (the dice) copied too
        for k, v in c.items():
            if type(v) is list:
                fight[k] = v.copy()
        if loser_card == "slippery":
            if self.recording:
                self.event("slips", char=loser)
        elif self._is_militia(winner):
            self._militia_fine(loser)
        elif self._is_thief(winner) and not self._is_militia(loser):
            self._spoils(winner, loser)
        self.queue.append({"kind": "flee", "player": mover, "char": loser})

    def _militia_fine(self, loser: str) -> None:
        """A beaten character's gang pays 2 ducats (all it has if fewer) to the bank."""
        p = self._owner(loser)
        if p is None:
            return
        fine = min(MILITIA_FINE, self.ducats[p])
        self.ducats[p] -= fine
        if self.adv.special.militia_fines_to_vault:
            # The Duke's Treasure: fines go to the vault, not the bank (reconstructed reading)
            room = self.data.role[self.options["fines_room"]]
            self.room_ducats[room] = self.room_ducats.get(room, 0) + fine
            if self.recording:
                self.event("fine_room", player=p, n=fine, zone=room)
        else:
            self.bank += fine
            if self.recording:
                self.event("fine_bank", player=p, n=fine)

    def _spoils(self, winner: str, loser: str) -> None:
        """The winning thief takes one treasure, or 2 ducats if the loser has none."""
        wp = self._owner(winner)
        loot = self.carried.get(loser, [])
        if loot:
            kinds = sorted({self._ttype(t) for t in loot})
            if len(kinds) == 1:
                self._take_from(winner, loser, kinds[0])
            else:
                self.queue.append({"kind": "take", "player": wp, "char": winner, "from": loser})
            return
        lp = self._owner(loser)
        if lp is None:  # a heroine without a treasure has nothing to give (reconstructed)
            if self.recording:
                self.event("nothing", char=loser)
            return
        assert wp is not None  # the winner is a thief here
        amount = 3 if self._talent(winner) == "cutpurse" else THEFT_DUCATS
        got = min(amount, self.ducats[lp])
        self.ducats[lp] -= got
        self.ducats[wp] += got
        if self.recording:
            self.event("takes_ducats", char=winner, n=got, target=loser)

    def _take_from(self, winner: str, loser: str, ttype: str) -> None:
        tid = next(t for t in self.carried[loser] if self._ttype(t) == ttype)
        self.carried[loser].remove(tid)
        self.carried[winner].append(tid)
        if self.recording:
            self.event("takes_treasure", char=winner, treasure=ttype, target=loser)
        self._check_carry(winner)

    def _check_carry(self, char: str) -> None:
        """Carrying limit: a 4th treasure is put down in an empty room (owner chooses)."""
        if len(self.carried[char]) > self.data.treasures.carry_limit and self._drop_rooms():
            self.queue.insert(0, {"kind": "drop", "player": self._owner(char), "char": char})

    def _drop_rooms(self) -> list[str]:
        occupied = set(self.pos.values())
        return [r for r in self.data.rooms
                if r not in occupied and r not in self.chests and r not in self.tokens]

    # -- fleeing -------------------------------------------------------------------
    def _flee_options(self, char: str) -> list[str]:
        """The zones where ``char``'s flight may end. The last answer is remembered with
        everything it was worked out from (the automatic step asks, then the listing of
        the choice); the list is shared: never mutate it."""
        pos = self.pos
        start = pos[char]
        key = (start, tuple(pos.values()), tuple(self.tokens), tuple(self.portcullis))
        memo = self._flee_memo
        if memo is not None and memo[0] == key:
            return memo[1]
        # :func:`.board.flee_ends` from the board's paths: the longest whose zones are all
        # open to enter and whose last zone is empty
        occupied = set(pos.values())
        tokens = self.tokens
        ends, paths, every = path_ends(self.data, start, FLEE_ZONES)
        closed = every.intersection(self.portcullis) if self.options["portcullis_blocks_zone"] else ()
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
        self._flee_memo = (key, out)
        return out

    def _flee(self, char: str, zone: str) -> None:
        self.pos[char] = zone
        if self.recording:
            self.event("flees", char=char, zone=zone)
        self._arrive(char, zone)

    def _end_combat_if_done(self) -> None:
        if self.combat is not None and not self.queue:
            self.combat = None
