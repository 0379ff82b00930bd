"""Using a location (1 AP): market, villa, dealer, tavern, dungeon, smuggler.

Rulebook "3. Actions des voleurs : activer un lieu". One use lets the thief do
every sub-action of the location once, in any order (the ones marked with
the infinity sign as often as wanted); each thief uses each location at most
once per night. A use is a sequence of small decisions ending with "done".
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import cards, setup, thief
from .goods import GOODS, add, gain, room
from .notation import THIEF_REFS, Action

if TYPE_CHECKING:
    from .state import ThiefdomState


def _loc_type(state: ThiefdomState, bid: str) -> str:
    kind: str = state.city.buildings[bid]["type"]
    return kind


def can_use(state: ThiefdomState, p: int, t: int, bid: str) -> bool:
    th = state.thieves[p][t]
    kind = state.city.buildings[bid]["type"]
    if kind not in ("market", "dealer", "tavern", "dungeon", "smuggler", "villa"):
        return False
    if bid in th["used"]:
        return False  # once per thief per night
    if th["used"] and state.options["one_location_per_night"]:
        return False  # option: one location activation per thief per night
    if kind == "smuggler":
        m = state.smugglers.get(str(state.city.buildings[bid]["section"]))
        return m is not None and _can_deliver(state, th, state.data.missions[m].deliver)
    return True


def _can_deliver(state: ThiefdomState, th: dict[str, Any], need: dict[str, Any]) -> bool:
    return all(th["inv"][g] >= n for g, n in need.items())


def use_location(state: ThiefdomState, p: int, t: int) -> None:
    th = state.thieves[p][t]
    bid = th["pos"]
    kind = _loc_type(state, bid)
    th["used"].append(bid)
    state.event("use", player=p, thief=THIEF_REFS[p][t], place=bid)
    sub = {"kind": kind, "bid": bid, "done": []}
    if kind == "smuggler":
        _smuggle(state, p, t, bid)
        return
    if kind == "market" and cards.ally_of(state, p, t) == "kunrad":
        add(th, "gem", 1)  # Kunrad: +1 gem and +1 VP per Market action
        gain(state, p, 1)
    if kind == "villa" and "lockpick" in th["equip"]:
        gain(state, p, 1)  # Lock Pick: +1 VP whenever the thief uses a villa
    state.turn["sub"] = sub


def _smuggle(state: ThiefdomState, p: int, t: int, bid: str) -> None:
    th = state.thieves[p][t]
    sec = str(state.city.buildings[bid]["section"])
    m = state.data.missions[state.smugglers[sec]]
    for g, n in m.deliver.items():
        th["inv"][g] -= n
    _reward(state, p, t, m.reward)
    if cards.guild_has(state, p, "oswald"):
        add(th, "gold", 2)  # Oswald: +2 gold and +2 VP per mission
        gain(state, p, 2)
    state.missions_done[p].append(m.id)
    state.smugglers[sec] = None
    state.event("mission", player=p, thief=THIEF_REFS[p][t], place=bid, mission=m.id)


def _reward(state: ThiefdomState, p: int, t: int, reward: dict[str, Any]) -> None:
    th = state.thieves[p][t]
    for g, n in reward.items():
        if g == "vp":
            gain(state, p, n)
        elif g != "equipment":  # "draw 2 keep 1" is resolved by the caller
            add(th, g, n)


# -- sub-actions ------------------------------------------------------------------------
def sub_actions(state: ThiefdomState) -> list[str]:
    tu = state.turn
    p, t = tu["p"], tu["t"]
    th = state.thieves[p][t]
    inv = th["inv"]
    sub = tu["sub"]
    kind = sub["kind"]
    if kind in ("pigeon", "lentz"):
        return cards.share_actions(state, sub)
    if kind == "clients":
        return ([f"ally {c}" for c in state.revealed if _ally_cost(state, p, c) <= inv["gold"]]
                + [f"brawl {c}" for c in state.revealed] + ["decline"])
    if kind == "artdraw":
        # artwork reward "draw 2 cards, keep 1": the delivering thief equips the kept card
        keep = []
        for card in sub["cards"]:
            e = card.split(".")[0]
            if setup.can_equip(state, p, t, e) and f"keep {e}" not in keep:
                keep.append(f"keep {e}")
        return keep or ["discard"]
    done = sub["done"]
    acts = []
    if kind == "market":
        if "gold" not in done and room(th, "gold") > 0:
            acts.append("fill gold")
        if inv["brandy"]:
            acts.append("sell brandy")
        if "clients" not in done and cards.guild_has(state, p, "richard") and _may_ally(state, th):
            acts.append("clients")  # Richard: the client step at the Market
    elif kind == "villa":
        if "loot" not in done:
            v = state.villas[sub["bid"][5:]]
            lock = state.data.villas[v["villa"]].locked
            pick = "lockpick" in th["equip"]
            if lock != "gems" or pick:
                acts.append("take gems")
            if v["art"] and room(th, "art") > 0 and (lock != "art" or pick):
                acts.append("take art")
        if cards.ally_of(state, p, t) == "jonathan" and inv["wine"]:
            acts.append("sell wine")
    elif kind == "dealer":
        if "deliver" not in done:
            acts.extend(f"deliver {a}" for a in inv["art"])
        if inv["gem"]:
            acts.append("sell gem")
        if done.count("buy") < 2:
            acts.extend(buy_actions(state, p, t, 0))
        if cards.ally_of(state, p, t) == "svenja" and "svenja" not in done:
            acts.extend(f"svenja {b}" for b in state.city.by_type.get("tavern", []))
    elif kind == "tavern":
        if "clients" not in done and _may_ally(state, th):
            acts.append("clients")
        if inv["wine"]:
            acts.append("sell wine")
        if inv["gold"] and room(th, "brandy") > 0:
            acts.append("buy brandy")
        if cards.ally_of(state, p, t) == "svenja" and "svenja" not in done:
            acts.extend(f"svenja {b}" for b in state.city.by_type.get("dealer", []))
    elif kind == "dungeon":
        for g in GOODS:
            if state.dungeon[g] and room(th, g) > 0:
                acts.append(f"take {g}")
        for a in state.dungeon["art"]:
            if room(th, "art") > 0:
                acts.append(f"take {a}")
        if inv["badge"]:
            acts.append("sell badge")
        if th["wanted"] and "burn" not in done:
            acts.append("burn poster")
    elif kind == "forge":
        if tu["shop"] < 2:
            acts.extend(buy_actions(state, p, t, 1))
    acts.append("done")
    return acts


def _may_ally(state: ThiefdomState, th: dict[str, Any]) -> bool:
    return th["ally"] is None and not th["brawl"]


def _ally_cost(state: ThiefdomState, p: int, c: str) -> int:
    return 0 if cards.guild_has(state, p, "richard") else state.data.clients[c].cost


def buy_actions(state: ThiefdomState, p: int, t: int, discount: int) -> list[str]:
    th = state.thieves[p][t]
    out = []
    for card in state.display:
        e = card.split(".")[0]
        if setup.can_equip(state, p, t, e) and max(0, state.data.equipment[e].cost - discount) <= th["inv"]["gold"]:
            a = f"buy {e}"
            if a not in out:
                out.append(a)
    return out


def sub_apply(state: ThiefdomState, act: Action) -> None:
    """A choice inside a location (or a shared card) the thief is using: ``turn["sub"]``."""
    tu = state.turn
    p, t = tu["p"], tu["t"]
    th = state.thieves[p][t]
    inv = th["inv"]
    sub = tu["sub"]
    kind = sub["kind"]
    w = act.words
    a = act.verb
    who = THIEF_REFS[p][t]
    if kind in ("pigeon", "lentz"):
        cards.share_apply(state, sub, act)
        return
    if kind == "clients":
        _clients_choice(state, p, t, w)
        return
    if kind == "artdraw":
        _keep_drawn(state, p, t, w[1] if a == "keep" else None)
        return
    if a == "done":
        tu["sub"] = None
        return
    if a == "fill":  # Market: fill the gold slots
        sub["done"].append("gold")
        n = add(th, "gold", 99)
        state.event("fill_gold", player=p, thief=who, n=n)
    elif a == "sell":
        _sell(state, p, t, w[1])
    elif a == "clients":
        sub["done"].append("clients")
        state.revealed = [_draw_client(state) for _ in range(4) if _draw_client_possible(state)]
        state.event("clients", player=p, thief=who, clients=list(state.revealed))
        tu["sub"] = {"kind": "clients", "back": sub}
    elif a == "take" and kind == "villa":
        sub["done"].append("loot")
        v = state.villas[sub["bid"][5:]]
        if w[1] == "gems":
            n = add(th, "gem", 99)
            state.event("villa_gems", player=p, thief=who, n=n, place=sub["bid"])
        else:
            inv["art"].append(v["art"])
            state.event("villa_art", player=p, thief=who, art=v["art"], place=sub["bid"])
            v["art"] = None
    elif a == "take":
        _take_from_dungeon(state, p, t, w[1])
    elif a == "burn":
        sub["done"].append("burn")
        th["wanted"] = False
        gain(state, p, 3)
        state.event("burn", player=p, thief=who)
    elif a == "deliver":
        _deliver(state, p, t, w[1])
    elif a == "buy" and kind == "tavern":
        inv["gold"] -= 1
        inv["brandy"] += 1
        state.event("buy_brandy", player=p, thief=who)
    elif a == "buy":
        buy(state, p, t, w[1], at_forge=(kind == "forge"))
        sub["done"].append("buy")
    elif a == "svenja":
        sub["done"].append("svenja")
        state.event("teleport", player=p, thief=who, place=w[1])
        th["pos"] = w[1]  # Svenja: teleport between a Dealer and a Tavern
        thief.enter_building(state, p, t, w[1])


def _keep_drawn(state: ThiefdomState, p: int, t: int, card: str | None) -> None:
    """An artwork's "draw 2 cards, keep 1": the thief equips the kept card (or none);
    the others are discarded and the dealer's choices come back."""
    tu = state.turn
    sub = tu["sub"]
    drawn = sub["cards"]
    who = THIEF_REFS[p][t]
    if card is not None:
        drawn.remove(next(c for c in drawn if c.split(".")[0] == card))
        state.thieves[p][t]["equip"].append(card)
        state.event("art_keep", player=p, thief=who, card=card)
    else:
        state.event("art_none", player=p, thief=who)
    state.equip_discard.extend(drawn)
    tu["sub"] = sub["back"]


