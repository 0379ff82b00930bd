"""What a player may see (observation), the text view, notation help and reasons."""
from __future__ import annotations

from typing import Any

from .goods import GOODS

PHASE_HELP = {
    "draft": "equipment draft", "buy": "buying drafted equipment", "hideout": "placing hideouts",
    "plan": "planning (secret)", "action": "action phase", "over": "game over"}


# actions that aim at a square, a building or a figure whose legal targets need the
# engine's geometry (field of view, hook lines, exits, quays...): the acting seat's
# own observation lists them, so its board can mark exactly those targets
TARGET_KINDS = frozenset(("exit", "hook", "tp", "cata", "svenja", "crossbow", "stars", "rob", "jin",
                          "bernhard"))


class ViewMixin:
    def _target_actions(self, player: int | None) -> list[str]:
        """The viewer's legal actions that target a place or figure, only while that
        viewer's thief acts (built from what the viewer may know; the engine caches
        legal actions per move, so the server's own call costs nothing more)."""
        tu = self.turn
        if player is None or self.phase != "action" or tu is None or tu["p"] != player \
                or self.tmove is not None:
            return []
        return [a for a in self.legal_actions(player) if a.split(" ", 1)[0] in TARGET_KINDS]

    def _observe(self, player: int | None) -> dict[str, Any]:
        city = self.city
        n = self.num_players
        revealed_plans = self.phase not in ("plan",)
        plans = [self.plans[p] if (revealed_plans or p == player) else
                 ("placed" if self.plans[p] is not None else None) for p in range(n)]
        draft = None
        if self.draft is not None:
            draft = {"stage": self.draft["stage"],
                     "hand": list(self.draft["hands"][player]) if player is not None else [],
                     "kept": list(self.draft["kept"][player]) if player is not None else [],
                     "hand_sizes": [len(h) for h in self.draft["hands"]],
                     "kept_sizes": [len(k) for k in self.draft["kept"]]}
        bcells = city.building_cells()  # shared, but obs is copied below
        obs = {
            "phase": self.phase, "round": self.round, "first": self.first,
            "order": self._order(), "vp": list(self.vp),
            "city": {"w": city.W, "h": city.H, "rows": city.grid_rows(), "layout": self.layout,
                     "walls": city.wall_pairs(),
                     # catacomb section -> the entrance square it opens on (public board)
                     "catacombs": {str(sec): c for c, sec in city.catacomb_section.items()}},
            "bcells": bcells,
            "hideouts": list(self.hideout),
            "houses": {b: list(city.buildings[b]["cells"]) for t in ("tower", "garden", "forge", "stable")
                       for b in city.by_type.get(t, [])} if self.phase == "hideout" else {},
            "thieves": self.thieves, "stash": self.stash, "stamina": list(self.stamina),
            "townsfolk": self.tf, "badges": self.badges, "purses": self.purses,
            "villas": {s: {"villa": v["villa"], "locked": self.data.villas[v["villa"]].locked, "art": v["art"]}
                       for s, v in self.villas.items()},
            "smugglers": self.smugglers, "stacks": self.stacks, "missions_left": len(self.mission_pile),
            "missions_done": self.missions_done, "dungeon": self.dungeon,
            "display": list(self.display), "equip_deck": len(self.equip_deck),
            "client_deck": len(self.client_deck), "client_discard": list(self.client_discard),
            "revealed": list(self.revealed), "patrol": list(self.patrol), "plans": plans,
            "draft": draft, "turn": self.turn, "tmove": self.tmove,
            "solo": None if not self.solo else {  # the solo patrol pile is face down
                k: (len(v) if k == "pile" else v) for k, v in self.solo.items()},
            "final": self.final,
            "solo_stars": self.solo_rating() if self.solo else None,
            # the steps the viewer's moving thief may take (for clickable squares)
            "steps": [a for a in self._move_actions() if len(a) == 1]
            if (self.turn and self.turn["moving"] and self.tmove is None and self.turn["p"] == player
                and self.turn["sub"] is None) else [],
            # the viewer's legal actions aimed at a square, building or figure (see TARGET_KINDS)
            "targets": self._target_actions(player),
        }
        obs = _copy(obs)
        # a brawl card is tucked face down: only its owner knows which client it was
        for q, ts in enumerate(obs["thieves"]):
            if q != player:
                for th in ts:
                    if th.get("brawled") is not None:
                        th["brawled"] = "hidden"
        # the two equipment cards drawn for an artwork reward are seen by their drawer only
        tu = obs["turn"]
        sub = tu.get("sub") if tu else None
        if sub and sub.get("kind") == "artdraw" and tu["p"] != player:
            sub["cards"] = len(sub["cards"])
        return obs

    def render_text(self, player: int | None) -> str:
        city = self.city
        rows = [list(r) for r in city.grid_rows()]
        for fig, f in self.tf.items():
            r, c = divmod(f["cell"], city.W)
            rows[r][c] = {"g": "!", "n": "$", "c": "&"}[fig[0]] if fig != "car" else "&"
        for p, ts in enumerate(self.thieves):
            for t, th in enumerate(ts):
                if isinstance(th["pos"], int):
                    r, c = divmod(th["pos"], city.W)
                    rows[r][c] = str(p + 1)
        lines = [f"Thiefdom - night {self.round}/6 - {PHASE_HELP.get(self.phase, self.phase)}"]
        lines.append("Map: . alley  L lantern  T tower G garden F forge S stable C church M market "
                     "D dealer V tavern J dungeon X smuggler | 1-4 thieves ! guard $ noble & carriage")
        lines += ["".join(r) for r in rows]
        plans = self._observe(player)["plans"]
        for fig, f in sorted(self.tf.items()):
            extra = f" facing {'NESW'[f['face']]}" if "face" in f else ""
            loot = f" badge:{self.badges.get(fig)}" if fig[0] == "g" else (
                f" purse:{'full' if self.purses.get(fig) else 'empty'}" if fig[0] == "n" else "")
            lines.append(f"  {self._fig_name(fig)} at {city.name(f['cell'])}{extra}{loot}")
        for p in range(self.num_players):
            lines.append(f"{self.player_name(p)}: {self.vp[p]} VP, hideout {self.hideout[p]}, "
                         f"stash {_inv(self.stash[p])}, plan {plans[p]}")
            for t, th in enumerate(self.thieves[p]):
                pos = th["pos"]
                where = city.name(pos) if isinstance(pos, int) else pos
                lines.append(f"   thief {t + 1} at {where}: {_inv(th['inv'])} equip {th['equip']} "
                             f"ally {th['ally']}{' WANTED' if th['wanted'] else ''}")
        if self.turn:
            tu = self.turn
            lines.append(f"Turn: {self._tname(tu['p'], tu['t'])}, {tu['ap']} AP, {tu['mp']} moves left")
        if self.revealed:
            lines.append("Clients on the table: " + ", ".join(self.revealed))
        lines.append("Dealer display: " + ", ".join(self.display))
        if self.final is not None:
            for p in range(self.num_players):
                f = self.final[p]
                lines.append(f"Final {self.player_name(p)}: goods {f['goods']}, allies {f['allies']}, "
                             f"home {f['home']} -> {self.vp[p]} VP")
            if self.solo:
                lines.append(f"Solo rating: {self.solo_rating()} star(s)")
        if self.solo:
            lines.append(f"Solo compass: {self.solo['side']} side; rivals {self.solo['rivals']}")
        return "\n".join(lines)

    def describe_action(self, action: str) -> str:
        w = action.split()
        a = w[0] if w else ""
        text = {
            "n": "step north", "e": "step east", "s": "step south", "w": "step west",
            "end": "end this thief's turn", "stamina": "use the stamina marker (+1 AP, once a night)",
            "move": "start a move action (1 AP: 3 movement points)", "stop": "end the move here",
            "use": "use this location (1 AP)", "done": "finish here", "decline": "take no client",
            "smoke": "throw the smoke bomb (1 AP, +4 VP, no arrest this turn)",
            "fish": "rob the adjacent carriage with the fishing rod (1 AP, +1 wine, +2 VP)"}.get(a)
        if text:
            return text
        if a == "go":
            return f"move the townsfolk {w[1].upper()} from here"
        if a == "plan":
            return "planning tiles 1-4 activate: " + ", ".join(
                "patrol board" if ch == "P" else f"thief {ch}" for ch in w[1])
        if a == "rob":
            return f"rob {' '.join(w[1:])} (1 AP)"
        if a == "exit":
            return f"leave the building to square {w[1]}"
        if a == "cata":
            return f"go through the catacombs to section {w[1]}"
        return action

    def _explain(self, p: int, action: str) -> str | None:
        if not isinstance(action, str) or not action.strip():
            return "an empty action"
        w = action.split()
        tu = self.turn
        if self.phase == "plan" and w[0] == "plan":
            return "a plan lists each tile's target once: thieves 1, 2, 3" + (
                "" if self.solo else " and P for the patrol board") + ", e.g. 'plan 12P3'"
        if self.phase == "action" and tu is not None and tu["p"] == p:
            if w[0] in ("move", "use", "rob") and tu["ap"] < 1:
                return "this thief has no action points left"
            if w[0] == "use":
                return "the thief is not in a location it may use now (once per location per night)"
            if w[0] == "rob":
                return "no such townsfolk to rob next to this thief (each at most once a night; " \
                       "never a guard's badge from inside its field of view)"
            if w[0] in ("n", "e", "s", "w"):
                return "that way is blocked (wall, building without entrance, guard, or no moves left)"
            if w[0] == "stamina":
                return "the stamina marker is used once a night"
        if self.phase == "hideout" and w[0] == "hideout":
            return "a hideout goes in a free house (not the church, not a location)"
        return None


def _inv(inv: dict) -> str:
    parts = [f"{inv[g]} {g}" for g in GOODS if inv[g]] + list(inv["art"])
    return ", ".join(parts) or "nothing"


def _copy(x):
    import marshal
    return marshal.loads(marshal.dumps(x))
