"""An example bot to copy: it plays every game of the contract.

It looks one decision ahead, like the built-in ``greedy`` bots, but values a
position only by the score lead: my score minus the best other score. Try it:

    thieves simulate thieves-den --bot examples/score_bot.py:ScoreBot --bots greedy --games 20

or from Python:

    from thieves.bots.match import run_match
    from examples.score_bot import ScoreBot        # run from the repository root
    print(run_match("thieves-den", [ScoreBot, "greedy"], games=20).summary().entries[0].share.rate)

A bot is a class built with ``Class(seed=...)`` whose ``choose(state, player)``
returns one of ``state.legal_actions(player)``. The ``state`` it gets is a
*fair view* (``thieves.bots.fair``): the other players' secrets are re-dealt
and the future dice re-seeded, so it may read anything in it, search on it
(``state.clone()``, ``state.apply_action``) or re-deal it again with
``state.determinize(player, seed)`` for Monte-Carlo search.
"""
from __future__ import annotations

from thieves.bots import OnePlyBot
from thieves.core.game import State


class ScoreBot(OnePlyBot):
    """One-ply search on the score lead; ties broken at random (``self.rng``)."""

    name = "score"

    def evaluate(self, state: State, player: int) -> float:
        scores = state.scores()
        others = [s for q, s in enumerate(scores) if q != player]
        return scores[player] - (max(others) if others else 0.0)
