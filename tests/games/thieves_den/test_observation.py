"""Real observations have exactly the keys observation.py declares (for every seat, the
spectator, in every phase met along seeded games, and at the end)."""
from __future__ import annotations

from typing import Any

import pytest

from thieves.core.rng import Rng
from thieves.games.thieves_den.observation import DecisionView, DenObservation, FinalScores, PowerView, SeatView

from .helpers import GAME


def assert_keys(value: dict[str, Any], shape: Any, where: str) -> None:
    keys = set(value)
    missing = shape.__required_keys__ - keys
    extra = keys - shape.__required_keys__ - shape.__optional_keys__
    assert not missing and not extra, f"{where}: missing {sorted(missing)}, undeclared {sorted(extra)}"


def check(obs: dict[str, Any], where: str) -> set[str]:
    """The keys check, down the nested parts; returns the optional keys met."""
    assert_keys(obs, DenObservation, where)
    met = set(obs) & DenObservation.__optional_keys__
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
    s = GAME.new_game(n, seed)
    rng = Rng.from_seed(seed)
    met: set[str] = set()
    while True:
        for viewer in [None, *range(n)]:
            met |= check(s.observation(viewer), f"ply {s.ply} viewer {viewer}")
        if s.is_terminal():
            break
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[rng.below(len(acts))])
    # the viewer-dependent keys all came up (so the test checks them, not just their absence)
    assert {"hand", "pick", "legal", "seat.scheme", "seat.left", "seat.right"} <= met
