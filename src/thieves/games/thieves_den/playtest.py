"""Thieves Den measures for ``thieves playtest`` (see :mod:`thieves.cli.playtest`)."""
from __future__ import annotations

from typing import Any


def first_player(state: Any) -> int:
    """The first holder of the direction tile (drawn by lot at setup)."""
    for entry in state.log:
        if isinstance(entry, dict) and entry["key"] == "first_player":
            player: int = entry["args"]["player"]
            return player
    return 0


def catalogue(state: Any) -> dict[str, list[str]]:
    """Every fence, location card and power tile in play at this player count."""
    d = state.data
    two = state.num_players == 2
    return {"fence": [f.id for f in d.fences.values() if f.moon or not two],
            "card": [c.id for c in d.locations.values() if c.moon or not two],
            "tile": list(d.powers)}


def measures(state: Any) -> dict[str, float]:
    """Fence sales by size (treasures wanted), and the share of the fences of each
    size that reached the row and were sold."""
    d = state.data
    sold = [f for p in range(state.num_players) for f in state.right[p]]
    seen = set(sold) | {f for f in state.row if f}
    for entry in state.log:
        if isinstance(entry, dict) and entry["key"] in ("refill", "return_fence"):
            fid = entry["args"].get("fence")
            if fid:
                seen.add(fid)
    out: dict[str, float] = {"fences sold": float(len(sold))}
    for size in (2, 3, 4):
        s = sum(1 for f in sold if d.fence_total[f] == size)
        shown = sum(1 for f in seen if d.fence_total[f] == size)
        out[f"{size}-treasure fences sold"] = float(s)
        out[f"{size}-treasure fences: sold / shown"] = s / shown if shown else 0.0
    return out
