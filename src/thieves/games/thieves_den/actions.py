"""Thieves Den: the thieving-phase actions and the power tiles.

Rulebook sections: "Activer un Lieu", "Vendre des Trésors", "Utiliser une tuile Pouvoir",
"Trésor à la Sorcière" (deliver to the Witch), the first "Recruter un Voleur" section (really
"Steal a Treasure": 2 thieves for 1 treasure), the second "Recruter un Voleur" (2 treasures
for 1 thief) and "Clarifications des Tuiles Pouvoir".
"""
from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Any, Callable, NamedTuple, Sequence

from .components import TREASURES, DenData
from .effects import AUTO_FRAMES, LIMIT_VERBS, MEMO_LIMIT, can_pay
from .fields import MixinBase
from .notation import DenAction, parse_action

#: power effects whose possibility does not depend on the treasures their user holds, so the
#: treasure paid for them cannot change it (see _power_possible_after)
PAYMENT_BLIND = frozenset({"recall", "swap", "thieves_for_treasures", "thieves", "treasure",
                           "prestige", "refresh", "new_location"})
#: power effects that can always do something, whatever their user holds or pays
#: (_power_possible_after: prestige, refresh, new_location)
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
    #: :meth:`ActionsMixin._turn_actions`)
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


#: what a thieving-turn action does: ``(rule method, argument, adds a treasure)``; the method
#: is called as ``method(state, player, argument)`` (see :func:`turn_dispatch`)
TurnEntry = tuple[Callable[[Any, int, Any], None], Any, bool]


