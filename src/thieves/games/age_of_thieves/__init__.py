"""Age of Thieves (Wettstreit der Diebe): thieves race for the Emperors' Jewel in Hadria.

2-4 players. See docs/age-of-thieves.md for the rules-to-code map, the action
notation and every reconstructed component.
"""
from __future__ import annotations

from typing import Any

from ...core.errors import GameSetupError
from ...core.game import Game, Option
from .components import AotData, load_data
from .state import AgeState

THIEF_IDS = ("morius", "noiron", "jasmine", "nikolai", "joanne", "zain")


class AgeOfThieves(Game):
    slug = "age-of-thieves"
    name = "Age of Thieves"
    min_players = 2
    max_players = 4
    all_may_lose = True  # Rulebook "Spielende": every thief can lose together
    summary = ("Steal the Emperors' Jewel and escape Hadria: secret AP planning, initiative, "
               "automated city watch. Board, event and general cards reconstructed.")
    options = (
        Option("specials", True, "Use the thieves' special action cards (the rulebook suggests "
               "leaving them out in a first game)."),
        Option("thieves", "", "Comma-separated thief ids for the seats in order (default: random). "
               "Ids: " + ", ".join(THIEF_IDS), kind=str),
    )
    state_class = AgeState

    def load_data(self, data_dir: str | None) -> AotData:
        return load_data(data_dir)

    def check_options(self, num_players: int, options: dict[str, Any]) -> None:
        chosen = options.get("thieves") or ""
        if chosen:
            ids = chosen.split(",")
            if len(ids) < num_players or len(set(ids)) != len(ids) or any(i not in THIEF_IDS for i in ids):
                raise GameSetupError(f"option 'thieves' needs {num_players} different ids from "
                                     f"{', '.join(THIEF_IDS)}")


GAME = AgeOfThieves()
