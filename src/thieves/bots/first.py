"""Who starts a game, as its rules define it: one definition for ``simulate`` and ``playtest``.

A game whose rules choose the first player (by lot, by dice, by a token dealt at setup)
says who it was through its optional playtest hook (``games/<pkg>/playtest.py``):
``first_player(state) -> int``. The choice is made at setup, so the hook reads it from
any state of the game, the starting position included (which lets old records be
recomputed from their seed). A game without that hook falls back to the seat that made
the first decision.
"""
from __future__ import annotations

import importlib
from typing import Any, Mapping

from ..core.game import State
from ..core.registry import GAME_MODULES, load_game

__all__ = ["hooks", "first_player", "first_player_at_start"]


def hooks(slug: str) -> Any:
    """The game's optional playtest hook module (None where it has none)."""
    if slug not in GAME_MODULES:
        return None
    module_name = load_game(slug).playtest   # declared by the game (``Game.playtest``)
    return importlib.import_module(module_name) if module_name else None


def first_player(state: State, hook: Any = None) -> int | None:
    """The first player of ``state``'s game: the hook's ``first_player`` where the game has
    one (``hook``, else looked up from the state's game), else the seat that made the first
    decision (None before any decision)."""
    if hook is None:
        slug = getattr(getattr(state, "game", None), "slug", None)
        hook = hooks(slug) if isinstance(slug, str) else None
    if hook is not None and hasattr(hook, "first_player"):
        return int(hook.first_player(state))
    return state.history[0][0] if state.history else None


def first_player_at_start(slug: str, num_players: int, seed: int,
                          options: Mapping[str, Any] | None = None) -> int | None:
    """The first player of the game dealt from ``seed``, read from its starting position
    (None for a game without a hook: nobody has decided yet)."""
    hook = hooks(slug)
    if hook is None or not hasattr(hook, "first_player"):
        return None
    return int(hook.first_player(load_game(slug).new_game(num_players, seed, dict(options or {}))))