def turn_dispatch(data: DenData) -> dict[str, TurnEntry]:
    """Every thieving-turn action's notation -> its :data:`TurnEntry`, made once per data:
    the one way a turn action is applied (:meth:`ActionsMixin._apply_turn`, and the random
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
    m = ActionsMixin
    if verb == "pass":
        return m._turn_pass, None, False
    if verb == "loc":
        return m._turn_loc, act.named_card, False
    if verb == "sell":
        return m._turn_sell, act.named_card, False
    if verb == "power":
        return m._turn_power, (act.named_stack, act.named_treasure), False
    if verb == "witch":
        return m._turn_witch, act.named_treasure, False
    if verb == "steal":
        return m._turn_steal, act.treasure, "steal" in LIMIT_VERBS
    if verb == "recruit":
        return m._turn_recruit, (act.named_treasure, act.named_treasure2), False
    raise ValueError(f"{verb!r} is not a thieving-turn action")


class ActionsMixin(MixinBase):
    # -- where things are ----------------------------------------------------------------------------
    def _in_play(self) -> list[str]:
        """Face-up location cards in play: above the boards, and (2 players) beside the board."""
        return [*chain.from_iterable(self.above), *self.neutral]

    def _owner(self, card: str) -> int | None:
        for q, cards in enumerate(self.above):
            if card in cards:
                return q
        return None   # a neutral card (2 players) has no owner

    def _not_protected(self, p: int, card: str) -> bool:
        """A card of an opponent who has passed may not be targeted by a power [interpretation]."""
        o = self._owner(card)
        return o is None or o == p or not self.passed[o]

    def _open_to(self, p: int, owner: int | None) -> bool:
        """Option ``passed_locations``: "open" (default) lets anyone use the cards in front of a
        player who has passed (it does not target them); "closed" reads passing as closing
        that player's cards to the others for the rest of the round."""
        return owner is None or owner == p or not self.passed[owner] or not self._closed_locations

    # -- option lists -----------------------------------------------------------------------------------
    def _usable_cards(self, p: int) -> list[str]:
        """The face-up cards ``p`` may put a thief on (option ``passed_locations``)."""
        cards = [*chain.from_iterable(self.above), *self.neutral]   # = self._in_play()
        if self._closed_locations and any(self.passed):
            cards = [c for c in cards if self._open_to(p, self._owner(c))]
        return cards

    def _loc_rule(self, p: int, mode: str, hold: Holding) -> tuple[frozenset[str], bool] | None:
        """Activate a Location, step 1: a face-up card with an empty action space (power tile
        "extra thief": an occupied one instead), whose ability's costs ``p`` can pay with
        treasures ``hold``. Returns the cards whose costs are paid and whether the space must
        be occupied; None when no card can be used (no thief to place)."""
        if mode == "extra":
            if self.forest < 1:
                return None
            return hold.payable_with(self.thieves[p]), True
        if mode in ("normal", "cut"):
            if self.thieves[p] < 1:
                return None
            return hold.payable_with(self.thieves[p] - 1), False
        # relocate: the moved thief is not one of yours
        return hold.payable_with(self.thieves[p]), False

    def _loc_options(self, p: int, mode: str, cards: list[str] | None = None,
                     hold: Holding | None = None) -> list[str]:
        """The cards :meth:`_loc_rule` lets ``p`` activate in ``mode``, in ``cards`` order.
        ``cards``, ``hold``: :meth:`_usable_cards` and ``p``'s :func:`holding` if known."""
        if cards is None:
            cards = self._usable_cards(p)
        rule = self._loc_rule(p, mode, hold or holding(self.data, self.treasures[p]))
        if rule is None:
            return []
        ok, occupied = rule
        lt = self.loc_thieves
        if occupied:
            return [c for c in cards if c in ok and lt.get(c, 0) > 0]
        return [c for c in cards if c in ok and not lt.get(c)]   # no thief on its space

    def _can_place(self, p: int, mode: str, cards: list[str], hold: Holding) -> bool:
        """``bool(self._loc_options(p, mode, cards, hold))``, stopping at the first card."""
        rule = self._loc_rule(p, mode, hold)
        if rule is None:
            return False
        ok, occupied = rule
        lt = self.loc_thieves   # a card is in it while a thief is on it (_check_snapshot)
        if occupied:
            for c in cards:
                if c in lt and c in ok:
                    return True
            return False
        for c in cards:
            if c not in lt and c in ok:
                return True
        return False

    def _sell_fences(self, p: int, mode: str) -> list[str | None]:
        """Sell Treasures, step 2: the fences ``p`` may sell to in ``mode`` if the treasures
        pay (None: an empty slot of the row): a thief is needed (power tile "extra thief":
        one from the Forest, on a fence already sold to this round)."""
        if mode == "extra":
            if self.forest < 1:
                return []
            return [f for q, fs in enumerate(self.fences_above) if self._open_to(p, q) for f in fs]
        if self.thieves[p] < 1:
            return []
        return self.row

    def _sell_options(self, p: int, mode: str, hold: Holding | None = None) -> list[str]:
        """Sell Treasures, step 2: a fence of :meth:`_sell_fences` whose every wanted treasure
        the treasures pay."""
        sellable = (hold or holding(self.data, self.treasures[p])).sellable
        return [f for f in self._sell_fences(p, mode) if f in sellable]

    def _can_sell(self, p: int, mode: str, hold: Holding) -> bool:
        """``bool(self._sell_options(p, mode, hold))``, without the list."""
        return not hold.sellable.isdisjoint(self._sell_fences(p, mode))

    def _power_payments(self, p: int, i: int, hold: Holding, cards: list[str],
                        eff: str | None = None) -> Sequence[str]:
        """The treasures among those ``p`` holds (``hold``, their :func:`holding`) that they may
        pay for the face-up tile of stack ``i`` (``eff``: its effect, if known): those after
        whose payment the tile can still do something (interpretation 6). ``cards``:
        :meth:`_usable_cards` (paying a treasure does not change them). All of them:
        ``hold.owned`` itself."""
        if eff is None:
            eff = self.data.power_effect[self.power_stacks[i][-1]]
        possible = POWER_POSSIBLE[eff]
        if eff in PAYMENT_BLIND:
            return hold.owned if possible(self, p, cards, hold) else ()
        # The other tiles only look at treasures to check costs, and fewer treasures never
        # open an option: possible with no treasure at all, possible after any payment;
        # impossible with every treasure, impossible after any payment.
        if possible(self, p, cards, self.data.empty_holding or empty_holding(self.data)):
            return hold.owned
        if not possible(self, p, cards, hold):
            return ()
        return [t for t in hold.owned if self._power_possible(p, i, t, cards)]

    def _power_possible(self, p: int, i: int, paid: str, cards: list[str] | None = None) -> bool:
        """Whether the face-up tile of stack ``i`` can do anything once ``paid`` is on its slot
        (interpretation 6: a tile that could only cost a treasure is not offered)."""
        have = self.treasures[p]
        after = holding(self.data, {**have, paid: have[paid] - 1})
        return self._power_possible_after(p, i, cards, after)

    def _power_possible_after(self, p: int, i: int, cards: list[str] | None = None,
                              hold: Holding | None = None) -> bool:
        """Whether the face-up tile of stack ``i`` can do anything for ``p`` now; ``hold``:
        the :func:`holding` to check costs with (``p``'s own if None). Each effect's test is
        a ``_possible_<effect>`` method (:data:`POWER_POSSIBLE`)."""
        if cards is None:
            cards = self._usable_cards(p)
        if hold is None:
            hold = holding(self.data, self.treasures[p])
        return POWER_POSSIBLE[self.data.power_effect[self.power_stacks[i][-1]]](self, p, cards, hold)

    # -- what each power tile needs to do anything (cards: _usable_cards, hold: the holding
    #    its costs are paid with) ----------------------------------------------------------------------
    def _possible_double(self, p: int, cards: list[str], hold: Holding) -> bool:
        return self._can_place(p, "normal", cards, hold) or self._can_sell(p, "normal", hold)

    def _possible_extra_thief(self, p: int, cards: list[str], hold: Holding) -> bool:
        return self._can_place(p, "extra", cards, hold) or self._can_sell(p, "extra", hold)

    def _possible_relocate(self, p: int, cards: list[str], hold: Holding) -> bool:
        # = bool(self._relocate_options(p)): a source holds a thief and a destination none,
        # so any source and any destination make a move
        return self._can_recall(p) and self._can_place(p, "relocate", cards, hold)

    def _possible_recall(self, p: int, cards: list[str], hold: Holding) -> bool:
        return self._can_recall(p)

    def _possible_owner_cut(self, p: int, cards: list[str], hold: Holding) -> bool:
        return self._can_place(p, "cut", cards, hold)

    def _possible_swap(self, p: int, cards: list[str], hold: Holding) -> bool:
        return self._can_swap(p)

    def _possible_thieves_for_treasures(self, p: int, cards: list[str], hold: Holding) -> bool:
        return self.thieves[p] >= 2

    def _possible_thieves(self, p: int, cards: list[str], hold: Holding) -> bool:
        return self.forest > 0 or self._short_supply_allowed   # = self._short_supply_ok()

    def _possible_treasure(self, p: int, cards: list[str], hold: Holding) -> bool:
        return any(self.city.values()) or self._short_supply_allowed

    def _possible_always(self, p: int, cards: list[str], hold: Holding) -> bool:
        return True   # prestige, refresh, new_location (ALWAYS_POSSIBLE)

    def _short_supply_ok(self) -> bool:
        """Rulebook "Limite de la Réserve": an action whose gain the supply cannot give is still
        taken, and gains nothing (option ``empty_supply``: "allowed", the default; "forbidden"
        does not offer such actions)."""
        return self._short_supply_allowed

    def _recall_options(self, p: int) -> list[str]:
        return [c for c in self._in_play() if self.loc_thieves.get(c, 0) > 0 and self._not_protected(p, c)]

    def _can_recall(self, p: int) -> bool:
        """``bool(self._recall_options(p))``, without the list: a card with a thief above
        ``p``'s board or that of someone who has not passed (:meth:`_not_protected`), or a
        neutral one."""
        lt = self.loc_thieves
        if not lt:
            return False
        passed = self.passed
        for q, cards in enumerate(self.above):
            if q == p or not passed[q]:
                for c in cards:
                    if lt.get(c, 0) > 0:
                        return True
        for c in self.neutral:
            if lt.get(c, 0) > 0:
                return True
        return False

    def _relocate_options(self, p: int) -> list[str]:
        srcs = self._recall_options(p)
        if not srcs:
            return []
        dests = self._loc_options(p, "relocate")
        return [f"move {a} {b}" for a in srcs for b in dests if a != b]

    def _swap_options(self, p: int) -> list[str]:
        mine = self.above[p]
        return [f"swap {a} {b}" for a in mine for q in self._targets(p) for b in self.above[q]]

    def _can_swap(self, p: int) -> bool:
        """``bool(self._swap_options(p))``, without the list."""
        return bool(self.above[p]) and any(self.above[q] for q in self._targets(p))

    # -- the main turn -------------------------------------------------------------------------------------
    def _turn_actions(self, p: int) -> list[str]:
        """Rulebook "Phase Voleurs": one action a turn, or pass; in this order: activate a
        location (:meth:`_loc_options`), sell to a fence (:meth:`_sell_options`), use a power
        tile (:meth:`_power_payments`), deliver to the Witch, steal a treasure, recruit a
        thief, pass. The lists are worked out here without the option methods' calls, from
        the tables of ``p``'s :class:`Holding` (every playout decision lists them)."""
        data = self.data
        have = self.treasures[p]
        hold = data.holding_memo.get(TREASURE_COUNTS(have)) or holding(data, have)
        if self._closed_locations and any(self.passed):
            cards = self._usable_cards(p)
        else:                                   # = self._usable_cards(p)
            cards = []
            for above in self.above:
                cards += above
            cards += self.neutral
        thieves = self.thieves[p]
        if thieves >= 1:
            # _loc_options(p, "normal"): no thief on its space, costs paid with a thief placed
            payable = hold.payable   # = hold.payable_with(thieves - 1)
            ok = payable[thieves] if thieves < len(payable) else payable[-1]
            lt, loc_actions = self.loc_thieves, data.loc_actions   # (a card is in lt while occupied)
            acts = [loc_actions[c] for c in cards if c not in lt and c in ok]
            # _sell_options(p, "normal"): a fence of the row whose wants the holding pays
            sellable, row = hold.sellable, self.row   # (None, an empty slot, is never in it)
            if not sellable.isdisjoint(row):
                for f in row:
                    if f in sellable:
                        acts.append(data.sell_actions[f])  # type: ignore[index]
        else:
            acts = []
        owned = hold.owned
        if owned:
            paid, effect = self.power_paid, data.power_effect
            i = 0
            for stack in self.power_stacks:
                if stack and paid[i] is None:
                    eff = effect[stack[-1]]
                    if eff in ALWAYS_POSSIBLE:
                        acts += hold.power_acts[i]
                    elif eff in PAYMENT_BLIND:       # = _power_payments: all or nothing
                        if POWER_POSSIBLE[eff](self, p, cards, hold):
                            acts += hold.power_acts[i]
                    else:
                        pay = self._power_payments(p, i, hold, cards, eff)
                        if pay is owned:
                            acts += hold.power_acts[i]
                        elif pay:
                            power_actions = data.power_actions[i]
                            acts += [power_actions[t] for t in pay]
                i += 1
            # Witch: a treasure owned with a free slot of its type
            used = tuple(self.witch_used)
            witch = hold.witch.get(used)
            if witch is None:
                free = {t for t, u in zip(data.witch_treasures, used) if not u}
                witch = hold.witch[used] = [WITCH_ACTIONS[t] for t in owned if t in free]
            acts += witch
        if thieves >= 2:
            city = self.city
            stealable = [STEAL_ACTIONS[t] for t in TREASURES if city[t] > 0]
            if not stealable and self._short_supply_allowed:   # = self._short_supply_ok()
                stealable = ["steal"]          # the City is empty: 2 thieves for nothing
            acts += stealable
        if self.forest > 0 or self._short_supply_allowed:
            acts += hold.recruits
        acts.append("pass")
        return acts

    def _apply_turn(self, p: int, action: str) -> bool:
        """One thieving-phase action (by :func:`turn_dispatch`); the turn ends once its effects
        have run. Returns whether it may add a treasure (the treasure limit needs a look)."""
        fn, arg, limit = turn_dispatch(self.data)[action]
        fn(self, p, arg)
        self.pending.append({"k": "end_turn"})
        return limit

    # -- the thieving-turn actions, one method each (see turn_dispatch) ---------------------------
    def _turn_pass(self, p: int, _: None) -> None:
        # Once passed: no more actions this round, and no one may target you
        self.passed[p] = True
        if self.recording:
            self.event("pass", player=p)

    def _turn_loc(self, p: int, card: str) -> None:
        self.pending[0:0] = self._activate(p, card, "normal")

    def _turn_sell(self, p: int, fid: str) -> None:
        self.pending[0:0] = self._sell(p, fid, "normal")

    def _turn_power(self, p: int, stack_paid: tuple[int, str]) -> None:
        self._use_power(p, *stack_paid)

    def _turn_witch(self, p: int, t: str) -> None:
        # Deliver to the Witch: a free slot of that treasure type; the token stays till cleanup
        # (the free slot of most prestige; ties: the first)
        used = self.witch_used
        j = next(j for j in self.data.witch_best_of[t] if not used[j])
        used[j] = True
        self.treasures[p][t] -= 1
        n = self.data.witch_prestige[j]
        self.prestige[p] += n
        if self.recording:
            self.event("witch", player=p, treasure=t, n=n)

    def _turn_steal(self, p: int, t: str | None) -> None:
        # Steal a Treasure: 2 thieves onto the board's slot, 1 treasure of your choice
        # (t is None: the City is empty, 2 thieves for nothing)
        self.thieves[p] -= 2
        self.steal_slot += 2
        if t is not None:
            self._gain_treasure(p, t)
            if self.recording:
                self.event("steal", player=p, treasure=t)
        elif self.recording:
            self.event("steal_empty", player=p)

    def _turn_recruit(self, p: int, pair: tuple[str, str]) -> None:
        # Rulebook "Recruter un Voleur": 2 treasures of your choice onto the slot, 1 thief from
        # the Forest. The treasures are paid even when no thief comes: "Limite de la Réserve"
        # (the Forest is empty: you gain nothing; option empty_supply) or "Sièges" (6 thieves
        # on your board: the new one goes straight back). The log says which.
        have, slot = self.treasures[p], self.recruit_slot
        for t in pair:
            have[t] -= 1
            slot[t] += 1
        before = self.thieves[p]
        got = self._gain_thieves(p, 1)
        if self.recording:
            if not got:
                self.event("recruit_empty", player=p, treasures=list(pair))
            elif self.thieves[p] == before:
                self.event("recruit_full", player=p, treasures=list(pair), n=self.data.board.thief_limit)
            else:
                self.event("recruit", player=p, treasures=list(pair), n=got)

    # -- activate a location -----------------------------------------------------------------------------------
    def _activate(self, p: int, card: str, mode: str) -> list[dict[str, Any]]:
        """Place a thief (step 2), resolve the ability (3), then the owner bonus (4)."""
        if mode in ("normal", "cut"):
            self.thieves[p] -= 1
        elif mode == "extra":
            self.forest -= 1
        self.loc_thieves[card] = self.loc_thieves.get(card, 0) + 1
        owner = self._owner(card)
        if owner is not None and owner != p:
            if self.recording:
                self.event("activate_other", player=p, card=card, target=owner)
        else:
            if self.recording:
                self.event("activate", player=p, card=card)
        frames = self._ability_frames(p, card)
        if owner is not None:
            if mode == "cut":            # power tile "owner's cut": the bonus is yours
                frames += self._bonus_frames(p, card)
            elif owner != p:             # no bonus on your own cards
                frames += self._bonus_frames(owner, card)
        return frames

    # -- sell to a fence ---------------------------------------------------------------------------------------
    def _sell(self, p: int, fid: str, mode: str) -> list[dict[str, Any]]:
        fence = self.data.fences[fid]
        spec, jokers = self.data.fence_needs[fid]
        frames: list[dict[str, Any]] = []
        if mode == "normal":
            idx = self.row.index(fid)          # step 2: take the card above your board
            self.row[idx] = None
            self.fences_above[p].append(fid)
            self.thieves[p] -= 1               # step 3: a thief on its action space
            self.fence_thieves[fid] = 1
            self.fence_treasures[fid] = {}
            frames.append({"k": "refill", "i": idx})   # step 5 (after the joker payment below)
        else:                                  # power tile "extra thief": the card stays put
            self.forest -= 1
            self.fence_thieves[fid] = self.fence_thieves.get(fid, 0) + 1
        load = self.fence_treasures.setdefault(fid, {})
        for t, k in spec.items():               # step 3: the wanted treasures onto the card
            self.treasures[p][t] -= k
            load[t] = load.get(t, 0) + k
        self.prestige[p] += fence.prestige      # step 4: prestige at once
        if self.recording:
            self.event("sell", player=p, fence=fid, n=fence.prestige)
        if jokers:
            frames.insert(0, {"k": "payany", "p": p, "n": jokers, "to": fid})
        return frames

    @AUTO_FRAMES("refill")
    def _auto_refill(self, f: dict[str, Any]) -> None:
        """Sell step 5: refill the slot from the fence deck; an empty deck leaves it empty."""
        if self.row[f["i"]] is None and self.fence_deck:
            self.row[f["i"]] = self.fence_deck.pop()
            if self.recording:
                self.event("refill", fence=self.row[f["i"]])

    # -- power tiles: rulebook "Clarifications des Tuiles Pouvoir" -------------------------------------------------
    def _use_power(self, p: int, i: int, paid: str) -> None:
        self.treasures[p][paid] -= 1           # one treasure on the slot left of the tile
        self.power_paid[i] = paid
        tile = self.data.powers[self.power_stacks[i][-1]]
        eff = tile.effect
        if self.recording:
            self.event("power", player=p, treasure=paid, tile=tile.id)
        # Tiles #4 and #7 say "vous pouvez" (you may): their follow-up can be skipped ("opt").
        # Tiles #2, #3 and #11 *are* the action: it must be done (skipped only if impossible).
        sub = {"k": "sub", "p": p, "mode": "normal"}
        opt = {"k": "sub", "p": p, "mode": "normal", "opt": True}
        if eff == "prestige":
            self.prestige[p] += tile.amount
            if self.recording:
                self.event("prestige", player=p, n=tile.amount)
        elif eff == "treasure":
            self.pending.insert(0, {"k": "take", "p": p, "n": tile.amount})
        elif eff == "thieves":
            got = self._gain_thieves(p, tile.amount)
            if self.recording:
                self.event("forest", player=p, n=got)
        elif eff == "thieves_for_treasures":
            self.thieves[p] -= 2
            self.forest += 2
            self.pending.insert(0, {"k": "take", "p": p, "n": tile.amount})
        elif eff == "double":
            self.pending[0:0] = [dict(sub), dict(sub)]
        elif eff == "refresh":
            n = min(3, sum(1 for f in self.row if f is not None))
            self.pending[0:0] = [{"k": "refresh", "p": p, "n": n, "slots": []}, opt]
        elif eff == "new_location":
            frames: list[dict[str, Any]] = []
            if self.loc_deck:
                card = self.loc_deck.pop()
                if self.data.locations[card].instant:   # [interpretation] resolve, file it left
                    self.left[p].append(card)
                    frames = self._ability_frames(p, card)
                else:
                    self.above[p].append(card)
                if self.recording:
                    self.event("draw_location", player=p, card=card)
            self.pending[0:0] = frames + [opt]
        elif eff == "recall":
            self.pending.insert(0, {"k": "recall", "p": p})
        elif eff == "relocate":
            self.pending.insert(0, {"k": "relocate", "p": p})
        elif eff == "swap":
            self.pending.insert(0, {"k": "swap", "p": p})
        elif eff == "owner_cut":
            self.pending.insert(0, {"k": "sub", "p": p, "mode": "cut"})
        elif eff == "extra_thief":
            self.pending.insert(0, {"k": "sub", "p": p, "mode": "extra"})

    def _power_choices(self, f: dict[str, Any]) -> list[str]:
        k, p = f["k"], f["p"]
        data = self.data
        if k == "sub":
            mode = f["mode"]
            acts = list(map(data.loc_actions.__getitem__, self._loc_options(p, mode)))
            if mode != "cut":
                acts += map(data.sell_actions.__getitem__, self._sell_options(p, mode))
            return acts + ["done"] if f.get("opt") else acts
        if k == "recall":
            return list(map(data.recall_actions.__getitem__, self._recall_options(p)))
        if k == "relocate":
            return self._relocate_options(p)
        if k == "swap":
            return self._swap_options(p)
        if k == "refresh":
            return [data.return_actions[x] for x in self.row if x is not None]
        return []

    def _can_choose_power(self, f: dict[str, Any]) -> bool:
        """``bool(self._power_choices(f))``, without the lists."""
        k, p = f["k"], f["p"]
        if k == "sub":
            if f.get("opt"):
                return True   # "done" is always there
            mode = f["mode"]
            hold = holding(self.data, self.treasures[p])
            return (self._can_place(p, mode, self._usable_cards(p), hold)
                    or mode != "cut" and self._can_sell(p, mode, hold))
        if k == "recall":
            return self._can_recall(p)
        if k == "relocate":
            return self._possible_relocate(p, self._usable_cards(p), holding(self.data, self.treasures[p]))
        if k == "swap":
            return self._can_swap(p)
        if k == "refresh":
            return any(x is not None for x in self.row)
        return False

    def _apply_power_choice(self, p: int, f: dict, act: DenAction) -> None:
        k = f["k"]
        if k == "sub":
            self.pending.pop(0)
            if act.verb == "loc":
                self.pending[0:0] = self._activate(p, act.named_card, f["mode"])
            elif act.verb == "sell":
                self.pending[0:0] = self._sell(p, act.named_card, f["mode"])
            else:   # done: the optional follow-up is skipped
                if self.recording:
                    self.event("skip", player=p)
        elif k == "recall":
            # Take a thief off the card onto your board; the card goes on top of the location deck
            self.pending.pop(0)
            c = act.named_card
            self.loc_thieves[c] -= 1
            self._add_thieves(p, 1)
            self.forest += self.loc_thieves.pop(c)   # any other thief on it: to the Forest [interp.]
            owner = self._owner(c)
            (self.above[owner] if owner is not None else self.neutral).remove(c)
            self.loc_deck.append(c)
            if self.recording:
                self.event("recall", player=p, card=c)
        elif k == "relocate":
            # Move a thief to another card to use it, then take that thief onto your board
            self.pending.pop(0)
            a, b = act.named_card, act.named_card2
            self.loc_thieves[a] -= 1
            if not self.loc_thieves[a]:
                del self.loc_thieves[a]
            if self.recording:
                self.event("relocate", player=p, card=a, card2=b)
            frames = self._activate(p, b, "relocate")
            self.pending[0:0] = frames + [{"k": "unplace", "p": p, "c": b}]
        elif k == "swap":
            # Exchange location cards with an opponent; thieves stay on the cards
            self.pending.pop(0)
            a, b = act.named_card, act.named_card2
            q = self._owner(b)
            assert q is not None   # an opponent's card (legal actions only)
            ia, ib = self.above[p].index(a), self.above[q].index(b)
            self.above[p][ia], self.above[q][ib] = b, a
            if self.recording:
                self.event("swap", player=p, card=a, card2=b, target=q)
        elif k == "refresh":
            # Put a fence of the row under the fence deck; refill the emptied slots afterwards
            fid = act.named_card
            idx = self.row.index(fid)
            self.row[idx] = None
            self.fence_deck.insert(0, fid)
            if self.recording:
                self.event("return_fence", player=p, fence=fid)
            f["slots"].append(idx)
            f["n"] -= 1
            if f["n"] <= 0:
                self.pending.pop(0)
                self.pending[0:0] = [{"k": "refill", "i": i} for i in f["slots"]]

    @AUTO_FRAMES("unplace")
    def _auto_unplace(self, f: dict[str, Any]) -> None:
        c = f["c"]
        self.loc_thieves[c] -= 1
        if not self.loc_thieves[c]:
            del self.loc_thieves[c]
        self._add_thieves(f["p"], 1)


#: power effect -> its ``_possible_<effect>`` test (see :meth:`ActionsMixin._power_possible_after`)
POWER_POSSIBLE: dict[str, Callable[[Any, int, list[str], Holding], bool]] = {
    eff: getattr(ActionsMixin, f"_possible_{eff}") for eff in
    ("double", "extra_thief", "relocate", "recall", "owner_cut", "swap", "thieves_for_treasures",
     "thieves", "treasure")}
POWER_POSSIBLE.update(dict.fromkeys(ALWAYS_POSSIBLE, ActionsMixin._possible_always))
