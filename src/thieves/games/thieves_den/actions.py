"""Thieves Den: the thieving-phase actions and the power tiles.

Rulebook sections: "Activer un Lieu", "Vendre des Trésors", "Utiliser une tuile Pouvoir",
"Trésor à la Sorcière" (deliver to the Witch), the first "Recruter un Voleur" section (really
"Steal a Treasure": 2 thieves for 1 treasure), the second "Recruter un Voleur" (2 treasures
for 1 thief) and "Clarifications des Tuiles Pouvoir".
"""
from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from .components import TREASURES, DenData
from .effects import (AUTO_FRAMES, LIMIT_VERBS, MEMO_LIMIT, ability_frames, add_thieves, bonus_frames, can_pay,
                      gain_thieves, gain_treasure, targets)
from .notation import DenAction, parse_action

if TYPE_CHECKING:
    from .state import DenState

#: power effects whose possibility does not depend on the treasures their user holds, so the
#: treasure paid for them cannot change it (see power_possible_after)
PAYMENT_BLIND = frozenset({"recall", "swap", "thieves_for_treasures", "thieves", "treasure",
                           "prestige", "refresh", "new_location"})
#: power effects that can always do something, whatever their user holds or pays
#: (power_possible_after: prestige, refresh, new_location)
ALWAYS_POSSIBLE = frozenset({"prestige", "refresh", "new_location"})
#: a holding of no treasure at all
NO_TREASURE = dict.fromkeys(TREASURES, 0)
#: the notation of the actions that name a treasure, made once
WITCH_ACTIONS = {t: f"witch {t}" for t in TREASURES}
STEAL_ACTIONS = {t: f"steal {t}" for t in TREASURES}
STEAL_LIST = [STEAL_ACTIONS[t] for t in TREASURES]
#: a holding's counts in TREASURES order (the key of the holding tables), whatever the
#: order of the dict's keys
TREASURE_COUNTS = itemgetter(*TREASURES)


class Holding(NamedTuple):
    """What one treasure holding allows, whoever holds it (see :func:`holding`)."""

    #: the treasure types held, in TREASURES order
    owned: tuple[str, ...]
    #: Recruit a Thief: two different treasures you own, or two of one kind (pairs in
    #: TREASURES order), as actions
    recruits: tuple[str, ...]
    #: Sell Treasures, step 2: the fences whose every wanted treasure it pays (each named
    #: one, and enough others for the jokers)
    sellable: frozenset[str]
    #: ``payable[k + 1]``: the location cards whose ability's costs it pays with ``k`` thieves
    #: left (:func:`can_pay`), from k = -1 (only the free ones); the first entry holds for
    #: every smaller ``k``, the last for every larger one
    payable: tuple[frozenset[str], ...]
    #: ``power_acts[i]``: paying each treasure owned for the tile of power stack ``i``, as actions
    power_acts: tuple[tuple[str, ...], ...]
    #: the Witch's deliveries it allows, per ``tuple(witch_used)`` met (filled in by
    #: :func:`turn_actions`)
    witch: dict[tuple[bool, ...], list[str]]

    def payable_with(self, thieves_after: int) -> frozenset[str]:
        """The location cards whose costs it and ``thieves_after`` thieves pay (:func:`can_pay`)."""
        payable = self.payable
        i = thieves_after + 1
        return payable[i] if 0 <= i < len(payable) else payable[0 if i < 0 else -1]


def holding(data: DenData, have: dict[str, int]) -> Holding:
    """The :class:`Holding` of treasures ``have``, worked out once per holding and kept in
    ``data`` (the legal actions ask for it at every turn)."""
    key = TREASURE_COUNTS(have)
    got = data.holding_memo.get(key)
    if got is None:
        if len(data.holding_memo) >= MEMO_LIMIT:
            data.holding_memo.clear()
        got = data.holding_memo[key] = _make_holding(data, have)
    return got


def empty_holding(data: DenData) -> Holding:
    """The :class:`Holding` of no treasure at all, made once per data."""
    got = data.empty_holding
    if got is None:
        got = data.empty_holding = _make_holding(data, NO_TREASURE)
    return got


