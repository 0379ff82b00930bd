"""PettingZoo api_test and seed_test for every game; the Gymnasium wrapper."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test

import thieves.rl
from thieves.rl.gym_env import ThievesGym
from thieves.rl.observe import observation_shape

CASES = [("thiefs-market", 3), ("thieves-den", 2), ("thieves-den", 5), ("age-of-thieves", 3),
         ("thiefdom", 1), ("thiefdom", 2), ("cadwallon", 2), ("cadwallon", 4)]


@pytest.mark.parametrize("slug,n", CASES)
def test_pettingzoo_api_and_seed(slug, n):
    with warnings.catch_warnings():
        # dict observations with an action mask: PettingZoo's own chess does the same
        warnings.simplefilter("ignore", UserWarning)
        api_test(thieves.rl.env(slug, n), num_cycles=150)
        seed_test(lambda: thieves.rl.env(slug, n), num_cycles=60)


def test_pettingzoo_whole_game_rewards_and_dead_steps():
    e = thieves.rl.env("thieves-den", 3, seed=4)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    steps = 0
    final = {}
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size and obs["observation"].shape == e.observation_space(agent)["observation"].shape
        e.step(int(rng.choice(legal)))
        steps += 1
    assert e.agents == []
    winners = e.table.state.winners()
    assert winners
    assert final == {f"player_{p}": (1.0 if p in winners else -1.0) for p in range(3)}
    assert not e.table.truncated()


def test_secret_choices_are_made_in_turn_without_seeing_each_other():
    """Thieves Den scouting: every player keeps a card at once; the second agent's
    observation does not change with the first one's secret pick."""
    e1, e2 = thieves.rl.env("thieves-den", 3), thieves.rl.env("thieves-den", 3)
    e1.reset(seed=9)
    e2.reset(seed=9)
    assert e1.agent_selection == "player_0"
    keep = np.flatnonzero(e1.observe("player_0")["action_mask"])
    assert [e1.space.tokens[i] for i in keep] == ["keep"]     # the verb, then the card
    e1.step(int(keep[0]))
    e2.step(int(keep[0]))
    assert e1.agent_selection == "player_0"
    m = np.flatnonzero(e1.observe("player_0")["action_mask"])
    assert m.size >= 2
    e1.step(int(m[0]))
    e2.step(int(m[1]))
    assert e1.table.state.history[-1] != e2.table.state.history[-1]
    nxt = e1.agent_selection
    assert nxt == e2.agent_selection != "player_0"
    o1, o2 = e1.observe(nxt), e2.observe(nxt)
    assert np.array_equal(o1["observation"], o2["observation"])
    assert np.array_equal(o1["action_mask"], o2["action_mask"])


def test_gymnasium_single_agent_against_bots():
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(ThievesGym("thieves-den", 3, opponents="greedy", seat=None, illegal="lose"),
                  skip_render_check=True)
    env = ThievesGym("thiefs-market", 3, opponents="random", seat=1)
    env.reset(seed=1)
    with pytest.raises(ValueError):
        env.step(next(i for i in range(env.space.n) if i not in env.table.legal()))
    obs, info = env.reset(seed=3)
    total, done = 0.0, False
    while not done:
        a = int(env.np_random.choice(np.flatnonzero(info["action_mask"])))
        assert env.table.current == 1
        obs, r, term, trunc, info = env.step(a)
        total += r
        done = term or trunc
    assert term and total in (1.0, -1.0)
    assert (total == 1.0) == (1 in env.table.state.winners())


def test_pieces_of_an_unfinished_action_are_seen_only_by_their_author():
    e = thieves.rl.env("thieves-den", 3)
    e.reset(seed=2)
    k = observation_shape("thieves-den", 3)[0]
    before = {a: e.observe(a)["observation"].copy() for a in e.agents}
    keep = int(np.flatnonzero(e.observe("player_0")["action_mask"])[0])
    e.step(keep)                                   # "keep": the card is still to choose
    assert e.agent_selection == "player_0"
    after = {a: e.observe(a)["observation"] for a in e.agents}
    assert after["player_0"][k + keep] == 1.0 and before["player_0"][k + keep] == 0.0
    for a in ("player_1", "player_2"):
        assert np.array_equal(before[a], after[a])


def test_gymnasium_opponents_decide_on_fair_views_never_on_the_real_state():
    from ..core.test_fair_bots import Spy
    env = ThievesGym("thieves-den", 3, opponents="random", seat=0)
    obs, info = env.reset(seed=2)
    spies = {p: Spy() for p in env.bots}
    env.bots = spies
    done = False
    while not done:
        a = int(np.flatnonzero(info["action_mask"])[0])
        obs, r, term, trunc, info = env.step(a)
        done = term or trunc
    seen = [x for spy in spies.values() for x in spy.seen]
    # a fair view has no game seed; the real state has one
    assert seen and env.table.state.seed != 0 and all(seed == 0 for _, seed, _ in seen)
