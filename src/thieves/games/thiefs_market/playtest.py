"""Thief's Market measures for ``thieves playtest`` (see :mod:`thieves.cli.playtest`)."""
from __future__ import annotations

from typing import Any


def first_player(state: Any) -> int:
    """The holder of the start player token in the first round."""
    for entry in state.log:
        if isinstance(entry, dict) and entry["key"] == "start_token":
            player: int = entry["args"]["player"]
            return player
    return 0


def catalogue(state: Any) -> dict[str, list[str]]:
    """Every market card, so cards never bought show."""
    return {"card": list(state.data.ids)}


def measures(state: Any) -> dict[str, float]:
    """Cards in each player's tableau at the end, rounds played."""
    cards = [len(t) for t in state.tableau]
    return {"cards per player": sum(cards) / len(cards), "rounds": float(state.round)}