def _make_holding(data: DenData, have: dict[str, int]) -> Holding:
    owned = tuple([t for t in TREASURES if have[t] > 0])
    recruits = tuple([f"recruit {a} {b}" for i, a in enumerate(owned) for b in owned[i:]
                      if a != b or have[a] >= 2])
    total = sum(have.values())
    sellable = frozenset([fid for fid, (spec, _) in data.fence_needs.items()
                          if can_sell(spec, data.fence_total[fid], have, total)])
    # can_pay(cost, have, k) holds when the treasures pay and k is at least the thieves paid:
    # the treasures are looked at once per card, the thieves for each k
    paid = [(c, cost[2]) for c, cost in data.costed_locations if can_pay(cost, have, cost[2])]
    free = data.free_locations
    payable = tuple(free.union([c for c, thieves in paid if k >= thieves])
                    for k in range(-1, data.most_thieves_paid + 1))
    power_acts = tuple(tuple(acts[t] for t in owned) for acts in data.power_actions)
    return Holding(owned, recruits, sellable, payable, power_acts, {})


def can_sell(spec: dict[str, int], wanted: int, have: dict[str, int], total: int) -> bool:
    """Sell Treasures, step 2: whether treasures ``have`` (``total`` in all) pay a fence that
    wants ``spec`` (its named treasures) and ``wanted`` treasures in all (jokers included)."""
    if total < wanted:
        return False
    for t, k in spec.items():
        if have[t] < k:
            return False
    return True


#: what a thieving-turn action does: ``(rule function, argument, adds a treasure)``; the function
#: is called as ``function(state, player, argument)`` (see :func:`turn_dispatch`)
TurnEntry = tuple[Callable[["DenState", int, Any], None], Any, bool]


def turn_dispatch(data: DenData) -> dict[str, TurnEntry]:
    """Every thieving-turn action's notation -> its :data:`TurnEntry`, made once per data:
    the one way a turn action is applied (:func:`apply_turn`, and the random
    playout's loop), read off the parsed notation (:func:`~.notation.parse_action`)."""
    table = data.turn_dispatch
    if not table:
        names = [f"loc {c}" for c in data.locations] + [f"sell {f}" for f in data.fences]
        names += [a for acts in data.power_actions for a in acts.values()]
        names += list(WITCH_ACTIONS.values()) + STEAL_LIST + ["steal", "pass"]
        names += [f"recruit {a} {b}" for i, a in enumerate(TREASURES) for b in TREASURES[i:]]
        table.update((name, _turn_entry(parse_action(name))) for name in names)
    return table


def _turn_entry(act: DenAction) -> TurnEntry:
    verb = act.verb
    if verb == "pass":
        return turn_pass, None, False
    if verb == "loc":
        return turn_loc, act.named_card, False
    if verb == "sell":
        return turn_sell, act.named_card, False
    if verb == "power":
        return turn_power, (act.named_stack, act.named_treasure), False
    if verb == "witch":
        return turn_witch, act.named_treasure, False
    if verb == "steal":
        return turn_steal, act.treasure, "steal" in LIMIT_VERBS
    if verb == "recruit":
        return turn_recruit, (act.named_treasure, act.named_treasure2), False
    raise ValueError(f"{verb!r} is not a thieving-turn action")


# -- where things are ----------------------------------------------------------------------------
def in_play(state: DenState) -> list[str]:
    """Face-up location cards in play: above the boards, and (2 players) beside the board."""
    return [*chain.from_iterable(state.above), *state.neutral]


def card_owner(state: DenState, card: str) -> int | None:
    for q, cards in enumerate(state.above):
        if card in cards:
            return q
    return None   # a neutral card (2 players) has no owner


def not_protected(state: DenState, p: int, card: str) -> bool:
    """A card of an opponent who has passed may not be targeted by a power [interpretation]."""
    o = card_owner(state, card)
    return o is None or o == p or not state.passed[o]


def open_to(state: DenState, p: int, owner: int | None) -> bool:
    """Option ``passed_locations``: "open" (default) lets anyone use the cards in front of a
    player who has passed (it does not target them); "closed" reads passing as closing
    that player's cards to the others for the rest of the round."""
    return owner is None or owner == p or not state.passed[owner] or not state._closed_locations


