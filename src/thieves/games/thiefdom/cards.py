"""Equipment and ally (client) card effects that are actions or free actions.

Rulebook "4. Utiliser une carte" and "Annexe : cartes". Upgrades of regular
actions live where that action is (moving, robbing, locations); this module
holds the cards that add new actions. Card notation is the card id.
"""
from __future__ import annotations

from typing import cast

from .base import RulesBase
from .goods import GOODS, add, room
from .notation import Action
from .townsfolk import THIEF_REFS

#: the equipment cards that give an action (checked below in this order)
ACTION_CARDS = frozenset(("crossbow", "stars", "fishing", "hook", "pigeon", "smoke"))
TELEPORT_ALLIES = {"jolanda": "garden", "johanna": "stable", "larissa": "forge", "siti": "tower",
                   "towa": "tavern"}


class CardMixin(RulesBase):
    def _ally(self, p: int, t: int) -> str | None:
        a = self.thieves[p][t]["ally"]
        return self.data.power[a] if a else None

    def _guild_has(self, p: int, power: str) -> bool:
        power_of = self.data.power
        for th in self.thieves[p]:
            if th["ally"] and power_of[th["ally"]] == power:
                return True
        return False

    def _thief_view(self, pos) -> frozenset:
        """A thief's field of view: straight alley lines in the four directions;
        from a building, outwards from each square next to it. (Geometry only:
        remembered by the city.)"""
        city = self.city
        key = ("view", pos)
        got = city.memo.get(key)
        if got is not None:
            return got
        seen = set()
        if isinstance(pos, int):
            for d in range(4):
                seen.update(city.line(pos, d))
        else:
            b = city.buildings[pos]
            for c in b["all_adjacent"]:
                seen.add(c)
                for d in range(4):
                    back = city._step(c, (d + 2) % 4)
                    if back >= 0 and (city.building_at[back] == pos or (not b["cells"] and back < 0)):
                        seen.update(city.line(c, d))
        got = city.memo[key] = frozenset(seen)
        return got

    def _card_actions(self, p: int, t: int) -> list[str]:
        tu = self.turn
        th = self.thieves[p][t]
        eq = th["equip"]
        ally = self._ally(p, t)
        pos = th["pos"]
        once = tu["once"]
        city = self.city
        acts: list[str] = []
        ap = tu["ap"]
        inside = isinstance(pos, str)
        btype = city.buildings[pos]["type"] if inside else None
        if ap >= 1 and eq and not ACTION_CARDS.isdisjoint(eq):
            if "crossbow" in eq and "crossbow" not in once:
                view = self._thief_view(pos)
                acts.extend(f"crossbow {g}" for g, f in self.tf.items() if g[0] == "g" and f["cell"] in view)
            if "stars" in eq:
                view = self._thief_view(pos)
                acts.extend(f"stars {g}" for g, f in self.tf.items() if g[0] != "g" and f["cell"] in view)
            if "fishing" in eq and "fishing" not in once and inside and \
                    self.tf["car"]["cell"] in city.buildings[pos]["all_adjacent"]:
                acts.append("fish")
            if "hook" in eq and "hook" not in once and inside:
                acts.extend(f"hook {b}" for b in self._hook_targets(pos))
            if "pigeon" in eq and "pigeon" not in once:
                acts.extend(f"pigeon {k + 1}" for k in range(3) if k != t)
            if "smoke" in eq and not tu["smoke"]:
                acts.append("smoke")
        if ap >= 1 and ally is not None:
            if ally == "bernhard" and "bernhard" not in once and th["inv"]["gold"] >= 1:
                acts.extend(f"bernhard {g}" for g in self.tf if g[0] == "g" and g not in th["blind"])
            if ally == "samuel" and "samuel" not in once:
                acts.extend(f"samuel {k + 1}" for k in range(3) if k != t)
        if ally is None:  # of the free actions below, only the Forge's shop (the last one)
            if btype == "forge" and self._guild_has(p, "melisande") and tu["shop"] < 2:
                acts.extend(self._buy_actions(p, t, 1))
            return acts
        # free actions
        if ally in TELEPORT_ALLIES and btype == TELEPORT_ALLIES[ally]:
            acts.extend(f"tp {b}" for b in city.by_type.get(btype, []) if b != pos)
        if ally == "juma" and "juma" not in once:
            # Juma (building/alley): from any space next to the river to any other,
            # buildings and free quay squares alike
            if pos in city.river_spaces or pos in city.river_cells:
                acts.extend(f"tp {b}" for b in city.river_spaces if b != pos)
                occ = self._occ_now()
                acts.extend(f"tp {city.name(c)}" for c in city.river_cells if c != pos and c not in occ)
        if ally == "lentz" and "lentz" not in once:
            acts.extend(f"lentz {k + 1}" for k in range(3) if k != t)
        if btype == "church":
            if ally == "antonius" and "antonius" not in once:
                acts.append("antonius")
            if ally == "kostanze" and th["inv"]["gold"] >= 2:
                acts.append("kostanze")
            if ally == "beatrix":
                acts.append("beatrix")
        if ally == "apollon" and btype == "garden" and "apollon" not in once and th["inv"]["brandy"]:
            acts.append("apollon")
        if ally == "ruth" and pos == self.hideout[p]:
            acts.extend(f"ruth {g}" for g in ("gem", "brandy", "wine") if self.stash[p][g])
        if btype == "forge" and self._guild_has(p, "melisande") and tu["shop"] < 2:
            acts.extend(self._buy_actions(p, t, 1))
        return acts

    def _hook_targets(self, bid: str) -> list[str]:
        """Grappling Hook: straight over alley squares to the next building (no walls).
        (Geometry only: remembered by the city.)"""
        city = self.city
        got = city.memo.get(("hook", bid))
        if got is None:
            got = city.memo[("hook", bid)] = self._find_hook_targets(bid)
        return got

    def _find_hook_targets(self, bid: str) -> list[str]:
        city = self.city
        out = set()
        b = city.buildings[bid]
        for c in b["all_adjacent"]:
            for d in range(4):
                back = city._step(c, (d + 2) % 4)
                if back < 0 or city.building_at[back] != bid or (back, c) in city.walls:
                    continue
                cur = c
                while True:
                    nb = city._step(cur, d)
                    if nb < 0 or (cur, nb) in city.walls:
                        break
                    if not city.alley[nb]:
                        if city.building_at[nb] != bid:
                            out.add(cast(str, city.building_at[nb]))
                        break
                    cur = nb
        return sorted(out)

    def _card_apply(self, p: int, t: int, act: Action) -> None:
        tu = self.turn
        th = self.thieves[p][t]
        w = act.words
        a = act.verb
        who = THIEF_REFS[p][t]
        if a in ("crossbow", "fish", "hook", "pigeon", "bernhard", "samuel", "juma", "lentz", "antonius",
                 "apollon"):
            tu["once"].append(a)
        if a == "crossbow":
            tu["ap"] -= 1
            self._gain(p, 1)
            self.event("crossbow", player=p, thief=who, fig=w[1])
            self._start_tmove(w[1], p)
        elif a == "stars":
            tu["ap"] -= 1
            th["equip"].remove("stars")
            self.equip_discard.append("stars.x")
            self._gain(p, 5)
            self.event("stars", player=p, thief=who, fig=w[1])
            stop = 1 if (w[1] == "car" and self.options["stars_carriage_first_lantern"]) else 0
            self._start_tmove(w[1], p, stop_at=stop)
        elif a == "fish":
            tu["ap"] -= 1
            add(th, "wine", 1)
            self._gain(p, 2)
            self.event("fish", player=p, thief=who)
        elif a == "hook":
            tu["ap"] -= 1
            self.event("hook", player=p, thief=who, place=w[1])
            self._enter_building(p, t, w[1])
        elif a == "pigeon":
            tu["ap"] -= 1
            tu["sub"] = {"kind": "pigeon", "mate": int(w[1]) - 1, "left": 3, "give": 1, "get": 1}
        elif a == "lentz":
            tu["sub"] = {"kind": "lentz", "mate": int(w[1]) - 1, "left": 2, "give": 1, "get": 1}
        elif a == "smoke":
            tu["ap"] -= 1
            tu["smoke"] = True
            th["equip"].remove("smoke")
            self.equip_discard.append("smoke.x")
            self._gain(p, 4)
            self.event("smoke", player=p, thief=who)
        elif a == "bernhard":
            tu["ap"] -= 1
            th["inv"]["gold"] -= 1
            self.dungeon["gold"] += 1
            th["blind"].append(w[1])
            self.event("bernhard", player=p, thief=who, fig=w[1])
        elif a == "samuel":
            tu["ap"] -= 1
            mate = self.thieves[p][int(w[1]) - 1]
            here, there = th["pos"], mate["pos"]
            self._place(p, t, there)
            self._place(p, int(w[1]) - 1, here)
            self.event("samuel", player=p, thief=who, mate=THIEF_REFS[p][int(w[1]) - 1])
            if here != there:  # teleporting in still meets opponents, for both thieves
                if isinstance(there, str):
                    self._enter_building(p, t, there)
                if isinstance(here, str):
                    self._enter_building(p, int(w[1]) - 1, here)
            for k, moved in ((t, th), (int(w[1]) - 1, mate)):
                if isinstance(moved["pos"], int):
                    self._check_thief_seen(p, k, moved["pos"])
        elif a == "tp":
            if self._ally(p, t) == "juma" and (th["pos"] in self.city.river_spaces
                                               or th["pos"] in self.city.river_cells):
                tu["once"].append("juma")
            if "." in w[1]:  # Juma onto a quay square: seen there by a guard means an arrest attempt
                self._place(p, t, self.city.parse(w[1]))
                self.event("teleport_square", player=p, thief=who, sq=self.city.label(th["pos"]))
                self._check_thief_seen(p, t, th["pos"])
            else:
                self.event("teleport", player=p, thief=who, place=w[1])
                self._enter_building(p, t, w[1])
        elif a == "antonius":
            add(th, "wine", 1)
            self.event("antonius", player=p, thief=who)
        elif a == "apollon":
            th["inv"]["brandy"] -= 1
            th["inv"]["wine"] += 1
            self.event("apollon", player=p, thief=who)
        elif a == "kostanze":
            th["inv"]["gold"] -= 2
            self._gain(p, 3)
            self.event("kostanze", player=p, thief=who)
        elif a == "beatrix":
            th["ally"] = None  # Beatrix leaves the game; the ally slot is free again
            self._gain(p, 3)
            tu["ap"] += 3
            self.event("beatrix", player=p, thief=who)
        elif a == "ruth":
            g = w[1]
            self.stash[p][g] -= 1
            self.stash[p]["gold"] += 2
            self._gain(p, 2 if g == "wine" else 1)
            self.event("ruth", player=p, thief=who, good=g, vp=2 if g == "wine" else 1)
        elif a == "buy":
            self._buy(p, t, w[1], at_forge=True)

    # -- exchanging goods with a guildmate (Messenger Pigeon, Lentz) ----------------------------
    def _share_actions(self, sub: dict) -> list[str]:
        tu = self.turn
        th = self.thieves[tu["p"]][tu["t"]]
        mate = self.thieves[tu["p"]][sub["mate"]]
        acts = []
        if sub["left"] > 0:
            for g in GOODS:  # never artworks
                if (sub["kind"] == "pigeon" or sub["give"]) and th["inv"][g] and room(mate, g) > 0:
                    acts.append(f"give {g}")
                if (sub["kind"] == "pigeon" or sub["get"]) and mate["inv"][g] and room(th, g) > 0:
                    acts.append(f"get {g}")
        acts.append("done")
        return acts

    def _share_apply(self, sub: dict, act: Action) -> None:
        w = act.words
        tu = self.turn
        th = self.thieves[tu["p"]][tu["t"]]
        mate = self.thieves[tu["p"]][sub["mate"]]
        if w[0] == "done":
            tu["sub"] = None
            return
        src, dst = (th, mate) if w[0] == "give" else (mate, th)
        src["inv"][w[1]] -= 1
        dst["inv"][w[1]] += 1
        sub["left"] -= 1
        sub[w[0]] = 0
        who, mate = THIEF_REFS[tu["p"]][tu["t"]], THIEF_REFS[tu["p"]][sub["mate"]]
        if w[0] == "give":
            self.event("give", player=tu["p"], thief=who, mate=mate, good=w[1])
        else:
            self.event("take", player=tu["p"], thief=who, mate=mate, good=w[1])
