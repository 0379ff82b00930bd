"""Bots: objects with ``choose(state, player) -> action``.

A bot reads the game only through ``state.observation(player)`` and
``state.legal_actions(player)``, or through ``state.determinize(player, seed)``
(a copy that hides what the player cannot know) when it searches ahead.

``make_bot(name, slug, seed)`` builds a bot by name: ``random`` and ``mcts``
(information-set MCTS, see :mod:`thieves.bots.mcts`) for every game,
``greedy`` and any others a game registers in its ``bots`` module (a dict
``BOTS`` of name -> class taking ``seed``). A name may carry an argument
after a colon, ``mcts:200`` (iterations) or ``mcts:1s`` (time per decision),
given to the class as ``budget``. A game tunes ``mcts`` with a
:class:`~thieves.bots.mcts.SearchSpec` named ``SEARCH`` in its ``bots`` module.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable, Protocol

from ..core.errors import ThievesError
from ..core.game import State
from ..core.rng import Rng
from ..core.registry import GAME_MODULES
from .base import Bot, OnePlyBot, RandomBot
from .fair import choose_fairly, fair_view
from .mcts import MCTSBot, SearchSpec

__all__ = ["Bot", "BotFailed", "RandomBot", "OnePlyBot", "MCTSBot", "SearchSpec", "make_bot", "bot_names",
           "fair_view", "choose_fairly", "play_game"]


class BotFactory(Protocol):
    def __call__(self, seed: int = 0) -> Bot: ...


def _bots_module(slug: str) -> ModuleType | None:
    module_name = GAME_MODULES.get(slug)
    if module_name is None:
        return None
    try:
        return importlib.import_module(module_name + ".bots")
    except ModuleNotFoundError as exc:
        if exc.name != module_name + ".bots":
            raise
        return None


def _game_bots(slug: str) -> dict[str, Callable[..., Bot]]:
    return dict(getattr(_bots_module(slug), "BOTS", {}))


def search_spec(slug: str) -> SearchSpec:
    """The game's tuning of IS-MCTS (``SEARCH`` in its bots module), or the defaults."""
    return getattr(_bots_module(slug), "SEARCH", None) or SearchSpec()


def bot_names(slug: str) -> list[str]:
    own = [n for n in _game_bots(slug) if n not in ("random", "mcts")]
    return ["random"] + own + ["mcts"]


def make_bot(name: str, slug: str, seed: int = 0) -> Bot:
    """A bot by name for game ``slug``: ``random``, ``greedy``, ``mcts``, ``mcts:200``, ``mcts:1s``..."""
    if not isinstance(name, str) or not name:
        raise ThievesError(f"a bot name is a non-empty string, not {name!r}")
    base, _, arg = name.partition(":")
    bots = _game_bots(slug)
    if base in bots:
        if not arg:
            return bots[base](seed=seed)
        try:
            return bots[base](seed=seed, budget=arg)
        except TypeError:
            raise ThievesError(f"bot {base!r} takes no argument (mcts does: mcts:200, mcts:1s)") from None
    if base == "mcts":
        return MCTSBot(seed=seed, budget=arg or None, spec=search_spec(slug))
    if arg:
        raise ThievesError(f"bot {base!r} takes no argument (only mcts does: mcts:200, mcts:1s)")
    if base == "random":
        return RandomBot(seed=seed)
    raise ThievesError(f"no bot {name!r} for {slug}; bots are: {', '.join(bot_names(slug))}")


class BotFailed(ThievesError):
    """A bot raised an exception or answered an illegal action (:func:`play_game`):
    ``seat`` (0-based), ``move`` (the number of the decision it was asked for, from 1)
    and what went wrong; the state is as it was before that decision."""

    def __init__(self, seat: int, move: int, problem: str, who: str = "") -> None:
        super().__init__(seat, move, problem, who)
        self.seat, self.move, self.problem, self.who = seat, move, problem, who

    def __str__(self) -> str:
        who = f"{self.who} " if self.who else ""
        return f"{who}the bot in seat {self.seat + 1} failed at move {self.move}: {self.problem}"


def play_game(state: State, bots: list[Bot], max_decisions: int = 1_000_000, seed: int = 0,
              order: Rng | None = None) -> State:
    """Let one bot per seat play ``state`` to its end.

    Each bot decides on a fair view of the position (:func:`fair_view`), never on
    the real state; ``seed`` seeds those views. Where several seats decide at once (a
    hidden draft) the first in seat order decides first, or, with ``order``, one drawn
    from it, so that no seat always decides first.
    """
    n = 0
    while not state.is_terminal():
        to_act = state.players_to_act()
        p = to_act[0] if order is None or len(to_act) == 1 else to_act[order.below(len(to_act))]
        try:
            state.apply_action(p, choose_fairly(bots[p], state, p, seed))
        except Exception as exc:  # noqa: BLE001 - a bot's bug or illegal answer: say whose and when
            raise BotFailed(p, state.ply + 1, f"{type(exc).__name__}: {str(exc)[:300]}") from exc
        n += 1
        if n > max_decisions:
            raise ThievesError(f"game did not end after {max_decisions} decisions")
    return state
