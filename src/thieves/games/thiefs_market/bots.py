"""Bots for Thief's Market.

``greedy`` looks one decision ahead (on a determinized copy) and keeps the
action whose result scores best by :func:`evaluate`: notoriety it would
score now, plus rough values for cards, gold, the dice in its pile and the
start player token, less a little for a pile large enough to tempt thieves.
"""
from __future__ import annotations

from thieves.bots.base import evaluator_bot
from typing import TYPE_CHECKING, cast

from thieves.core.game import State

from . import scoring
from .components import P, Y

if TYPE_CHECKING:
    from .state import MarketState

GEM_DIE, BAG_DIE, PURPLE_DIE = 0.45, 0.8, 0.9
CARD, GOLD, TOKEN = 1.2, 0.8, 0.4
BIG_PILE, PILE_PENALTY = 4, 0.5


def evaluate(state: State, player: int) -> float:
    """Heuristic value of ``state`` for ``player`` (uses only what ``player`` may know)."""
    s = cast("MarketState", state)
    hench, gold_award = scoring.awards(s)
    value = (scoring.card_points(s, player) + s.infamy[player] + hench[player] + gold_award[player]
             + CARD * len(s.tableau[player]) + GOLD * s.gold[player])
    pile = s.piles[player]
    value += GEM_DIE * (pile[0] + pile[1] + pile[2] + pile[3]) + BAG_DIE * pile[Y] + PURPLE_DIE * pile[P]
    if s.token == player:
        value += TOKEN
    if s.phase == "split":
        extra = s.objects(player) - BIG_PILE
        if extra > 0:
            value -= PILE_PENALTY * extra
    return value


#: one-ply search on a determinized copy with :func:`evaluate`
GreedyBot = evaluator_bot(evaluate)

BOTS = {"greedy": GreedyBot}
