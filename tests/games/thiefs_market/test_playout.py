"""Thief's Market's own random playout draws exactly what the checked loop draws."""
from __future__ import annotations

import pytest

from thieves.cli.bench import midgame_positions
from thieves.core.rng import Rng
from thieves.games.thiefs_market.components import Holdings
from thieves.core.rng import BATCH as _BATCH
from thieves.testing import checked_playout

from .util import GAME, card, fresh, give


@pytest.mark.parametrize("limit", [0, 1, _BATCH - 1, _BATCH, _BATCH + 1, 3 * _BATCH, 1_000_000])
def test_playout_leaves_its_generator_where_the_checked_loop_does(limit: int) -> None:
    start = midgame_positions("thiefs-market", count=1, seed=3)[0]
    checked, fast = start.clone(), start.clone()
    rng_checked, rng_fast = Rng.from_seed(7), Rng.from_seed(7)
    played = checked_playout(checked, rng_checked, limit)
    assert fast.random_playout(rng_fast, limit) == played
    assert rng_fast.state == rng_checked.state
    assert fast.history == checked.history and fast.rng.state == checked.rng.state


def test_playout_with_the_games_own_generator_matches_the_checked_loop() -> None:
    checked, fast = GAME.new_game(4, 5), GAME.new_game(4, 5)
    checked_playout(checked, checked.rng)
    fast.random_playout(fast.rng)
    assert fast.to_dict(log=False) == checked.to_dict(log=False)


def test_holdings_extended_card_by_card_equal_holdings_built_at_once() -> None:
    s = fresh()
    t = s.data
    ids = ["A11", "A16", "B18", "C1", "A5"]
    give(s, 0, *ids)
    cards = [card(s, i) for i in ids]
    for i in range(len(cards) + 1):
        grown = t.holdings(cards[:i])            # extends the holdings of cards[:i - 1]
        whole = Holdings(t, tuple(cards[:i]))
        for slot in Holdings.__slots__:
            assert getattr(grown, slot) == getattr(whole, slot), slot
    assert t.by_kind(cards) == Holdings(t, tuple(cards)).kinds
