"""Thieves Den: what each player may see, texts for people, and reasons for illegal actions.

Hidden information (rulebook "Plateau de Joueur" and "Phase Reconnaissance"): the cards in a
player's draft hand and the card just picked, the scheme card, and the face-down piles of
collected locations (left) and fences (right) are seen by their owner only, until the end
of the game. Everything else (boards, tokens, face-up cards) is public.
"""
from __future__ import annotations

from typing import Any

from .fields import MixinBase
from .notation import DenAction, NotationError

#: the actions of a thieving turn (the others answer a pending decision)
TURN_VERBS = ("loc", "sell", "power", "witch", "steal", "recruit", "pass")


class ViewMixin(MixinBase):
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
            if player in self._players_to_act():
                # the viewer's own legal actions, so a drawing can mark exactly what is clickable
                obs["legal"] = self.legal_actions(player)
        return obs

    def _public_decision(self) -> dict[str, Any] | None:
        """The pending decision, as everyone may see it (all its parts are public)."""
        if not self.pending:
            return None
        f = self.pending[0]
        k = f["k"]
        d = {"player": f["p"], "kind": k, "left": f.get("n"), "mode": f.get("mode"),
             "optional": bool(f.get("opt"))}
        if k == "payany":
            d["to"] = f["to"]           # "city" (an ability cost) or the fence id (its joker)
        elif k == "discard":
            d["held"] = sum(self.treasures[f["p"]].values())
            d["limit"] = self.data.board.treasure_limit
        elif k == "give":
            d["among"] = list(f["among"])
        return d

    # -- people: the words come from the presentation (presentation.py), in English here ----------
    def describe_action(self, action: str) -> str:
        pres = self.game.presentation(None, data_dir=self.options.get("data_dir"))
        return pres.action_text(self.observation(None), action)

    def render_text(self, player: int | None) -> str:
        pres = self.game.presentation(player, data_dir=self.options.get("data_dir"))
        return pres.text_view(self.observation(player))

    # -- reasons ---------------------------------------------------------------------------------------------
    def _explain(self, p: int, action: str) -> str | None:
        try:
            act = DenAction.parse(action)
        except NotationError as exc:
            return str(exc)
        v = act.verb
        if self.pending:
            f = self.pending[0]
            return (f"player {p + 1} must first decide: {f['k']} "
                    f"(legal: {', '.join(self._choices(f)[:8])})")
        if self.phase == "draft":
            if v == "keep":
                return f"{act.card} is not in your hand"
            return "during scouting the only action is 'keep <card id>'"
        have = self.treasures[p]
        if v not in TURN_VERBS:
            return f"{v!r} is not a turn action; on your turn: {', '.join(TURN_VERBS)}"
        if v == "loc":
            c = act.card
            if c not in self._in_play():
                return f"{c} is not a face-up location card in play"
            if self.loc_thieves.get(c):
                return f"the action space of {c} is already taken"
            if self.thieves[p] < 1:
                return "you have no thief on your board"
            if not self._open_to(p, self._owner(c)):
                return f"{c} belongs to a player who has passed (option passed_locations=closed)"
            return f"you cannot pay the cost of {c}"
        if v == "sell":
            if act.card not in self.row:
                return f"{act.card} is not in the fence row"
            if self.thieves[p] < 1:
                return "selling needs a thief on your board"
            return f"you do not have every treasure {act.card} wants"
        if v == "steal":
            if self.thieves[p] < 2:
                return "stealing a treasure needs 2 thieves on your board"
            if act.treasure is None:
                if not any(self.city.values()):
                    return "the City is empty (option empty_supply=forbidden)"
                return "say which treasure, e.g. 'steal book' ('steal' alone only when the City is empty)"
            if not self._short_supply_ok():
                return "the City has no treasure of that type (option empty_supply=forbidden)"
            return "the City has no treasure of that type: steal one it has"
        if v == "recruit":
            if self.forest < 1 and not self._short_supply_ok():
                return "the Forest has no thief left (option empty_supply=forbidden)"
            return "recruiting needs those 2 treasures on your board (e.g. 'recruit book potion')"
        if v == "witch":
            if have[act.named_treasure] < 1:
                return f"you have no {act.treasure}"
            return "the Witch's slot for that treasure is already taken this round"
        if v == "power":
            i = act.named_stack
            if i >= len(self.power_stacks):
                return f"there are {len(self.power_stacks)} power stacks"
            if not self.power_stacks[i]:
                return "that stack has no power tile left"
            if self.power_paid[i] is not None:
                return "that power tile is already used this round"
            if have[act.named_treasure] < 1:
                return f"you have no {act.treasure} to pay with"
            return "that power tile's effect is impossible now (no target, or nothing left to do once paid)"
        return None
