"""Cadwallon measures for ``thieves playtest`` (see :mod:`thieves.cli.playtest`)."""
from __future__ import annotations

from typing import Any


def first_player(state: Any) -> int:
    """The first player named at setup."""
    for entry in state.log:
        if isinstance(entry, dict) and entry["key"] == "setup":
            return int(entry["args"].get("player", 0))
    return 0


def actor(state: Any, args: dict[str, Any]) -> int | None:
    """The seat whose character an event names (``char`` is a gang letter and a number)."""
    char = args.get("char")
    if isinstance(char, str) and char[:1] in state.gangs and char[1:].isdigit():
        return int(state.gangs.index(char[:1]))
    return None


def catalogue(state: Any) -> dict[str, list[str]]:
    """Every arcana card and mission, so unplayed ones show."""
    d = state.data
    return {"card": list(d.card), "mission": list(d.mission)}


def measures(state: Any) -> dict[str, float]:
    """Characters out of the district at the end, chests still on the board, treasures
    handed in for missions."""
    chars = sum(len(state.data.gang_chars[g]) for g in state.gangs)
    return {"characters escaped (share)": len(state.escaped) / chars if chars else 0.0,
            "chests left on the board": float(len(state.chests)),
            "treasures handed in for missions": float(len(state.handed_in))}
