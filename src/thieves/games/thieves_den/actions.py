"""Thieves Den: the thieving-phase actions and the power tiles.

Rulebook sections: "Activer un Lieu", "Vendre des Trésors", "Utiliser une tuile Pouvoir",
"Trésor à la Sorcière" (deliver to the Witch), the first "Recruter un Voleur" section (really
"Steal a Treasure": 2 thieves for 1 treasure), the second "Recruter un Voleur" (2 treasures
for 1 thief) and "Clarifications des Tuiles Pouvoir".
"""
from __future__ import annotations

from itertools import chain, compress, filterfalse
from operator import not_
from typing import Any, NamedTuple, Sequence

from .components import TREASURES, DenData
from .effects import MEMO_LIMIT, can_pay
from .fields import MixinBase
from .notation import DenAction

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

    def payable_with(self, thieves_after: int) -> frozenset[str]:
        """The location cards whose costs it and ``thieves_after`` thieves pay (:func:`can_pay`)."""
        payable = self.payable
        i = thieves_after + 1
        return payable[i] if 0 <= i < len(payable) else payable[0 if i < 0 else -1]


def holding(data: DenData, have: dict[str, int]) -> Holding:
    """The :class:`Holding` of treasures ``have``, worked out once per holding and kept in
    ``data`` (the legal actions ask for it at every turn)."""
    key = tuple(have.items())
    got = data.holding_memo.get(key)
    if got is None:
        if len(data.holding_memo) >= MEMO_LIMIT:
            data.holding_memo.clear()
        got = data.holding_memo[key] = _make_holding(data, have)
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
    return Holding(owned, recruits, sellable, payable)


