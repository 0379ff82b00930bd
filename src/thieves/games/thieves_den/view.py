"""Thieves Den: what each player may see, texts for people, and reasons for illegal actions.

Hidden information (rulebook "Plateau de Joueur" and "Phase Reconnaissance"): the cards in a
player's draft hand and the card just picked, the scheme card, and the face-down piles of
collected locations (left) and fences (right) are seen by their owner only, until the end
of the game. Everything else (boards, tokens, face-up cards) is public.
"""
from __future__ import annotations

from typing import Any

from .components import TREASURES

TREASURE_SHORT = {"book": "Bk", "jewel": "Jw", "artifact": "Ar", "fossil": "Fo", "potion": "Po"}
TYPE_LABEL = {"village": "Village", "shadow_valley": "Shadow Valley", "ruins": "Ruins",
              "sanctuary": "Sanctuary", "city": "City"}


def step_text(kind: str, value: Any) -> str:
    """An ability step in words."""
    if kind == "gain":
        return "gain " + " + ".join(f"{n} {t}" for t, n in value.items())
    if kind == "pay":
        return "pay " + " + ".join(f"{n} {t}" for t, n in value.items())
    return {
        "gain_any": f"gain {value} treasure(s) of your choice",
        "thieves": f"gain {value} thie{'f' if value == 1 else 'ves'}",
        "prestige": f"gain {value} prestige",
        "pay_any": f"pay {value} treasure(s) of your choice",
        "pay_thieves": f"return {value} thie{'f' if value == 1 else 'ves'} to the Forest",
        "take_treasure": "take a treasure from an opponent's board",
        "take_thief": "take a thief from an opponent's board",
        "destroy": "return a treasure of an opponent's board to the supply",
    }[kind]


