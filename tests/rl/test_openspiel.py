"""OpenSpiel: every game registered as a Python game; OpenSpiel's own tests and bots run;
states serialize and pickle; the initial state is the seed's; information states recall."""
from __future__ import annotations

import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts

from thieves.rl import openspiel as tos

CASES = [("thiefs-market", 3), ("thieves-den", 2), ("age-of-thieves", 3), ("thiefdom", 1),
         ("thiefdom", 2), ("cadwallon", 2)]
GAMES = [("thiefs-market", 3), ("thieves-den", 3), ("age-of-thieves", 2), ("thiefdom", 2), ("cadwallon", 2)]


@pytest.mark.parametrize("slug,n", CASES)
def test_random_sim_test(slug, n):
    game = tos.load(slug, n, seed=11)
    assert game.num_distinct_actions() == tos.action_space(slug).n
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_random_sim_test_with_serialization_and_chance():
    # OpenSpiel's own check serializes and deserializes the state at every step
    for deals in (1, 3):
        pyspiel.random_sim_test(tos.load("thieves-den", 2, seed=4, deals=deals), num_sims=1,
                                serialize=True, verbose=False)


def _play(game, seed: int, moves: int):
    rng = np.random.RandomState(seed)
    st = game.new_initial_state()
    for _ in range(moves):
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.apply_action(int(rng.choice([a for a, _ in st.chance_outcomes()])))
        else:
            st.apply_action(int(rng.choice(st.legal_actions())))
    return st


def _position_with_choices(game, seed: int, min_ply: int = 5):
    rng = np.random.RandomState(seed)
    st = game.new_initial_state()
    while st.move_number() < min_ply or len(st.legal_actions()) < 2:
        st.apply_action(int(rng.choice(st.legal_actions())))
    return st


def _same(a, b, n: int) -> None:
    """Two states are the same game: history, text, every seat's strings and tensors, moves."""
    assert a.history() == b.history() and str(a) == str(b)
    assert a.is_terminal() == b.is_terminal()
    if not a.is_terminal():
        assert a.current_player() == b.current_player() and a.legal_actions() == b.legal_actions()
    for p in range(n):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)


@pytest.mark.parametrize("slug,n", GAMES)
def test_serialize_round_trip_at_random_points(slug, n):
    game = tos.load(slug, n, seed=5)
    rng = np.random.RandomState(len(slug))
    for moves in sorted(rng.randint(0, 120, size=2)):
        st = _play(game, int(moves), int(moves))
        back = game.deserialize_state(st.serialize())
        _same(st, back, n)
        g2, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, st))
        assert str(g2) == str(game)
        _same(st, again, n)
        # the same future: the same moves lead to the same states
        for _ in range(8):
            if st.is_terminal():
                break
            a = st.legal_actions()[int(rng.randint(len(st.legal_actions())))]
            st.apply_action(a)
            back.apply_action(a)
        _same(st, back, n)


def test_pickle_games_and_states_also_resampled_and_before_the_deal():
    game = tos.load("age-of-thieves", 2, seed=8)
    g2 = pickle.loads(pickle.dumps(game))
    assert str(g2) == str(game) and g2.num_players() == 2
    st = _play(game, 1, 40)
    _same(st, pickle.loads(pickle.dumps(st)), 2)
    p = st.current_player()
    world = tos.resample(st, p, 9)
    back = pickle.loads(pickle.dumps(world))
    _same(world, back, 2)          # the resampled world, not the seed's
    assert str(back.table.state.observation(None)) == str(world.table.state.observation(None))
    chance = tos.load("thieves-den", 3, seed=2, deals=4).new_initial_state()
    again = pickle.loads(pickle.dumps(chance))
    assert again.is_chance_node() and again.chance_outcomes() == chance.chance_outcomes()


def test_new_initial_state_is_the_seeds_deal_every_time():
    game = tos.load("thieves-den", 3, seed=40)
    a = game.new_initial_state()
    a.clone()
    _play(game, 0, 30)
    b = game.new_initial_state()
    other = tos.load("thieves-den", 3, seed=41).new_initial_state()
    for p in range(3):
        assert a.observation_string(p) == b.observation_string(p)
    assert any(a.observation_string(p) != other.observation_string(p) for p in range(3))
    # deals=k: a chance node picking seed + i, and then the game with that seed
    dealt = tos.load("thieves-den", 3, seed=40, deals=3)
    root = dealt.new_initial_state()
    assert root.is_chance_node() and root.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert dealt.max_chance_outcomes() == 3 and game.max_chance_outcomes() == 0
    child = root.child(1)
    assert not root.history() and child.history() == [1]
    assert child.observation_string(0) == other.observation_string(0)


def test_shape_queries_set_up_nothing_and_advance_nothing(monkeypatch):
    game = tos.load("cadwallon", 2, seed=3)
    before = game.new_initial_state()
    str(before)                                      # the seed's game is set up once
    made = []
    real = tos.Table
    monkeypatch.setattr(tos, "Table", lambda *a, **k: made.append(a) or real(*a, **k))
    shapes = (game.observation_tensor_shape(), game.information_state_tensor_shape(),
              game.observation_tensor_size(), game.information_state_tensor_size())
    assert not made                                  # and never again for a shape
    assert shapes[0] == [tos.agent_observation_shape("cadwallon", 2)[0]]
    assert shapes[3] == shapes[2] + tos.max_game_length("cadwallon", 2)
    after = game.new_initial_state()
    _same(before, after, 2)


def _info(st, p):
    return st.information_state_string(p), st.information_state_tensor(p)


@pytest.mark.parametrize("slug,n", [("thieves-den", 3), ("age-of-thieves", 2), ("thiefdom", 2)])
def test_information_states_have_perfect_recall(slug, n):
    """Rivals' moves a seat is not shown leave its information state alone; its own moves
    always change it; the tensor is a function of the string."""
    game = tos.load(slug, n, seed=6)
    rng = np.random.RandomState(2)
    st = game.new_initial_state()
    hidden = own = 0
    seen: dict[str, list[float]] = {}
    for _ in range(160):
        if st.is_terminal():
            break
        q, legal = st.current_player(), st.legal_actions()
        if len(legal) >= 2:
            a, b = rng.choice(legal, size=2, replace=False)
            sa, sb = st.child(int(a)), st.child(int(b))
            for p in range(n):
                if p == q:
                    # perfect recall: a seat remembers which action it took
                    assert _info(sa, p)[0] != _info(sb, p)[0] and _info(sa, p)[1] != _info(sb, p)[1]
                    own += 1
                elif sa.table.state.observation(p) == sb.table.state.observation(p):
                    assert _info(sa, p) == _info(sb, p)        # a secret of q's: the same
                    hidden += 1
        for p in range(n):
            s, t = _info(st, p)
            assert seen.setdefault(s, t) == t
            own_block = np.asarray(t[len(st.observation_tensor(p)):])
            assert list(own_block[own_block > 0] - 1) == st.own_moves(p)
        st.apply_action(int(rng.choice(legal)))
    assert hidden > 0 and own > 0


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
        assert _info(other, p) == _info(st, p)
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


def test_evaluate_bots_plays_a_game_mcts_against_uniform_random():
    game = tos.load("thieves-den", 2, seed=100)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [mcts.MCTSBot(game, 2.0, 3, evaluator, random_state=np.random.RandomState(0), solve=False),
            pyspiel.make_uniform_random_bot(1, 0)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
    assert len(returns) == 2 and set(returns) <= {-1.0, 0.0, 1.0}
    assert sorted(returns) in ([-1.0, 1.0], [1.0, 1.0], [0.0, 0.0])
