"""The automated city watch (Rulebook §"Aktionen der Stadtwachen") and the dungeon.

At its initiative the watch first detects (every guard, then every captain,
sees each non-hidden thief within its vigilance, counted along the paths and
ignoring fire), then moves: all guards, then all captains, each toward one
detected thief along a shortest path, arresting on entry. Choices the rules
leave open go to the start player as ordinary decisions (``assign``,
``first``, ``gstep``).
"""
from __future__ import annotations

from collections import deque
from itertools import product, repeat
from typing import Any

from .notation import AotAction, figure_kind
from .fields import MixinBase

MAX_COMBOS = 4096


class GuardsMixin(MixinBase):
    # -- the numbers on the city guard sheet (plus the round's event) ---------------------
    def vigilance(self, g: str) -> int:
        side = self.data.sheet["alarm" if self.alarm else "calm"]
        key = "captain_vigilance" if g[0] == "c" else "guard_vigilance"
        base = side.get(key, self.data.sheet["alarm"][key])  # captains only appear with the alarm
        ev = self.current_event()
        return max(0, int(base) + (ev.vigilance if ev else 0))

    def movement(self, g: str) -> int:
        side = self.data.sheet["alarm" if self.alarm else "calm"]
        key = "captain_movement" if g[0] == "c" else "guard_movement"
        base = side.get(key, self.data.sheet["alarm"][key])
        ev = self.current_event()
        return max(0, int(base) + (ev.movement if ev else 0))

    def catchable(self, p: int) -> bool:
        t = self.thieves[p]
        return t["left"] is None and not t["dungeon"] and not t["protected"] and not self.is_hidden(p)

    def detects(self, g: str, p: int) -> bool:
        """Hearing range along the paths; fire does not stop hearing; hidden thieves never."""
        t = self.thieves[p]
        if t["left"] is not None or t["dungeon"] or self.is_hidden(p):
            return False
        rng = self.vigilance(g) - (1 if t["id"] == "joanne" else 0)  # Joanne: reconstructed ability
        return self.data.dist[self.guards[g]].get(t["pos"], 99) <= rng

    def _watch(self) -> dict[str, Any]:
        """The watch at work (``gq``); asked for only while it is."""
        gq = self.gq
        assert gq is not None
        return gq

    # -- activation ----------------------------------------------------------------------------
    def begin_guards(self, figs: list[str] | None, after: str) -> None:
        guards = self.guards
        d = self.data
        if figs is None:  # every figure: the guards by number, then the captains
            try:
                figs = sorted(guards, key=d.figure_rank.__getitem__)
            except KeyError:  # pragma: no cover - figures the box does not have
                figs = sorted(guards, key=lambda g: (g[0] != "g", int(g[1:])))
        if not figs or (figs[-1][0] == "g" and figs[0][0] == "g"):  # the usual: no captain
            groups = [figs, []]
        else:
            groups = [[g for g in figs if g[0] == "g"], [g for g in figs if g[0] == "c"]]
        # each figure's list of the thieves it detects (``detects``), in seat order; fresh
        # lists (``[]`` for each figure), made without a loop in Python
        det: dict[str, list[int]] = dict(zip(figs, map(list, repeat((), len(figs)))))
        # the test of ``detects`` for every figure and thief, each thief's part worked out once:
        # (player, space, how much less far it is heard: Joanne, reconstructed ability)
        audible = [(p, t["pos"], 1 if t["id"] == "joanne" else 0) for p, t in enumerate(self.thieves)
                   if t["left"] is None and not t["dungeon"] and not self.is_hidden(p)]
        if audible:
            for group in groups:
                if not group:
                    continue
                # the figures by their space (distances along the paths are symmetric: a figure
                # hears a thief when it stands within its vigilance of the thief's space)
                at = dict(zip(map(guards.__getitem__, group), group))
                if len(at) < len(group):  # two figures on one space (never at rest)
                    self._detect_each(group, audible, det)
                    continue
                reach = self.vigilance(group[0])  # the same for all of a kind
                spaces = at.keys()
                for p, pos, less in audible:
                    for s in spaces & d.spaces_near(pos, reach - less).keys():
                        det[at[s]].append(p)
            if self.recording:
                for g in figs:
                    ps = det[g]
                    if ps:
                        self.event("detects", fig=g, figure=figure_kind(g), space=guards[g], player=ps)
        self.gq = {"groups": groups, "det": det, "cur": None, "assigned": None, "after": after}
        if after == "exec":
            self.event("watch_acts")

    def _detect_each(self, group: list[str], audible: list[tuple[int, str, int]],
                     det: dict[str, list[int]]) -> None:
        """``begin_guards``' detection figure by figure (when two figures share a space)."""
        dist = self.data.dist
        reach = self.vigilance(group[0])
        for g in group:
            near = dist[self.guards[g]]
            det[g].extend(p for p, pos, less in audible if near.get(pos, 99) <= reach - less)

    def _targets(self, g: str) -> list[str]:
        """Spaces of the thieves g detected that are still there to be chased."""
        out = []
        for p in self._watch()["det"].get(g, []):
            t = self.thieves[p]
            if t["left"] is None and not t["dungeon"] and t["pos"] not in out:
                out.append(t["pos"])
        return sorted(out, key=self.data.order_key)

    def _has_targets(self, g: str) -> bool:
        """``bool(self._targets(g))`` without sorting."""
        detected = self._watch()["det"].get(g)
        return bool(detected) and any(self.thieves[p]["left"] is None and not self.thieves[p]["dungeon"]
                                      for p in detected)

    def _blocked_dist(self, start: str, limit: int | None = None) -> dict[str, int]:
        """Distances from start around fire (and never through a dungeon); with a limit, only
        the spaces at most that far are sure to be there."""
        if not self.fire:
            return self.data.dist[start]
        dist = {start: 0}
        q = deque([start])
        while q:
            c = q.popleft()
            if limit is not None and dist[c] >= limit:
                continue  # the spaces beyond are farther than the limit
            for n in self.data.adj[c]:
                if n not in dist and n not in self.fire and self.data.kind[n] != "dungeon":
                    dist[n] = dist[c] + 1
                    q.append(n)
        return dist

    def _best_assignments(self, active: list[str]) -> list[dict[str, str]]:
        """Rulebook §"Detaillierte Regeln": as many arrests as possible (guards split up),
        then each goes for the nearest thief, then for the space with more thieves."""
        d = self.data
        opts = {g: self._targets(g) for g in active}
        size = 1
        for g in active:
            size *= len(opts[g])
        info = {}
        for g in active:
            here = self.guards[g]
            mv = self.movement(g)
            bd = self._blocked_dist(here, limit=mv)  # only spaces within its movement matter
            detour = self.options.get("guard_fire") == "detour"
            for s in opts[g]:
                dd = d.dist[here][s]
                reach = bd.get(s, 99) <= mv if detour else (dd <= mv and bd.get(s, 99) == dd)
                catch = [p for p in self.thieves_at(s) if self.catchable(p)]
                info[g, s] = (dd, reach and bool(catch), len(catch))
        if size > MAX_COMBOS:  # pragma: no cover - far more guards than the game has
            return [{g: min(opts[g], key=lambda s: (info[g, s][0], -info[g, s][2])) for g in active}]
        best, best_score = [], None
        for combo in product(*(opts[g] for g in active)):
            reached = {s for g, s in zip(active, combo) if info[g, s][1]}
            score = (len(reached), -sum(info[g, s][0] for g, s in zip(active, combo)),
                     sum(info[g, s][2] for g, s in zip(active, combo)))
            if best_score is None or score > best_score:
                best, best_score = [dict(zip(active, combo))], score
            elif score == best_score:
                best.append(dict(zip(active, combo)))
        return best

    def _guards_run(self) -> bool:
        """Advance the watch; False when the start player must decide something."""
        gq = self._watch()
        while True:
            if self.ended:
                return False
            if gq["cur"] is not None:
                if not self._guard_step():
                    return False
                continue
            if not gq["groups"]:
                self.gq = None
                if gq["after"] == "exec":
                    self.exec["guards_done"] = True
                return True
            group = gq["groups"][0]
            det = gq["det"]  # most figures detected nobody: _has_targets is False for them
            active = [g for g in filter(det.get, group) if self._has_targets(g) and g in self.guards
                      and self._guard_free(g)]
            if not active:
                gq["groups"].pop(0)
                gq["assigned"] = None
                continue
            if gq["assigned"] is None:
                best = self._best_assignments(active)
                if len(best) > 1:
                    self.pending.append({"kind": "assign", "p": self.start, "opts": best})
                    return False
                gq["assigned"] = best[0]
            assigned = gq["assigned"]
            first = active[0]
            same = [g for g in active if assigned.get(g) == assigned.get(first)]
            if len(same) > 1:
                # two figures after the same thief: the start player orders them
                self.pending.append({"kind": "first", "p": self.start, "opts": same})
                return False
            self._start_guard(first)

    def _start_guard(self, g: str) -> None:
        gq = self._watch()
        gq["groups"][0].remove(g)
        target = gq["assigned"].get(g)
        targets = self._targets(g)
        if target not in targets:
            # its thief is gone (arrested by an earlier figure): the nearest one it detected
            here = self.guards[g]
            target = min(targets, key=lambda s: (self.data.dist[here][s],
                                                 -sum(1 for p in self.thieves_at(s) if self.catchable(p)),
                                                 self.data.order_key(s)))
        gq["cur"] = {"g": g, "t": target, "left": self.movement(g), "path": [self.guards[g]]}
        here = self.guards[g]
        caught = [p for p in self.thieves_at(here) if self.catchable(p)]
        if caught:  # a thief on the figure's own space is caught when the watch acts
            for p in caught:
                self.arrest(p, here)
            gq["cur"] = None

    def _guard_steps(self) -> list[str]:
        cur = self._watch()["cur"]
        here, t = self.guards[cur["g"]], cur["t"]
        d = self.data
        if cur["left"] <= 0 or here == t:
            return []
        if self.fire and self.options.get("guard_fire") == "detour":
            # option: the figure walks the shortest way around the fire
            bt = self._blocked_dist(t)
            if here in bt:
                return [n for n in d.adj[here] if bt.get(n, 99) == bt[here] - 1]
        # Rulebook §"Diebe festnehmen": fire stops a figure on its way toward the thief; it
        # goes "as far as possible" along the shortest way (detection ignores fire)
        return [n for n in d.adj[here] if d.kind[n] != "dungeon" and n not in self.fire
                and d.dist[n][t] == d.dist[here][t] - 1]

    def _guard_step(self) -> bool:
        steps = self._guard_steps()
        if not steps:
            self._end_guard()
            return True
        if len(steps) > 1:
            # equally short ways: the start player picks (Rulebook: start player decides for the watch)
            self.pending.append({"kind": "gstep", "p": self.start, "opts": steps})
            return False
        self._guard_enter(steps[0])
        return True

    def _guard_enter(self, n: str) -> None:
        cur = self._watch()["cur"]
        g = cur["g"]
        self.guards[g] = n
        cur["left"] -= 1
        cur["path"].append(n)
        caught = [p for p in self.thieves_at(n) if self.catchable(p)]
        if caught:
            for p in caught:  # everyone catchable on the space is arrested; the figure stops
                self.arrest(p, n)
            self._end_guard()

    def _end_guard(self) -> None:
        cur = self._watch()["cur"]
        g = cur["g"]
        # only one figure may end on a space: stop on the last free space of the way
        for s in reversed(cur["path"]):
            if self.guard_at_other(g, s) is None:
                self.guards[g] = s
                break
        if self.guards[g] != cur["path"][0]:
            self.event("guard_moved", fig=g, figure=figure_kind(g), space=self.guards[g],
                       route=cur["path"])
        self._watch()["cur"] = None

    # -- the watch's open choices, made by the start player ---------------------------------------
    def _guard_pending_actions(self, pd: dict[str, Any]) -> list[str]:
        k = pd["kind"]
        if k == "gstep":
            return [f"gstep {s}" for s in pd["opts"]]
        if k == "first":
            return [f"first {g}" for g in pd["opts"]]
        if k == "assign":
            return ["assign " + " ".join(f"{g}>{s}" for g, s in sorted(a.items())) for a in pd["opts"]]
        return []  # pragma: no cover

    def _guard_pending_apply(self, pd: dict[str, Any], action: "AotAction") -> None:
        word, arg = action.verb, action.arg
        self.pending.pop(0)
        if word == "gstep":
            self._guard_enter(arg)
        elif word == "first":
            self._start_guard(arg)
        elif word == "assign":
            self._watch()["assigned"] = action.assignment

    # -- the dungeon (Rulebook §"Verlies") ------------------------------------------------------------
    def catch_on(self, s: str) -> None:
        for p in self.thieves_at(s):
            if self.catchable(p):
                self.arrest(p, s)

    def lose_jewel(self, p: int, kind: str) -> None:
        t = self.thieves[p]
        if kind == "trinket":
            t["sheet"].remove("trinket")
            self.spent_tokens.append("trinket")
        else:
            t["yellow"] -= 1
            self.yellow_supply += 1
        self.event("loses", player=p, gem=kind)

    def arrest(self, p: int, s: str) -> None:
        d = self.data
        t = self.thieves[p]
        dist = d.district[s]
        # 1. lose 1 jewel: the Emperors' Jewel to the imperial guardhouse (or stays in the Palace)
        if t["emperor"]:
            t["emperor"] = False
            place = s if dist == "palace" else d.imperial[dist]
            self.gems.setdefault(place, []).append("emperor")
            self.event("emperor_dropped", space=place)
        elif t["yellow"] and "trinket" in t["sheet"]:
            # two cheapest jewels of 1 VP: the thief chooses which to give up
            self.pending.append({"kind": "lose", "p": p})
        elif t["yellow"] or "trinket" in t["sheet"]:
            self.lose_jewel(p, "yellow" if t["yellow"] else "trinket")
        elif t["green"]:
            t["green"] -= 1
            self.green_supply += 1
        # 2. discard 1 action card (the thief chooses)
        if t["hand"]:
            self.pending.append({"kind": "discard", "p": p, "why": "arrest"})
        # 3. to a dungeon: the district's, a drawn district's from the Palace, the alarm district's
        if self.alarm:
            where = self.alarm_district
            assert where is not None   # drawn before the alarm is raised
        elif dist == "palace":
            where = self.district_deck[self.rng.below(len(self.district_deck))]
        else:
            where = dist
        t["pos"] = d.dungeon[where]
        t["dungeon"], t["arrested"], t["escaped"], t["cloak"], t["marker"] = True, True, False, False, False
        for slot in t["plan"]:
            if slot["shown"] is False:
                slot["shown"] = True  # no further actions this round; the AP are set aside
        if self.act and self.act.get("p") == p:
            self.act = None
        if self.turn == p:
            self.turn = None
        self.event("arrested", player=p, space=s, district=where, dungeon=t["pos"])
