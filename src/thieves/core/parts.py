"""What a game adds to the platform beyond its rules, declared once by the game.

A game's package says everything the platform needs of it on its
:class:`~thieves.core.game.Game` class: the presentation
(``presentation_class``), the balance statistics (``usage_events``), the
``thieves playtest`` measures (``playtest``), the recorded playthroughs
(``playthroughs``) and what the research interfaces need (``research``, a
:class:`Research`). The platform's modules read them from the game
(``load_game(slug).research``); none keeps a table of games of its own, so
adding a game is one package and one line in ``core/registry.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Research:
    """What :mod:`thieves.rl` needs of a game (docs/rl.md).

    - ``layout``: the module under ``thieves.rl.layouts`` with the game's fixed
      observation layout and encoders (None: the generic hashing encoder);
    - ``keywords``: the verbs and fixed words of its notation;
    - ``atoms``: the identifiers of component data that its actions name,
      from the loaded data (None: every identifier-like string of the data);
    - ``whole_actions``: each legal action is one token of the action space
      (a game whose notation is a fixed list);
    - ``seat_lists``: observation keys whose list has one entry per seat;
    - ``steps_per_player``: decisions per player after which the wrappers cut
      a game short (a bound of the wrapper, not of the rules).
    """

    layout: str | None = None
    keywords: tuple[str, ...] = ()
    atoms: Callable[[Any], set[str]] | None = None
    whole_actions: bool = False
    seat_lists: frozenset[str] = frozenset({"scores"})
    steps_per_player: int = 1000
