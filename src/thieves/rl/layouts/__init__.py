"""Per-game observation layouts: named blocks of fixed width (docs/rl.md).

Each module has ``<x>_layout(num_players, data)`` (the blocks, in order) and
``encoder(state) -> (size, encode(obs, viewer))``, built once per game, player
count and data directory, and ``fast_encoder(state) -> encode(state, viewer)``: the
same tensor written straight from the state (see :mod:`thieves.rl.observe`).
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

import numpy as np

from thieves.core.game import State

#: a layout's reference encoder: ``encode(obs, viewer)`` -> the tensor
Encode = Callable[[dict[str, Any], int], np.ndarray]
#: a layout's fast encoder: ``encode(state, viewer)`` -> the same tensor
FastEncode = Callable[[State, int], np.ndarray]

def _module(slug: str) -> str | None:
    """The module of a game's layout, as the game declares it (``Game.research.layout``)."""
    import thieves
    return thieves.load_game(slug).research.layout


def offsets(layout: list[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """Where each block starts, and the total size."""
    offs: dict[str, int] = {}
    at = 0
    for name, width in layout:
        offs[name] = at
        at += width
    return offs, at


def encoder_builder(slug: str) -> Callable[[State], tuple[int, Encode]] | None:
    """The ``encoder(state)`` of a game's layout, or None for the generic encoder."""
    mod = _module(slug)
    if mod is None:
        return None
    build: Callable[[State], tuple[int, Encode]] = importlib.import_module(f"{__name__}.{mod}").encoder
    return build


def fast_builder(slug: str) -> Callable[[State], FastEncode] | None:
    """The ``fast_encoder(state)`` of a game's layout, or None where it has none."""
    mod = _module(slug)
    if mod is None:
        return None
    return getattr(importlib.import_module(f"{__name__}.{mod}"), "fast_encoder", None)