# -- option lists -----------------------------------------------------------------------------------
def usable_cards(state: DenState, p: int) -> list[str]:
    """The face-up cards ``p`` may put a thief on (option ``passed_locations``)."""
    cards = [*chain.from_iterable(state.above), *state.neutral]   # = in_play(state)
    if state._closed_locations and any(state.passed):
        cards = [c for c in cards if open_to(state, p, card_owner(state, c))]
    return cards


def loc_rule(state: DenState, p: int, mode: str, hold: Holding) -> tuple[frozenset[str], bool] | None:
    """Activate a Location, step 1: a face-up card with an empty action space (power tile
    "extra thief": an occupied one instead), whose ability's costs ``p`` can pay with
    treasures ``hold``. Returns the cards whose costs are paid and whether the space must
    be occupied; None when no card can be used (no thief to place)."""
    if mode == "extra":
        if state.forest < 1:
            return None
        return hold.payable_with(state.thieves[p]), True
    if mode in ("normal", "cut"):
        if state.thieves[p] < 1:
            return None
        return hold.payable_with(state.thieves[p] - 1), False
    # relocate: the moved thief is not one of yours
    return hold.payable_with(state.thieves[p]), False


def loc_options(state: DenState, p: int, mode: str, cards: list[str] | None = None,
                 hold: Holding | None = None) -> list[str]:
    """The cards :func:`loc_rule` lets ``p`` activate in ``mode``, in ``cards`` order.
    ``cards``, ``hold``: :func:`usable_cards` and ``p``'s :func:`holding` if known."""
    if cards is None:
        cards = usable_cards(state, p)
    rule = loc_rule(state, p, mode, hold or holding(state.data, state.treasures[p]))
    if rule is None:
        return []
    ok, occupied = rule
    lt = state.loc_thieves
    if occupied:
        return [c for c in cards if c in ok and lt.get(c, 0) > 0]
    return [c for c in cards if c in ok and not lt.get(c)]   # no thief on its space


def can_place(state: DenState, p: int, mode: str, cards: list[str], hold: Holding) -> bool:
    """``bool(loc_options(state, p, mode, cards, hold))``, stopping at the first card."""
    rule = loc_rule(state, p, mode, hold)
    if rule is None:
        return False
    ok, occupied = rule
    lt = state.loc_thieves   # a card is in it while a thief is on it (_check_snapshot)
    if occupied:
        for c in cards:
            if c in lt and c in ok:
                return True
        return False
    for c in cards:
        if c not in lt and c in ok:
            return True
    return False


def sell_fences(state: DenState, p: int, mode: str) -> list[str | None]:
    """Sell Treasures, step 2: the fences ``p`` may sell to in ``mode`` if the treasures
    pay (None: an empty slot of the row): a thief is needed (power tile "extra thief":
    one from the Forest, on a fence already sold to this round)."""
    if mode == "extra":
        if state.forest < 1:
            return []
        return [f for q, fs in enumerate(state.fences_above) if open_to(state, p, q) for f in fs]
    if state.thieves[p] < 1:
        return []
    return state.row


def sell_options(state: DenState, p: int, mode: str, hold: Holding | None = None) -> list[str]:
    """Sell Treasures, step 2: a fence of :func:`sell_fences` whose every wanted treasure
    the treasures pay."""
    sellable = (hold or holding(state.data, state.treasures[p])).sellable
    return [f for f in sell_fences(state, p, mode) if f in sellable]


def can_sell_some(state: DenState, p: int, mode: str, hold: Holding) -> bool:
    """``bool(sell_options(state, p, mode, hold))``, without the list."""
    return not hold.sellable.isdisjoint(sell_fences(state, p, mode))


def power_payments(state: DenState, p: int, i: int, hold: Holding, cards: list[str],
                    eff: str | None = None) -> Sequence[str]:
    """The treasures among those ``p`` holds (``hold``, their :func:`holding`) that they may
    pay for the face-up tile of stack ``i`` (``eff``: its effect, if known): those after
    whose payment the tile can still do something (interpretation 6). ``cards``:
    :func:`usable_cards` (paying a treasure does not change them). All of them:
    ``hold.owned`` itself."""
    if eff is None:
        eff = state.data.power_effect[state.power_stacks[i][-1]]
    possible = POWER_POSSIBLE[eff]
    if eff in PAYMENT_BLIND:
        return hold.owned if possible(state, p, cards, hold) else ()
    # The other tiles only look at treasures to check costs, and fewer treasures never
    # open an option: possible with no treasure at all, possible after any payment;
    # impossible with every treasure, impossible after any payment.
    if possible(state, p, cards, state.data.empty_holding or empty_holding(state.data)):
        return hold.owned
    if not possible(state, p, cards, hold):
        return ()
    return [t for t in hold.owned if power_possible(state, p, i, t, cards)]


