"""Setup, the equipment draft and hideout placement.

Rulebook "Mise en place" (3-4 players, 2 players, solo) and "Début de la
partie" (1. draft des cartes équipement, 2. placement des repaires).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import day
from .goods import empty_inv, gain
from .notation import THIEF_REFS, Action

if TYPE_CHECKING:
    from .components import LootSide
    from .state import ThiefdomState

HOUSE_FOR_HIDEOUT = ("tower", "garden", "forge", "stable")  # never the church


def setup(state: ThiefdomState) -> None:
    """Rulebook "Mise en place", in its order (every draw from the state's generator
    in that order), then the equipment draft begins."""
    _lay_city(state)
    side = state.data.board.loot_board["3-4" if state.num_players >= 3 else "1-2"]
    _fill_city(state, side)
    half = _shuffle_decks(state)
    _place_townsfolk(state, side)
    _seat_guilds(state)
    _deal_patrol_boards(state)
    _deal_draft(state, half)


def _lay_city(state: ThiefdomState) -> None:
    """1. The city: river sections 4 and 8 east, the others at random (2p/solo: no 1 and 5)."""
    rng = state.rng
    n = state.num_players
    land = [1, 2, 3, 5, 6, 7] if n >= 3 else [2, 3, 6, 7]
    rng.shuffle(land)
    ncols = 4 if n >= 3 else 3
    river = [4, 8]
    rng.shuffle(river)
    layout = []
    for row in range(2):
        for col in range(ncols - 1):
            s = land.pop()
            layout.append([s, "AB"[rng.below(2)], rng.below(4)])
        layout.append([river[row], "AB"[rng.below(2)], 0])
    state.layout = layout
    state.ncols = ncols
    state._after_load()


def _fill_city(state: ThiefdomState, side: LootSide) -> None:
    """3-5 and 7: villas with their artworks, the loot board, the smuggling missions."""
    rng = state.rng
    d = state.data
    city = state.city
    # 3-4. catacombs and villas (2p/solo: catacomb 1 and one random villa out)
    villas = list(d.villas)
    rng.shuffle(villas)
    arts = list(d.artworks)
    rng.shuffle(arts)
    state.villas = {}
    for s in city.villa_sections:
        v = villas.pop()
        state.villas[str(s)] = {"villa": v, "art": arts.pop()}
    # 5. loot board: one badge per guard, one full purse per noble
    state.badges = {f"g{x}": 1 for x in side.guards}
    state.purses = {f"n{x}": True for x in side.nobles}
    state.dungeon = empty_inv()
    # 7. smuggling missions (variant: stacks of 2 next to each smuggler)
    missions = list(d.missions)
    rng.shuffle(missions)
    smug = [s for s in (4, 5, 7, 8) if any(sl["section"] == s for sl in city.slots)]
    state.smugglers = {str(s): missions.pop() for s in smug}
    state.stacks = {}
    if state.options["smuggling_stacks"]:
        for s in smug:
            state.stacks[str(s)] = [missions.pop(), missions.pop()]
        missions = []
    state.mission_pile = missions
    state.missions_done = [[] for _ in range(state.num_players)]


def _shuffle_decks(state: ThiefdomState) -> list[str]:
    """8-9. Clients and equipment: four full-cost cards on display; returns the shuffled
    half-cost pile the draft deals from."""
    rng = state.rng
    d = state.data
    clients = list(d.clients)
    rng.shuffle(clients)
    state.client_deck = clients
    state.client_discard = []
    state.revealed = []
    half = [f"{e}.h" for e in d.equipment]
    full = [f"{e}.f" for e in d.equipment]
    rng.shuffle(half)
    rng.shuffle(full)
    state.display = [full.pop() for _ in range(4)]
    state.equip_deck = full
    state.equip_discard = []
    return half


def _place_townsfolk(state: ThiefdomState, side: LootSide) -> None:
    """10-11. Guards at the villas facing the city, nobles at the catacombs, the carriage west."""
    rng = state.rng
    city = state.city
    state.tf = {}
    gl = [f"g{x}" for x in side.guards]
    rng.shuffle(gl)
    for s, g in zip(city.villa_sections, gl):
        cell = city.entrance_cell[s]
        north = cell < city.W
        state.tf[g] = {"cell": cell, "face": 2 if north else 0}
    nl = [f"n{x}" for x in side.nobles]
    rng.shuffle(nl)
    # 11. one noble at random on the lantern nearest each catacomb
    for cell, nb in zip(city.noble_starts, nl):
        state.tf[nb] = {"cell": cell}
    state.tf["car"] = {"cell": city.carriage_start}


def _seat_guilds(state: ThiefdomState) -> None:
    """12. Players: 8 gold in the hideout, 10 VP, three thieves off the board; the
    round's bookkeeping at its start."""
    n = state.num_players
    d = state.data
    state.vp = [d.board.start_vp] * n
    state.stash = [empty_inv() for _ in range(n)]
    for inv in state.stash:
        inv["gold"] = d.board.start_hideout_gold
    state.thieves = [[{"pos": None, "inv": empty_inv(), "equip": [], "ally": None, "brawl": False,
                       "wanted": False, "used": [], "robbed": [], "blind": []} for _ in range(3)]
                     for _ in range(n)]
    state.hideout = [None] * n
    state.stamina = [False] * n
    state.plans = [None] * n
    state.planning = [""] * n  # the tiles laid so far, in order, while planning (secret)
    state.round = 1
    state.turn = None
    state.tmove = None
    state.queue = []
    state.queue_mover = 0
    state.hide_order = []
    state.delivered = []
    state.schedule = []
    state.act = 0
    state.final = None
    state.refill = False


