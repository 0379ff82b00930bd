"""General action cards and the thieves' special actions (texts in cards.yaml, thieves.yaml).

Each card becomes ``self.act``: a ``choose`` among targets (``guard g4``,
``at E30``, ``thief 2``, ``steal 2 green`` ...) or a ``gmove`` (moving guards
step by step with ``gstep``/``gstop``). Rulebook §"Aktionskarten und Fähigkeiten
einsetzen": range counts along the paths; a thief in a dungeon is never a target.
"""
from __future__ import annotations

from typing import Any

from .notation import AotAction, figure_kind
from .fields import MixinBase


class CardsMixin(MixinBase):
    # -- general cards and special actions -------------------------------------------------
    def in_range(self, p: int, rng: int | None, s: str) -> bool:
        if rng is None:
            return True
        return self.data.dist[self.thieves[p]["pos"]].get(s, 99) <= rng

    def spaces_in_range(self, p: int, rng: int | None) -> list[str]:
        """Every space that passes ``in_range``, in board order."""
        if rng is None:
            return list(self.data.adj)
        return list(self.data.spaces_within(self.thieves[p]["pos"], rng))

    def targetable_thieves(self, p: int, rng: int | None, others: bool = True) -> list[int]:
        """Thieves on the board, not in a dungeon (§"Verlies": no target there)."""
        return [q for q in self.on_board() if (q != p or not others) and not self.thieves[q]["dungeon"]
                and self.in_range(p, rng, self.thieves[q]["pos"])]

    def guards_in(self, p: int, rng: int | None, captains: bool = False) -> list[str]:
        return sorted(g for g, s in self.guards.items() if (captains or g[0] == "g")
                      and self.in_range(p, rng, s))

    def start_general(self, p: int, typ: str) -> None:
        c = self.data.general[typ]
        e = c.effect
        t = self.thieves[p]
        if e == "move_self":
            self.start_move(p, c.steps, pick=True)
        elif e == "move_protected":
            t["protected"] = True
            self.start_move(p, c.steps, pick=True)
        elif e == "hide":
            t["cloak"] = True
        elif e == "move_guard":
            self._choose(p, [f"guard {g}" for g in self.guards_in(p, c.range)], "beacon", steps=c.steps)
        elif e == "move_guards":
            queue = [g for g in self.guards_in(p, c.range) if self._guard_free(g)]
            if queue:
                self.act = {"kind": "gmove", "p": p, "g": queue[0], "left": c.steps, "queue": queue[1:],
                            "steps": c.steps, "lure": False, "path": [], "start": self.guards[queue[0]]}
                self._auto_finish()
        elif e in ("noise", "smoke"):
            kind, at = self.data.kind, self.data.at_action
            self._choose(p, [at[s] for s in self.spaces_in_range(p, c.range) if kind[s] != "dungeon"],
                         e, steps=c.steps, radius=c.radius)
        elif e == "fire":
            self._choose(p, self._fire_spots(p, c.range), "fire")
        elif e == "reposition_guard":
            self._choose(p, [f"guard {g}" for g in self.guards_in(p, None)], "orders")
        elif e == "steal":
            self._choose(p, [f"steal {q + 1} {k}" for q in self.targetable_thieves(p, c.range)
                             if not self.thieves[q]["robbed"] for k in self.loot_of(q)], "steal")
        elif e == "wake_guards":
            figs = [g for g in self.guards_in(p, c.range)]
            if figs:
                self.begin_guards(figs, "card")
        elif e == "immobilize":
            self._choose(p, self._trap_opts(p, c.range), "trap")
        elif e == "poison":
            self._choose(p, [f"thief {q + 1}" for q in self.targetable_thieves(p, c.range)], "bola",
                         amount=c.amount)
        elif e == "take_token":
            self._choose(p, [f"token {q + 1} {x}" for q in self.targetable_thieves(p, c.range)
                             for x in sorted(set(self.thieves[q]["sheet"]))], "rats")

    def start_special(self, p: int) -> None:
        """Each thief's special action (all reconstructed, see thieves.yaml)."""
        t = self.thieves[p]
        sp = self.data.thieves[t["id"]].special
        if sp == "sewer_run":
            self._choose(p, [f"at {s}" for s in self.sewer_exits() if self.can_enter(p, s)], "reposition_self")
        elif sp == "rooftops":
            self.start_move(p, 3, pick=True, safe=True)
        elif sp == "seduction":
            self._choose(p, [f"guard {g}" for g in self.guards_in(p, 4)], "lure")
        elif sp == "clockwork_trap":
            self._choose(p, self._trap_opts(p, 3), "trap")
        elif sp == "confiscate":
            self._choose(p, [f"steal {q + 1} {k}" for q in self.targetable_thieves(p, 2)
                             if not self.thieves[q]["robbed"] for k in self.loot_of(q) if k != "emperor"],
                         "steal")
        elif sp == "firebomb":
            self._choose(p, self._fire_spots(p, 3), "fire")

    def _fire_spots(self, p: int, rng: int | None) -> list[str]:
        """A free space: no figures (Rulebook §"freies Feld"), no dungeon."""
        figures = set(self.guards.values())  # guard_at() for every space at once
        thieves = {t["pos"] for t in self.thieves if t["left"] is None}  # and thieves_at()
        kind, at = self.data.kind, self.data.at_action
        return [at[s] for s in self.spaces_in_range(p, rng) if kind[s] != "dungeon"
                and s not in figures and s not in thieves and s not in self.fire]

    def _trap_opts(self, p: int, rng: int | None) -> list[str]:
        return [f"guard {g}" for g in self.guards_in(p, rng)] + \
               [f"thief {q + 1}" for q in self.targetable_thieves(p, rng, others=False)]

    def _guard_free(self, g: str) -> bool:
        return g not in self.exec.get("immobile", [])

    def _choose(self, p: int, opts: list[str], then: str, **kw: Any) -> None:
        if not opts:
            self.event("no_target", player=p)
            return
        self.act = {"kind": "choose", "p": p, "opts": opts, "then": then, **kw}

    def _choose_apply(self, a: dict[str, Any], action: "AotAction") -> None:
        p, then = a["p"], a["then"]
        word, arg = action.verb, action.arg
        self.act = None
        if a.get("after"):
            self.act = {"kind": "choose", "p": p, **a["after"]}
        if word == "nothing":
            return
        if then == "steal":
            self.steal(p, action.named_seat, action.named_kind)
        elif then in ("beacon", "lure", "noise_guard"):
            if self._guard_free(arg):
                self.act = {"kind": "gmove", "p": p, "g": arg, "left": 2 if then == "lure" else a["steps"],
                            "queue": [], "lure": then == "lure", "path": [], "start": self.guards[arg]}
                self._auto_finish()
        elif then == "noise":
            # guards and captains near the target (Rulebook §"Diebstahl", example 1)
            near = [g for g, s in sorted(self.guards.items()) if self._guard_free(g)
                    and self.data.dist[arg].get(s, 99) <= a["radius"]]
            follow = ({"opts": [f"guard {g}" for g in near] + ["nothing"], "then": "noise_guard",
                       "steps": a["steps"]} if near else None)
            self.mark_theft(p, arg)
            if self.act is not None:  # an immediate theft first, then the guard
                self.act["after"] = follow
            elif follow:
                self.act = {"kind": "choose", "p": p, **follow}
        elif then == "smoke":
            for s in [arg] + self.data.adj[arg]:
                if self.data.kind[s] != "dungeon" and s not in self.smoke:
                    self.smoke.append(s)
            self.event("smoke", player=p, space=arg)
            self.mark_theft(p, arg, marker=False)
        elif then == "fire":
            self.fire.append(arg)
            self.event("fire", player=p, space=arg)
        elif then == "orders":
            self._choose(p, [f"to {s}" for s in self.data.guardhouses if not self.guard_at(s)
                             and s not in self.fire], "orders_to", g=arg)
        elif then == "orders_to":
            self.guards[a["g"]] = arg  # repositioned: no arrests on the way (§"Versetzen")
            self.event("orders", fig=a["g"], space=arg)
            if self.options.get("placement_arrests") == "all":
                self.catch_on(arg)  # option: it arrests on arrival
        elif then == "reposition_self":
            self.thieves[p]["pos"] = arg
            self.event("reposition_self", player=p, space=arg)
            self.thief_entered(p, arg)  # as after the sewers: a guard there arrests at once
        elif then == "trap":
            if word == "guard":
                self.exec.setdefault("immobile", []).append(arg)
                self.event("trap_guard", fig=arg, figure=figure_kind(arg), space=self.guards[arg])
            else:
                self.thieves[action.named_seat]["immobile"] = True
                self.event("trap_thief", victim=action.seat)
        elif then == "bola":
            self.thieves[action.named_seat]["poison"] += a["amount"]
            self.event("bola", victim=action.seat, n=a["amount"])
        elif then == "rats":
            q, x = action.named_seat, action.named_kind
            self.thieves[q]["sheet"].remove(x)
            self.thieves[p]["sheet"].append(x)
            self.event("rats", player=p, victim=q, token=x)

    # -- moving a guard with a card ----------------------------------------------------------
    def _gmove_actions(self, a: dict[str, Any]) -> list[str]:
        g = a["g"]
        here = self.guards[g]
        d = self.data
        acts = []
        if a["left"] > 0:
            for n in d.adj[here]:
                if d.kind[n] == "dungeon" or n in self.fire:
                    continue
                if a["left"] == 1 and self.guard_at(n):
                    continue  # only one guard may end on a space
                if a["lure"]:
                    me = self.thieves[a["p"]]["pos"]
                    if n == me or d.dist[n][me] >= d.dist[here][me]:
                        continue
                acts.append(f"gstep {n}")
        acts.append("gstop")
        return acts

    def guard_at_other(self, g: str, s: str) -> str | None:
        guards = self.guards
        if s not in guards.values() or (guards.get(g) == s and list(guards.values()).count(s) == 1):
            return None  # the usual answers, without a loop in Python
        for h, hs in guards.items():
            if h != g and hs == s:
                return h
        return None

    def _gmove_apply(self, a: dict[str, Any], action: "AotAction") -> None:
        word, arg = action.verb, action.arg
        g = a["g"]
        if word == "gstep":
            self.guards[g] = arg
            a.setdefault("path", []).append(arg)
            a["left"] -= 1
            caught = [q for q in self.thieves_at(arg) if self.catchable(q)]
            if not caught:
                return
            # a guard moved by a card arrests the thieves it walks into and stops (§"Bewegen")
            for q in caught:
                self.arrest(q, arg)
        # only one figure may end on a space: back to the last free space of its way
        start = a.get("start", self.guards[g])
        for back in reversed([start] + a.get("path", [])):
            if self.guard_at_other(g, back) is None:
                self.guards[g] = back
                break
        if self.guards[g] != start:
            self.event("guard_moved", fig=g, figure=figure_kind(g), space=self.guards[g],
                       route=[start] + a.get("path", []))
        if a["queue"]:
            a["g"] = a["queue"].pop(0)
            a["left"], a["path"], a["start"] = a["steps"], [], self.guards[a["g"]]
        else:
            self.act = None
