"""What a player may see (observation), the text view, notation help and reasons."""
from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

from . import setup, solo, thief
from .notation import Action

if TYPE_CHECKING:
    from .state import ThiefdomState

if TYPE_CHECKING:
    from .city import City

# actions that aim at a square, a building or a figure whose legal targets need the
# engine's geometry (field of view, hook lines, exits, quays...): the acting seat's
# own observation lists them, so its board can mark exactly those targets
TARGET_KINDS = frozenset(("exit", "hook", "tp", "cata", "svenja", "crossbow", "stars", "rob", "jin",
                          "bernhard"))


def _target_actions(state: ThiefdomState, player: int | None) -> list[str]:
    """The viewer's legal actions that target a place or figure, only while that
    viewer's thief acts (built from what the viewer may know; the engine caches
    legal actions per move, so the server's own call costs nothing more)."""
    tu = state.turn
    if player is None or state.phase != "action" or tu is None or tu["p"] != player \
            or state.tmove is not None:
        return []
    return [a for a in state.legal_actions(player) if a.split(" ", 1)[0] in TARGET_KINDS]


def observe(state: ThiefdomState, player: int | None) -> dict[str, Any]:
    """What ``player`` (None: a spectator) may see. The fields every viewer sees
    alike are copied once per move (:func:`_shared_part`) and shared by the
    observations of that move; the viewer's own are made for each call."""
    n = state.num_players
    revealed_plans = state.phase not in ("plan",)
    plans = [state.plans[p] if (revealed_plans or p == player) else
             ("placed" if state.plans[p] is not None else None) for p in range(n)]
    draft = None
    if state.draft is not None:
        draft = {"stage": state.draft["stage"],
                 "hand": list(state.draft["hands"][player]) if player is not None else [],
                 "kept": list(state.draft["kept"][player]) if player is not None else [],
                 "hand_sizes": [len(h) for h in state.draft["hands"]],
                 "kept_sizes": [len(k) for k in state.draft["kept"]]}
    shared = _shared_part(state)
    obs: dict[str, Any] = dict(shared)
    # (each observation its own outer dicts: a reader may add a key to them)
    obs["city"] = dict(shared["city"])
    obs["plans"] = plans
    obs["draft"] = draft
    # the viewer's own planning tiles laid so far, in slot order (secret from the others)
    obs["planning"] = state.planning[player] if player is not None and state.phase == "plan" else ""
    # the steps the viewer's moving thief may take (for clickable squares)
    obs["steps"] = [a for a in thief.move_actions(state) if len(a) == 1] \
        if (state.turn and state.turn["moving"] and state.tmove is None and state.turn["p"] == player
            and state.turn["sub"] is None) else []
    # the viewer's legal actions aimed at a square, building or figure (see TARGET_KINDS)
    obs["targets"] = _target_actions(state, player)
    # all the viewer's legal actions while it must act (its own business only)
    obs["legal"] = state.legal_actions(player) if player is not None and player in state._players_to_act() \
        else []
    # a brawl card is tucked face down: only its owner knows which client it was
    # (the shared copy holds every card: the others' are hidden in new copies)
    thieves = shared["thieves"]
    if any(th.get("brawled") is not None for q, ts in enumerate(thieves) if q != player for th in ts):
        obs["thieves"] = [[{**th, "brawled": "hidden"} if q != player and th.get("brawled") is not None
                           else th for th in ts] for q, ts in enumerate(thieves)]
    # the two equipment cards drawn for an artwork reward are seen by their drawer only
    tu = shared["turn"]
    sub = tu.get("sub") if tu else None
    if sub and sub.get("kind") == "artdraw" and tu["p"] != player:
        obs["turn"] = {**tu, "sub": {**sub, "cards": len(sub["cards"])}}
    return obs