def power_possible(state: DenState, p: int, i: int, paid: str, cards: list[str] | None = None) -> bool:
    """Whether the face-up tile of stack ``i`` can do anything once ``paid`` is on its slot
    (interpretation 6: a tile that could only cost a treasure is not offered)."""
    have = state.treasures[p]
    after = holding(state.data, {**have, paid: have[paid] - 1})
    return power_possible_after(state, p, i, cards, after)


def power_possible_after(state: DenState, p: int, i: int, cards: list[str] | None = None,
                          hold: Holding | None = None) -> bool:
    """Whether the face-up tile of stack ``i`` can do anything for ``p`` now; ``hold``:
    the :func:`holding` to check costs with (``p``'s own if None). Each effect's test is
    a ``possible_<effect>`` function (:data:`POWER_POSSIBLE`)."""
    if cards is None:
        cards = usable_cards(state, p)
    if hold is None:
        hold = holding(state.data, state.treasures[p])
    return POWER_POSSIBLE[state.data.power_effect[state.power_stacks[i][-1]]](state, p, cards, hold)


# -- what each power tile needs to do anything (cards: usable_cards, hold: the holding
#    its costs are paid with) ----------------------------------------------------------------------
def possible_double(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return can_place(state, p, "normal", cards, hold) or can_sell_some(state, p, "normal", hold)


def possible_extra_thief(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return can_place(state, p, "extra", cards, hold) or can_sell_some(state, p, "extra", hold)


def possible_relocate(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    # = bool(relocate_options(state, p)): a source holds a thief and a destination none,
    # so any source and any destination make a move
    return can_recall(state, p) and can_place(state, p, "relocate", cards, hold)


def possible_recall(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return can_recall(state, p)


def possible_owner_cut(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return can_place(state, p, "cut", cards, hold)


def possible_swap(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return can_swap(state, p)


def possible_thieves_for_treasures(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return state.thieves[p] >= 2


def possible_thieves(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return state.forest > 0 or state._short_supply_allowed   # = short_supply_ok(state)


def possible_treasure(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return any(state.city.values()) or state._short_supply_allowed


def possible_always(state: DenState, p: int, cards: list[str], hold: Holding) -> bool:
    return True   # prestige, refresh, new_location (ALWAYS_POSSIBLE)


def short_supply_ok(state: DenState) -> bool:
    """Rulebook "Limite de la Réserve": an action whose gain the supply cannot give is still
    taken, and gains nothing (option ``empty_supply``: "allowed", the default; "forbidden"
    does not offer such actions)."""
    return state._short_supply_allowed


def recall_options(state: DenState, p: int) -> list[str]:
    return [c for c in in_play(state) if state.loc_thieves.get(c, 0) > 0 and not_protected(state, p, c)]


def can_recall(state: DenState, p: int) -> bool:
    """``bool(recall_options(state, p))``, without the list: a card with a thief above
    ``p``'s board or that of someone who has not passed (:func:`not_protected`), or a
    neutral one."""
    lt = state.loc_thieves
    if not lt:
        return False
    passed = state.passed
    for q, cards in enumerate(state.above):
        if q == p or not passed[q]:
            for c in cards:
                if lt.get(c, 0) > 0:
                    return True
    for c in state.neutral:
        if lt.get(c, 0) > 0:
            return True
    return False


def relocate_options(state: DenState, p: int) -> list[str]:
    srcs = recall_options(state, p)
    if not srcs:
        return []
    dests = loc_options(state, p, "relocate")
    return [f"move {a} {b}" for a in srcs for b in dests if a != b]


def swap_options(state: DenState, p: int) -> list[str]:
    mine = state.above[p]
    return [f"swap {a} {b}" for a in mine for q in targets(state, p) for b in state.above[q]]


def can_swap(state: DenState, p: int) -> bool:
    """``bool(swap_options(state, p))``, without the list."""
    return bool(state.above[p]) and any(state.above[q] for q in targets(state, p))


# -- the main turn -------------------------------------------------------------------------------------
def turn_actions(state: DenState, p: int) -> list[str]:
    """Rulebook "Phase Voleurs": one action a turn, or pass; in this order: activate a
    location (:func:`loc_options`), sell to a fence (:func:`sell_options`), use a power
    tile (:func:`power_payments`), deliver to the Witch, steal a treasure, recruit a
    thief, pass. The lists are worked out here without the option methods' calls, from
    the tables of ``p``'s :class:`Holding` (every playout decision lists them)."""
    data = state.data
    have = state.treasures[p]
    hold = data.holding_memo.get(TREASURE_COUNTS(have)) or holding(data, have)
    if state._closed_locations and any(state.passed):
        cards = usable_cards(state, p)
    else:                                   # = usable_cards(state, p)
        cards = []
        for above in state.above:
            cards += above
        cards += state.neutral
    thieves = state.thieves[p]
    if thieves >= 1:
        # _loc_options(p, "normal"): no thief on its space, costs paid with a thief placed
        payable = hold.payable   # = hold.payable_with(thieves - 1)
        ok = payable[thieves] if thieves < len(payable) else payable[-1]
        lt, loc_actions = state.loc_thieves, data.loc_actions   # (a card is in lt while occupied)
        acts = [loc_actions[c] for c in cards if c not in lt and c in ok]
        # _sell_options(p, "normal"): a fence of the row whose wants the holding pays
        sellable, row = hold.sellable, state.row   # (None, an empty slot, is never in it)
        if not sellable.isdisjoint(row):
            for f in row:
                if f in sellable:
                    acts.append(data.sell_actions[f])
    else:
        acts = []
    owned = hold.owned
    if owned:
        paid, effect = state.power_paid, data.power_effect
        i = 0
        for stack in state.power_stacks:
            if stack and paid[i] is None:
                eff = effect[stack[-1]]
                if eff in ALWAYS_POSSIBLE:
                    acts += hold.power_acts[i]
                elif eff in PAYMENT_BLIND:       # = _power_payments: all or nothing
                    if POWER_POSSIBLE[eff](state, p, cards, hold):
                        acts += hold.power_acts[i]
                else:
                    pay = power_payments(state, p, i, hold, cards, eff)
                    if pay is owned:
                        acts += hold.power_acts[i]
                    elif pay:
                        power_actions = data.power_actions[i]
                        acts += [power_actions[t] for t in pay]
            i += 1
        # Witch: a treasure owned with a free slot of its type
        used = tuple(state.witch_used)
        witch = hold.witch.get(used)
        if witch is None:
            free = {t for t, u in zip(data.witch_treasures, used) if not u}
            witch = hold.witch[used] = [WITCH_ACTIONS[t] for t in owned if t in free]
        acts += witch
    if thieves >= 2:
        city = state.city
        stealable = [STEAL_ACTIONS[t] for t in TREASURES if city[t] > 0]
        if not stealable and state._short_supply_allowed:   # = short_supply_ok(state)
            stealable = ["steal"]          # the City is empty: 2 thieves for nothing
        acts += stealable
    if state.forest > 0 or state._short_supply_allowed:
        acts += hold.recruits
    acts.append("pass")
    return acts


def apply_turn(state: DenState, p: int, action: str) -> bool:
    """One thieving-phase action (by :func:`turn_dispatch`); the turn ends once its effects
    have run. Returns whether it may add a treasure (the treasure limit needs a look)."""
    fn, arg, limit = turn_dispatch(state.data)[action]
    fn(state, p, arg)
    state.pending.append({"k": "end_turn"})
    return limit


# -- the thieving-turn actions, one function each (see turn_dispatch) ---------------------------
def turn_pass(state: DenState, p: int, _: None) -> None:
    # Once passed: no more actions this round, and no one may target you
    state.passed[p] = True
    if state.recording:
        state.event("pass", player=p)


def turn_loc(state: DenState, p: int, card: str) -> None:
    state.pending[0:0] = activate(state, p, card, "normal")


def turn_sell(state: DenState, p: int, fid: str) -> None:
    state.pending[0:0] = sell(state, p, fid, "normal")


def turn_power(state: DenState, p: int, stack_paid: tuple[int, str]) -> None:
    use_power(state, p, *stack_paid)


def turn_witch(state: DenState, p: int, t: str) -> None:
    # Deliver to the Witch: a free slot of that treasure type; the token stays till cleanup
    # (the free slot of most prestige; ties: the first)
    used = state.witch_used
    j = next(j for j in state.data.witch_best_of[t] if not used[j])
    used[j] = True
    state.treasures[p][t] -= 1
    n = state.data.witch_prestige[j]
    state.prestige[p] += n
    if state.recording:
        state.event("witch", player=p, treasure=t, n=n)


def turn_steal(state: DenState, p: int, t: str | None) -> None:
    # Steal a Treasure: 2 thieves onto the board's slot, 1 treasure of your choice
    # (t is None: the City is empty, 2 thieves for nothing)
    state.thieves[p] -= 2
    state.steal_slot += 2
    if t is not None:
        gain_treasure(state, p, t)
        if state.recording:
            state.event("steal", player=p, treasure=t)
    elif state.recording:
        state.event("steal_empty", player=p)


def turn_recruit(state: DenState, p: int, pair: tuple[str, str]) -> None:
    # Rulebook "Recruter un Voleur": 2 treasures of your choice onto the slot, 1 thief from
    # the Forest. The treasures are paid even when no thief comes: "Limite de la Réserve"
    # (the Forest is empty: you gain nothing; option empty_supply) or "Sièges" (6 thieves
    # on your board: the new one goes straight back). The log says which.
    have, slot = state.treasures[p], state.recruit_slot
    for t in pair:
        have[t] -= 1
        slot[t] += 1
    before = state.thieves[p]
    got = gain_thieves(state, p, 1)
    if state.recording:
        if not got:
            state.event("recruit_empty", player=p, treasures=list(pair))
        elif state.thieves[p] == before:
            state.event("recruit_full", player=p, treasures=list(pair), n=state.data.board.thief_limit)
        else:
            state.event("recruit", player=p, treasures=list(pair), n=got)


# -- activate a location -----------------------------------------------------------------------------------
def activate(state: DenState, p: int, card: str, mode: str) -> list[dict[str, Any]]:
    """Place a thief (step 2), resolve the ability (3), then the owner bonus (4)."""
    if mode in ("normal", "cut"):
        state.thieves[p] -= 1
    elif mode == "extra":
        state.forest -= 1
    state.loc_thieves[card] = state.loc_thieves.get(card, 0) + 1
    owner = card_owner(state, card)
    if owner is not None and owner != p:
        if state.recording:
            state.event("activate_other", player=p, card=card, target=owner)
    else:
        if state.recording:
            state.event("activate", player=p, card=card)
    frames = ability_frames(state, p, card)
    if owner is not None:
        if mode == "cut":            # power tile "owner's cut": the bonus is yours
            frames += bonus_frames(state, p, card)
        elif owner != p:             # no bonus on your own cards
            frames += bonus_frames(state, owner, card)
    return frames


# -- sell to a fence ---------------------------------------------------------------------------------------
def sell(state: DenState, p: int, fid: str, mode: str) -> list[dict[str, Any]]:
    fence = state.data.fences[fid]
    spec, jokers = state.data.fence_needs[fid]
    frames: list[dict[str, Any]] = []
    if mode == "normal":
        idx = state.row.index(fid)          # step 2: take the card above your board
        state.row[idx] = None
        state.fences_above[p].append(fid)
        state.thieves[p] -= 1               # step 3: a thief on its action space
        state.fence_thieves[fid] = 1
        state.fence_treasures[fid] = {}
        frames.append({"k": "refill", "i": idx})   # step 5 (after the joker payment below)
    else:                                  # power tile "extra thief": the card stays put
        state.forest -= 1
        state.fence_thieves[fid] = state.fence_thieves.get(fid, 0) + 1
    load = state.fence_treasures.setdefault(fid, {})
    for t, k in spec.items():               # step 3: the wanted treasures onto the card
        state.treasures[p][t] -= k
        load[t] = load.get(t, 0) + k
    state.prestige[p] += fence.prestige      # step 4: prestige at once
    if state.recording:
        state.event("sell", player=p, fence=fid, n=fence.prestige)
    if jokers:
        frames.insert(0, {"k": "payany", "p": p, "n": jokers, "to": fid})
    return frames


@AUTO_FRAMES("refill")
def auto_refill(state: DenState, f: dict[str, Any]) -> None:
    """Sell step 5: refill the slot from the fence deck; an empty deck leaves it empty."""
    if state.row[f["i"]] is None and state.fence_deck:
        state.row[f["i"]] = state.fence_deck.pop()
        if state.recording:
            state.event("refill", fence=state.row[f["i"]])


# -- power tiles: rulebook "Clarifications des Tuiles Pouvoir" -------------------------------------------------
def use_power(state: DenState, p: int, i: int, paid: str) -> None:
    state.treasures[p][paid] -= 1           # one treasure on the slot left of the tile
    state.power_paid[i] = paid
    tile = state.data.powers[state.power_stacks[i][-1]]
    eff = tile.effect
    if state.recording:
        state.event("power", player=p, treasure=paid, tile=tile.id)
    # Tiles #4 and #7 say "vous pouvez" (you may): their follow-up can be skipped ("opt").
    # Tiles #2, #3 and #11 *are* the action: it must be done (skipped only if impossible).
    sub = {"k": "sub", "p": p, "mode": "normal"}
    opt = {"k": "sub", "p": p, "mode": "normal", "opt": True}
    if eff == "prestige":
        state.prestige[p] += tile.amount
        if state.recording:
            state.event("prestige", player=p, n=tile.amount)
    elif eff == "treasure":
        state.pending.insert(0, {"k": "take", "p": p, "n": tile.amount})
    elif eff == "thieves":
        got = gain_thieves(state, p, tile.amount)
        if state.recording:
            state.event("forest", player=p, n=got)
    elif eff == "thieves_for_treasures":
        state.thieves[p] -= 2
        state.forest += 2
        state.pending.insert(0, {"k": "take", "p": p, "n": tile.amount})
    elif eff == "double":
        state.pending[0:0] = [dict(sub), dict(sub)]
    elif eff == "refresh":
        n = min(3, sum(1 for f in state.row if f is not None))
        state.pending[0:0] = [{"k": "refresh", "p": p, "n": n, "slots": []}, opt]
    elif eff == "new_location":
        frames: list[dict[str, Any]] = []
        if state.loc_deck:
            card = state.loc_deck.pop()
            if state.data.locations[card].instant:   # [interpretation] resolve, file it left
                state.left[p].append(card)
                frames = ability_frames(state, p, card)
            else:
                state.above[p].append(card)
            if state.recording:
                state.event("draw_location", player=p, card=card)
        state.pending[0:0] = frames + [opt]
    elif eff == "recall":
        state.pending.insert(0, {"k": "recall", "p": p})
    elif eff == "relocate":
        state.pending.insert(0, {"k": "relocate", "p": p})
    elif eff == "swap":
        state.pending.insert(0, {"k": "swap", "p": p})
    elif eff == "owner_cut":
        state.pending.insert(0, {"k": "sub", "p": p, "mode": "cut"})
    elif eff == "extra_thief":
        state.pending.insert(0, {"k": "sub", "p": p, "mode": "extra"})


def power_choices(state: DenState, f: dict[str, Any]) -> list[str]:
    k, p = f["k"], f["p"]
    data = state.data
    if k == "sub":
        mode = f["mode"]
        acts = list(map(data.loc_actions.__getitem__, loc_options(state, p, mode)))
        if mode != "cut":
            acts += map(data.sell_actions.__getitem__, sell_options(state, p, mode))
        return acts + ["done"] if f.get("opt") else acts
    if k == "recall":
        return list(map(data.recall_actions.__getitem__, recall_options(state, p)))
    if k == "relocate":
        return relocate_options(state, p)
    if k == "swap":
        return swap_options(state, p)
    if k == "refresh":
        return [data.return_actions[x] for x in state.row if x is not None]
    return []


def can_choose_power(state: DenState, f: dict[str, Any]) -> bool:
    """``bool(power_choices(state, f))``, without the lists."""
    k, p = f["k"], f["p"]
    if k == "sub":
        if f.get("opt"):
            return True   # "done" is always there
        mode = f["mode"]
        hold = holding(state.data, state.treasures[p])
        return (can_place(state, p, mode, usable_cards(state, p), hold)
                or mode != "cut" and can_sell_some(state, p, mode, hold))
    if k == "recall":
        return can_recall(state, p)
    if k == "relocate":
        return possible_relocate(state, p, usable_cards(state, p), holding(state.data, state.treasures[p]))
    if k == "swap":
        return can_swap(state, p)
    if k == "refresh":
        return any(x is not None for x in state.row)
    return False


def apply_power_choice(state: DenState, p: int, f: dict[str, Any], act: DenAction) -> None:
    k = f["k"]
    if k == "sub":
        state.pending.pop(0)
        if act.verb == "loc":
            state.pending[0:0] = activate(state, p, act.named_card, f["mode"])
        elif act.verb == "sell":
            state.pending[0:0] = sell(state, p, act.named_card, f["mode"])
        else:   # done: the optional follow-up is skipped
            if state.recording:
                state.event("skip", player=p)
    elif k == "recall":
        # Take a thief off the card onto your board; the card goes on top of the location deck
        state.pending.pop(0)
        c = act.named_card
        state.loc_thieves[c] -= 1
        add_thieves(state, p, 1)
        state.forest += state.loc_thieves.pop(c)   # any other thief on it: to the Forest [interp.]
        owner = card_owner(state, c)
        (state.above[owner] if owner is not None else state.neutral).remove(c)
        state.loc_deck.append(c)
        if state.recording:
            state.event("recall", player=p, card=c)
    elif k == "relocate":
        # Move a thief to another card to use it, then take that thief onto your board
        state.pending.pop(0)
        a, b = act.named_card, act.named_card2
        state.loc_thieves[a] -= 1
        if not state.loc_thieves[a]:
            del state.loc_thieves[a]
        if state.recording:
            state.event("relocate", player=p, card=a, card2=b)
        frames = activate(state, p, b, "relocate")
        state.pending[0:0] = frames + [{"k": "unplace", "p": p, "c": b}]
    elif k == "swap":
        # Exchange location cards with an opponent; thieves stay on the cards
        state.pending.pop(0)
        a, b = act.named_card, act.named_card2
        q = card_owner(state, b)
        assert q is not None   # an opponent's card (legal actions only)
        ia, ib = state.above[p].index(a), state.above[q].index(b)
        state.above[p][ia], state.above[q][ib] = b, a
        if state.recording:
            state.event("swap", player=p, card=a, card2=b, target=q)
    elif k == "refresh":
        # Put a fence of the row under the fence deck; refill the emptied slots afterwards
        fid = act.named_card
        idx = state.row.index(fid)
        state.row[idx] = None
        state.fence_deck.insert(0, fid)
        if state.recording:
            state.event("return_fence", player=p, fence=fid)
        f["slots"].append(idx)
        f["n"] -= 1
        if f["n"] <= 0:
            state.pending.pop(0)
            state.pending[0:0] = [{"k": "refill", "i": i} for i in f["slots"]]


@AUTO_FRAMES("unplace")
def auto_unplace(state: DenState, f: dict[str, Any]) -> None:
    c = f["c"]
    state.loc_thieves[c] -= 1
    if not state.loc_thieves[c]:
        del state.loc_thieves[c]
    add_thieves(state, f["p"], 1)


#: power effect -> its ``possible_<effect>`` test (see :func:`power_possible_after`)
POWER_POSSIBLE: dict[str, Callable[[DenState, int, list[str], Holding], bool]] = {
    "double": possible_double, "extra_thief": possible_extra_thief, "relocate": possible_relocate,
    "recall": possible_recall, "owner_cut": possible_owner_cut, "swap": possible_swap,
    "thieves_for_treasures": possible_thieves_for_treasures, "thieves": possible_thieves,
    "treasure": possible_treasure}
POWER_POSSIBLE.update(dict.fromkeys(ALWAYS_POSSIBLE, possible_always))
