"""Age of Thieves (Wettstreit der Diebe): thieves race for the Emperors' Jewel in Hadria.

2-4 players. See docs/age_of_thieves.md for the rules-to-code map, the action
notation and every reconstructed component.
"""
from __future__ import annotations

from typing import Any

from ...core.errors import GameSetupError
from ...core.game import Game, Option
from ...core.parts import Research
from ...core.texts import LANGS, Texts
from . import notation
from .components import AotData, load_data
from .presentation import AotPresentation
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
        Option("dungeon_ap", "in_dungeon",
               "Who plans with only 2 blue AP: 'in_dungeon' (every thief still in the dungeon at "
               "clean-up, Rulebook 'Aufräumen c)'), or 'after_arrest' (only in the round right after "
               "the arrest, Rulebook 'Verlies').", choices=["in_dungeon", "after_arrest"]),
        Option("last_calm_round", "alarm",
               "If the Emperors' Jewel is first taken in the 10th calm round: 'alarm' (the game "
               "goes on into the alarm rounds, as the defeat condition implies) or 'end' (the game "
               "ends after that round, as clean-up step d) reads literally).",
               choices=["alarm", "end"]),
        Option("guard_fire", "stop",
               "A guard or captain whose shortest way toward its thief is blocked by fire: 'stop' "
               "(it is held up and only goes as far as it can along that way, Rulebook 'Diebe "
               "festnehmen' and the fire example) or 'detour' (it walks the shortest way around).",
               choices=["stop", "detour"]),
        Option("placement_arrests", "as_written",
               "A guard or captain placed or repositioned onto a thief's space: 'as_written' (only "
               "the Plain-clothes Guard on its own token space arrests, Rulebook 'Wächter in Zivil'; "
               "repositioning never interacts on the way, 'Versetzen') or 'all' (every figure "
               "placed or repositioned there, Fake Orders, alarm and reinforcement figures "
               "included, arrests the non-hidden thieves on arrival).",
               choices=["as_written", "all"]),
        Option("steal_in_place", False,
               "Let a moving thief rob a stealable thief on the space where the movement starts "
               "(by default only on a space it moves onto or through, Rulebook 'Diebstahlplättchen': "
               "'indem er sich auf oder durch dessen Feld bewegt')."),
        Option("thieves", "", "Comma-separated thief ids for the seats in order (default: random). "
               "Ids: " + ", ".join(THIEF_IDS), kind=str),
    )
    state_class = AgeState
    presentation_class = AotPresentation
    playtest = "thieves.games.age_of_thieves.playtest"
    playthroughs = ((2, 1), (4, 2))
    research = Research(
        layout="age_of_thieves",
        keywords=notation.NOTATION_WORDS,
        atoms=notation.action_atoms,
        seat_lists=frozenset({"scores", "thieves"}),
        steps_per_player=400,
    )
    #: balance statistics: the action cards each seat revealed, the special actions
    #: it played, its start space and the exit it left Hadria by
    usage_events = (("reveal", "card", "action card"), ("reveal_play", "card", "action card"),
                    ("reveal_play", "played", "special action"), ("start_space", "space", "start space"),
                    ("leave", "exit", "exit"))

    def load_data(self, data_dir: str | None) -> AotData:
        return load_data(data_dir)

    def texts(self, data_dir: str | None = None) -> Texts:
        """The texts of ``i18n.yaml`` plus names made from the board data: ``space.<id>``
        (district and kind: the printed board has no space numbers), ``gate.<id>`` and
        ``card.sp_<thief>`` (a planned special action card)."""
        if data_dir in self._texts_cache:
            return self._texts_cache[data_dir]
        texts = super().texts(data_dir)  # cached: the names below are added once
        data = self.data(data_dir)
        areas = district_areas(data)
        for lang in LANGS:
            table = texts.table[lang]

            def fill(key: str, **args: str) -> str:
                return texts.fill(lang, texts.get(lang, key) or key, args, [])
            for sp in data.board.spaces:
                district = texts.get(lang, "district." + sp.district) or sp.district
                area = texts.get(lang, "area." + areas[sp.id]) or areas[sp.id]
                if sp.kind:
                    kind = texts.table[lang].get("kinda." + sp.kind) or texts.get(lang, "kind." + sp.kind)
                    name = fill("spacename.kind", kind=kind or sp.kind,
                                area=area, district=district)
                else:
                    name = fill("spacename.street", area=area, district=district)
                table.setdefault("space." + sp.id, name)
            for e in data.board.exits:
                table.setdefault("gate." + e.id, fill(
                    "gatename", kind=texts.get(lang, "exit." + e.kind) or e.kind,
                    district=texts.get(lang, "district." + e.district) or e.district))
            for tid in data.thief_ids:
                special = texts.get(lang, "special." + tid)
                if special:
                    table.setdefault("card.sp_" + tid, special)
        return texts

    def check_options(self, num_players: int, options: dict[str, Any]) -> None:
        chosen = options.get("thieves") or ""
        if chosen:
            ids = chosen.split(",")
            if len(ids) < num_players or len(set(ids)) != len(ids) or any(i not in THIEF_IDS for i in ids):
                raise GameSetupError(f"option 'thieves' needs {num_players} different ids from "
                                     f"{', '.join(THIEF_IDS)}")


def district_areas(data: AotData) -> dict[str, str]:
    """Where each space lies in its district, in nine parts (``nw`` ... ``c`` ... ``se``),
    so that a space is named by district, part and kind instead of an id."""
    out = {}
    for spaces in data.districts.values():
        xs = [data.space[s].x for s in spaces]
        ys = [data.space[s].y for s in spaces]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)

        def third(v: int, lo: int, hi: int) -> int:
            return min(2, (v - lo) * 3 // max(1, hi - lo + 1))
        for s in spaces:
            sp = data.space[s]
            row = ("n", "", "s")[third(sp.y, y0, y1)]
            col = ("w", "", "e")[third(sp.x, x0, x1)]
            out[s] = (row + col) or "c"
    return out


GAME = AgeOfThieves()
