"""Cadwallon: City of Thieves (Pascal Bernard and Laurent Pouchain, 2010) for 2 to 4 players.

Gangs of thieves loot a district of Cadwallon one zone at a time, fight each
other, dodge the militia and must get out through the open gates once the
alarm sounds. See docs/cadwallon.md for the rules map and every
reconstructed component.
"""
from __future__ import annotations

from typing import Any

from ...core.errors import GameSetupError
from ...core.game import Game, Option
from ...core.parts import Research
from ...core.texts import LANGS, Texts
from . import components, notation
from .presentation import CadwallonPresentation
from .rules import CadwallonState

ADVENTURES = ["dukes_treasure", "quiet_night", "heroines", "market_day", "dead_walk",
              "lockdown", "guild_demands", "hue_and_cry"]


class CadwallonGame(Game):
    slug = "cadwallon"
    name = "Cadwallon: City of Thieves"
    min_players = 2
    max_players = 4
    summary = ("Complete rules for 2-4 players; the board graph, talents, arcana, missions and "
               "adventures are reconstructed stand-ins where the originals are not public.")
    options = (
        Option("adventure", "random", "adventure board to play (random: drawn at setup)",
               choices=["random"] + ADVENTURES),
        Option("militia_still_face", 6,
               "die face on which the moved militiaman is distracted and stays put "
               "(English sources: 6; the French icon may be a 1)", choices=[6, 1]),
        Option("portcullis_blocks_zone", True,
               "a portcullis token closes its deployment zone to entry too (false: it only "
               "closes the exit off the board)"),
        Option("gang_choice", "pick",
               "pick: each player chooses a gang at setup (Mise en place step 2), in seat "
               "order; seat: gangs go to seats in the order E, N, K, C", choices=["pick", "seat"]),
        Option("attack_needs_movement", True,
               "entering an enemy's zone to attack is a step of the character's move "
               "(Se deplacer): after a move, an attack needs one Movement point left "
               "(false: a character may use its whole Movement and still attack an "
               "adjacent enemy)"),
        Option("fines_room", "vault",
               "The Duke's Treasure: the room where the ducats a winning militiaman takes are "
               "put (the rulebook's OCR is garbled; the vault fits the story, the guard room "
               "is the other reading)", choices=["vault", "guard_room"]),
        Option("treasure_mix", "twelve_red",
               "the 24 chest tokens: twelve_red (12 red gems) or six_red_six_purses "
               "(6 red gems + 6 reconstructed purses)", choices=["twelve_red", "six_red_six_purses"]),
    )
    state_class = CadwallonState
    presentation_class = CadwallonPresentation
    playtest = "thieves.games.cadwallon.playtest"
    playthroughs = ((2, 1), (4, 2))
    research = Research(
        layout="cadwallon",
        keywords=notation.NOTATION_WORDS,
        atoms=notation.action_atoms,
        seat_lists=frozenset({"ap", "banked", "ducats", "gangs", "hand_counts", "scores", "to_deploy"}),
        steps_per_player=400,
    )
    #: balance statistics: each seat's gang, the arcana cards it played and the
    #: missions it completed
    usage_events = (("gang", "gang", "gang"), ("mission_done", "mission", "mission"),
                    *((key, "card", "arcana card") for key in (
                        "injury", "jinx", "play_on", "second_wind", "pickpocket", "reinforced_lock",
                        "reroll", "fight_card")))

    def load_data(self, data_dir: str | None) -> Any:
        return components.load(data_dir)

    def texts(self, data_dir: str | None = None) -> Texts:
        """data/i18n.yaml plus the names every language shares, read from the component
        data: figures (``char.E1``), zones (``zone.c3`` = "Library (c3)", a street its
        coordinates) and die faces (``die.6``)."""
        if data_dir not in self._texts_cache:
            texts = super().texts(data_dir)
            d = self.data(data_dir)
            for lang in LANGS:
                table = texts.table[lang]
                for fid, name in d.name_of.items():
                    table.setdefault(f"char.{fid}", name)
                for z in d.board.zones:
                    room = texts.get(lang, f"room.{z.id}") or z.name
                    table.setdefault(f"zone.{z.id}", f"{room} ({z.id})" if room else z.id)
                for face in range(1, 7):
                    table.setdefault(f"die.{face}", str(face))
        return self._texts_cache[data_dir]

    def check_options(self, num_players: int, options: dict[str, Any]) -> None:
        adv = options["adventure"]
        if adv != "random" and adv not in self.data(options.get("data_dir")).adventure:
            raise GameSetupError(f"unknown adventure {adv!r}")


GAME = CadwallonGame()
