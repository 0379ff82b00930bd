"""How a purchase is paid: the cheapest payment of a card and the steps the
table asks for it (the one-gesture purchase of the board)."""
from __future__ import annotations

from typing import Sequence

from .faces import GEMS


def cheapest_payment(cost: Sequence[str], pile: dict[str, int], gold: int, waiver: int
                     ) -> tuple[dict[str, int], dict[str, int], dict[str, int]] | None:
    """How to pay a card's ``cost`` (gem letters) spending what is least useful:
    ``(waived, dice, gold)`` per gem, or None when it cannot be paid.

    Rulebook "Phase 2: effectuer des achats": a die showing a gem pays that gem and goes
    back to the center; "les Pièces d'Or peuvent être utilisées à la place d'un joyau"; at
    "Fin du tour" every die goes back to the center anyway, while gold is kept (the most
    gold scores 3 NP, "Fin du jeu"). So a gem die is worth nothing after this round and a
    coin is: dice pay every gem they can, gold only the gems no die shows. Insurance
    Racket ("tous vos achats coûtent un dé de moins, celui de votre choix") waives gems of
    this card only, so its waiver is never kept: it goes first to gems that would cost
    gold, then to gems a die would pay (that die stays for another purchase or a card's
    ability this round), in the cost's order."""
    waived, dice, coins = {}, {}, {}
    free = waiver
    for g in GEMS:                       # gems no die shows: waived, else gold
        need = cost.count(g)
        short = max(0, need - pile.get(g, 0))
        w = min(free, short)
        free -= w
        waived[g], dice[g], coins[g] = w, need - short, short - w
    for g in GEMS:                       # the waiver left spares dice
        w = min(free, dice[g])
        free -= w
        waived[g] += w
        dice[g] -= w
    if sum(coins.values()) > gold:
        return None
    return waived, dice, coins


def payment_steps(cost: Sequence[str], pile: dict[str, int], gold: int, waiver: int) -> list[str] | None:
    """The steps (``pay R``, ``gold W``, ``free B``) a player would choose to pay ``cost``
    as :func:`cheapest_payment` says, in the order the table asks for them (the gems of
    the cost in R W B G order, one at a time); a step the table takes by itself (the
    only legal way to pay that gem, ``MarketState._settle``) is left out. None: the card
    cannot be paid."""
    plan = cheapest_payment(cost, pile, gold, waiver)
    if plan is None:
        return None
    waived, dice, coins = (dict(part) for part in plan)
    need = {g: cost.count(g) for g in GEMS}
    have = {g: pile.get(g, 0) for g in GEMS}
    free_left, steps = waiver, []
    while any(need.values()):
        g = next(x for x in GEMS if need[x])
        need[g] -= 1
        # the ways the table offers for this gem (MarketState._pay_choices)
        deficit = sum(max(0, need[x] - have[x]) for x in GEMS)
        ways = [kind for kind, ok in (("pay", have[g] > 0),
                                      ("gold", gold > 0 and deficit - free_left <= gold - 1),
                                      ("free", free_left > 0 and deficit - free_left + 1 <= gold)) if ok]
        kind = "free" if waived[g] else "pay" if dice[g] else "gold"
        if kind == "free":
            waived[g] -= 1
            free_left -= 1
        elif kind == "pay":
            dice[g] -= 1
            have[g] -= 1
        else:
            coins[g] -= 1
            gold -= 1
        if kind not in ways:             # never with a plan that pays: the rest by hand
            break
        if len(ways) > 1:
            steps.append(f"{kind} {g}")
    return steps

