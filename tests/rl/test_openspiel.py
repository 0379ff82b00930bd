"""OpenSpiel: every game registered as a Python game; OpenSpiel's own tests and bots run."""
from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts

from thieves.rl import openspiel as tos

CASES = [("thiefs-market", 3), ("thieves-den", 2), ("age-of-thieves", 3), ("thiefdom", 1),
         ("thiefdom", 2), ("cadwallon", 2)]


@pytest.mark.parametrize("slug,n", CASES)
def test_random_sim_test(slug, n):
    game = tos.load(slug, n, seed=11)
    assert game.num_distinct_actions() == tos.action_space(slug).n
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _position_with_choices(game, seed: int, min_ply: int = 5):
    rng = np.random.RandomState(seed)
    st = game.new_initial_state()
    while st.move_number() < min_ply or len(st.legal_actions()) < 2:
        st.apply_action(int(rng.choice(st.legal_actions())))
    return st


@pytest.mark.parametrize("slug,n", [("thiefs-market", 3), ("thieves-den", 3), ("age-of-thieves", 2)])
def test_mcts_and_ismcts_with_our_determinization(slug, n):
    game = tos.load(slug, n, seed=3)
    st = _position_with_choices(game, seed=1)
    p = st.current_player()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=np.random.RandomState(0), solve=False)
    assert bot.step(st) in st.legal_actions()
    isbot = ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=np.random.RandomState(0))
    isbot.set_resampler(lambda s, q: tos.resample(s, q, int(np.random.randint(2**31))))
    assert isbot.step(st) in st.legal_actions()
    # the resampled worlds are ones the player cannot tell apart from the real one
    for seed in range(3):
        other = tos.resample(st, p, seed)
        assert other.information_state_string(p) == st.information_state_string(p)
        assert other.legal_actions() == st.legal_actions()
        assert other.observation_tensor(p) == st.observation_tensor(p)


def test_clone_is_independent():
    game = tos.load("thieves-den", 3)
    st = _position_with_choices(game, seed=2)
    c = st.clone()
    before = st.information_state_string(st.current_player())
    c.apply_action(c.legal_actions()[0])
    assert st.information_state_string(st.current_player()) == before
    assert st.history() != c.history()


def test_initial_states_are_seeded_in_order_and_clones_take_no_seed():
    g1, g2 = tos.load("thieves-den", 3, seed=40), tos.load("thieves-den", 3, seed=40)
    a = g1.new_initial_state()
    a.clone()
    a.clone()
    b = g1.new_initial_state()
    x, y = g2.new_initial_state(), g2.new_initial_state()
    p = 0
    assert a.observation_string(p) == x.observation_string(p)
    assert b.observation_string(p) == y.observation_string(p)
    assert a.observation_string(p) != b.observation_string(p)
