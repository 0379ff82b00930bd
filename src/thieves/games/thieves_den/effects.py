"""Thieves Den: effects as a queue of small steps ("frames").

Every compound effect (a location ability, an owner bonus, a power tile) is expanded into
frames in ``self.pending``. Automatic frames run at once; a choice frame waits for its
player's decision. Rulebook sections: "Plateau de Joueur" (8-treasure and 6-thief limits),
"Limite de la Réserve" (the supply is limited), "Clarification des Cartes" (the card
effects: destroy, take a thief, exchange, take a treasure).
"""
from __future__ import annotations

from typing import Any, Callable

from ...core.decisions import Steps
from .components import TREASURES, DenData
from .fields import MixinBase
from .notation import DenAction

#: frames that wait for a decision; every other frame kind runs by itself
CHOICE_KINDS = frozenset({"take", "payany", "rob", "robthief", "discard", "give",
                          "sub", "recall", "relocate", "swap", "refresh"})
#: automatic frames that can add to a player's treasures (every other one only takes some away)
GAIN_KINDS = frozenset({"gain"})
#: decisions that can add to a player's treasures ("steal", "take", "rob" with the Customs
#: House) or end with a player still over the limit ("discard" takes one at a time)
LIMIT_VERBS = frozenset({"steal", "take", "rob", "discard"})

#: the notation of the choices that name a treasure, made once
TAKE_ACTIONS = {t: f"take {t}" for t in TREASURES}
PAY_ACTIONS = {t: f"pay {t}" for t in TREASURES}
DISCARD_ACTIONS = {t: f"discard {t}" for t in TREASURES}
#: ``rob <seat> <treasure>`` and ``rob <seat>`` by 0-based seat (5 players at most)
ROB_ACTIONS = [{t: f"rob {q + 1} {t}" for t in TREASURES} for q in range(5)]
ROB_THIEF_ACTIONS = [f"rob {q + 1}" for q in range(5)]

#: automatic frame kind -> what it does, ``handler(state, frame)``: each handler is registered
#: where it is written (``@AUTO_FRAMES("gain")``); :meth:`EffectsMixin._run` runs them
AUTO_FRAMES: Steps[Callable[[Any, dict[str, Any]], None]] = Steps("Thieves Den's automatic frames")

#: how many holdings a memo table keeps before it starts again (far more than a game meets)
MEMO_LIMIT = 50_000


def can_pay(cost: tuple[dict[str, int], int, int] | None, have: dict[str, int], thieves_after: int) -> bool:
    """Whether treasures ``have`` and ``thieves_after`` thieves pay a location ability's costs
    (``DenData.costs``: pay, pay_any, pay_thieves; None: it costs nothing)."""
    if cost is None:
        return True
    pay, any_, thieves = cost
    if thieves_after < thieves:
        return False
    for t, n in pay.items():
        if have[t] < n:
            return False
    return not any_ or sum(have.values()) - sum(pay.values()) >= any_


def has_some(counts: dict[str, int]) -> bool:
    """``max(counts.values()) > 0``: some treasure is there (without max's call)."""
    for k in counts.values():
        if k > 0:
            return True
    return False