def _sell(state: ThiefdomState, p: int, t: int, g: str) -> None:
    """Sell one good at a Dealer for VP (more with Janus, Malika or Jonathan)."""
    state.thieves[p][t]["inv"][g] -= 1
    vp = {"brandy": 2 if cards.ally_of(state, p, t) == "janus" else 1,
          "gem": 2 if cards.ally_of(state, p, t) == "malika" else 1,
          "wine": 4 if cards.ally_of(state, p, t) == "jonathan" else 2,
          "badge": 2}[g]
    gain(state, p, vp)
    state.event("sell", player=p, thief=THIEF_REFS[p][t], good=g, vp=vp)


def _take_from_dungeon(state: ThiefdomState, p: int, t: int, g: str) -> None:
    """Take one good or artwork (by its name) out of the Dungeon."""
    inv = state.thieves[p][t]["inv"]
    who = THIEF_REFS[p][t]
    if g in GOODS:
        state.dungeon[g] -= 1
        inv[g] += 1
        state.event("dungeon_take", player=p, thief=who, good=g)
    else:
        state.dungeon["art"].remove(g)
        inv["art"].append(g)
        state.event("dungeon_take_art", player=p, thief=who, art=g)


def _deliver(state: ThiefdomState, p: int, t: int, art: str) -> None:
    """Deliver an artwork to a Dealer: it leaves the game for its reward."""
    tu = state.turn
    sub = tu["sub"]
    sub["done"].append("deliver")
    state.thieves[p][t]["inv"]["art"].remove(art)
    state.delivered.append(art)  # the artwork leaves the game
    reward = state.data.artworks[art].reward
    _reward(state, p, t, reward)
    state.event("deliver", player=p, thief=THIEF_REFS[p][t], art=art)
    if reward.get("equipment"):
        # the reward icon "draw 2 cards, keep 1" (equipment: the dealers trade
        # equipment for paintings)
        drawn: list[str] = []
        while len(drawn) < 2 and draw_equipment_possible(state):
            drawn.append(draw_equipment(state))
        if drawn:
            tu["sub"] = {"kind": "artdraw", "cards": drawn, "back": sub}


