"""Rounds: planning (night 1), the action phase (night 2), administration (day 3)
and the end of the game.

Rulebook "Déroulement d'une manche", "Jour : 3. Phase d'administration",
"Fin de la partie", "Victoire", variants "Planification chaotique".
"""
from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any, cast

from . import cards, locations, setup, solo, thief, townsfolk
from .goods import add, gain, goods_vp, total_goods
from .notation import Action

if TYPE_CHECKING:
    from .state import ThiefdomState

PLANS4 = ["".join(x) for x in permutations("123P")]
PLANS3 = ["".join(x) for x in permutations("123")]
PLAN = {x: f"plan {x}" for x in "123P"}  # the notation of laying each tile


def start_round(state: ThiefdomState) -> None:
    state.phase = "plan"
    state.plans = [None] * state.num_players
    state.planning = [""] * state.num_players
    if state.solo:
        pile = ["S1", "S2", "S3"]
        state.rng.shuffle(pile)  # the solo patrol boards form a new pile each round
        state.solo["pile"] = pile
    state.event("night", night=state.round, nights=state.data.board.nights)
    if state.options["chaotic_planning"]:
        # variant: the tiles are shuffled and placed at random
        for p in range(state.num_players):
            opts = PLANS3 if state.solo else PLANS4
            state.plans[p] = opts[state.rng.below(len(opts))]
        _begin_actions(state)


# Planning (rulebook "1. Phase de planification"): each player lays the tiles of
# its three thieves and its patrol board (solo: the three thieves) face down in
# an order of activation. The engine asks for the order one slot at a time
# (which tile goes in the next free slot), so a player clicks the tiles into
# the slots; the last tile fills the last slot by itself. The order stays
# secret until every player has finished, exactly as with the whole order
# at once: only the number of the decision differs.
def secret_step(state: ThiefdomState, player: int, action: str) -> bool:
    """A tile laid in a slot is a secret step (``State._secret_step``) but the one that
    completes the plan: the others see only that the player has planned."""
    return state.phase == "plan" and len(state.planning[player]) + 2 < len(_plan_tiles(state))


def _plan_tiles(state: ThiefdomState) -> str:
    return "123" if state.solo else "123P"


def plan_actions(state: ThiefdomState, p: int) -> list[str]:
    if state.plans[p] is not None:
        return []
    placed = state.planning[p]
    return [PLAN[x] for x in _plan_tiles(state) if x not in placed]


def plan_apply(state: ThiefdomState, p: int, act: Action) -> None:
    tiles = _plan_tiles(state)
    placed = state.planning[p] + act.args[0]  # (tiles laid once each)
    if len(placed) == len(tiles) - 1:
        placed += next(x for x in tiles if x not in placed)  # the last tile goes into the last slot
    state.planning[p] = placed
    if len(placed) < len(tiles):
        return
    state.plans[p] = placed
    state.planning[p] = ""
    state.event("planned", to=[p], secret={"order": list(placed)}, player=p)
    if all(x is not None for x in state.plans):
        _begin_actions(state)


def _begin_actions(state: ThiefdomState) -> None:
    """All tiles are revealed; activations go tile 1 for everyone in turn order, then 2..."""
    state.phase = "action"
    plans = cast(list[str], state.plans)  # every player has laid a plan by now
    for p in range(state.num_players):
        state.event("revealed", player=p, order=list(plans[p]))
    sched: list[list[Any]] = []
    if state.solo:
        thieves = [["thief", 0, int(ch) - 1] for ch in plans[0]]
        for th in thieves:
            if state.solo["side"] == "first":
                sched += [th, ["town", 0, 0]]
            else:
                sched += [["town", 0, 0], th]
    else:
        for k in range(4):
            for p in setup.turn_order(state):
                ch = plans[p][k]
                sched.append(["patrol", p, 0] if ch == "P" else ["thief", p, int(ch) - 1])
    state.schedule = sched
    state.act = 0


