"""Thiefdom measures for ``thieves playtest`` (see :mod:`thieves.cli.playtest`).

Stuck guards: a guard may only go straight, left or right (never back), so a
guard facing a dead end cannot move again. At the end of the game each guard
is asked, with the figures where they stand, whether it has any legal move.
Idle figures: townsfolk that no patrol board in play names never move.
Equipment: cards bought (draft and dealers) and single-use cards used up for VP.
"""
from __future__ import annotations

from typing import Any
from thieves.games.thiefdom import townsfolk


def first_player(state: Any) -> int:
    """The holder of the first-player patrol board in the first round (the board passes
    on each round, so it is read from the starting position)."""
    first: int = state.game.new_game(state.num_players, state.seed, state.options).first
    return first


def _can_move(state: Any, fig: str) -> bool:
    f = state.tf[fig]
    tm = {"fig": fig, "cell": f["cell"], "start": f["cell"], "head": f["face"], "passed": 0,
          "stop": 1, "seen": []}
    return bool(townsfolk.tf_options(state, tm, townsfolk.occupancy(state, without=fig)))


def stuck_guards(state: Any) -> list[str]:
    """Guards with no legal move in ``state`` (where they stand, as they face)."""
    return [fig for fig in sorted(state.tf) if fig[0] == "g" and not _can_move(state, fig)]


def idle_figures(state: Any) -> list[str]:
    """Townsfolk on the board that no patrol board in play moves."""
    if state.num_players == 1:  # the solo boards are drawn from a pile each round
        boards = [b for b in state.data.patrols.values() if 1 in b.players]
    else:
        boards = [state.data.patrols[b] for b in state.patrol if b is not None]
    moved = {fig for b in boards for fig in b.figures}
    return [fig for fig in sorted(state.tf) if fig not in moved]


def measures(state: Any) -> dict[str, float]:
    guards = [fig for fig in state.tf if fig[0] == "g"]
    figures = len(state.tf)
    keys = [e["key"] for e in state.log if isinstance(e, dict)]
    return {"guards immobile at game end (share)": len(stuck_guards(state)) / len(guards) if guards else 0.0,
            "figures on no patrol board in play": float(len(idle_figures(state))),
            "figures on no patrol board (share)": len(idle_figures(state)) / figures if figures else 0.0,
            # which cards were bought, and whether their buyers won, is in the "card"
            # table of the component figures (events draft_buy and buy)
            "equipment bought": float(keys.count("draft_buy") + keys.count("buy")),
            "equipment used up for VP (Smoke Bomb, Throwing Stars)": float(keys.count("smoke") + keys.count("stars"))}