def _deal_patrol_boards(state: ThiefdomState) -> None:
    """13. Patrol boards; the first-player board decides the first player (solo: the
    compass and the solo patrol pile instead)."""
    n = state.num_players
    d = state.data
    if n == 1:
        state.patrol = [None]
        state.first = 0
        state.solo = {"side": "first", "pile": [], "rivals": {"1": None, "2": None, "3": None},
                      "board": None, "roll": 0}
    else:
        boards = [b.id for b in d.patrols.values() if n in b.players]
        state.rng.shuffle(boards)
        state.patrol = boards
        state.first = next(p for p, b in enumerate(boards) if d.patrols[b].first)
        state.solo = None
    state.first_order = turn_order(state)


def _deal_draft(state: ThiefdomState, half: list[str]) -> None:
    """The draft's first hands (multiplayer: 3 each, keep 1 pass 2 right...; solo: 3 keep 1,
    2 keep 1, 1) from the half-cost pile."""
    n = state.num_players
    state.half_pile = half
    if n == 1:
        state.draft = {"stage": 0, "hands": [[half.pop() for _ in range(3)]], "kept": [[]]}
    else:
        state.draft = {"stage": 0, "hands": [[half.pop() for _ in range(3)] for _ in range(n)],
                       "kept": [[] for _ in range(n)]}
    state.bought = [0] * n
    state.done = [False] * n
    state.phase = "draft"


def turn_order(state: ThiefdomState) -> list[int]:
    """Turn order: clockwise (increasing seat) from the first player."""
    n = state.num_players
    return [(state.first + i) % n for i in range(n)]


# -- draft ------------------------------------------------------------------------
def draft_actions(state: ThiefdomState, p: int) -> list[str]:
    dr = state.draft
    if state.phase == "draft":
        if len(dr["kept"][p]) > dr["stage"]:
            return []
        return [f"keep {c.split('.')[0]}" for c in dr["hands"][p]]
    # buying 0-2 of the 3 cards (rulebook "Début de la partie" 2)
    if state.done[p]:
        return []
    acts = []
    if state.bought[p] < 2:
        gold = state.stash[p]["gold"]
        for c in dr["kept"][p]:
            e = c.split(".")[0]
            if state.data.equipment[e].cost <= gold:
                for t in range(3):
                    if can_equip(state, p, t, e):
                        acts.append(f"buy {e} {t + 1}")
    acts.append("done")
    return acts


def can_equip(state: ThiefdomState, p: int, t: int, e: str) -> bool:
    eq = state.thieves[p][t]["equip"]
    return len(eq) < 2 and e not in eq  # at most 2, never two of the same on one thief


def draft_apply(state: ThiefdomState, p: int, act: Action) -> None:
    dr = state.draft
    parts = act.words
    if parts[0] == "keep":
        card = next(c for c in dr["hands"][p] if c.split(".")[0] == parts[1])
        dr["hands"][p].remove(card)
        dr["kept"][p].append(card)
        state.event("draft_keep", to=[p], secret={"card": parts[1]}, player=p)
        if all(len(k) > dr["stage"] for k in dr["kept"]):
            _draft_pass(state)
        return
    if parts[0] == "buy":
        e, t = parts[1], int(parts[2]) - 1
        card = next(c for c in dr["kept"][p] if c.split(".")[0] == e)
        dr["kept"][p].remove(card)
        eq = state.data.equipment[e]
        state.stash[p]["gold"] -= eq.cost
        state.thieves[p][t]["equip"].append(e)
        gain(state, p, eq.vp)
        state.bought[p] += 1
        state.event("draft_buy", player=p, thief=THIEF_REFS[p][t], card=e, cost=eq.cost, vp=eq.vp)
        return
    state.done[p] = True
    state.event("draft_done", player=p)
    if all(state.done):
        _draft_end(state)


def _draft_pass(state: ThiefdomState) -> None:
    dr = state.draft
    n = state.num_players
    dr["stage"] += 1
    if n == 1:
        # solo: draw 3 keep 1, draw 2 keep 1, draw 1
        state.equip_discard.extend(dr["hands"][0])
        take = 2 if dr["stage"] == 1 else 1
        dr["hands"][0] = [state.half_pile.pop() for _ in range(take)]
        if take == 1:
            dr["kept"][0].append(dr["hands"][0].pop())
            state.phase = "buy"
        return
    # pass to the right (counter-clockwise): seat p gives to seat p-1
    hands = dr["hands"]
    dr["hands"] = [hands[(p + 1) % n] for p in range(n)]
    if dr["stage"] == 2:
        for p in range(n):
            dr["kept"][p].append(dr["hands"][p].pop())
        state.phase = "buy"


def _draft_end(state: ThiefdomState) -> None:
    # every card not bought joins one face-down deck with the rest of both piles
    rest = state.half_pile + state.equip_deck + state.equip_discard
    for k in state.draft["kept"]:
        rest.extend(k)
    rest.sort()
    state.rng.shuffle(rest)
    state.equip_deck = rest
    state.equip_discard = []
    state.half_pile = []
    state.draft = None
    state.phase = "hideout"
    n = state.num_players
    # from the player right of the first player, counter-clockwise
    state.hide_order = [(state.first - 1 - i) % n for i in range(n)]


# -- hideouts ---------------------------------------------------------------------
def hideout_actions(state: ThiefdomState, p: int) -> list[str]:
    taken = set(state.hideout)
    return [f"hideout {b}" for t in HOUSE_FOR_HIDEOUT for b in state.city.by_type.get(t, [])
            if b not in taken]


def hideout_apply(state: ThiefdomState, p: int, act: Action) -> None:
    b = act.arg
    state.hideout[p] = b
    for th in state.thieves[p]:
        th["pos"] = b
    state.hide_order.pop(0)
    state.event("hideout", player=p, place=b)
    if not state.hide_order:
        day.start_round(state)
