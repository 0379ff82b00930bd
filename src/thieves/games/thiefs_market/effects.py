"""Card effects, by effect kind (``data/cards.yaml``), at the moments the rulebook gives.

Each function is one timing of the card list: when a pile is stolen, at the
end of phase 1, during a purchase turn, when a card is gained, at the end
of a round. Final scoring kinds are in ``scoring.py``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .components import FACES, P, Y

if TYPE_CHECKING:
    from .state import MarketState


def owned(s: "MarketState", p: int, kind: str) -> list[int]:
    kinds = s.data.kind
    return [c for c in s.tableau[p] if kinds[c] == kind]


def add_infamy(s: "MarketState", p: int, n: int, why: str) -> None:
    """Infamy tokens are kept hidden: only their owner reads the amount."""
    if n:
        s.infamy[p] += n
        s.event_text(f"You gain {n} infamy ({why}); you have {s.infamy[p]}.", to=[p])


def add_gold(s: "MarketState", p: int, n: int, why: str) -> None:
    if n:
        s.gold[p] += n
        s.event_text(f"{s.player_name(p)} gains {n} gold ({why}).")


# ---------------------------------------------------------------- phase 1
def on_stolen(s: "MarketState", q: int) -> None:
    """Wicked Clutches: each time your pile is stolen, gain infamy."""
    t = s.data
    for c in owned(s, q, "infamy_when_stolen"):
        add_infamy(s, q, t.amount[c], t.names[c])


def keeps_faces(s: "MarketState", q: int) -> bool:
    """Lucky Animal Appendage: dice returned from your stolen pile are not rerolled."""
    return bool(owned(s, q, "lucky_charm"))


def end_of_split(s: "MarketState") -> None:
    """Eyepatch of Command: the start player token in your pile after phase 1 gives infamy."""
    p = s.token
    t = s.data
    for c in owned(s, p, "infamy_if_token"):
        add_infamy(s, p, t.amount[c], t.names[c])


def rerolls(s: "MarketState", p: int) -> int:
    """Lucky Animal Appendage: dice of your final pile you may reroll at the start of phase 2."""
    t = s.data
    return sum(t.amount[c] for c in owned(s, p, "lucky_charm"))


# ---------------------------------------------------------------- phase 2
def allowed_buys(s: "MarketState", p: int) -> int:
    """One purchase, plus one per extra-purchase card whose face was in your pile after
    phase 1 (Corrupt Official and co.), plus Insurance Racket's."""
    t = s.data
    mask = s.p1_mask[p]
    extra = 0
    for c in s.tableau[p]:
        k = t.kind[c]
        if k == "extra_buy_if_face":
            if mask >> t.face[c] & 1:
                extra += 1
        elif k == "extra_buy_discount":
            extra += 1
    if extra > 1 and not s.options["extra_buys_stack"]:
        extra = 1
    return 1 + extra


def discount(s: "MarketState", p: int) -> int:
    """Insurance Racket: every card you buy costs this many gems less (you choose which)."""
    t = s.data
    return sum(t.amount[c] for c in s.tableau[p] if t.kind[c] == "extra_buy_discount")


def use(s: "MarketState", p: int, c: int, to: int) -> None:
    """A card ability used during your purchase turn."""
    t = s.data
    kind, name, pile = t.kind[c], t.names[c], s.piles[p]
    if kind == "turn_die":              # once per round: turn a die of one face to another
        f = t.face[c]
        pile[f] -= 1
        pile[to] += 1
        s.used.append(c)
        s.event_text(f"{s.player_name(p)} turns a {FACES[f]} die to {FACES[to]} ({name}).")
    elif kind == "spend_die":           # once per round: spend a die to gain a token
        f = t.face[c]
        pile[f] -= 1
        s.center[f] += 1
        s.used.append(c)
        s.event_text(f"{s.player_name(p)} spends a {FACES[f]} die ({name}).")
        if t.effect[c].gain == "gold":
            add_gold(s, p, t.amount[c], name)
        else:
            add_infamy(s, p, t.amount[c], name)
    elif kind == "gold_for_infamy":     # any number of times: pay gold for infamy
        s.gold[p] -= 1
        s.event_text(f"{s.player_name(p)} pays 1 gold ({name}).")
        add_infamy(s, p, t.amount[c], name)


def gain(s: "MarketState", p: int, c: int, bought: bool) -> None:
    """A card comes to ``p``: bought from the market, or free from Unlabeled Potion."""
    t = s.data
    kind, name = t.kind[c], t.names[c]
    if bought and kind == "gain_top_card":
        # Unlabeled Potion: discard it at once and gain the top card of the deck
        s.discarded.append(c)
        s.event_text(f"{s.player_name(p)} buys {name} and discards it.")
        _buy_triggers(s, p, c)
        decks = range(s.active_row, 3) if s.options["potion_deck"] == "current" else [t.deck_of[c]]
        for r in decks:
            if s.decks[r]:
                gain(s, p, s.decks[r].pop(), bought=False)
                return
        s.event_text("Every deck is empty: nothing is gained.")
        return
    s.tableau[p].append(c)
    s.event_text(f"{s.player_name(p)} {'buys' if bought else 'gains'} {name}.")
    if bought:
        _buy_triggers(s, p, c)
    if kind == "infamy_per_pile_object":   # Big Haul, The Heist
        add_infamy(s, p, s.p1_objects[p], name)


def _buy_triggers(s: "MarketState", p: int, c: int) -> None:
    """Buffalo, Noble, Rumor-Monger, Dockhand: buying a card whose printed cost shows
    their gem (the card itself included) gives infamy."""
    t = s.data
    cost = t.cost[c]
    for o in s.tableau[p]:
        if t.kind[o] == "infamy_on_buy_gem" and cost[t.face[o]]:
            add_infamy(s, p, t.amount[o], t.names[o])


# ------------------------------------------------------------ end of round
def end_of_round(s: "MarketState") -> None:
    """Each bag die becomes a gold coin, each purple die an infamy token; Imbalanced
    Scales and Island Estate add one more when at least one such die is turned in."""
    t = s.data
    for p in range(s.num_players):
        pile = s.piles[p]
        add_gold(s, p, pile[Y], "bag dice")
        add_infamy(s, p, pile[P], "purple dice")
        for c in owned(s, p, "round_bonus"):
            if pile[t.face[c]]:
                if t.effect[c].gain == "gold":
                    add_gold(s, p, t.amount[c], t.names[c])
                else:
                    add_infamy(s, p, t.amount[c], t.names[c])
