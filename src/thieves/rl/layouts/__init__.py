"""Per-game observation layouts: named blocks of fixed width (docs/rl.md).

Each module has ``<x>_layout(num_players, data)`` (the blocks, in order) and
``encoder(state) -> (size, encode(obs, viewer))``, built once per game, player
count and data directory, and ``fast_encoder(state) -> encode(state, viewer)``: the
same tensor written straight from the state (see :mod:`thieves.rl.observe`).
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

#: game slug -> module of its layout
MODULES: dict[str, str] = {
    "thiefs-market": "thiefs_market",
    "thieves-den": "thieves_den",
    "age-of-thieves": "age_of_thieves",
    "thiefdom": "thiefdom",
    "cadwallon": "cadwallon",
}


def offsets(layout: list[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """Where each block starts, and the total size."""
    offs: dict[str, int] = {}
    at = 0
    for name, width in layout:
        offs[name] = at
        at += width
    return offs, at


def encoder_builder(slug: str) -> Callable[[Any], tuple[int, Callable]] | None:
    """The ``encoder(state)`` of a game's layout, or None for the generic encoder."""
    mod = MODULES.get(slug)
    if mod is None:
        return None
    return importlib.import_module(f"{__name__}.{mod}").encoder


def fast_builder(slug: str) -> Callable[[Any], Callable] | None:
    """The ``fast_encoder(state)`` of a game's layout, or None where it has none."""
    mod = MODULES.get(slug)
    if mod is None:
        return None
    return getattr(importlib.import_module(f"{__name__}.{mod}"), "fast_encoder", None)
