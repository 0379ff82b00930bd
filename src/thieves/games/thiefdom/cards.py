"""Equipment and ally (client) card effects that are actions or free actions.

Rulebook "4. Utiliser une carte" and "Annexe : cartes". Upgrades of regular
actions live where that action is (moving, robbing, locations); this module
holds the cards that add new actions. Card notation is the card id.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from . import locations, thief, townsfolk
from .goods import GOODS, add, gain, room
from .notation import THIEF_REFS, Action

if TYPE_CHECKING:
    from .state import ThiefdomState

#: the equipment cards that give an action (checked below in this order)
ACTION_CARDS = frozenset(("crossbow", "stars", "fishing", "hook", "pigeon", "smoke"))
TELEPORT_ALLIES = {"jolanda": "garden", "johanna": "stable", "larissa": "forge", "siti": "tower",
                   "towa": "tavern"}


def ally_of(state: ThiefdomState, p: int, t: int) -> str | None:
    a = state.thieves[p][t]["ally"]
    return state.data.power[a] if a else None


def guild_has(state: ThiefdomState, p: int, power: str) -> bool:
    power_of = state.data.power
    for th in state.thieves[p]:
        if th["ally"] and power_of[th["ally"]] == power:
            return True
    return False


def _thief_view(state: ThiefdomState, pos: int | str) -> frozenset[int]:
    """A thief's field of view: straight alley lines in the four directions;
    from a building, outwards from each square next to it. (Geometry only:
    remembered by the city.)"""
    city = state.city
    key = ("view", pos)
    got: frozenset[int] | None = city.memo.get(key)
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


def card_actions(state: ThiefdomState, p: int, t: int) -> list[str]:
    tu = state.turn
    th = state.thieves[p][t]
    eq = th["equip"]
    ally = ally_of(state, p, t)
    pos = th["pos"]
    once = tu["once"]
    city = state.city
    acts: list[str] = []
    ap = tu["ap"]
    inside = isinstance(pos, str)
    btype = city.buildings[pos]["type"] if inside else None
    if ap >= 1 and eq and not ACTION_CARDS.isdisjoint(eq):
        if "crossbow" in eq and "crossbow" not in once:
            view = _thief_view(state, pos)
            acts.extend(f"crossbow {g}" for g, f in state.tf.items() if g[0] == "g" and f["cell"] in view)
        if "stars" in eq:
            view = _thief_view(state, pos)
            acts.extend(f"stars {g}" for g, f in state.tf.items() if g[0] != "g" and f["cell"] in view)
        if "fishing" in eq and "fishing" not in once and inside and \
                state.tf["car"]["cell"] in city.buildings[pos]["all_adjacent"]:
            acts.append("fish")
        if "hook" in eq and "hook" not in once and inside:
            acts.extend(f"hook {b}" for b in _hook_targets(state, pos))
        if "pigeon" in eq and "pigeon" not in once:
            acts.extend(f"pigeon {k + 1}" for k in range(3) if k != t)
        if "smoke" in eq and not tu["smoke"]:
            acts.append("smoke")
    if ap >= 1 and ally is not None:
        if ally == "bernhard" and "bernhard" not in once and th["inv"]["gold"] >= 1:
            acts.extend(f"bernhard {g}" for g in state.tf if g[0] == "g" and g not in th["blind"])
        if ally == "samuel" and "samuel" not in once:
            acts.extend(f"samuel {k + 1}" for k in range(3) if k != t)
    if ally is None:  # of the free actions below, only the Forge's shop (the last one)
        if btype == "forge" and guild_has(state, p, "melisande") and tu["shop"] < 2:
            acts.extend(locations.buy_actions(state, p, t, 1))
        return acts
    # free actions
    if ally in TELEPORT_ALLIES and btype == TELEPORT_ALLIES[ally]:
        acts.extend(f"tp {b}" for b in city.by_type.get(btype, []) if b != pos)
    if ally == "juma" and "juma" not in once:
        # Juma (building/alley): from any space next to the river to any other,
        # buildings and free quay squares alike
        if pos in city.river_spaces or pos in city.river_cells:
            acts.extend(f"tp {b}" for b in city.river_spaces if b != pos)
            occ = townsfolk.occupancy_now(state)
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
    if ally == "ruth" and pos == state.hideout[p]:
        acts.extend(f"ruth {g}" for g in ("gem", "brandy", "wine") if state.stash[p][g])
    if btype == "forge" and guild_has(state, p, "melisande") and tu["shop"] < 2:
        acts.extend(locations.buy_actions(state, p, t, 1))
    return acts


def _hook_targets(state: ThiefdomState, bid: str) -> list[str]:
    """Grappling Hook: straight over alley squares to the next building (no walls).
    (Geometry only: remembered by the city.)"""
    city = state.city
    got = city.memo.get(("hook", bid))
    if got is None:
        got = city.memo[("hook", bid)] = _find_hook_targets(state, bid)
    return got


def _find_hook_targets(state: ThiefdomState, bid: str) -> list[str]:
    city = state.city
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


def card_apply(state: ThiefdomState, p: int, t: int, act: Action) -> None:
    tu = state.turn
    th = state.thieves[p][t]
    w = act.words
    a = act.verb
    who = THIEF_REFS[p][t]
    if a in ("crossbow", "fish", "hook", "pigeon", "bernhard", "samuel", "juma", "lentz", "antonius",
             "apollon"):
        tu["once"].append(a)
    if a == "crossbow":
        tu["ap"] -= 1
        gain(state, p, 1)
        state.event("crossbow", player=p, thief=who, fig=w[1])
        townsfolk.start_tmove(state, w[1], p)
    elif a == "stars":
        tu["ap"] -= 1
        th["equip"].remove("stars")
        state.equip_discard.append("stars.x")
        gain(state, p, 5)
        state.event("stars", player=p, thief=who, fig=w[1])
        stop = 1 if (w[1] == "car" and state.options["stars_carriage_first_lantern"]) else 0
        townsfolk.start_tmove(state, w[1], p, stop_at=stop)
    elif a == "fish":
        tu["ap"] -= 1
        add(th, "wine", 1)
        gain(state, p, 2)
        state.event("fish", player=p, thief=who)
    elif a == "hook":
        tu["ap"] -= 1
        state.event("hook", player=p, thief=who, place=w[1])
        thief.enter_building(state, p, t, w[1])
    elif a == "pigeon":
        tu["ap"] -= 1
        tu["sub"] = {"kind": "pigeon", "mate": int(w[1]) - 1, "left": 3, "give": 1, "get": 1}
    elif a == "lentz":
        tu["sub"] = {"kind": "lentz", "mate": int(w[1]) - 1, "left": 2, "give": 1, "get": 1}
    elif a == "smoke":
        tu["ap"] -= 1
        tu["smoke"] = True
        th["equip"].remove("smoke")
        state.equip_discard.append("smoke.x")
        gain(state, p, 4)
        state.event("smoke", player=p, thief=who)
    elif a == "bernhard":
        tu["ap"] -= 1
        th["inv"]["gold"] -= 1
        state.dungeon["gold"] += 1
        th["blind"].append(w[1])
        state.event("bernhard", player=p, thief=who, fig=w[1])
    elif a == "samuel":
        tu["ap"] -= 1
        mate = state.thieves[p][int(w[1]) - 1]
        here, there = th["pos"], mate["pos"]
        townsfolk.place(state, p, t, there)
        townsfolk.place(state, p, int(w[1]) - 1, here)
        state.event("samuel", player=p, thief=who, mate=THIEF_REFS[p][int(w[1]) - 1])
        if here != there:  # teleporting in still meets opponents, for both thieves
            if isinstance(there, str):
                thief.enter_building(state, p, t, there)
            if isinstance(here, str):
                thief.enter_building(state, p, int(w[1]) - 1, here)
        for k, moved in ((t, th), (int(w[1]) - 1, mate)):
            if isinstance(moved["pos"], int):
                townsfolk.check_thief_seen(state, p, k, moved["pos"])
    elif a == "tp":
        if ally_of(state, p, t) == "juma" and (th["pos"] in state.city.river_spaces
                                           or th["pos"] in state.city.river_cells):
            tu["once"].append("juma")
        if "." in w[1]:  # Juma onto a quay square: seen there by a guard means an arrest attempt
            townsfolk.place(state, p, t, state.city.parse(w[1]))
            state.event("teleport_square", player=p, thief=who, sq=state.city.label(th["pos"]))
            townsfolk.check_thief_seen(state, p, t, th["pos"])
        else:
            state.event("teleport", player=p, thief=who, place=w[1])
            thief.enter_building(state, p, t, w[1])
    elif a == "antonius":
        add(th, "wine", 1)
        state.event("antonius", player=p, thief=who)
    elif a == "apollon":
        th["inv"]["brandy"] -= 1
        th["inv"]["wine"] += 1
        state.event("apollon", player=p, thief=who)
    elif a == "kostanze":
        th["inv"]["gold"] -= 2
        gain(state, p, 3)
        state.event("kostanze", player=p, thief=who)
    elif a == "beatrix":
        th["ally"] = None  # Beatrix leaves the game; the ally slot is free again
        gain(state, p, 3)
        tu["ap"] += 3
        state.event("beatrix", player=p, thief=who)
    elif a == "ruth":
        g = w[1]
        state.stash[p][g] -= 1
        state.stash[p]["gold"] += 2
        gain(state, p, 2 if g == "wine" else 1)
        state.event("ruth", player=p, thief=who, good=g, vp=2 if g == "wine" else 1)
    elif a == "buy":
        locations.buy(state, p, t, w[1], at_forge=True)


# -- exchanging goods with a guildmate (Messenger Pigeon, Lentz) ----------------------------
def share_actions(state: ThiefdomState, sub: dict[str, Any]) -> list[str]:
    tu = state.turn
    th = state.thieves[tu["p"]][tu["t"]]
    mate = state.thieves[tu["p"]][sub["mate"]]
    acts = []
    if sub["left"] > 0:
        for g in GOODS:  # never artworks
            if (sub["kind"] == "pigeon" or sub["give"]) and th["inv"][g] and room(mate, g) > 0:
                acts.append(f"give {g}")
            if (sub["kind"] == "pigeon" or sub["get"]) and mate["inv"][g] and room(th, g) > 0:
                acts.append(f"get {g}")
    acts.append("done")
    return acts


def share_apply(state: ThiefdomState, sub: dict[str, Any], act: Action) -> None:
    w = act.words
    tu = state.turn
    th = state.thieves[tu["p"]][tu["t"]]
    mate = state.thieves[tu["p"]][sub["mate"]]
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
        state.event("give", player=tu["p"], thief=who, mate=mate, good=w[1])
    else:
        state.event("take", player=tu["p"], thief=who, mate=mate, good=w[1])
