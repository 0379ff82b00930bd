"""Thieves Den (Daily Magic Games, 2019; French edition "Les Voleurs d'Amarynth"), 2-5 players.

Three rounds of a hidden location draft, a thieving phase of one action per turn, and a
maintenance phase; fence majorities and a secret scheme score at the end. See
docs/thieves-den.md for the rules-to-code map, the action notation and every
reconstructed component.
"""
from __future__ import annotations

from thieves.core.game import Game

from .components import DenData, load_data
from .state import DenState


class ThievesDen(Game):
    slug = "thieves-den"
    name = "Thieves Den"
    min_players = 2
    max_players = 5
    state_class = DenState
    summary = ("Complete rules; card lists, Witch values, majority mapping and scheme values are "
               "reconstructed stand-ins (see docs/thieves-den.md).")

    def load_data(self, data_dir: str | None) -> DenData:
        return load_data(data_dir)


GAME = ThievesDen()
