"""Age of Thieves measures for ``thieves playtest`` (see :mod:`thieves.cli.playtest`)."""
from __future__ import annotations

from typing import Any


def first_player(state: Any) -> int:
    """The first start player (drawn at setup)."""
    for entry in state.log:
        if isinstance(entry, dict) and entry["key"] == "start_player":
            player: int = entry["args"]["player"]
            return player
    return 0


def catalogue(state: Any) -> dict[str, list[str]]:
    """Every general action card and event card, so unplayed ones show."""
    d = state.data
    return {"card": ["move", "ambush", *d.general],
            "event": [e.id for e in (*d.events.calm, *d.events.alarm)]}


def measures(state: Any) -> dict[str, float]:
    """How the game ended, jewels carried, rounds played."""
    out = {f"ended by {how}": float(state.ended == how)
           for how in ("emperor", "all_left", "dawn", "defeat", "calm_over")}
    out["rounds"] = float(state.round)
    out["alarm raised"] = float(bool(state.alarm))
    return out
