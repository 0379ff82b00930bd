"""Thiefdom's own clone (state.py): every field copied as deep as it nests.

Along seeded random games at 1-4 players: a copy's snapshot is the original's,
no list or dict of a copy is one of its original's (so changing one never
changes the other), every field is in exactly one of the clone's tables, and
a game played on a copy leaves its original as it was.
"""
from __future__ import annotations

from typing import Any

import pytest

from thieves.core.registry import load_game
from thieves.core.rng import Rng
from thieves.games.thiefdom import state as module
from thieves.testing import random_step

GAME = load_game("thiefdom")


def _containers(x: Any, out: list[Any]) -> list[Any]:
    if type(x) in (list, dict):
        out.append(x)
        for v in (x.values() if type(x) is dict else x):
            _containers(v, out)
    return out


def test_every_field_is_copied_by_one_table():
    special = ("villas", "tf", "stacks", "missions_done", "dungeon", "stash", "thieves")
    tables = (module.SCALAR_FIELDS + module.LIST_FIELDS + module.DICT_FIELDS + module.NESTED_FIELDS
              + special)
    assert sorted(tables) == sorted(module.ThiefdomState.FIELDS)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_a_copy_is_the_same_position_and_shares_no_list_or_dict(n):
    state = GAME.new_game(n, 7)
    rng = Rng.from_seed(7)
    checked = 0
    while not state.is_terminal():
        if state.ply % 5 == 0:
            twin = state.clone()
            assert twin.to_json() == state.to_json()
            assert twin.city is state.city
            mine = {id(o) for f in state.FIELDS for o in _containers(getattr(state, f), [])}
            assert not [f for f in twin.FIELDS if any(id(o) in mine for o in _containers(getattr(twin, f), []))]
            checked += 1
        random_step(state, rng)
    assert checked >= 10


def test_a_game_played_on_a_copy_leaves_the_original_as_it_was():
    state = GAME.new_game(4, 3)
    rng = Rng.from_seed(3)
    for _ in range(220):
        random_step(state, rng)
    before = state.to_json()
    seen = {v: state.observation(v) for v in (None, 0, 1, 2, 3)}
    twin = state.clone()
    while not twin.is_terminal():
        random_step(twin, rng)
    assert state.to_json() == before
    assert {v: state.observation(v) for v in (None, 0, 1, 2, 3)} == seen
