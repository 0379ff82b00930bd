"""The engine's conformance kit at 2-5 players, and the greedy bot against random bots."""
import pytest

from thieves.bots import bot_names, make_bot, play_game
from thieves.testing import check_conformance

from .helpers import GAME


@pytest.mark.parametrize("n", [2, 3, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)])
def test_conformance(n):
    check_conformance("thieves-den", games_per_count=2, deep_every=5, player_counts=[n])


def test_greedy_registered():
    assert "greedy" in bot_names("thieves-den")


@pytest.mark.parametrize("n,games,need", [(2, 10, 0.8), (4, 12, 0.6)])
def test_greedy_beats_random(n, games, need):
    wins = 0.0
    for seed in range(games):
        seat = seed % n
        bots = [make_bot("greedy" if i == seat else "random", "thieves-den", seed * 10 + i) for i in range(n)]
        s = play_game(GAME.new_game(n, 500 + seed), bots)
        w = s.winners()
        if seat in w:
            wins += 1 / len(w)
    assert wins / games >= need, wins / games   # random would win 1/n