def can_sell(spec: dict[str, int], wanted: int, have: dict[str, int], total: int) -> bool:
    """Sell Treasures, step 2: whether treasures ``have`` (``total`` in all) pay a fence that
    wants ``spec`` (its named treasures) and ``wanted`` treasures in all (jokers included)."""
    if total < wanted:
        return False
    for t, k in spec.items():
        if have[t] < k:
            return False
    return True


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
        return (owner is None or owner == p or not self.passed[owner]
                or self.options.get("passed_locations", "open") == "open")

    # -- option lists -----------------------------------------------------------------------------------
    def _usable_cards(self, p: int) -> list[str]:
        """The face-up cards ``p`` may put a thief on (option ``passed_locations``)."""
        cards = [*chain.from_iterable(self.above), *self.neutral]   # = self._in_play()
        if self.options.get("passed_locations", "open") != "open" and any(self.passed):
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
        payable = filter(ok.__contains__, cards)
        thieves_on = self.loc_thieves.get   # truthy when a thief is on the card (never negative)
        usable = filter(thieves_on, payable) if occupied else filterfalse(thieves_on, payable)
        return next(usable, None) is not None

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

    def _power_payments(self, p: int, i: int, hold: Holding, cards: list[str]) -> Sequence[str]:
        """The treasures among those ``p`` holds (``hold``, their :func:`holding`) that they may
        pay for the face-up tile of stack ``i``: those after whose payment the tile can still
        do something (interpretation 6). ``cards``: :meth:`_usable_cards` (paying a treasure
        does not change them)."""
        owned = hold.owned
        if self.data.power_effect[self.power_stacks[i][-1]] in PAYMENT_BLIND:
            return owned if self._power_possible_after(p, i, cards, hold) else []
        # The other tiles only look at treasures to check costs, and fewer treasures never
        # open an option: possible with no treasure at all, possible after any payment;
        # impossible with every treasure, impossible after any payment.
        if self._power_possible_after(p, i, cards, holding(self.data, NO_TREASURE)):
            return owned
        if not self._power_possible_after(p, i, cards, hold):
            return []
        return [t for t in owned if self._power_possible(p, i, t, cards)]

    def _power_possible(self, p: int, i: int, paid: str, cards: list[str] | None = None) -> bool:
        """Whether the face-up tile of stack ``i`` can do anything once ``paid`` is on its slot
        (interpretation 6: a tile that could only cost a treasure is not offered)."""
        have = self.treasures[p]
        after = holding(self.data, {**have, paid: have[paid] - 1})
        return self._power_possible_after(p, i, cards, after)

    def _power_possible_after(self, p: int, i: int, cards: list[str] | None = None,
                              hold: Holding | None = None) -> bool:
        """Whether the face-up tile of stack ``i`` can do anything for ``p`` now; ``hold``:
        the :func:`holding` to check costs with (``p``'s own if None)."""
        if cards is None:
            cards = self._usable_cards(p)
        if hold is None:
            hold = holding(self.data, self.treasures[p])
        eff = self.data.power_effect[self.power_stacks[i][-1]]
        # (the tiles asked most often first)
        if eff == "double":
            return self._can_place(p, "normal", cards, hold) or self._can_sell(p, "normal", hold)
        if eff == "extra_thief":
            return self._can_place(p, "extra", cards, hold) or self._can_sell(p, "extra", hold)
        if eff == "relocate":
            # = bool(self._relocate_options(p)): a source holds a thief and a destination none,
            # so any source and any destination make a move
            return self._can_recall(p) and self._can_place(p, "relocate", cards, hold)
        if eff == "recall":
            return self._can_recall(p)
        if eff == "owner_cut":
            return self._can_place(p, "cut", cards, hold)
        if eff == "swap":
            return self._can_swap(p)
        if eff == "thieves_for_treasures":
            return self.thieves[p] >= 2
        if eff == "thieves":
            return self.forest > 0 or self._short_supply_ok()
        if eff == "treasure":
            return any(self.city.values()) or self._short_supply_ok()
        return True   # prestige, refresh, new_location

    def _short_supply_ok(self) -> bool:
        """Rulebook "Limite de la Réserve": an action whose gain the supply cannot give is still
        taken, and gains nothing (option ``empty_supply``: "allowed", the default; "forbidden"
        does not offer such actions)."""
        return self.options.get("empty_supply", "allowed") == "allowed"

    def _recall_options(self, p: int) -> list[str]:
        return [c for c in self._in_play() if self.loc_thieves.get(c, 0) > 0 and self._not_protected(p, c)]

    def _can_recall(self, p: int) -> bool:
        """``bool(self._recall_options(p))``, without the list."""
        lt = self.loc_thieves
        return any(lt.get(c, 0) > 0 and self._not_protected(p, c) for c in self._in_play())

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
        tile, deliver to the Witch, steal a treasure, recruit a thief, pass. The first two
        lists are worked out here without their calls (every playout decision lists them)."""
        data = self.data
        have = self.treasures[p]
        hold = data.holding_memo.get(tuple(have.items())) or holding(data, have)
        cards = self._usable_cards(p)
        thieves = self.thieves[p]
        if thieves >= 1:
            # _loc_options(p, "normal"): no thief on its space, costs paid with a thief placed
            payable = hold.payable   # = hold.payable_with(thieves - 1)
            ok = payable[thieves] if thieves < len(payable) else payable[-1]
            acts = list(map(data.loc_actions.__getitem__,
                            filterfalse(self.loc_thieves.get, filter(ok.__contains__, cards))))
            # _sell_options(p, "normal"): a fence of the row whose wants the holding pays
            sellable = hold.sellable.__contains__   # None (an empty slot) is never sellable
            acts += map(data.sell_actions.__getitem__, filter(sellable, self.row))  # type: ignore[arg-type]
        else:
            acts = []
        owned = hold.owned
        if owned:
            paid, effect = self.power_paid, data.power_effect
            for i, stack in enumerate(self.power_stacks):
                if stack and paid[i] is None:
                    if effect[stack[-1]] in ALWAYS_POSSIBLE:
                        acts += map(data.power_actions[i].__getitem__, owned)
                    else:
                        acts += map(data.power_actions[i].__getitem__,
                                    self._power_payments(p, i, hold, cards))
            free = set(compress(data.witch_treasures, map(not_, self.witch_used)))
            acts += map(WITCH_ACTIONS.__getitem__, filter(free.__contains__, owned))
        if thieves >= 2:
            stealable = list(compress(STEAL_LIST, map(self.city.__getitem__, TREASURES)))   # city[t] > 0
            if not stealable and self._short_supply_ok():
                stealable = ["steal"]          # the City is empty: 2 thieves for nothing
            acts += stealable
        if self.forest > 0 or self._short_supply_ok():
            acts += hold.recruits
        acts.append("pass")
        return acts

    def _apply_turn(self, p: int, act: DenAction) -> None:
        """One thieving-phase action; the turn ends once its effects have run."""
        self._turn_action(p, act)
        self.pending.append({"k": "end_turn"})

    def _turn_action(self, p: int, act: DenAction) -> None:
        verb = act.verb
        if verb == "pass":
            # Once passed: no more actions this round, and no one may target you
            self.passed[p] = True
            self.event("pass", player=p)
        elif verb == "loc":
            self.pending[0:0] = self._activate(p, act.named_card, "normal")
        elif verb == "sell":
            self.pending[0:0] = self._sell(p, act.named_card, "normal")
        elif verb == "power":
            self._use_power(p, act.named_stack, act.named_treasure)
        elif verb == "witch":
            # Deliver to the Witch: a free slot of that treasure type; the token stays till cleanup
            t = act.named_treasure
            # (the free slot of most prestige; ties: the first)
            used = self.witch_used
            j = next(j for j in self.data.witch_best_of[t] if not used[j])
            used[j] = True
            self.treasures[p][t] -= 1
            n = self.data.witch_prestige[j]
            self.prestige[p] += n
            self.event("witch", player=p, treasure=t, n=n)
        elif verb == "steal":
            # Steal a Treasure: 2 thieves onto the board's slot, 1 treasure of your choice
            self.thieves[p] -= 2
            self.steal_slot += 2
            if act.treasure is not None:
                self._gain_treasure(p, act.treasure)
                self.event("steal", player=p, treasure=act.treasure)
            else:
                self.event("steal_empty", player=p)
        elif verb == "recruit":
            # Recruit a Thief: 2 treasures of your choice onto the slot, 1 thief from the Forest
            for t in (act.named_treasure, act.named_treasure2):
                self.treasures[p][t] -= 1
                self.recruit_slot[t] += 1
            got = self._gain_thieves(p, 1)
            self.event("recruit", player=p, treasures=[act.treasure, act.treasure2], n=got)

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
            self.event("activate_other", player=p, card=card, target=owner)
        else:
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
        self.event("sell", player=p, fence=fid, n=fence.prestige)
        if jokers:
            frames.insert(0, {"k": "payany", "p": p, "n": jokers, "to": fid})
        return frames

    def _auto_refill(self, f: dict[str, Any]) -> None:
        """Sell step 5: refill the slot from the fence deck; an empty deck leaves it empty."""
        if self.row[f["i"]] is None and self.fence_deck:
            self.row[f["i"]] = self.fence_deck.pop()
            self.event("refill", fence=self.row[f["i"]])

    # -- power tiles: rulebook "Clarifications des Tuiles Pouvoir" -------------------------------------------------
    def _use_power(self, p: int, i: int, paid: str) -> None:
        self.treasures[p][paid] -= 1           # one treasure on the slot left of the tile
        self.power_paid[i] = paid
        tile = self.data.powers[self.power_stacks[i][-1]]
        eff = tile.effect
        self.event("power", player=p, treasure=paid, tile=tile.id)
        # Tiles #4 and #7 say "vous pouvez" (you may): their follow-up can be skipped ("opt").
        # Tiles #2, #3 and #11 *are* the action: it must be done (skipped only if impossible).
        sub = {"k": "sub", "p": p, "mode": "normal"}
        opt = {"k": "sub", "p": p, "mode": "normal", "opt": True}
        if eff == "prestige":
            self.prestige[p] += tile.amount
            self.event("prestige", player=p, n=tile.amount)
        elif eff == "treasure":
            self.pending.insert(0, {"k": "take", "p": p, "n": tile.amount})
        elif eff == "thieves":
            got = self._gain_thieves(p, tile.amount)
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
        if k == "sub":
            mode = f["mode"]
            acts = [f"loc {c}" for c in self._loc_options(p, mode)]
            if mode != "cut":
                acts += [f"sell {x}" for x in self._sell_options(p, mode)]
            return acts + ["done"] if f.get("opt") else acts
        if k == "recall":
            return [f"recall {c}" for c in self._recall_options(p)]
        if k == "relocate":
            return self._relocate_options(p)
        if k == "swap":
            return self._swap_options(p)
        if k == "refresh":
            return [f"return {x}" for x in self.row if x is not None]
        return []

    def _apply_power_choice(self, p: int, f: dict, act: DenAction) -> None:
        k = f["k"]
        if k == "sub":
            self.pending.pop(0)
            if act.verb == "loc":
                self.pending[0:0] = self._activate(p, act.named_card, f["mode"])
            elif act.verb == "sell":
                self.pending[0:0] = self._sell(p, act.named_card, f["mode"])
            else:   # done: the optional follow-up is skipped
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
            self.event("recall", player=p, card=c)
        elif k == "relocate":
            # Move a thief to another card to use it, then take that thief onto your board
            self.pending.pop(0)
            a, b = act.named_card, act.named_card2
            self.loc_thieves[a] -= 1
            if not self.loc_thieves[a]:
                del self.loc_thieves[a]
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
            self.event("swap", player=p, card=a, card2=b, target=q)
        elif k == "refresh":
            # Put a fence of the row under the fence deck; refill the emptied slots afterwards
            fid = act.named_card
            idx = self.row.index(fid)
            self.row[idx] = None
            self.fence_deck.insert(0, fid)
            self.event("return_fence", player=p, fence=fid)
            f["slots"].append(idx)
            f["n"] -= 1
            if f["n"] <= 0:
                self.pending.pop(0)
                self.pending[0:0] = [{"k": "refill", "i": i} for i in f["slots"]]

    def _auto_unplace(self, f: dict[str, Any]) -> None:
        c = f["c"]
        self.loc_thieves[c] -= 1
        if not self.loc_thieves[c]:
            del self.loc_thieves[c]
        self._add_thieves(f["p"], 1)
