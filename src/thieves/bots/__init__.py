"""Bots: objects with ``choose(state, player) -> action``.

A bot reads the game only through ``state.observation(player)`` and
``state.legal_actions(player)``, or through ``state.determinize(player, seed)``
(a copy that hides what the player cannot know) when it searches ahead.

``make_bot(name, slug, seed)`` builds a bot by name: ``random`` for every
game, ``greedy`` and any others a game registers in its ``bots`` module
(a dict ``BOTS`` of name -> class taking ``seed``).
"""
from __future__ import annotations

import importlib
from typing import Callable, Protocol

from ..core.errors import ThievesError
from ..core.game import State
from ..core.registry import GAME_MODULES
from .base import Bot, OnePlyBot, RandomBot

__all__ = ["Bot", "RandomBot", "OnePlyBot", "make_bot", "bot_names"]


class BotFactory(Protocol):
    def __call__(self, seed: int = 0) -> Bot: ...


def _game_bots(slug: str) -> dict[str, Callable[..., Bot]]:
    module_name = GAME_MODULES.get(slug)
    if module_name is None:
        return {}
    try:
        module = importlib.import_module(module_name + ".bots")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(module, "BOTS", {}))


def bot_names(slug: str) -> list[str]:
    return ["random"] + [n for n in _game_bots(slug) if n != "random"]


def make_bot(name: str, slug: str, seed: int = 0) -> Bot:
    """A bot by name for game ``slug``."""
    bots = _game_bots(slug)
    if name in bots:
        return bots[name](seed=seed)
    if name == "random":
        return RandomBot(seed=seed)
    raise ThievesError(f"no bot {name!r} for {slug}; bots are: {', '.join(bot_names(slug))}")


def play_game(state: State, bots: list[Bot], max_decisions: int = 1_000_000) -> State:
    """Let one bot per seat play ``state`` to its end (simultaneous choices in seat order)."""
    n = 0
    while not state.is_terminal():
        for p in state.players_to_act():
            state.apply_action(p, bots[p].choose(state, p))
            n += 1
            break
        if n > max_decisions:
            raise ThievesError(f"game did not end after {max_decisions} decisions")
    return state
