"""Thiefdom (Karma Games, 2025) for 1 to 4 players, with solo mode and variants."""
from __future__ import annotations

from typing import Any

from thieves.core.game import Game, Option
from thieves.core.parts import Research
from thieves.core.texts import LANGS, Texts

from . import notation
from .components import ThiefdomData
from .presentation import ThiefdomPresentation, generated_texts
from .state import ThiefdomState


class Thiefdom(Game):
    slug = "thiefdom"
    name = "Thiefdom"
    min_players = 1
    max_players = 4
    summary = "Thieves' guilds of Bacharach, 1420: 6 nights of planning, stealing and escaping patrols."
    options = (
        Option("smuggling_stacks", False, "Variant: planned smuggling (stacks of 2 missions by each smuggler)."),
        Option("chaotic_planning", False, "Variant: planning tiles are shuffled and placed at random."),
        Option("exit_through_entrances", False,
               "Thieves leave a location only through its marked entrances (default: onto any "
               "adjacent alley square, as the rulebook text says)."),
        Option("thieves_skip_guards", False,
               "Thieves may pass over a guard's square like any occupied square (default: only with "
               "the Smoke Bomb, as its card text implies)."),
        Option("stars_carriage_first_lantern", False,
               "Throwing Stars moves the carriage to the first free lantern instead of the second."),
        Option("one_location_per_night", False,
               "Each thief activates at most one location per night (a strict reading of \"limite "
               "d'une activation par voleur au cours d'une même nuit\"); by default each location "
               "once per thief per night, as the FAQ and Svenja suggest."),
        Option("noble_purse_fixed", False,
               "Each noble's purse token shows one kind of goods (2 gold or 1 gem, set in board.yaml) "
               "instead of letting the thief choose."),
        Option("bernhard_blinds_for_all", False,
               "Bernhard's guard loses its field of view for every thief for the rest of the round "
               "(default: it cannot arrest the Bernhard thief, the card's second clause)."),
    )
    state_class = ThiefdomState
    presentation_class = ThiefdomPresentation
    playtest = "thieves.games.thiefdom.playtest"
    playthroughs = ((1, 1), (3, 2))
    research = Research(
        layout="thiefdom",
        keywords=notation.NOTATION_WORDS,
        atoms=notation.action_atoms,
        seat_lists=frozenset({"final", "hand_sizes", "hideouts", "kept_sizes", "missions_done", "plans", "scores", "stamina", "stash", "thieves", "vp"}),
        steps_per_player=500,
    )
    #: balance statistics: the equipment each seat took, the clients it allied with,
    #: the building of its hideout and the smuggling missions it completed
    usage_events = (("draft_buy", "card", "equipment"),
                    ("buy", "card", "equipment"), ("art_keep", "card", "equipment"),
                    ("ally", "client", "client"), ("hideout", "place", "hideout"),
                    ("mission", "mission", "mission"))

    def load_data(self, data_dir: str | None) -> Any:
        return ThiefdomData(data_dir)

    def texts(self, data_dir: str | None = None) -> Texts:
        """The texts of data/i18n.yaml plus the names made from the component data
        (buildings, clients, smuggling missions) in every language."""
        if data_dir not in self._texts_cache:
            texts = super().texts(data_dir)
            extra = generated_texts(self.data(data_dir), texts)
            for lang in LANGS:
                for key, value in extra[lang].items():
                    texts.table[lang].setdefault(key, value)
        return self._texts_cache[data_dir]


GAME = Thiefdom()
