"""The bot contract and the two bots every game has."""
from __future__ import annotations

from typing import Callable

from ..core.game import State
from ..core.rng import Rng


class Bot:
    """Chooses one legal action for ``player`` in ``state``; must not change ``state``."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, state: State, player: int) -> str:
        raise NotImplementedError


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, player: int) -> str:
        actions = state.legal_actions(player)
        return actions[self.rng.below(len(actions))]


class OnePlyBot(Bot):
    """Greedy one-ply search: try each action on a determinized copy, keep the best.

    ``evaluate(state, player) -> float`` scores a position for ``player``;
    a game's greedy bot subclasses this and supplies it. Ties are broken
    at random so the bot does not always play the first listed action.
    """

    name = "greedy"

    #: values closer than this count as equal
    tolerance = 1e-9

    def evaluate(self, state: State, player: int) -> float:
        raise NotImplementedError

    def tie_break(self, state: State, player: int, best: list[str]) -> str:
        """Pick among equally good actions (default: at random)."""
        return best[self.rng.below(len(best))]

    def choose(self, state: State, player: int) -> str:
        actions = state.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        base = state.determinize(player, self.rng.next64())
        best: list[str] = []
        best_value = float("-inf")
        tol = self.tolerance
        # checked once on the copy, then applied by the trusted fast path
        legal = set(base.legal_actions(player))
        for action in actions:
            trial = base.clone()
            if action in legal:
                trial.apply_trusted(player, action)
            else:  # the copy disagrees with the real position: the checked path says why
                trial.apply_action(player, action)
            value = self.evaluate(trial, player)
            if value > best_value + tol:
                best_value, best = value, [action]
            elif value >= best_value - tol:
                best.append(action)
        return self.tie_break(state, player, best)


def evaluator_bot(fn: Callable[[State, int], float], bot_name: str = "greedy") -> type[OnePlyBot]:
    """Make a one-ply bot class from an evaluation function."""

    class _Bot(OnePlyBot):
        name = bot_name

        def evaluate(self, state: State, player: int) -> float:
            return fn(state, player)

    _Bot.__name__ = f"{bot_name.title()}Bot"
    return _Bot
