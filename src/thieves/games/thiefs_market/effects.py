"""Card effects, by effect kind (``data/cards.yaml``), at the moments the rulebook gives.

Each function is one timing of the card list: when a pile is stolen, at the
end of phase 1, during a purchase turn, when a card is gained, at the end
of a round. Final scoring kinds are in ``scoring.py``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .components import FACES, P, Y

if TYPE_CHECKING:
    from .components import Holdings
    from .state import MarketState


_NONE: list[int] = []


def holdings(s: "MarketState", p: int) -> "Holdings":
    """The cards of ``p`` sorted for the rules' questions (shared: do not mutate)."""
    t = s.data
    h = t.holdings_memo.get(tuple(s.tableau[p]))
    return h if h is not None else t.holdings(s.tableau[p])


def owned(s: "MarketState", p: int, kind: str) -> list[int]:
    """The cards of ``p`` with that effect kind, in tableau order (shared: do not mutate)."""
    t = s.data
    h = t.holdings_memo.get(tuple(s.tableau[p]))
    if h is None:
        h = t.holdings(s.tableau[p])
    return h.kinds.get(kind, _NONE)


def add_infamy(s: "MarketState", p: int, n: int, card: int = -1) -> None:
    """Infamy tokens are kept hidden (rulebook "Matériel"): only their owner reads the
    event. ``card`` is the card that gave them (-1: purple dice turned in)."""
    if n:
        s.infamy[p] += n
        if card >= 0:
            s.event("infamy_card", to=[p], player=p, n=n, total=s.infamy[p], card=s.data.ids[card])
        else:
            s.event("infamy_dice", to=[p], player=p, n=n, total=s.infamy[p])


def add_gold(s: "MarketState", p: int, n: int, card: int = -1) -> None:
    """Gold is public. ``card`` is the card that gave it (-1: bag dice turned in)."""
    if n:
        s.gold[p] += n
        if card >= 0:
            s.event("gold_card", player=p, n=n, card=s.data.ids[card])
        else:
            s.event("gold_dice", player=p, n=n)


# ---------------------------------------------------------------- phase 1
def on_stolen(s: "MarketState", q: int) -> None:
    """Wicked Clutches: each time your pile is stolen, gain infamy."""
    t = s.data
    for c in owned(s, q, "infamy_when_stolen"):
        add_infamy(s, q, t.amount[c], c)


def keeps_faces(s: "MarketState", q: int) -> bool:
    """Lucky Animal Appendage: dice returned from your stolen pile are not rerolled."""
    return "lucky_charm" in holdings(s, q).kinds


def end_of_split(s: "MarketState") -> None:
    """Eyepatch of Command: the start player token in your pile after phase 1 gives infamy."""
    p = s.token
    t = s.data
    for c in owned(s, p, "infamy_if_token"):
        add_infamy(s, p, t.amount[c], c)


def rerolls(s: "MarketState", p: int) -> int:
    """Lucky Animal Appendage: dice of your final pile you may reroll at the start of phase 2."""
    return holdings(s, p).lucky


# ---------------------------------------------------------------- phase 2
def purchase_terms(s: "MarketState", p: int, mine: "Holdings | None" = None) -> tuple[int, int]:
    """(purchases allowed this round, gems waived per card) for ``p``. ``mine``:
    :func:`holdings` of ``p`` when the caller has it already.

    One purchase, plus one per extra-purchase card whose face was in your pile after
    phase 1 (Corrupt Official and co.), plus Insurance Racket's; Insurance Racket: every
    card you buy costs its amount of gems less (you choose which)."""
    if mine is None:
        mine = holdings(s, p)
    extra = mine.rackets
    if mine.extra_faces:
        mask = s.p1_mask[p]
        for f in mine.extra_faces:
            if mask >> f & 1:
                extra += 1
    if extra > 1 and not s.options["extra_buys_stack"]:
        extra = 1
    return 1 + extra, mine.waiver


def allowed_buys(s: "MarketState", p: int) -> int:
    """Purchases ``p`` may make this round (see :func:`purchase_terms`)."""
    return purchase_terms(s, p)[0]


def discount(s: "MarketState", p: int) -> int:
    """Gems Insurance Racket waives on every card ``p`` buys (see :func:`purchase_terms`)."""
    return purchase_terms(s, p)[1]


def use(s: "MarketState", p: int, c: int, to: int) -> None:
    """A card ability used during your purchase turn."""
    t = s.data
    kind, cid, pile = t.kind[c], t.ids[c], s.piles[p]
    if kind == "turn_die":              # once per round: turn a die of one face to another
        f = t.face[c]
        pile[f] -= 1
        pile[to] += 1
        s.used.append(c)
        s.event("turn", player=p, face=FACES[f], result=FACES[to], card=cid)
    elif kind == "spend_die":           # once per round: spend a die to gain a token
        f = t.face[c]
        pile[f] -= 1
        s.center[f] += 1
        s.used.append(c)
        s.event("spend", player=p, face=FACES[f], card=cid)
        if t.effect[c].gain == "gold":
            add_gold(s, p, t.amount[c], c)
        else:
            add_infamy(s, p, t.amount[c], c)
    elif kind == "gold_for_infamy":     # any number of times: pay gold for infamy
        s.gold[p] -= 1
        s.event("pay_gold", player=p, card=cid)
        add_infamy(s, p, t.amount[c], c)


def gain(s: "MarketState", p: int, c: int, bought: bool) -> None:
    """A card comes to ``p``: bought from the market, or free from Unlabeled Potion."""
    t = s.data
    kind, cid = t.kind[c], t.ids[c]
    if bought and kind == "gain_top_card":
        # Unlabeled Potion: discard it at once and gain the top card of the deck
        s.discarded.append(c)
        s.event("buy_discard", player=p, card=cid)
        _buy_triggers(s, p, c)
        decks = range(s.active_row, 3) if s.options["potion_deck"] == "current" else [t.deck_of[c]]
        for r in decks:
            if s.decks[r]:
                gain(s, p, s.decks[r].pop(), bought=False)
                return
        s.event("decks_empty", player=p)
        return
    s.tableau[p].append(c)
    s.event("buy" if bought else "gain", player=p, card=cid)
    if bought:
        _buy_triggers(s, p, c)
    if kind == "infamy_per_pile_object":   # Big Haul, The Heist
        add_infamy(s, p, s.p1_objects[p], c)


def _buy_triggers(s: "MarketState", p: int, c: int) -> None:
    """Buffalo, Noble, Rumor-Monger, Dockhand: buying a card whose printed cost shows
    their gem (the card itself included) gives infamy."""
    t = s.data
    cost = t.cost[c]
    for o in owned(s, p, "infamy_on_buy_gem"):
        if cost[t.face[o]]:
            add_infamy(s, p, t.amount[o], o)


# ------------------------------------------------------------ end of round
def end_of_round(s: "MarketState") -> None:
    """Each bag die becomes a gold coin, each purple die an infamy token; Imbalanced
    Scales and Island Estate add one more when at least one such die is turned in."""
    t = s.data
    for p, pile in enumerate(s.piles):
        if pile[Y]:
            add_gold(s, p, pile[Y])
        if pile[P]:
            add_infamy(s, p, pile[P])
        for c in owned(s, p, "round_bonus"):
            if pile[t.face[c]]:
                if t.effect[c].gain == "gold":
                    add_gold(s, p, t.amount[c], c)
                else:
                    add_infamy(s, p, t.amount[c], c)
