"""The bot contract: random and one-ply bots on the small test game."""
import pytest

from thieves import ThievesError, load_game
from thieves.bots import OnePlyBot, RandomBot, make_bot, play_game

from . import toy_game  # noqa: F401


class HighBidder(OnePlyBot):
    def evaluate(self, state, player):
        return state.observation(player)["my_bid"] or 0


class FirstOfEqual(OnePlyBot):
    def evaluate(self, state, player):
        return 0.0

    def tie_break(self, state, player, best):
        return best[0]


def test_one_ply_bot_picks_the_best_action_without_touching_the_state():
    s = load_game("toy-bids").new_game(2, seed=1)
    before = s.to_json()
    assert HighBidder(seed=3).choose(s, 0) == "bid 3"
    assert s.to_json() == before


def test_tie_break_hook_sees_every_equal_action():
    s = load_game("toy-bids").new_game(2, seed=1)
    assert FirstOfEqual().choose(s, 1) == "bid 1"


def test_random_bot_is_seeded_and_legal():
    s = load_game("toy-bids").new_game(3, seed=2)
    picks = [RandomBot(seed=5).choose(s, 0) for _ in range(3)]
    assert len(set(picks)) == 1 and picks[0] in s.legal_actions(0)


def test_play_game_and_make_bot():
    s = load_game("toy-bids").new_game(3, seed=2)
    play_game(s, [make_bot("random", "toy-bids", i) for i in range(3)])
    assert s.is_terminal()
    with pytest.raises(ThievesError, match="no bot 'genius'"):
        make_bot("genius", "toy-bids")