def advance(state: ThiefdomState) -> None:
    """Run everything automatic until someone must decide."""
    while True:
        if state.tmove is not None or state.turn is not None:
            return
        if state.queue:
            fig = state.queue.pop(0)
            townsfolk.start_tmove(state, fig, state.queue_mover)
            continue
        if state.phase != "action":
            return
        if state.act >= len(state.schedule):
            if state.round >= state.data.board.nights:
                final_scoring(state)
            else:
                administration(state)
                start_round(state)
            continue
        kind, p, t = state.schedule[state.act]
        state.act += 1
        if kind == "thief":
            thief.start_turn(state, p, t)
        elif kind == "patrol":
            board = state.data.patrols[state.patrol[p]]
            state.event("patrol", player=p, board=board.id, figs=list(board.figures))
            state.queue = list(board.figures)
            state.queue_mover = p
        else:
            solo.solo_townsfolk(state)


def administration(state: ThiefdomState) -> None:
    """Administration phase after nights 1-5."""
    n = state.num_players
    state.round += 1
    state.stamina = [False] * n
    for p in range(n):
        for th in state.thieves[p]:
            th["used"] = []
            th["robbed"] = []
            th["blind"] = []  # Bernhard lasts for the rest of the round
    if state.solo:
        state.solo["side"] = "second" if state.solo["side"] == "first" else "first"  # flip the compass
    else:
        # patrol boards pass to the right; the first player changes with them
        old = state.patrol
        state.patrol = [old[(p + 1) % n] for p in range(n)]
        state.first = next(p for p, b in enumerate(state.patrol) if state.data.patrols[b].first)
    for p in range(n):
        for t, th in enumerate(state.thieves[p]):
            if isinstance(th["pos"], int):
                gain(state, p, 1)  # +1 VP per thief on an alley square
                if cards.ally_of(state, p, t) == "stoffel":
                    add(th, "gold", 4)  # Stoffel: +4 gold on an alley in the day
    if state.round - 1 in (2, 4):
        for k in state.purses:
            state.purses[k] = True
        for k in state.badges:
            state.badges[k] = 1
        for s, m in state.smugglers.items():
            if m is None:
                if state.stacks:
                    if state.stacks.get(s):
                        state.smugglers[s] = state.stacks[s].pop(0)
                elif state.mission_pile:
                    state.smugglers[s] = state.mission_pile.pop()
        state.equip_discard.extend(state.display)
        state.display = []
        while len(state.display) < 4 and locations.draw_equipment_possible(state):
            state.display.append(locations.draw_equipment(state))
    state.event("day", day=state.round - 1)


def final_scoring(state: ThiefdomState) -> None:
    """Rulebook "Fin de la partie": goods, ally end bonuses, thieves at home."""
    final = []
    for p in range(state.num_players):
        pool = dict(state.stash[p])
        pool["art"] = list(state.stash[p]["art"])
        for th in state.thieves[p]:
            for g in ("gold", "gem", "brandy", "wine", "badge"):
                pool[g] += th["inv"][g]
            pool["art"] += th["inv"]["art"]
        goods = goods_vp(pool)
        bonus = 0
        for t in range(3):
            a = state.thieves[p][t]["ally"]
            eb = state.data.clients[a].end_bonus if a else None
            if eb:
                bonus += eb.vp * state.stash[p][eb.good]  # hideout inventory only
        home = sum(1 for th in state.thieves[p] if th["pos"] == state.hideout[p])
        gain(state, p, goods + bonus + home)
        final.append({"goods": goods, "allies": bonus, "home": home, "total_goods": total_goods(pool),
                      "art": len(pool["art"]), "badge": pool["badge"], "wine": pool["wine"]})
    state.final = final
    state.phase = "over"
    for p in range(state.num_players):
        state.event("final", player=p, vp=state.vp[p])


def winners(state: ThiefdomState) -> list[int]:
    """Most VP; then most goods; then artworks, badges, wine (INTERPRETATION of the
    icon row); then the guild that played latest in night 1."""
    n = state.num_players
    late = {p: i for i, p in enumerate(state.first_order)}

    def key(p: int) -> tuple[Any, ...]:
        f = state.final[p]
        return (state.vp[p], f["total_goods"], f["art"], f["badge"], f["wine"], late[p])
    best = max(range(n), key=key)
    return [best]