def _shared_part(state: ThiefdomState) -> dict[str, Any]:
    """The observation's fields that every viewer sees alike (the viewer's own set
    to None), copied from the state once per move and kept on the state until its
    next move: every observation of that move shares them (readers never change
    an observation: tested), and none is ever a structure of the state itself."""
    mark = (state.ply, len(state.history), len(state.log))
    kept = state.__dict__.get("_obs_shared")
    if kept is not None and kept[0] == mark:
        found: dict[str, Any] = kept[1]
        return found
    city = state.city
    obs: dict[str, Any] = {
        "phase": state.phase, "round": state.round, "first": state.first,
        "order": setup.turn_order(state), "vp": list(state.vp),
        "city": state.layout,  # the city's geometry is added below (_geometry)
        "bcells": None,
        "hideouts": list(state.hideout),
        "houses": {b: list(city.buildings[b]["cells"]) for t in ("tower", "garden", "forge", "stable")
                   for b in city.by_type.get(t, [])} if state.phase == "hideout" else {},
        "thieves": state.thieves, "stash": state.stash, "stamina": list(state.stamina),
        "townsfolk": state.tf, "badges": state.badges, "purses": state.purses,
        "villas": {s: {"villa": v["villa"], "locked": state.data.villas[v["villa"]].locked, "art": v["art"]}
                   for s, v in state.villas.items()},
        "smugglers": state.smugglers, "stacks": state.stacks, "missions_left": len(state.mission_pile),
        "missions_done": state.missions_done, "dungeon": state.dungeon,
        "display": list(state.display), "equip_deck": len(state.equip_deck),
        "client_deck": len(state.client_deck), "client_discard": list(state.client_discard),
        "revealed": list(state.revealed), "patrol": list(state.patrol), "plans": None,
        "planning": None,
        # every building's type and squares: added below (_geometry); each guard's
        # field of view (straight along its facing: public geometry)
        "buildings": None,
        "sight": {g: city.line(f["cell"], f["face"]) for g, f in state.tf.items() if g[0] == "g"},
        "nights": state.data.board.nights,
        "draft": None, "turn": state.turn, "tmove": state.tmove,
        "solo": None if not state.solo else {  # the solo patrol pile is face down
            k: (len(v) if k == "pile" else v) for k, v in state.solo.items()},
        "final": state.final,
        "solo_stars": solo.solo_rating(state) if state.solo else None,
        "steps": None, "targets": None, "legal": None,
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
    state.__dict__["_obs_shared"] = (mark, obs)
    return obs


def render_text(state: ThiefdomState, player: int | None) -> str:
    """The position for the terminal: the presentation's text view in English."""
    pres = state.game.presentation(player, None, "en", state.options.get("data_dir"))
    text: str = pres.text_view(state.observation(player))
    return text


def describe_action(state: ThiefdomState, action: str) -> str:
    """The action's words for the terminal (the presentation's, in English, as
    the seat that acts now sees the position)."""
    to_act = state._players_to_act()
    viewer = to_act[0] if to_act else None
    pres = state.game.presentation(viewer, None, "en", state.options.get("data_dir"))
    text: str = pres.action_text(state.observation(viewer), action)
    return text


def explain(state: ThiefdomState, p: int, action: str) -> str | None:
    try:
        act = Action.parse(action)
    except ValueError as e:
        return str(e)
    tu = state.turn
    verb = act.verb
    if state.phase == "plan" and verb == "plan":
        return "put a tile not laid yet in the next slot: thief 1, 2 or 3" + (
            "" if state.solo else " or P for the patrol board") + ", e.g. 'plan 2'"
    if state.phase == "action" and tu is not None and tu["p"] == p:
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
    if state.phase == "hideout" and verb == "hideout":
        return "a hideout goes in a free house (not the church, not a location)"
    return None


def _copy(x: Any) -> Any:
    return marshal.loads(marshal.dumps(x))


def _shared_geometry(city: City) -> dict[str, Any]:
    """The city's geometry as observed (:func:`_geometry`), built once per city
    and shared by every observation of it."""
    shared: dict[str, Any] | None = city.memo.get(("observed-shared",))
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
