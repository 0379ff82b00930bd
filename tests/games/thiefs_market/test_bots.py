"""The greedy bot clearly beats random players."""
import pytest

from thieves.bots import make_bot, play_game

from .util import GAME


@pytest.mark.slow
def test_greedy_beats_three_random_players():
    games, wins = 120, 0.0
    for seed in range(games):
        seat = seed % 4
        bots = [make_bot("random", "thiefs-market", seed * 10 + i) for i in range(4)]
        bots[seat] = make_bot("greedy", "thiefs-market", seed)
        state = play_game(GAME.new_game(4, seed), bots)
        w = state.winners()
        if seat in w:
            wins += 1 / len(w)
    assert wins / games > 0.6     # 25% would be chance


def test_greedy_bot_never_changes_the_state_it_is_given():
    s = GAME.new_game(3, 4)
    bot = make_bot("greedy", "thiefs-market", 1)
    for _ in range(40):
        p = s.players_to_act()[0]
        snap = s.to_json()
        a = bot.choose(s, p)
        assert s.to_json() == snap and a in s.legal_actions(p)
        s.apply_action(p, a)
