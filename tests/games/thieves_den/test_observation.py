"""Real observations have exactly the keys observation.py declares (for every seat, the
spectator, in every phase met along seeded games, and at the end)."""
from __future__ import annotations

from typing import Any

import pytest

from thieves.games.thieves_den.observation import DecisionView, DenObservation, FinalScores, PowerView, SeatView

from ..typed_dicts import assert_keys, seeded_observations
from .helpers import GAME


def check(obs: dict[str, Any], where: str) -> set[str]:
    """The keys check, down the nested parts; returns the optional keys met."""
    met = assert_keys(obs, DenObservation, where)
    for q, seat in enumerate(obs["players"]):
        assert_keys(seat, SeatView, f"{where} players[{q}]")
        met |= {f"seat.{k}" for k in set(seat) & SeatView.__optional_keys__}
    for i, power in enumerate(obs["powers"]):
        assert_keys(power, PowerView, f"{where} powers[{i}]")
    if obs["decision"] is not None:
        assert_keys(obs["decision"], DecisionView, f"{where} decision")
        met |= {f"decision.{k}" for k in set(obs["decision"]) & DecisionView.__optional_keys__}
    if obs["final"] is not None:
        assert_keys(obs["final"], FinalScores, f"{where} final")
    return met


@pytest.mark.parametrize("n, seed", [(2, 3), (3, 1), (4, 2)])
def test_observations_have_exactly_the_declared_keys(n, seed):
    met: set[str] = set()
    for obs, where in seeded_observations(GAME, n, seed):
        met |= check(obs, where)
    # the viewer-dependent keys all came up (so the test checks them, not just their absence)
    assert {"hand", "pick", "legal", "seat.scheme", "seat.left", "seat.right"} <= met