def buy(state: ThiefdomState, p: int, t: int, e: str, at_forge: bool) -> None:
    th = state.thieves[p][t]
    card = next(c for c in state.display if c.split(".")[0] == e)
    state.display.remove(card)
    eq = state.data.equipment[e]
    cost = max(0, eq.cost - 1) if at_forge else eq.cost
    th["inv"]["gold"] -= cost
    th["equip"].append(e)
    vp = eq.vp + (1 if at_forge else 0)  # Melisande: +1 VP for purchases at a forge
    gain(state, p, vp)
    state.refill = True
    if at_forge:
        state.turn["shop"] += 1
    state.event("buy", player=p, thief=THIEF_REFS[p][t], card=e, cost=cost, vp=vp)


def _clients_choice(state: ThiefdomState, p: int, t: int, w: list[str]) -> None:
    """Tavern A: ally (pay, gain VP and goods), brawl (face down, +1 VP, never
    again) or decline; the other revealed clients go to the discard."""
    tu = state.turn
    th = state.thieves[p][t]
    who = THIEF_REFS[p][t]
    chosen = w[1] if len(w) > 1 else None
    if w[0] == "ally":
        c = state.data.clients[w[1]]
        th["inv"]["gold"] -= _ally_cost(state, p, w[1])
        th["ally"] = chosen
        gain(state, p, c.vp)
        for g, n in c.goods.items():
            add(th, g, n)
        state.event("ally", player=p, thief=who, client=chosen, vp=c.vp)
    elif w[0] == "brawl":
        th["brawl"] = True
        th["brawled"] = chosen
        gain(state, p, 1)
        state.event("brawl", player=p, thief=who)
    else:
        state.event("decline", player=p, thief=who)
    state.client_discard.extend(c for c in state.revealed if c != chosen)
    state.revealed = []
    tu["sub"] = tu["sub"]["back"]


# -- decks ------------------------------------------------------------------------------
def _draw_client_possible(state: ThiefdomState) -> bool:
    return bool(state.client_deck or state.client_discard)


def _draw_client(state: ThiefdomState) -> str:
    if not state.client_deck:  # an empty deck: shuffle its discards
        state.client_deck = state.client_discard
        state.client_discard = []
        state.rng.shuffle(state.client_deck)
    return state.client_deck.pop()


def draw_equipment_possible(state: ThiefdomState) -> bool:
    return bool(state.equip_deck or state.equip_discard)


def draw_equipment(state: ThiefdomState) -> str:
    if not state.equip_deck:
        state.equip_deck = state.equip_discard
        state.equip_discard = []
        state.rng.shuffle(state.equip_deck)
    return state.equip_deck.pop()
