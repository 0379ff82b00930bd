"""Setup, the equipment draft and hideout placement.

Rulebook "Mise en place" (3-4 players, 2 players, solo) and "Début de la
partie" (1. draft des cartes équipement, 2. placement des repaires).
"""
from __future__ import annotations

from .base import RulesBase
from .goods import empty_inv
from .notation import Action
from .townsfolk import THIEF_REFS

HOUSE_FOR_HIDEOUT = ("tower", "garden", "forge", "stable")  # never the church


class SetupMixin(RulesBase):
    def _setup(self) -> None:
        rng = self.rng
        n = self.num_players
        d = self.data
        solo = n == 1
        # 1. the city: river sections 4 and 8 east, the others at random (2p/solo: no 1 and 5)
        land = [1, 2, 3, 5, 6, 7] if n >= 3 else [2, 3, 6, 7]
        rng.shuffle(land)
        ncols = 4 if n >= 3 else 3
        river = [4, 8]
        rng.shuffle(river)
        layout = []
        for row in range(2):
            for col in range(ncols - 1):
                s = land.pop()
                layout.append([s, "AB"[rng.below(2)], rng.below(4)])
            layout.append([river[row], "AB"[rng.below(2)], 0])
        self.layout = layout
        self.ncols = ncols
        self._after_load()
        city = self.city
        # 3-4. catacombs and villas (2p/solo: catacomb 1 and one random villa out)
        villas = list(d.villas)
        rng.shuffle(villas)
        arts = list(d.artworks)
        rng.shuffle(arts)
        self.villas = {}
        for s in city.villa_sections:
            v = villas.pop()
            self.villas[str(s)] = {"villa": v, "art": arts.pop()}
        # 5. loot board: one badge per guard, one full purse per noble
        side = d.board.loot_board["3-4" if n >= 3 else "1-2"]
        self.badges = {f"g{x}": 1 for x in side.guards}
        self.purses = {f"n{x}": True for x in side.nobles}
        self.dungeon = empty_inv()
        # 7. smuggling missions (variant: stacks of 2 next to each smuggler)
        missions = list(d.missions)
        rng.shuffle(missions)
        smug = [s for s in (4, 5, 7, 8) if any(sl["section"] == s for sl in city.slots)]
        self.smugglers = {str(s): missions.pop() for s in smug}
        self.stacks = {}
        if self.options["smuggling_stacks"]:
            for s in smug:
                self.stacks[str(s)] = [missions.pop(), missions.pop()]
            missions = []
        self.mission_pile = missions
        self.missions_done = [[] for _ in range(n)]
        # 8-9. clients and equipment
        clients = list(d.clients)
        rng.shuffle(clients)
        self.client_deck = clients
        self.client_discard = []
        self.revealed = []
        half = [f"{e}.h" for e in d.equipment]
        full = [f"{e}.f" for e in d.equipment]
        rng.shuffle(half)
        rng.shuffle(full)
        self.display = [full.pop() for _ in range(4)]
        self.equip_deck = full
        self.equip_discard = []
        # 10-11. guards at the villas facing the city, nobles at the catacombs, the carriage west
        self.tf = {}
        gl = [f"g{x}" for x in side.guards]
        rng.shuffle(gl)
        for s, g in zip(city.villa_sections, gl):
            cell = city.entrance_cell[s]
            north = cell < city.W
            self.tf[g] = {"cell": cell, "face": 2 if north else 0}
        nl = [f"n{x}" for x in side.nobles]
        rng.shuffle(nl)
        # 11. one noble at random on the lantern nearest each catacomb
        for cell, nb in zip(city.noble_starts, nl):
            self.tf[nb] = {"cell": cell}
        self.tf["car"] = {"cell": city.carriage_start}
        # 12. players: 8 gold in the hideout, 10 VP
        self.vp = [d.board.start_vp] * n
        self.stash = [empty_inv() for _ in range(n)]
        for inv in self.stash:
            inv["gold"] = d.board.start_hideout_gold
        self.thieves = [[{"pos": None, "inv": empty_inv(), "equip": [], "ally": None, "brawl": False,
                          "wanted": False, "used": [], "robbed": [], "blind": []} for _ in range(3)]
                        for _ in range(n)]
        self.hideout = [None] * n
        self.stamina = [False] * n
        self.plans = [None] * n
        self.planning = [""] * n  # the tiles laid so far, in order, while planning (secret)
        self.round = 1
        self.turn = None
        self.tmove = None
        self.queue = []
        self.queue_mover = 0
        self.hide_order = []
        self.delivered = []
        self.schedule = []
        self.act = 0
        self.final = None
        self.refill = False
        # 13. patrol boards; the first-player board decides the first player
        if solo:
            self.patrol = [None]
            self.first = 0
            self.solo = {"side": "first", "pile": [], "rivals": {"1": None, "2": None, "3": None},
                         "board": None, "roll": 0}
        else:
            boards = [b.id for b in d.patrols.values() if n in b.players]
            rng.shuffle(boards)
            self.patrol = boards
            self.first = next(p for p, b in enumerate(boards) if d.patrols[b].first)
            self.solo = None
        self.first_order = self._order()
        # draft (multiplayer: 3 each, keep 1 pass 2 right...; solo: 3 keep 1, 2 keep 1, 1)
        self.half_pile = half
        if solo:
            self.draft = {"stage": 0, "hands": [[half.pop() for _ in range(3)]], "kept": [[]]}
        else:
            self.draft = {"stage": 0, "hands": [[half.pop() for _ in range(3)] for _ in range(n)],
                          "kept": [[] for _ in range(n)]}
        self.bought = [0] * n
        self.done = [False] * n
        self.phase = "draft"

    def _order(self) -> list[int]:
        """Turn order: clockwise (increasing seat) from the first player."""
        n = self.num_players
        return [(self.first + i) % n for i in range(n)]

    # -- draft ------------------------------------------------------------------------
    def _draft_actions(self, p: int) -> list[str]:
        dr = self.draft
        if self.phase == "draft":
            if len(dr["kept"][p]) > dr["stage"]:
                return []
            return [f"keep {c.split('.')[0]}" for c in dr["hands"][p]]
        # buying 0-2 of the 3 cards (rulebook "Début de la partie" 2)
        if self.done[p]:
            return []
        acts = []
        if self.bought[p] < 2:
            gold = self.stash[p]["gold"]
            for c in dr["kept"][p]:
                e = c.split(".")[0]
                if self.data.equipment[e].cost <= gold:
                    for t in range(3):
                        if self._can_equip(p, t, e):
                            acts.append(f"buy {e} {t + 1}")
        acts.append("done")
        return acts

    def _can_equip(self, p: int, t: int, e: str) -> bool:
        eq = self.thieves[p][t]["equip"]
        return len(eq) < 2 and e not in eq  # at most 2, never two of the same on one thief

    def _draft_apply(self, p: int, act: Action) -> None:
        dr = self.draft
        parts = act.words
        if parts[0] == "keep":
            card = next(c for c in dr["hands"][p] if c.split(".")[0] == parts[1])
            dr["hands"][p].remove(card)
            dr["kept"][p].append(card)
            self.event("draft_keep", to=[p], secret={"card": parts[1]}, player=p)
            if all(len(k) > dr["stage"] for k in dr["kept"]):
                self._draft_pass()
            return
        if parts[0] == "buy":
            e, t = parts[1], int(parts[2]) - 1
            card = next(c for c in dr["kept"][p] if c.split(".")[0] == e)
            dr["kept"][p].remove(card)
            eq = self.data.equipment[e]
            self.stash[p]["gold"] -= eq.cost
            self.thieves[p][t]["equip"].append(e)
            self._gain(p, eq.vp)
            self.bought[p] += 1
            self.event("draft_buy", player=p, thief=THIEF_REFS[p][t], card=e, cost=eq.cost, vp=eq.vp)
            return
        self.done[p] = True
        self.event("draft_done", player=p)
        if all(self.done):
            self._draft_end()

    def _draft_pass(self) -> None:
        dr = self.draft
        n = self.num_players
        dr["stage"] += 1
        if n == 1:
            # solo: draw 3 keep 1, draw 2 keep 1, draw 1
            self.equip_discard.extend(dr["hands"][0])
            take = 2 if dr["stage"] == 1 else 1
            dr["hands"][0] = [self.half_pile.pop() for _ in range(take)]
            if take == 1:
                dr["kept"][0].append(dr["hands"][0].pop())
                self.phase = "buy"
            return
        # pass to the right (counter-clockwise): seat p gives to seat p-1
        hands = dr["hands"]
        dr["hands"] = [hands[(p + 1) % n] for p in range(n)]
        if dr["stage"] == 2:
            for p in range(n):
                dr["kept"][p].append(dr["hands"][p].pop())
            self.phase = "buy"

    def _draft_end(self) -> None:
        # every card not bought joins one face-down deck with the rest of both piles
        rest = self.half_pile + self.equip_deck + self.equip_discard
        for k in self.draft["kept"]:
            rest.extend(k)
        rest.sort()
        self.rng.shuffle(rest)
        self.equip_deck = rest
        self.equip_discard = []
        self.half_pile = []
        self.draft = None
        self.phase = "hideout"
        n = self.num_players
        # from the player right of the first player, counter-clockwise
        self.hide_order = [(self.first - 1 - i) % n for i in range(n)]

    # -- hideouts ---------------------------------------------------------------------
    def _hideout_actions(self, p: int) -> list[str]:
        taken = set(self.hideout)
        return [f"hideout {b}" for t in HOUSE_FOR_HIDEOUT for b in self.city.by_type.get(t, [])
                if b not in taken]

    def _hideout_apply(self, p: int, act: Action) -> None:
        b = act.arg
        self.hideout[p] = b
        for th in self.thieves[p]:
            th["pos"] = b
        self.hide_order.pop(0)
        self.event("hideout", player=p, place=b)
        if not self.hide_order:
            self._start_round()
