"""What a player may see (observation), the text view, notation help and reasons."""
from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

from .base import RulesBase
from .notation import Action

if TYPE_CHECKING:
    from .city import City

# actions that aim at a square, a building or a figure whose legal targets need the
# engine's geometry (field of view, hook lines, exits, quays...): the acting seat's
# own observation lists them, so its board can mark exactly those targets
TARGET_KINDS = frozenset(("exit", "hook", "tp", "cata", "svenja", "crossbow", "stars", "rob", "jin",
                          "bernhard"))


class ViewMixin(RulesBase):
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
        obs: dict[str, Any] = {
            "phase": self.phase, "round": self.round, "first": self.first,
            "order": self._order(), "vp": list(self.vp),
            "city": self.layout,  # the city's geometry is added below (_geometry)
            "bcells": None,
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
            # the viewer's own planning tiles laid so far, in slot order (secret from the others)
            "planning": self.planning[player] if player is not None and self.phase == "plan" else "",
            # every building's type and squares: added below (_geometry); each guard's
            # field of view (straight along its facing: public geometry)
            "buildings": None,
            "sight": {g: city.line(f["cell"], f["face"]) for g, f in self.tf.items() if g[0] == "g"},
            "nights": self.data.board.nights,
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
            # all the viewer's legal actions while it must act (its own business only)
            "legal": self.legal_actions(player) if player is not None and player in self._players_to_act()
            else [],
        }
        obs = _copy(obs)
        # the printed city, the same in every observation and for every viewer:
        # described once per city and shared (readers never change it: tested)
        geometry = _shared_geometry(city)
        printed = geometry["city"]
        obs["city"] = {"w": printed["w"], "h": printed["h"], "rows": printed["rows"], "layout": obs["city"],
                       "walls": printed["walls"], "catacombs": printed["catacombs"]}
        obs["bcells"] = geometry["bcells"]
        obs["buildings"] = geometry["buildings"]
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
        """The position for the terminal: the presentation's text view in English."""
        pres = self.game.presentation(player, None, "en", self.options.get("data_dir"))
        return pres.text_view(self.observation(player))

    def describe_action(self, action: str) -> str:
        """The action's words for the terminal (the presentation's, in English, as
        the seat that acts now sees the position)."""
        to_act = self._players_to_act()
        viewer = to_act[0] if to_act else None
        pres = self.game.presentation(viewer, None, "en", self.options.get("data_dir"))
        return pres.action_text(self.observation(viewer), action)

    def _explain(self, p: int, action: str) -> str | None:
        try:
            act = Action.parse(action)
        except ValueError as e:
            return str(e)
        tu = self.turn
        verb = act.verb
        if self.phase == "plan" and verb == "plan":
            return "put a tile not laid yet in the next slot: thief 1, 2 or 3" + (
                "" if self.solo else " or P for the patrol board") + ", e.g. 'plan 2'"
        if self.phase == "action" and tu is not None and tu["p"] == p:
            if verb in ("move", "use", "rob") and tu["ap"] < 1:
                return "this thief has no action points left"
            if verb == "use":
                return "the thief is not in a location it may use now (once per location per night)"
            if verb == "rob":
                return "no such townsfolk to rob next to this thief (each at most once a night; " \
                       "never a guard's badge from inside its field of view)"
            if verb in ("n", "e", "s", "w"):
                return "that way is blocked (wall, building without entrance, guard, or no moves left)"
            if verb == "stamina":
                return "the stamina marker is used once a night"
        if self.phase == "hideout" and verb == "hideout":
            return "a hideout goes in a free house (not the church, not a location)"
        return None


def _copy(x: Any) -> Any:
    return marshal.loads(marshal.dumps(x))


def _shared_geometry(city: City) -> dict[str, Any]:
    """The city's geometry as observed (:func:`_geometry`), built once per city
    and shared by every observation of it."""
    shared = city.memo.get(("observed-shared",))
    if shared is None:
        shared = city.memo[("observed-shared",)] = marshal.loads(_geometry(city))
    return shared


def _geometry(city: City) -> bytes:
    """The observation's parts that only the city's geometry decides (its squares,
    walls, catacombs and buildings), serialized once per city."""
    blob = city.memo.get(("observed",))
    if blob is None:
        blob = city.memo[("observed",)] = marshal.dumps({
            "city": {"w": city.W, "h": city.H, "rows": city.grid_rows(), "walls": city.wall_pairs(),
                     # catacomb section -> the entrance square it opens on (public board)
                     "catacombs": {str(sec): c for c, sec in city.catacomb_section.items()}},
            "bcells": city.building_cells(),
            # every building's type and squares (the printed city)
            "buildings": {b: [x["type"], list(x["cells"])] for b, x in city.buildings.items()},
        })
    return blob
