"""Thieves Den (Daily Magic Games, 2019; French edition "Les Voleurs d'Amarynth"), 2-5 players.

Three rounds of a hidden location draft, a thieving phase of one action per turn, and a
maintenance phase; fence majorities and a secret scheme score at the end. See
docs/thieves_den.md for the rules-to-code map, the action notation and every
reconstructed component.
"""
from __future__ import annotations

from thieves.core.game import Game, Option
from thieves.core.parts import Research

from . import notation
from .components import DenData, load_data
from .presentation import DenPresentation
from .state import DenState


class ThievesDen(Game):
    slug = "thieves-den"
    name = "Thieves Den"
    min_players = 2
    max_players = 5
    state_class = DenState
    presentation_class = DenPresentation
    playtest = "thieves.games.thieves_den.playtest"
    playthroughs = ((2, 1), (4, 2))
    research = Research(
        layout="thieves_den",
        keywords=notation.NOTATION_WORDS,
        atoms=notation.action_atoms,
        seat_lists=frozenset({"players", "scores"}),
        steps_per_player=200,
    )
    #: balance statistics: the locations each seat revealed (drafted), the fences it
    #: sold to and the power tiles it bought
    usage_events = (("reveal", "card", "location"), ("reveal_instant", "card", "location"),
                    ("sell", "fence", "fence"), ("power", "tile", "power tile"))
    options = (
        Option("passed_locations", "open",
               "Rulebook 'Phase Voleurs': a player who has passed can no longer be targeted. "
               "'open' (default): the location cards (and sold fences, for the Extra Thief tile) in "
               "front of a passed player stay usable by the others, who pay that player the owner "
               "bonus (using a card does not target its owner). 'closed': they cannot be used by "
               "the others until the round ends.", choices=["open", "closed"]),
        Option("empty_supply", "allowed",
               "Rulebook 'Limite de la Réserve': when the supply cannot give what an action gains, "
               "you gain what is left, possibly nothing. 'allowed' (default): such actions stay "
               "legal (steal or recruit with the City or the Forest empty, the Trinket and "
               "Reinforcements tiles); 'forbidden': actions that could only gain nothing are not "
               "offered.", choices=["allowed", "forbidden"]),
        Option("first_direction", "clockwise",
               "Which way the direction tile's '1,3' face points (the icons were lost from the "
               "rulebook text); the '2' face points the other way. Default clockwise, as in an "
               "Italian preview's description of play.", choices=["clockwise", "counter-clockwise"]),
    )
    summary = ("Complete rules; card lists, Witch values, majority mapping and scheme values are "
               "reconstructed stand-ins (see docs/thieves_den.md).")

    def load_data(self, data_dir: str | None) -> DenData:
        return load_data(data_dir)


GAME = ThievesDen()
