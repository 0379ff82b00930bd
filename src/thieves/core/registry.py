"""The list of games and ``load_game``."""
from __future__ import annotations

import importlib
import warnings

from .errors import UnknownGame
from .game import Game

#: slug -> module that defines ``GAME`` (a :class:`Game` instance)
GAME_MODULES: dict[str, str] = {
    "thiefs-market": "thieves.games.thiefs_market",
    "thieves-den": "thieves.games.thieves_den",
    "age-of-thieves": "thieves.games.age_of_thieves",
    "thiefdom": "thieves.games.thiefdom",
    "cadwallon": "thieves.games.cadwallon",
}

_loaded: dict[str, Game] = {}


def available(slug: str) -> bool:
    """True when the game's package is present (installed and implemented)."""
    try:
        load_game(slug)
    except UnknownGame:
        return False
    except Exception as exc:  # a broken game package must not hide the others
        warnings.warn(f"game {slug!r} failed to load: {exc!r}", RuntimeWarning, stacklevel=2)
        return False
    return True


def list_games() -> list[str]:
    """Slugs of the games that are implemented and can be loaded."""
    return [slug for slug in GAME_MODULES if available(slug)]


def load_game(slug: str) -> Game:
    """The :class:`Game` for ``slug`` (e.g. ``"thiefs-market"``)."""
    if slug in _loaded:
        return _loaded[slug]
    module_name = GAME_MODULES.get(slug)
    if module_name is None:
        raise UnknownGame(f"unknown game {slug!r}; games are: {', '.join(GAME_MODULES)}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise UnknownGame(f"game {slug!r} is not implemented yet") from None
        raise
    game: Game | None = getattr(module, "GAME", None)
    if game is None:
        raise UnknownGame(f"game {slug!r} is not implemented yet")
    _loaded[slug] = game
    return game


def register_game(game: Game, module_name: str | None = None) -> None:
    """Make a game loadable by slug (used by plug-in games and tests)."""
    GAME_MODULES.setdefault(game.slug, module_name or type(game).__module__)
    _loaded[game.slug] = game