def frame_templates(steps: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    """A card's ability (or owner bonus) steps as the frames of :meth:`EffectsMixin._step_frame`
    for player 0, made once per card (:func:`frames_for` copies them for a player)."""
    return [EffectsMixin._step_frame(0, kind, value) for kind, value in steps]


def frames_for(templates: list[dict[str, Any]], p: int) -> list[dict[str, Any]]:
    """Fresh copies of :func:`frame_templates`'s frames for player ``p`` (the same keys in the
    same order, a treasure table of its own in each)."""
    frames = []
    for template in templates:
        f = template.copy()
        f["p"] = p
        if "t" in f:
            f["t"] = f["t"].copy()
        frames.append(f)
    return frames


class EffectsMixin(MixinBase):
    # -- the frame runner ------------------------------------------------------------------------
    def _run(self, check: bool = True) -> None:
        """Run automatic frames until a decision is needed (or nothing is pending).
        ``check``: the decision just applied may have put someone over the treasure limit."""
        pend = self.pending
        auto = AUTO_FRAMES.handlers
        while True:
            # Rulebook "Coffres au Trésor": over 8 treasures, at any moment, the owner must
            # discard the excess of their choice (the new one or an older one). Only a decision
            # or a gaining frame adds treasures, so nobody can go over in between.
            if check and not (pend and pend[0]["k"] == "discard"):
                check = False
                limit = self.data.treasure_limit
                for q, have in enumerate(self.treasures):
                    if sum(have.values()) > limit:   # the first player in seat order who is over
                        pend.insert(0, {"k": "discard", "p": q})
                        break
            if not pend:
                return
            f = pend[0]
            k = f["k"]
            if k in CHOICE_KINDS:
                if self._can_choose(f):
                    return
                pend.pop(0)   # nothing can be chosen: the step does nothing
                continue
            pend.pop(0)
            auto[k](self, f)
            if k in GAIN_KINDS:
                check = True

    # -- gains and losses with the supply limit ------------------------------------------------------
    def _gain_treasure(self, p: int, t: str, n: int = 1) -> int:
        """Rulebook "Limite de la Réserve": take what the City still has, the rest is lost."""
        if n > self.city[t]:
            n = self.city[t]
        self.city[t] -= n
        self.treasures[p][t] += n
        return n

    def _gain_thieves(self, p: int, n: int) -> int:
        """From the Forest (as many as are left); above 6 the excess goes back (thief limit)."""
        if n > self.forest:
            n = self.forest
        self.forest -= n
        self._add_thieves(p, n)
        return n

    def _add_thieves(self, p: int, n: int) -> None:
        """Rulebook "Sièges": a board holds at most 6 thieves; the excess returns to the Forest."""
        lim = self.data.board.thief_limit
        self.thieves[p] += n
        if self.thieves[p] > lim:
            self.forest += self.thieves[p] - lim
            self.thieves[p] = lim

    # -- location abilities as frames ----------------------------------------------------------------
    def _ability_frames(self, p: int, card: str) -> list[dict[str, Any]]:
        templates = self.data.ability_frames.get(card)
        if templates is None:
            templates = self.data.ability_frames[card] = frame_templates(self.data.ability_steps[card])
        return frames_for(templates, p)

    def _bonus_frames(self, p: int, card: str) -> list[dict[str, Any]]:
        templates = self.data.bonus_frames.get(card)
        if templates is None:
            templates = self.data.bonus_frames[card] = frame_templates(self.data.bonus_steps[card])
        return frames_for(templates, p)

    @staticmethod
    def _step_frame(p: int, kind: str, value: Any) -> dict[str, Any]:
        if kind == "gain":
            return {"k": "gain", "p": p, "t": dict(value)}
        if kind == "gain_any":
            return {"k": "take", "p": p, "n": value}
        if kind == "thieves":
            return {"k": "thieves", "p": p, "n": value}
        if kind == "prestige":
            return {"k": "prestige", "p": p, "n": value}
        if kind == "pay":
            return {"k": "pay", "p": p, "t": dict(value)}
        if kind == "pay_any":
            return {"k": "payany", "p": p, "n": value, "to": "city"}
        if kind == "pay_thieves":
            return {"k": "paythieves", "p": p, "n": value}
        if kind == "take_treasure":
            return {"k": "rob", "p": p, "n": value, "mode": "take"}
        if kind == "destroy":
            return {"k": "rob", "p": p, "n": value, "mode": "destroy"}
        if kind == "take_thief":
            return {"k": "robthief", "p": p, "n": value}
        raise ValueError(kind)

    def _can_pay_ability(self, p: int, card: str, thieves_after: int) -> bool:
        """Whether ``p`` can pay the costs in a location's ability (pay, pay_any, pay_thieves)."""
        return can_pay(self.data.costs[card], self.treasures[p], thieves_after)

    # -- automatic frames ------------------------------------------------------------------------------
    @AUTO_FRAMES("gain")
    def _auto_gain(self, f: dict[str, Any]) -> None:
        p = f["p"]
        for t, n in f["t"].items():
            got = self._gain_treasure(p, t, n)
            if self.recording:
                self.event("gain", player=p, treasure=t, n=got)

    @AUTO_FRAMES("thieves")
    def _auto_thieves(self, f: dict[str, Any]) -> None:
        got = self._gain_thieves(f["p"], f["n"])
        if self.recording:
            self.event("thieves", player=f["p"], n=got)

    @AUTO_FRAMES("prestige")
    def _auto_prestige(self, f: dict[str, Any]) -> None:
        self.prestige[f["p"]] += f["n"]
        if self.recording:
            self.event("prestige", player=f["p"], n=f["n"])

    @AUTO_FRAMES("pay")
    def _auto_pay(self, f: dict[str, Any]) -> None:
        p = f["p"]
        for t, n in f["t"].items():
            n = min(n, self.treasures[p][t])
            self.treasures[p][t] -= n
            self.city[t] += n
            if self.recording:
                self.event("pay", player=p, treasure=t, n=n)

    @AUTO_FRAMES("paythieves")
    def _auto_paythieves(self, f: dict[str, Any]) -> None:
        p = f["p"]
        n = min(f["n"], self.thieves[p])
        self.thieves[p] -= n
        self.forest += n
        if self.recording:
            self.event("pay_thieves", player=p, n=n)

    # -- choice frames -------------------------------------------------------------------------------------
    def _targets(self, p: int) -> list[int]:
        """Opponents who may be targeted: rulebook "Phase Voleurs": not those who have passed."""
        return [q for q in range(self.num_players) if q != p and not self.passed[q]]

    def _choices(self, f: dict[str, Any]) -> list[str]:
        k, p = f["k"], f["p"]
        if k == "take":
            city = self.city
            return [TAKE_ACTIONS[t] for t in TREASURES if city[t] > 0]
        if k == "payany":
            have = self.treasures[p]
            return [PAY_ACTIONS[t] for t in TREASURES if have[t] > 0]
        if k == "discard":
            have = self.treasures[p]
            return [DISCARD_ACTIONS[t] for t in TREASURES if have[t] > 0]
        if k == "rob":
            return [ROB_ACTIONS[q][t] for q in self._targets(p) for t in TREASURES if self.treasures[q][t] > 0]
        if k == "robthief":
            return [ROB_THIEF_ACTIONS[q] for q in self._targets(p) if self.thieves[q] > 0]
        if k == "give":
            return [f"give {q + 1}" for q in f["among"]]
        return self._power_choices(f)

    def _can_choose(self, f: dict[str, Any]) -> bool:
        """``bool(self._choices(f))``, without building the list for the simple frames."""
        k = f["k"]
        if k == "take":
            return has_some(self.city)
        if k == "payany" or k == "discard":
            return has_some(self.treasures[f["p"]])
        if k == "rob":
            return any(has_some(self.treasures[q]) for q in self._targets(f["p"]))
        if k == "robthief":
            return any(self.thieves[q] > 0 for q in self._targets(f["p"]))
        if k == "give":
            return bool(f["among"])
        return self._can_choose_power(f)

    def _apply_choice(self, p: int, act: DenAction) -> None:
        f = self.pending[0]
        k = f["k"]
        if k == "take":
            self._gain_treasure(p, act.named_treasure)
            if self.recording:
                self.event("take", player=p, treasure=act.treasure)
        elif k == "payany":
            t = act.named_treasure
            self.treasures[p][t] -= 1
            dest = f["to"]
            if dest == "city":
                self.city[t] += 1
            else:   # paying a joker on a fence card
                load = self.fence_treasures[dest]
                load[t] = load.get(t, 0) + 1
            if self.recording:
                self.event("pay", player=p, treasure=t, n=1)
        elif k == "discard":
            # discarded treasures return to the City [interpretation]
            self.treasures[p][act.named_treasure] -= 1
            self.city[act.named_treasure] += 1
            if self.recording:
                self.event("discard", player=p, treasure=act.treasure, n=self.data.treasure_limit)
            self.pending.pop(0)
            return
        elif k == "rob":
            q, t = act.named_seat, act.named_treasure
            self.treasures[q][t] -= 1
            if f["mode"] == "take":   # Customs House: onto your board
                self.treasures[p][t] += 1
                if self.recording:
                    self.event("rob", player=p, victim=q, treasure=t)
            else:                     # Witch's Hut: back to the supply
                self.city[t] += 1
                if self.recording:
                    self.event("destroy", player=p, victim=q, treasure=t)
        elif k == "robthief":        # Guild
            q = act.named_seat
            self.thieves[q] -= 1
            self._add_thieves(p, 1)
            if self.recording:
                self.event("rob_thief", player=p, victim=q)
        elif k == "give":
            self.pending.pop(0)
            self._hand_over(act.named_seat)
            return
        else:
            self._apply_power_choice(p, f, act)
            return
        f["n"] -= 1
        if f["n"] <= 0:
            self.pending.pop(0)
