"""Rounds: planning (night 1), the action phase (night 2), administration (day 3)
and the end of the game.

Rulebook "Déroulement d'une manche", "Jour : 3. Phase d'administration",
"Fin de la partie", "Victoire", variants "Planification chaotique".
"""
from __future__ import annotations

from itertools import permutations
from typing import Any, cast

from .base import RulesBase
from .goods import add, goods_vp, total_goods
from .notation import Action

PLANS4 = ["".join(x) for x in permutations("123P")]
PLANS3 = ["".join(x) for x in permutations("123")]
PLAN = {x: f"plan {x}" for x in "123P"}  # the notation of laying each tile


class DayMixin(RulesBase):
    def _start_round(self) -> None:
        self.phase = "plan"
        self.plans = [None] * self.num_players
        self.planning = [""] * self.num_players
        if self.solo:
            pile = ["S1", "S2", "S3"]
            self.rng.shuffle(pile)  # the solo patrol boards form a new pile each round
            self.solo["pile"] = pile
        self.event("night", night=self.round, nights=self.data.board.nights)
        if self.options["chaotic_planning"]:
            # variant: the tiles are shuffled and placed at random
            for p in range(self.num_players):
                opts = PLANS3 if self.solo else PLANS4
                self.plans[p] = opts[self.rng.below(len(opts))]
            self._begin_actions()

    # Planning (rulebook "1. Phase de planification"): each player lays the tiles of
    # its three thieves and its patrol board (solo: the three thieves) face down in
    # an order of activation. The engine asks for the order one slot at a time
    # (which tile goes in the next free slot), so a player clicks the tiles into
    # the slots; the last tile fills the last slot by itself. The order stays
    # secret until every player has finished, exactly as with the whole order
    # at once: only the number of the decision differs.
    def _secret_step(self, player: int, action: str) -> bool:
        """A tile laid in a slot is a secret step (``State._secret_step``) but the one that
        completes the plan: the others see only that the player has planned."""
        return self.phase == "plan" and len(self.planning[player]) + 2 < len(self._plan_tiles())

    def _plan_tiles(self) -> str:
        return "123" if self.solo else "123P"

    def _plan_actions(self, p: int) -> list[str]:
        if self.plans[p] is not None:
            return []
        placed = self.planning[p]
        return [PLAN[x] for x in self._plan_tiles() if x not in placed]

    def _plan_apply(self, p: int, act: Action) -> None:
        tiles = self._plan_tiles()
        placed = self.planning[p] + act.args[0]  # (tiles laid once each)
        if len(placed) == len(tiles) - 1:
            placed += next(x for x in tiles if x not in placed)  # the last tile goes into the last slot
        self.planning[p] = placed
        if len(placed) < len(tiles):
            return
        self.plans[p] = placed
        self.planning[p] = ""
        self.event("planned", to=[p], secret={"order": list(placed)}, player=p)
        if all(x is not None for x in self.plans):
            self._begin_actions()

    def _begin_actions(self) -> None:
        """All tiles are revealed; activations go tile 1 for everyone in turn order, then 2..."""
        self.phase = "action"
        plans = cast(list[str], self.plans)  # every player has laid a plan by now
        for p in range(self.num_players):
            self.event("revealed", player=p, order=list(plans[p]))
        sched: list[list[Any]] = []
        if self.solo:
            thieves = [["thief", 0, int(ch) - 1] for ch in plans[0]]
            for th in thieves:
                if self.solo["side"] == "first":
                    sched += [th, ["town", 0, 0]]
                else:
                    sched += [["town", 0, 0], th]
        else:
            for k in range(4):
                for p in self._order():
                    ch = plans[p][k]
                    sched.append(["patrol", p, 0] if ch == "P" else ["thief", p, int(ch) - 1])
        self.schedule = sched
        self.act = 0

    def _advance(self) -> None:
        """Run everything automatic until someone must decide."""
        while True:
            if self.tmove is not None or self.turn is not None:
                return
            if self.queue:
                fig = self.queue.pop(0)
                self._start_tmove(fig, self.queue_mover)
                continue
            if self.phase != "action":
                return
            if self.act >= len(self.schedule):
                if self.round >= self.data.board.nights:
                    self._final_scoring()
                else:
                    self._day()
                    self._start_round()
                continue
            kind, p, t = self.schedule[self.act]
            self.act += 1
            if kind == "thief":
                self._start_turn(p, t)
            elif kind == "patrol":
                board = self.data.patrols[self.patrol[p]]
                self.event("patrol", player=p, board=board.id, figs=list(board.figures))
                self.queue = list(board.figures)
                self.queue_mover = p
            else:
                self._solo_townsfolk()

    def _day(self) -> None:
        """Administration phase after nights 1-5."""
        n = self.num_players
        self.round += 1
        self.stamina = [False] * n
        for p in range(n):
            for th in self.thieves[p]:
                th["used"] = []
                th["robbed"] = []
                th["blind"] = []  # Bernhard lasts for the rest of the round
        if self.solo:
            self.solo["side"] = "second" if self.solo["side"] == "first" else "first"  # flip the compass
        else:
            # patrol boards pass to the right; the first player changes with them
            old = self.patrol
            self.patrol = [old[(p + 1) % n] for p in range(n)]
            self.first = next(p for p, b in enumerate(self.patrol) if self.data.patrols[b].first)
        for p in range(n):
            for t, th in enumerate(self.thieves[p]):
                if isinstance(th["pos"], int):
                    self._gain(p, 1)  # +1 VP per thief on an alley square
                    if self._ally(p, t) == "stoffel":
                        add(th, "gold", 4)  # Stoffel: +4 gold on an alley in the day
        if self.round - 1 in (2, 4):
            for k in self.purses:
                self.purses[k] = True
            for k in self.badges:
                self.badges[k] = 1
            for s, m in self.smugglers.items():
                if m is None:
                    if self.stacks:
                        if self.stacks.get(s):
                            self.smugglers[s] = self.stacks[s].pop(0)
                    elif self.mission_pile:
                        self.smugglers[s] = self.mission_pile.pop()
            self.equip_discard.extend(self.display)
            self.display = []
            while len(self.display) < 4 and self._draw_equipment_possible():
                self.display.append(self._draw_equipment())
        self.event("day", day=self.round - 1)

    def _final_scoring(self) -> None:
        """Rulebook "Fin de la partie": goods, ally end bonuses, thieves at home."""
        final = []
        for p in range(self.num_players):
            pool = dict(self.stash[p])
            pool["art"] = list(self.stash[p]["art"])
            for th in self.thieves[p]:
                for g in ("gold", "gem", "brandy", "wine", "badge"):
                    pool[g] += th["inv"][g]
                pool["art"] += th["inv"]["art"]
            goods = goods_vp(pool)
            bonus = 0
            for t in range(3):
                a = self.thieves[p][t]["ally"]
                eb = self.data.clients[a].end_bonus if a else None
                if eb:
                    bonus += eb.vp * self.stash[p][eb.good]  # hideout inventory only
            home = sum(1 for th in self.thieves[p] if th["pos"] == self.hideout[p])
            self._gain(p, goods + bonus + home)
            final.append({"goods": goods, "allies": bonus, "home": home, "total_goods": total_goods(pool),
                          "art": len(pool["art"]), "badge": pool["badge"], "wine": pool["wine"]})
        self.final = final
        self.phase = "over"
        for p in range(self.num_players):
            self.event("final", player=p, vp=self.vp[p])

    def _winners(self) -> list[int]:
        """Most VP; then most goods; then artworks, badges, wine (INTERPRETATION of the
        icon row); then the guild that played latest in night 1."""
        n = self.num_players
        late = {p: i for i, p in enumerate(self.first_order)}

        def key(p: int) -> tuple:
            f = self.final[p]
            return (self.vp[p], f["total_goods"], f["art"], f["badge"], f["wine"], late[p])
        best = max(range(n), key=key)
        return [best]
