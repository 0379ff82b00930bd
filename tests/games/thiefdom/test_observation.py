"""Real observations have exactly the keys observation.py declares (for every seat and
the spectator, in every phase met along seeded games, and at the end)."""
from __future__ import annotations

from typing import Any

import pytest

from thieves.core.rng import Rng
from thieves.games.thiefdom.observation import (CityView, DraftView, FinalView, InventoryView, SoloView,
                                                ThiefdomObservation, ThiefView, TownsfolkMoveView, TurnView)

from .helpers import GAME


def assert_keys(value: dict[str, Any], shape: Any, where: str) -> set[str]:
    """The keys of ``value`` are ``shape``'s; returns the optional ones met."""
    keys = set(value)
    missing = shape.__required_keys__ - keys
    extra = keys - shape.__required_keys__ - shape.__optional_keys__
    assert not missing and not extra, f"{where}: missing {sorted(missing)}, undeclared {sorted(extra)}"
    return keys & shape.__optional_keys__


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
    s = GAME.new_game(n, seed)
    rng = Rng.from_seed(seed)
    met: set[str] = set()
    while True:
        for viewer in [None, *range(n)]:
            met |= check(s.observation(viewer), f"{n} players, ply {s.ply}, viewer {viewer}")
        if s.is_terminal():
            break
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[rng.below(len(acts))])
    # the phases with a part of their own were met (the check above is not vacuous)
    assert {"draft", "turn", "final"} <= met
    if n == 1:
        assert "solo" in met  # (the solo townsfolk move by themselves: no choice to observe)
    else:
        assert {"tmove", "tmove.opts"} <= met
