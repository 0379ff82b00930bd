"""Real observations have exactly the keys observation.py declares (for every seat and
the spectator, in every phase met along seeded games, and at the end)."""
from __future__ import annotations

from typing import Any

import pytest

from thieves.games.thiefdom.observation import (CityView, DraftView, FinalView, InventoryView, SoloView,
                                                ThiefdomObservation, ThiefView, TownsfolkMoveView, TurnView)

from ..typed_dicts import assert_keys, seeded_observations
from .helpers import GAME


def check(obs: dict[str, Any], where: str) -> set[str]:
    """The keys check, down the nested parts; returns the parts and optional keys met."""
    met = assert_keys(obs, ThiefdomObservation, where)
    assert_keys(obs["city"], CityView, f"{where} city")
    for q, ts in enumerate(obs["thieves"]):
        for t, th in enumerate(ts):
            met |= {f"thief.{k}" for k in assert_keys(th, ThiefView, f"{where} thieves[{q}][{t}]")}
            assert_keys(th["inv"], InventoryView, f"{where} thieves[{q}][{t}] inv")
    for inv in [*obs["stash"], obs["dungeon"]]:
        assert_keys(inv, InventoryView, f"{where} inventory")
    for key, shape in (("draft", DraftView), ("turn", TurnView), ("tmove", TownsfolkMoveView),
                       ("solo", SoloView)):
        if obs[key] is not None:
            met.add(key)
            met |= {f"{key}.{k}" for k in assert_keys(obs[key], shape, f"{where} {key}")}
    for f in obs["final"] or ():
        met.add("final")
        assert_keys(f, FinalView, f"{where} final")
    return met


@pytest.mark.parametrize("n, seed", [(1, 1), (2, 3), (4, 2)])
def test_observations_have_exactly_the_declared_keys(n, seed):
    met: set[str] = set()
    for obs, where in seeded_observations(GAME, n, seed):
        met |= check(obs, where)
    # the phases with a part of their own were met (the check above is not vacuous)
    assert {"draft", "turn", "final"} <= met
    if n == 1:
        assert "solo" in met  # (the solo townsfolk move by themselves: no choice to observe)
    else:
        assert {"tmove", "tmove.opts"} <= met
