"""Using a location (1 AP): market, villa, dealer, tavern, dungeon, smuggler.

Rulebook "3. Actions des voleurs : activer un lieu". One use lets the thief do
every sub-action of the location once, in any order (the ones marked with
the infinity sign as often as wanted); each thief uses each location at most
once per night. A use is a sequence of small decisions ending with "done".
"""
from __future__ import annotations

from .base import RulesBase
from .goods import GOODS, add, room
from .notation import Action
from .townsfolk import THIEF_REFS


class LocationMixin(RulesBase):
    def _loc_type(self, bid: str) -> str:
        return self.city.buildings[bid]["type"]

    def _can_use(self, p: int, t: int, bid: str) -> bool:
        th = self.thieves[p][t]
        kind = self.city.buildings[bid]["type"]
        if kind not in ("market", "dealer", "tavern", "dungeon", "smuggler", "villa"):
            return False
        if bid in th["used"]:
            return False  # once per thief per night
        if th["used"] and self.options["one_location_per_night"]:
            return False  # option: one location activation per thief per night
        if kind == "smuggler":
            m = self.smugglers.get(str(self.city.buildings[bid]["section"]))
            return m is not None and self._can_deliver(th, self.data.missions[m].deliver)
        return True

    def _can_deliver(self, th: dict, need: dict) -> bool:
        return all(th["inv"][g] >= n for g, n in need.items())

    def _use_location(self, p: int, t: int) -> None:
        th = self.thieves[p][t]
        bid = th["pos"]
        kind = self._loc_type(bid)
        th["used"].append(bid)
        self.event("use", player=p, thief=THIEF_REFS[p][t], place=bid)
        sub = {"kind": kind, "bid": bid, "done": []}
        if kind == "smuggler":
            self._smuggle(p, t, bid)
            return
        if kind == "market" and self._ally(p, t) == "kunrad":
            add(th, "gem", 1)  # Kunrad: +1 gem and +1 VP per Market action
            self._gain(p, 1)
        if kind == "villa" and "lockpick" in th["equip"]:
            self._gain(p, 1)  # Lock Pick: +1 VP whenever the thief uses a villa
        self.turn["sub"] = sub

    def _smuggle(self, p: int, t: int, bid: str) -> None:
        th = self.thieves[p][t]
        sec = str(self.city.buildings[bid]["section"])
        m = self.data.missions[self.smugglers[sec]]
        for g, n in m.deliver.items():
            th["inv"][g] -= n
        self._reward(p, t, m.reward)
        if self._guild_has(p, "oswald"):
            add(th, "gold", 2)  # Oswald: +2 gold and +2 VP per mission
            self._gain(p, 2)
        self.missions_done[p].append(m.id)
        self.smugglers[sec] = None
        self.event("mission", player=p, thief=THIEF_REFS[p][t], place=bid, mission=m.id)

    def _reward(self, p: int, t: int, reward: dict) -> None:
        th = self.thieves[p][t]
        for g, n in reward.items():
            if g == "vp":
                self._gain(p, n)
            elif g != "equipment":  # "draw 2 keep 1" is resolved by the caller
                add(th, g, n)

    # -- sub-actions ------------------------------------------------------------------------
    def _sub_actions(self) -> list[str]:
        tu = self.turn
        p, t = tu["p"], tu["t"]
        th = self.thieves[p][t]
        inv = th["inv"]
        sub = tu["sub"]
        kind = sub["kind"]
        if kind in ("pigeon", "lentz"):
            return self._share_actions(sub)
        if kind == "clients":
            return ([f"ally {c}" for c in self.revealed if self._ally_cost(p, c) <= inv["gold"]]
                    + [f"brawl {c}" for c in self.revealed] + ["decline"])
        if kind == "artdraw":
            # artwork reward "draw 2 cards, keep 1": the delivering thief equips the kept card
            keep = []
            for card in sub["cards"]:
                e = card.split(".")[0]
                if self._can_equip(p, t, e) and f"keep {e}" not in keep:
                    keep.append(f"keep {e}")
            return keep or ["discard"]
        done = sub["done"]
        acts = []
        if kind == "market":
            if "gold" not in done and room(th, "gold") > 0:
                acts.append("fill gold")
            if inv["brandy"]:
                acts.append("sell brandy")
            if "clients" not in done and self._guild_has(p, "richard") and self._may_ally(th):
                acts.append("clients")  # Richard: the client step at the Market
        elif kind == "villa":
            if "loot" not in done:
                v = self.villas[sub["bid"][5:]]
                lock = self.data.villas[v["villa"]].locked
                pick = "lockpick" in th["equip"]
                if lock != "gems" or pick:
                    acts.append("take gems")
                if v["art"] and room(th, "art") > 0 and (lock != "art" or pick):
                    acts.append("take art")
            if self._ally(p, t) == "jonathan" and inv["wine"]:
                acts.append("sell wine")
        elif kind == "dealer":
            if "deliver" not in done:
                acts.extend(f"deliver {a}" for a in inv["art"])
            if inv["gem"]:
                acts.append("sell gem")
            if done.count("buy") < 2:
                acts.extend(self._buy_actions(p, t, 0))
            if self._ally(p, t) == "svenja" and "svenja" not in done:
                acts.extend(f"svenja {b}" for b in self.city.by_type.get("tavern", []))
        elif kind == "tavern":
            if "clients" not in done and self._may_ally(th):
                acts.append("clients")
            if inv["wine"]:
                acts.append("sell wine")
            if inv["gold"] and room(th, "brandy") > 0:
                acts.append("buy brandy")
            if self._ally(p, t) == "svenja" and "svenja" not in done:
                acts.extend(f"svenja {b}" for b in self.city.by_type.get("dealer", []))
        elif kind == "dungeon":
            for g in GOODS:
                if self.dungeon[g] and room(th, g) > 0:
                    acts.append(f"take {g}")
            for a in self.dungeon["art"]:
                if room(th, "art") > 0:
                    acts.append(f"take {a}")
            if inv["badge"]:
                acts.append("sell badge")
            if th["wanted"] and "burn" not in done:
                acts.append("burn poster")
        elif kind == "forge":
            if tu["shop"] < 2:
                acts.extend(self._buy_actions(p, t, 1))
        acts.append("done")
        return acts

    def _may_ally(self, th: dict) -> bool:
        return th["ally"] is None and not th["brawl"]

    def _ally_cost(self, p: int, c: str) -> int:
        return 0 if self._guild_has(p, "richard") else self.data.clients[c].cost

    def _buy_actions(self, p: int, t: int, discount: int) -> list[str]:
        th = self.thieves[p][t]
        out = []
        for card in self.display:
            e = card.split(".")[0]
            if self._can_equip(p, t, e) and max(0, self.data.equipment[e].cost - discount) <= th["inv"]["gold"]:
                a = f"buy {e}"
                if a not in out:
                    out.append(a)
        return out

    def _sub_apply(self, act: Action) -> None:
        tu = self.turn
        p, t = tu["p"], tu["t"]
        th = self.thieves[p][t]
        inv = th["inv"]
        sub = tu["sub"]
        kind = sub["kind"]
        w = act.words
        a = act.verb
        who = THIEF_REFS[p][t]
        if kind in ("pigeon", "lentz"):
            self._share_apply(sub, act)
            return
        if kind == "clients":
            self._clients_choice(p, t, w)
            return
        if kind == "artdraw":
            cards = sub["cards"]
            if a == "keep":
                card = next(c for c in cards if c.split(".")[0] == w[1])
                cards.remove(card)
                th["equip"].append(w[1])
                self.event("art_keep", player=p, thief=who, card=w[1])
            else:
                self.event("art_none", player=p, thief=who)
            self.equip_discard.extend(cards)
            tu["sub"] = sub["back"]
            return
        if a == "done":
            tu["sub"] = None
            return
        if a == "fill":  # Market: fill the gold slots
            sub["done"].append("gold")
            n = add(th, "gold", 99)
            self.event("fill_gold", player=p, thief=who, n=n)
        elif a == "sell":
            g = w[1]
            inv[g] -= 1
            vp = {"brandy": 2 if self._ally(p, t) == "janus" else 1,
                  "gem": 2 if self._ally(p, t) == "malika" else 1,
                  "wine": 4 if self._ally(p, t) == "jonathan" else 2,
                  "badge": 2}[g]
            self._gain(p, vp)
            self.event("sell", player=p, thief=who, good=g, vp=vp)
        elif a == "clients":
            sub["done"].append("clients")
            self.revealed = [self._draw_client() for _ in range(4) if self._draw_client_possible()]
            self.event("clients", player=p, thief=who, clients=list(self.revealed))
            tu["sub"] = {"kind": "clients", "back": sub}
        elif a == "take" and kind == "villa":
            sub["done"].append("loot")
            v = self.villas[sub["bid"][5:]]
            if w[1] == "gems":
                n = add(th, "gem", 99)
                self.event("villa_gems", player=p, thief=who, n=n, place=sub["bid"])
            else:
                inv["art"].append(v["art"])
                self.event("villa_art", player=p, thief=who, art=v["art"], place=sub["bid"])
                v["art"] = None
        elif a == "take":
            g = w[1]
            if g in GOODS:
                self.dungeon[g] -= 1
                inv[g] += 1
            else:
                self.dungeon["art"].remove(g)
                inv["art"].append(g)
            if g in GOODS:
                self.event("dungeon_take", player=p, thief=who, good=g)
            else:
                self.event("dungeon_take_art", player=p, thief=who, art=g)
        elif a == "burn":
            sub["done"].append("burn")
            th["wanted"] = False
            self._gain(p, 3)
            self.event("burn", player=p, thief=who)
        elif a == "deliver":
            sub["done"].append("deliver")
            inv["art"].remove(w[1])
            self.delivered.append(w[1])  # the artwork leaves the game
            reward = self.data.artworks[w[1]].reward
            self._reward(p, t, reward)
            self.event("deliver", player=p, thief=who, art=w[1])
            if reward.get("equipment"):
                # the reward icon "draw 2 cards, keep 1" (equipment: the dealers trade
                # equipment for paintings)
                cards = []
                while len(cards) < 2 and self._draw_equipment_possible():
                    cards.append(self._draw_equipment())
                if cards:
                    tu["sub"] = {"kind": "artdraw", "cards": cards, "back": sub}
        elif a == "buy" and kind == "tavern":
            inv["gold"] -= 1
            inv["brandy"] += 1
            self.event("buy_brandy", player=p, thief=who)
        elif a == "buy":
            self._buy(p, t, w[1], at_forge=(kind == "forge"))
            sub["done"].append("buy")
        elif a == "svenja":
            sub["done"].append("svenja")
            self.event("teleport", player=p, thief=who, place=w[1])
            th["pos"] = w[1]  # Svenja: teleport between a Dealer and a Tavern
            self._enter_building(p, t, w[1])

    def _buy(self, p: int, t: int, e: str, at_forge: bool) -> None:
        th = self.thieves[p][t]
        card = next(c for c in self.display if c.split(".")[0] == e)
        self.display.remove(card)
        eq = self.data.equipment[e]
        cost = max(0, eq.cost - 1) if at_forge else eq.cost
        th["inv"]["gold"] -= cost
        th["equip"].append(e)
        vp = eq.vp + (1 if at_forge else 0)  # Melisande: +1 VP for purchases at a forge
        self._gain(p, vp)
        self.refill = True
        if at_forge:
            self.turn["shop"] += 1
        self.event("buy", player=p, thief=THIEF_REFS[p][t], card=e, cost=cost, vp=vp)

    def _clients_choice(self, p: int, t: int, w: list[str]) -> None:
        """Tavern A: ally (pay, gain VP and goods), brawl (face down, +1 VP, never
        again) or decline; the other revealed clients go to the discard."""
        tu = self.turn
        th = self.thieves[p][t]
        who = THIEF_REFS[p][t]
        chosen = w[1] if len(w) > 1 else None
        if w[0] == "ally":
            c = self.data.clients[w[1]]
            th["inv"]["gold"] -= self._ally_cost(p, w[1])
            th["ally"] = chosen
            self._gain(p, c.vp)
            for g, n in c.goods.items():
                add(th, g, n)
            self.event("ally", player=p, thief=who, client=chosen, vp=c.vp)
        elif w[0] == "brawl":
            th["brawl"] = True
            th["brawled"] = chosen
            self._gain(p, 1)
            self.event("brawl", player=p, thief=who)
        else:
            self.event("decline", player=p, thief=who)
        self.client_discard.extend(c for c in self.revealed if c != chosen)
        self.revealed = []
        tu["sub"] = tu["sub"]["back"]

    # -- decks ------------------------------------------------------------------------------
    def _draw_client_possible(self) -> bool:
        return bool(self.client_deck or self.client_discard)

    def _draw_client(self) -> str:
        if not self.client_deck:  # an empty deck: shuffle its discards
            self.client_deck = self.client_discard
            self.client_discard = []
            self.rng.shuffle(self.client_deck)
        return self.client_deck.pop()

    def _draw_equipment_possible(self) -> bool:
        return bool(self.equip_deck or self.equip_discard)

    def _draw_equipment(self) -> str:
        if not self.equip_deck:
            self.equip_deck = self.equip_discard
            self.equip_discard = []
            self.rng.shuffle(self.equip_deck)
        return self.equip_deck.pop()