class ViewMixin:
    def _loc_label(self, card: str) -> str:
        return self.data.loc_labels[card]

    def location_text(self, card: str) -> str:
        c = self.data.locations[card]
        ab = ", then ".join(step_text(s.kind, s.value) for s in c.ability)
        bonus = ", ".join(step_text(s.kind, s.value) for s in c.owner_bonus) or "none"
        kind = "instant" if c.instant else "action"
        return f"{c.name} ({card}, {TYPE_LABEL[c.type]}, {kind}): {ab}; owner bonus: {bonus}"

    def fence_text(self, fid: str) -> str:
        f = self.data.fences[fid]
        return f"{f.name} ({fid}, {f.type}): wants {' + '.join(f.wants)} for {f.prestige} prestige"

    # -- observation -------------------------------------------------------------------------------
    def _observe(self, player: int | None) -> dict[str, Any]:
        end = self.phase == "end"
        players = []
        for q in range(self.num_players):
            mine = end or q == player
            d: dict[str, Any] = {
                "prestige": self.prestige[q],
                "treasures": dict(self.treasures[q]),
                "thieves": self.thieves[q],
                "passed": self.passed[q],
                "above": list(self.above[q]),
                "fences_above": list(self.fences_above[q]),
                "left_count": len(self.left[q]),
                "right_count": len(self.right[q]),
                "hand_count": len(self.hands[q]),
                "has_picked": self.picks[q] is not None,
            }
            if mine:
                d["scheme"] = self.scheme[q]
                d["left"] = list(self.left[q])
                d["right"] = list(self.right[q])
            players.append(d)
        obs: dict[str, Any] = {
            "phase": self.phase,
            "round": self.round,
            "holder": self.holder,
            "face": self.face,
            "direction": "clockwise" if self.direction == 1 else "counter-clockwise",
            "turn": self.turn if self.phase == "thieving" else None,
            "players": players,
            "neutral": list(self.neutral),
            "loc_thieves": dict(self.loc_thieves),
            "fence_thieves": dict(self.fence_thieves),
            "fence_treasures": {k: dict(v) for k, v in self.fence_treasures.items()},
            "row": list(self.row),
            "fence_deck_count": len(self.fence_deck),
            "loc_deck_count": len(self.loc_deck),
            "powers": [{"tile": s[-1] if s else None, "left": len(s), "paid": self.power_paid[i]}
                       for i, s in enumerate(self.power_stacks)],
            "witch_used": list(self.witch_used),
            "steal_slot": self.steal_slot,
            "recruit_slot": dict(self.recruit_slot),
            "city": dict(self.city),
            "forest": self.forest,
            "decision": self._public_decision(),
            "final": self.final,
        }
        if player is not None:
            obs["hand"] = list(self.hands[player])
            obs["pick"] = self.picks[player]
        return obs

    def _public_decision(self) -> dict[str, Any] | None:
        """The pending decision, as everyone may see it (all its parts are public)."""
        if not self.pending:
            return None
        f = self.pending[0]
        return {"player": f["p"], "kind": f["k"], "left": f.get("n"), "mode": f.get("mode")}

    # -- people ----------------------------------------------------------------------------------------
    def describe_action(self, action: str) -> str:
        parts = action.split()
        if not parts:
            return action
        v = parts[0]
        try:
            if v in ("keep", "loc", "recall"):
                what = {"keep": "Keep", "loc": "Place a thief on", "recall": "Recall a thief from"}[v]
                return f"{what} {self.location_text(parts[1])}"
            if v == "sell":
                return f"Sell to {self.fence_text(parts[1])}"
            if v == "power":
                s = self.power_stacks[int(parts[1]) - 1]
                tile = self.data.powers[s[-1]]
                return f"Pay 1 {parts[2]} to use the power {tile.name}: {tile.text}"
            if v == "witch":
                return f"Deliver 1 {parts[1]} to the Witch for prestige"
            if v == "steal":
                if len(parts) == 1:
                    return "Send 2 thieves to steal from the City (it is empty: you gain nothing)"
                return f"Send 2 thieves to steal 1 {parts[1]} from the City"
            if v == "recruit":
                return f"Pay {parts[1]} and {parts[2]} to recruit 1 thief from the Forest"
            if v == "rob":
                who = self.player_name(int(parts[1]) - 1)
                return f"Target {who}" + (f"'s {parts[2]}" if len(parts) > 2 else "'s thieves")
            if v == "move":
                return f"Move a thief from {self._loc_label(parts[1])} to use {self.location_text(parts[2])}"
            if v == "swap":
                return f"Exchange your {self._loc_label(parts[1])} for {self._loc_label(parts[2])}"
            if v == "return":
                return f"Put {self.fence_text(parts[1])} under the fence deck"
            if v == "give":
                return f"Give the direction tile to {self.player_name(int(parts[1]) - 1)}"
        except (KeyError, IndexError, ValueError):
            return action
        return {"pass": "Pass for the rest of the round (you can no longer be targeted)",
                "done": "Skip the optional follow-up action"}.get(v, {
                    "take": "Take 1 {} from the City", "pay": "Pay 1 {}",
                    "discard": "Discard 1 {} (treasure limit 8)"}.get(v, action).format(*parts[1:2]))

    def render_text(self, player: int | None) -> str:
        def tre(d: dict) -> str:
            return " ".join(f"{TREASURE_SHORT[t]}{d[t]}" for t in TREASURES if d.get(t)) or "-"
        L = [f"Thieves Den - round {self.round}/{self.data.board.rounds}, {self.phase} phase, "
             f"tile with {self.player_name(self.holder)} ({'clockwise' if self.direction == 1 else 'counter-clockwise'})"]
        L.append(f"City: {tre(self.city)} | Forest: {self.forest} thieves | location deck {len(self.loc_deck)}, "
                 f"fence deck {len(self.fence_deck)}")
        L.append("Fence row:")
        for f in self.row:
            L.append("  " + (self.fence_text(f) if f else "(empty)"))
        for i, s in enumerate(self.power_stacks):
            if s:
                t = self.data.powers[s[-1]]
                paid = f" [used, {self.power_paid[i]} paid]" if self.power_paid[i] else ""
                L.append(f"Power {i + 1}: {t.name} - {t.text}{paid}")
        slots = self.data.board.witch.slots
        L.append("Witch: " + ", ".join(f"{s.treasure}={s.prestige}{' (taken)' if self.witch_used[j] else ''}"
                                      for j, s in enumerate(slots)))
        L.append(f"Steal slot: {self.steal_slot} thieves | recruit slot: {tre(self.recruit_slot)}")
        if self.neutral:
            L.append("Beside the board: " + ", ".join(self._card_line(c) for c in self.neutral))
        for q in range(self.num_players):
            mark = "*" if q == player else " "
            st = "passed" if self.passed[q] and self.phase == "thieving" else ""
            L.append(f"{mark}{self.player_name(q)}: {self.prestige[q]} prestige, thieves {self.thieves[q]}, "
                     f"treasures {tre(self.treasures[q])}, {len(self.left[q])} locations and "
                     f"{len(self.right[q])} fences collected {st}")
            for c in self.above[q]:
                L.append("    " + self._card_line(c))
            for f in self.fences_above[q]:
                L.append("    sold: " + self.fence_text(f))
        if player is not None:
            sc = self.data.schemes[self.scheme[player]]
            L.append(f"Your scheme: {TYPE_LABEL[sc.types[0]]} + {TYPE_LABEL[sc.types[1]]}")
            if self.left[player]:
                L.append("Your collected locations: " + ", ".join(
                    f"{self.data.locations[c].name} ({TYPE_LABEL[self.data.locations[c].type]})"
                    for c in self.left[player]))
            if self.hands[player]:
                L.append("Your hand:")
                for c in self.hands[player]:
                    L.append("    " + self.location_text(c) + ("  <- kept" if self.picks[player] == c else ""))
        if self.final:
            for q in range(self.num_players):   # the end of the game reveals everything
                sc = self.data.schemes[self.scheme[q]]
                fences = ", ".join(self.data.fences[f].type for f in self.right[q]) or "none"
                L.append(f"{self.player_name(q)}: scheme {TYPE_LABEL[sc.types[0]]} + {TYPE_LABEL[sc.types[1]]}, "
                         f"{self.final['sets'][q]} set(s) = {self.final['scheme'][q]}; fences ({fences}) "
                         f"majorities = {self.final['majority'][q]}")
        return "\n".join(L)

    def _card_line(self, c: str) -> str:
        n = self.loc_thieves.get(c, 0)
        return self.location_text(c) + (f" [{n} thief]" if n else "")

    # -- reasons ---------------------------------------------------------------------------------------------
    def _explain(self, p: int, action: str) -> str | None:
        parts = action.split()
        if not parts:
            return "empty action"
        v = parts[0]
        if self.pending:
            f = self.pending[0]
            return (f"{self.player_name(p)} must first decide: {f['k']} "
                    f"(legal: {', '.join(self._choices(f)[:8])})")
        if self.phase == "draft":
            if v == "keep" and len(parts) == 2:
                return f"{parts[1]} is not in your hand"
            return "during scouting the only action is 'keep <card id>'"
        have = self.treasures[p]
        verbs = ("loc", "sell", "power", "witch", "steal", "recruit", "pass")
        if v not in verbs:
            return f"unknown action {v!r}; on your turn: {', '.join(verbs)}"
        bad = [w for w in parts[1:] if w.isalpha() and w not in TREASURES]
        if v in ("witch", "steal", "recruit", "power") and bad:
            return f"unknown treasure {bad[0]!r}; treasures are {', '.join(TREASURES)}"
        if v == "loc" and len(parts) == 2:
            c = parts[1]
            if c not in self._in_play():
                return f"{c} is not a face-up location card in play"
            if self.loc_thieves.get(c):
                return f"the action space of {c} is already taken"
            if self.thieves[p] < 1:
                return "you have no thief on your board"
            if not self._open_to(p, self._owner(c)):
                return f"{c} belongs to a player who has passed (option passed_locations=closed)"
            return f"you cannot pay the cost of {c}"
        if v == "sell" and len(parts) == 2:
            if parts[1] not in self.row:
                return f"{parts[1]} is not in the fence row"
            if self.thieves[p] < 1:
                return "selling needs a thief on your board"
            return f"you do not have every treasure {parts[1]} wants"
        if v == "witch" and len(parts) != 2 or v == "steal" and len(parts) > 2:
            return f"say which treasure, e.g. '{v} book'"
        if v == "steal":
            if self.thieves[p] < 2:
                return "stealing a treasure needs 2 thieves on your board"
            if len(parts) == 1:
                if not any(self.city.values()):
                    return "the City is empty (option empty_supply=forbidden)"
                return "say which treasure, e.g. 'steal book' ('steal' alone only when the City is empty)"
            if not self._short_supply_ok():
                return "the City has no treasure of that type (option empty_supply=forbidden)"
            return "the City has no treasure of that type: steal one it has"
        if v == "recruit":
            if self.forest < 1 and not self._short_supply_ok():
                return "the Forest has no thief left (option empty_supply=forbidden)"
            return "recruiting needs 2 of your treasures (e.g. 'recruit book potion')"
        if v == "witch":
            if len(parts) == 2 and parts[1] in have and have[parts[1]] < 1:
                return f"you have no {parts[1]}"
            return "the Witch's slot for that treasure is already taken this round"
        if v == "power":
            if len(parts) != 3 or parts[1] not in ("1", "2", "3"):
                return "say which stack and which treasure you pay, e.g. 'power 2 book'"
            i = int(parts[1]) - 1
            if not self.power_stacks[i]:
                return "that stack has no power tile left"
            if self.power_paid[i] is not None:
                return "that power tile is already used this round"
            if have.get(parts[2], 0) < 1:
                return f"you have no {parts[2]} to pay with"
            return "that power tile's effect is impossible now (no target, or nothing left to do once paid)"
        return None
