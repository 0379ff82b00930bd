"""A thief's turn: 3 action points, stamina, moving, robbing townsfolk.

Rulebook "B. Actions des voleurs": 1. Déplacement, 2. Détrousser les citadins
(3. locations in locations.py, 4. cards in cards.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from . import cards, locations, townsfolk
from .city import DIRS, City
from .goods import GOODS, add, gain, room
from .notation import THIEF_REFS, Action

if TYPE_CHECKING:
    from .state import ThiefdomState

DROP = {g: f"drop {g}" for g in GOODS}
DROPS = tuple(DROP.items())  # (good, its drop action), in the order of GOODS
#: the notation of a step towards each direction, on the alleys and over a wall
STEP = tuple(d.lower() for d in DIRS)
CLIMB = tuple(f"climb {d.lower()}" for d in DIRS)
#: a step's notation -> its direction (the index in DIRS)
STEP_DIR = {a: d for d, a in enumerate(STEP)}
STASH = {g: f"stash {g}" for g in GOODS}
FETCH = {g: f"fetch {g}" for g in GOODS}
HAND = [{g: f"hand {k + 1} {g}" for g in GOODS} for k in range(3)]  # HAND[k][g]: to thief k + 1
TAKE = [{g: f"take {k + 1} {g}" for g in GOODS} for k in range(3)]


def start_turn(state: ThiefdomState, p: int, t: int) -> None:
    state.turn = {"p": p, "t": t, "ap": state.data.board.action_points, "mp": 0, "moving": False,
                 "over": None, "sub": None, "once": [], "smoke": False, "shop": 0, "climbed": False,
                 "chain": []}
    state.event("turn_start", player=p, thief=THIEF_REFS[p][t], ap=state.turn["ap"])


def _end_turn(state: ThiefdomState) -> None:
    p, t = state.turn["p"], state.turn["t"]
    state.event("turn_end", player=p, thief=THIEF_REFS[p][t])
    state.turn = None
    if state.refill:  # the Dealer's display is refilled after the buyer's turn
        state.refill = False
        while len(state.display) < 4 and locations.draw_equipment_possible(state):
            state.display.append(locations.draw_equipment(state))


# -- top level of a turn ---------------------------------------------------------
def turn_actions(state: ThiefdomState) -> list[str]:
    tu = state.turn
    p, t = tu["p"], tu["t"]
    th = state.thieves[p][t]
    if tu["sub"] is not None or tu["moving"]:
        acts = locations.sub_actions(state) if tu["sub"] is not None else move_actions(state)
        # Rulebook "Les biens", remark: goods may be discarded at any time to make
        # room, so also in the middle of a move or of a location's sub-actions
        _add_drops(acts, th["inv"])
        return acts
    acts = ["end"]
    if not state.stamina[p]:
        acts.append("stamina")
    pos = th["pos"]
    if tu["ap"] >= 1:
        acts.append("move")
        if type(pos) is int:
            acts.extend(_rob_actions(state, p, t, pos))
        elif locations.can_use(state, p, t, pos):
            acts.append("use")
    eq = th["equip"]
    if th["ally"] is not None or (eq and not cards.ACTION_CARDS.isdisjoint(eq)) or (
            type(pos) is str and state.city.buildings[pos]["type"] == "forge"):
        acts.extend(cards.card_actions(state, p, t))  # (none without an ally, action card or Forge)
    if pos == state.hideout[p] and pos is not None:
        # the hideout inventory: goods move freely between it and the thief
        st = state.stash[p]
        inv = th["inv"]
        for g in GOODS:
            if inv[g] > 0:
                acts.append(STASH[g])
            if st[g] > 0 and room(th, g) > 0:
                acts.append(FETCH[g])
        for a in inv["art"]:
            acts.append(f"stash {a}")
        for a in st["art"]:
            if room(th, "art") > 0:
                acts.append(f"fetch {a}")
        # guildmates at home may trade goods with this thief directly
        for k, mate in enumerate(state.thieves[p]):
            if k != t and mate["pos"] == pos:
                hand, take, mate_inv = HAND[k], TAKE[k], mate["inv"]
                for g in GOODS:
                    if inv[g] > 0 and room(mate, g) > 0:
                        acts.append(hand[g])
                    if mate_inv[g] > 0 and room(th, g) > 0:
                        acts.append(take[g])
    _add_drops(acts, th["inv"])
    return acts


def _drop_actions(state: ThiefdomState, th: dict[str, Any]) -> list[str]:
    """Rulebook "Les biens", remark: any good, artworks included (they are loot),
    may be discarded at any time to make room."""
    acts: list[str] = []
    _add_drops(acts, th["inv"])
    return acts


def turn_apply(state: ThiefdomState, act: Action) -> None:
    tu = state.turn
    p, t = tu["p"], tu["t"]
    th = state.thieves[p][t]
    if act.verb == "drop":
        g = act.args[0]
        if g in GOODS:
            th["inv"][g] -= 1
            state.event("drop", player=p, thief=THIEF_REFS[p][t], good=g)
        else:  # an artwork never goes back to a villa: it leaves the game
            th["inv"]["art"].remove(g)
            state.delivered.append(g)
            state.event("drop_art", player=p, thief=THIEF_REFS[p][t], art=g)
        return
    if tu["sub"] is not None:
        locations.sub_apply(state, act)
        return
    if tu["moving"]:
        _move_apply(state, act)
        return
    w = act.args  # the words after the verb
    a = act.verb
    if a == "end":
        _end_turn(state)
    elif a == "stamina":
        # once per night: +1 AP for one thief
        state.stamina[p] = True
        tu["ap"] += 1
        state.event("stamina", player=p, thief=THIEF_REFS[p][t])
    elif a == "move":
        tu["ap"] -= 1
        tu["moving"] = True
        tu["mp"] = state.data.board.movement_points + (1 if "shoes" in th["equip"] else 0)  # Shoes: 4
        # Tristan has no frequency condition: +1 point for a trip through the
        # catacombs in every move action (once per move, so a move always ends)
        tu["tristan"] = False
        state.event("move_start", player=p, thief=THIEF_REFS[p][t], mp=tu["mp"])
    elif a == "rob":
        tu["ap"] -= 1
        _rob(state, p, t, w)
    elif a == "use":
        tu["ap"] -= 1
        locations.use_location(state, p, t)
    elif a == "stash":
        _transfer(state, th["inv"], state.stash[p], w[0])
    elif a == "fetch":
        _transfer(state, state.stash[p], th["inv"], w[0])
    elif a in ("hand", "take"):
        mate = state.thieves[p][int(w[0]) - 1]
        src, dst = (th, mate) if a == "hand" else (mate, th)
        _transfer(state, src["inv"], dst["inv"], w[1])
        mate = THIEF_REFS[p][int(w[0]) - 1]
        if a == "hand":
            state.event("give", player=p, thief=THIEF_REFS[p][t], mate=mate, good=w[1])
        else:
            state.event("take", player=p, thief=THIEF_REFS[p][t], mate=mate, good=w[1])
    else:
        cards.card_apply(state, p, t, act)


def _transfer(state: ThiefdomState, src: dict[str, Any], dst: dict[str, Any], good: str) -> None:
    if good in GOODS:
        src[good] -= 1
        dst[good] += 1
    else:
        src["art"].remove(good)
        dst["art"].append(good)


# -- 1. moving ----------------------------------------------------------------------
def move_actions(state: ThiefdomState) -> list[str]:
    tu = state.turn
    p, t = tu["p"], tu["t"]
    th = state.thieves[p][t]
    pos = th["pos"]
    city = state.city
    occ = townsfolk.occupancy_now(state)
    acts = []
    mp = tu["mp"]
    can_climb = "climbing" in th["equip"] and not tu["climbed"]
    if type(pos) is str:
        b = city.buildings[pos]
        if mp >= 1:
            # leaving: onto any adjacent alley square (rulebook "Entrer et sortir
            # d'un bâtiment"); option exit_through_entrances keeps to the entrances
            ways = b["entrances"] if state.options["exit_through_entrances"] else b["adjacent"]
            exits = _square_actions(city, "exit")
            for c in (b["all_adjacent"] if can_climb else ways):
                if c not in occ:
                    acts.append(exits[c])
        acts.append("stop")
        return acts
    if mp >= 1:
        steps = city.steps[pos]
        door = city.door
        for d in range(4):
            # what _step_kind answers: the buildings and the city edge are the city's
            kind = door[pos * 4 + d]
            if kind == "alley" or kind == "walled":
                if kind == "alley" and steps[d] not in occ:
                    acts.append(STEP[d])  # onto a free alley square
                    continue
                kind = _step_kind(state, p, t, pos, d, occ, can_climb)
                if kind:
                    acts.append(CLIMB[d] if kind == "climb" else STEP[d])
            elif kind == "enter":
                acts.append(STEP[d])
            elif kind == "climb" and can_climb:
                acts.append(CLIMB[d])
        if pos in city.catacomb_section:
            for c, s in city.catacomb_section.items():
                if c != pos and c not in occ:
                    acts.append(f"cata {s}")
        ally = th["ally"]
        if ally and state.data.power[ally] == "jin" and not tu.get("jin"):  # Jin: once per turn ("1 x par tour")
            for c in _jin_targets(state, pos, occ):
                acts.append(f"jin {city.name(c)}")
    over = tu["over"]
    if over is None:
        acts.append("stop")
    elif over[0] == "p" and int(over[1]) == p:
        # skipping your own thief: the two may exchange goods
        mate = state.thieves[p][int(over[3])]
        for g in GOODS:
            if th["inv"][g] > 0 and room(mate, g) > 0:
                acts.append(f"give {g}")
            if mate["inv"][g] > 0 and room(th, g) > 0:
                acts.append(f"get {g}")
        for a in th["inv"]["art"]:
            if room(mate, "art") > 0:
                acts.append(f"give {a}")
        for a in mate["inv"]["art"]:
            if room(th, "art") > 0:
                acts.append(f"get {a}")
    return acts


def _step_kind(state: ThiefdomState, p: int, t: int, pos: int, d: int, occ: dict[int, str], can_climb: bool) -> str | None:
    """Can the thief step from alley square ``pos`` towards ``d``? 'step', 'enter', 'climb' or None."""
    city = state.city
    nb = city.steps[pos][d]
    if nb < 0:
        # off the city edge: only into the villa in front of its entrance
        for s in city.villa_sections:
            if city.entrance_cell[s] == pos:
                return "enter"
        return None
    walled = (pos, nb) in city.walls
    if city.alley[nb]:
        ref = occ.get(nb)
        if ref and ref[0] == "g" and not (state.turn["smoke"] or state.options["thieves_skip_guards"]):
            return None  # a guard's square cannot be passed (Smoke Bomb excepted)
        if ref and not _skip_has_exit(state, nb, occ):
            return None  # a skip must lead on to a free square, never back over itself
        if walled:
            return "climb" if can_climb else None
        return "step"
    b = city.buildings[cast(str, city.building_at[nb])]
    if walled or pos not in b["entrances"]:
        return "climb" if can_climb else None
    return "enter"


def _skip_has_exit(state: ThiefdomState, cell: int, occ: dict[int, str]) -> bool:
    """Passing over occupied squares must end on a free square; squares already
    passed over in this skip are not passed again (so a skip always ends)."""
    chain = set(state.turn.get("chain", []))
    if cell in chain:
        return False
    seen = chain | {cell}
    stack = [cell]
    smoke = state.turn["smoke"] or state.options["thieves_skip_guards"]
    while stack:
        cur = stack.pop()
        for nb in state.city.nbr[cur]:
            if nb < 0 or nb in seen:
                continue
            ref = occ.get(nb)
            if ref is None:
                return True
            if ref[0] == "g" and not smoke:
                continue
            seen.add(nb)
            stack.append(nb)
    return False


def _move_apply(state: ThiefdomState, act: Action) -> None:
    tu = state.turn
    p, t = tu["p"], tu["t"]
    th = state.thieves[p][t]
    city = state.city
    w = act.args  # the words after the verb
    a = act.verb
    if a == "stop":
        _stop_move(state)
        return
    if a in ("give", "get"):
        mate = state.thieves[p][int(tu["over"][3])]
        src, dst = (th, mate) if a == "give" else (mate, th)
        _transfer(state, src["inv"], dst["inv"], w[0])
        mate = THIEF_REFS[p][int(tu["over"][3])]
        if w[0] not in GOODS:
            if a == "give":
                state.event("give_art", player=p, thief=THIEF_REFS[p][t], mate=mate, art=w[0])
            else:
                state.event("take_art", player=p, thief=THIEF_REFS[p][t], mate=mate, art=w[0])
        elif a == "give":
            state.event("give", player=p, thief=THIEF_REFS[p][t], mate=mate, good=w[0])
        else:
            state.event("take", player=p, thief=THIEF_REFS[p][t], mate=mate, good=w[0])
        return
    if a == "exit":
        cell = city.parse(w[0])
        b = city.buildings[th["pos"]]
        ways = b["entrances"] if state.options["exit_through_entrances"] else b["adjacent"]
        if cell not in ways:
            tu["climbed"] = True  # Climbing Tools: over the building's wall
        tu["mp"] -= 1
        state.event("exit", player=p, thief=THIEF_REFS[p][t], place=th["pos"], sq=city.label(cell))
        _land(state, p, t, cell)
        return
    if a == "cata":
        # catacombs: the squares next to any catacomb are adjacent to each other
        target = city.entrance_cell[int(w[0])]
        tu["mp"] -= 1
        if cards.ally_of(state, p, t) == "tristan" and not tu.get("tristan"):
            tu["tristan"] = True
            tu["mp"] += 1  # Tristan: +1 movement point in the catacombs
        state.event("catacombs", player=p, thief=THIEF_REFS[p][t], sq=city.label(target))
        _land(state, p, t, target)
        return
    if a == "jin":
        tu["jin"] = True
        tu["mp"] -= 1
        state.event("jin", player=p, thief=THIEF_REFS[p][t], sq=city.label(city.parse(w[0])))
        _land(state, p, t, city.parse(w[0]))
        return
    if a == "climb":
        tu["climbed"] = True
        a = w[0]
    d = STEP_DIR[a]  # (so ``a`` is one of "n", "e", "s", "w")
    pos = th["pos"]
    nb = city.steps[pos][d]
    if nb < 0 or not city.alley[nb]:
        bid = cast(str, city.building_at[nb]) if nb >= 0 else next(
            f"villa{s}" for s in city.villa_sections if city.entrance_cell[s] == pos)
        tu["mp"] -= 1
        enter_building(state, p, t, bid)
        _stop_move(state)
        return
    kept = state._occ_cache
    ref = kept.get(nb) if kept is not None else townsfolk.figure_at(state, nb)
    state.event("step", player=p, thief=THIEF_REFS[p][t], sq=city.labels[nb], dir=a)
    if ref is None:
        tu["mp"] -= 1
        _land(state, p, t, nb)
    else:
        _skip_onto(state, p, t, nb, ref)


def _stop_move(state: ThiefdomState) -> None:
    tu = state.turn
    tu["moving"] = False
    tu["mp"] = 0
    tu["over"] = None
    tu["chain"] = []


def _land(state: ThiefdomState, p: int, t: int, cell: int) -> None:
    tu = state.turn
    townsfolk.place(state, p, t, cell)
    tu["over"] = None
    tu["chain"] = []
    if townsfolk.check_thief_seen(state, p, t, cell):
        # Rulebook "Tentative d'arrestation", case 3: the move is interrupted at once
        # (arrested, or escaped through Wibald: the turn may go on, the move does not)
        _stop_move(state)
        return
    if tu["mp"] <= 0:
        _stop_move(state)


def _skip_onto(state: ThiefdomState, p: int, t: int, cell: int, ref: str) -> None:
    """Skipping an occupied square costs nothing; an opposing thief costs 1 VP,
    a wanted thief meeting a noble or the carriage is an attempted arrest."""
    tu = state.turn
    th = state.thieves[p][t]
    townsfolk.place(state, p, t, cell)
    tu["over"] = ref
    tu.setdefault("chain", []).append(cell)
    # Smoke Bomb: every figure on the alleys counts as friendly this turn
    if ref[0] == "p" and int(ref[1]) != p and cards.ally_of(state, p, t) != "benjamin" and not tu["smoke"]:
        gain(state, p, -1)
        state.event("slip", player=p, thief=THIEF_REFS[p][t], other=ref, victim=int(ref[1]))
    if ref[0] in "nc" and th["wanted"]:
        pending = [[f"p{p}t{t}", ref, cell]]
        if townsfolk.resolve(state, pending):
            return
    townsfolk.check_thief_seen(state, p, t, cell)


def enter_building(state: ThiefdomState, p: int, t: int, bid: str) -> None:
    """Entering a building: -1 VP per opposing thief inside, except thieves in
    their own hideout and when entering your own hideout; solo: per rival."""
    th = state.thieves[p][t]
    townsfolk.place(state, p, t, bid)
    state.event("enter", player=p, thief=THIEF_REFS[p][t], place=bid)
    if bid != state.hideout[p] and cards.ally_of(state, p, t) != "benjamin":
        others = 0
        for q, ts in enumerate(state.thieves):
            if q != p and state.hideout[q] != bid:
                for o in ts:
                    if o["pos"] == bid:
                        others += 1
        if state.solo:
            others += sum(1 for v in state.solo["rivals"].values() if v == bid)
        if others:
            gain(state, p, -others)
            state.event("meet", player=p, thief=THIEF_REFS[p][t], n=others, place=bid)
    if bid == state.hideout[p] and th["wanted"]:
        th["wanted"] = False  # a quick change of clothes at home
        state.event("poster_home", player=p, thief=THIEF_REFS[p][t])


def _jin_targets(state: ThiefdomState, pos: int, occ: dict[int, str]) -> list[int]:
    city = state.city
    out = set()
    for d in range(4):
        nb = city._step(pos, d)
        if nb >= 0 and not city.alley[nb]:
            for c in city.buildings[cast(str, city.building_at[nb])]["all_adjacent"]:
                if c != pos and c not in occ:
                    out.add(c)
    return sorted(out)


# -- 2. robbing townsfolk ----------------------------------------------------------------
def _rob_actions(state: ThiefdomState, p: int, t: int, pos: int) -> list[str]:
    nbs = state.city.nbr[pos]
    kept = state._occ_cache  # (one figure per square: a townsfolk there is the one it names)
    if kept is not None:
        for nb in nbs:
            ref = kept.get(nb)
            if ref is not None and ref[0] != "p":
                break
        else:
            return []  # no townsfolk on an alley square next to the thief
    else:
        for f in state.tf.values():
            if f["cell"] in nbs:
                break
        else:
            return []
    th = state.thieves[p][t]
    acts = []
    for d in range(4):
        nb = state.city.nbr[pos][d]
        if nb < 0:
            continue
        for fig, f in state.tf.items():
            if f["cell"] != nb or fig in th["robbed"]:
                continue
            if fig == "car":
                acts.append("rob car")
                if cards.ally_of(state, p, t) == "mortana" and th["inv"]["gold"] >= 1:
                    acts.append("rob car pay")
            elif fig[0] == "g":
                # never from inside the guard's field of view
                if pos not in townsfolk.guard_sees(state, fig) and (state.badges[fig] or "cudgel" in th["equip"]):
                    acts.append(f"rob {fig}")
            elif state.purses[fig]:
                if "thimble" in th["equip"]:
                    acts.append(f"rob {fig}")
                elif state.options["noble_purse_fixed"]:
                    acts.append(f"rob {fig} {state.data.board.purse_goods[fig[1]]}")
                else:
                    acts.extend([f"rob {fig} gold", f"rob {fig} gem"])
    return acts


def _rob(state: ThiefdomState, p: int, t: int, w: tuple[str, ...]) -> None:
    th = state.thieves[p][t]
    fig = w[0]
    th["robbed"].append(fig)  # each figure at most once per night by this thief
    who = THIEF_REFS[p][t]
    if fig == "car":
        if len(w) > 1:  # Mortana: pay 1 gold, 2 wine, no poster
            th["inv"]["gold"] -= 1
            add(th, "wine", 2)
            state.event("rob_car_mortana", player=p, thief=who, fig=fig)
        else:
            add(th, "wine", 1)
            th["wanted"] = True
            state.event("rob_car", player=p, thief=who, fig=fig)
    elif fig[0] == "g":
        if state.badges[fig]:
            state.badges[fig] = 0
            add(th, "badge", 1)
            state.event("rob_badge", player=p, thief=who, fig=fig)
        if "cudgel" in th["equip"]:
            # Cudgel: +1 VP, then the guard moves at once by the normal rules
            gain(state, p, 1)
            state.event("cudgel", player=p, thief=who, fig=fig)
            townsfolk.start_tmove(state, fig, p)
    else:
        state.purses[fig] = False
        gold = gem = 0
        if "thimble" in th["equip"]:
            gold = add(th, "gold", 2)
            gem = add(th, "gem", 1)
        elif w[1] == "gold":
            gold = add(th, "gold", 2)
        else:
            gem = add(th, "gem", 1)
        if cards.ally_of(state, p, t) == "quinta":
            gem += add(th, "gem", 1)
        state.event("rob_noble", player=p, thief=who, fig=fig, gold=gold, gem=gem)


#: (verb, city width, city height) -> the table of :func:`_square_actions`
_SQUARE_ACTIONS: dict[tuple[str, int, int], list[str]] = {}


def _square_actions(city: City, verb: str) -> list[str]:
    """``table[square]``: the notation ``"<verb> row.col"`` of every square (the same
    for every city of one size: kept per size, never changed)."""
    key = (verb, city.W, city.H)
    table = _SQUARE_ACTIONS.get(key)
    if table is None:
        table = _SQUARE_ACTIONS[key] = [f"{verb} {city.name(c)}" for c in range(city.W * city.H)]
    return table


def _add_drops(acts: list[str], inv: dict[str, Any]) -> None:
    """Append the drop actions of inventory ``inv`` (see ``_drop_actions``), in the
    order of GOODS (written out: this runs at every decision of a turn)."""
    if inv["gold"] > 0:
        acts.append("drop gold")
    if inv["gem"] > 0:
        acts.append("drop gem")
    if inv["brandy"] > 0:
        acts.append("drop brandy")
    if inv["wine"] > 0:
        acts.append("drop wine")
    if inv["badge"] > 0:
        acts.append("drop badge")
    for a in inv["art"]:
        acts.append("drop " + a)
