"""The Gymnasium vector environments: shapes, masks, autoreset, seeds, same games as single envs."""
from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
np = pytest.importorskip("numpy")

from thieves.rl.gym_env import ThievesGym
from thieves.rl.vector import ThievesVectorEnv, gym_vector_env

SLUG, N = "thieves-den", 2   # short games: every env ends a game within the steps below


def _policy(seed: int):
    rng = np.random.default_rng(seed)
    return lambda masks: np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_shapes_and_masks_are_the_legal_actions():
    env = ThievesVectorEnv(SLUG, 3, 4)
    obs, info = env.reset(seed=1)
    k, n = env.single_observation_space.shape[0], env.single_action_space.n
    assert obs.shape == (4, k) and obs.dtype == np.float32
    assert info["action_mask"].shape == (4, n) and info["action_mask"].dtype == np.int8
    act = _policy(0)
    for _ in range(30):
        for i, sub in enumerate(env.envs):
            assert list(np.flatnonzero(info["action_mask"][i])) == sorted(sub.table.legal())
            assert np.array_equal(obs[i], sub._obs())
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        obs, rew, term, trunc, info = env.step(act(info["action_mask"]))
        assert obs.shape == (4, k) and rew.shape == term.shape == trunc.shape == (4,)
    bare = ThievesVectorEnv(SLUG, 3, 2, tensors=False)
    obs, info = bare.reset(seed=1)
    assert obs.shape == (2, 0) and info["action_mask"].shape == (2, n)


def _run(env, steps: int, seed: int):
    obs, info = env.reset(seed=seed)
    act = _policy(seed)
    out = [(obs, info["action_mask"])]
    for _ in range(steps):
        obs, rew, term, trunc, info = env.step(act(info["action_mask"]))
        out.append((obs, info["action_mask"], rew, term, trunc))
    return out


def test_same_seed_same_games_and_another_seed_other_games():
    a, b = _run(ThievesVectorEnv(SLUG, N, 3), 60, 5), _run(ThievesVectorEnv(SLUG, N, 3), 60, 5)
    assert all(all(np.array_equal(x, y) for x, y in zip(ra, rb)) for ra, rb in zip(a, b))
    c = _run(ThievesVectorEnv(SLUG, N, 3), 60, 6)
    assert not all(np.array_equal(ra[0], rc[0]) for ra, rc in zip(a, c))


def test_autoreset_and_identical_to_single_envs_and_to_sync_vector_env():
    num, seed = 3, 11
    vec = ThievesVectorEnv(SLUG, N, num)
    sync = gym_vector_env(SLUG, N, num)
    singles = [ThievesGym(SLUG, N) for _ in range(num)]
    obs, info = vec.reset(seed=seed)
    sobs, sinfo = sync.reset(seed=seed)
    first = [e.reset(seed=seed + i) for i, e in enumerate(singles)]
    assert np.array_equal(obs, np.stack([o for o, _ in first])) and np.array_equal(obs, sobs)
    assert np.array_equal(info["action_mask"], sinfo["action_mask"])
    act = _policy(3)
    ended = np.zeros(num, dtype=int)
    for _ in range(260):
        actions = act(info["action_mask"])
        obs, rew, term, trunc, info = vec.step(actions)
        sobs, srew, sterm, strunc, sinfo = sync.step(actions)
        assert np.array_equal(obs, sobs) and np.array_equal(rew, srew) and np.array_equal(term, sterm)
        assert np.array_equal(info["action_mask"], sinfo["action_mask"])
        for i, e in enumerate(singles):
            o, r, te, tr, inf = e.step(int(actions[i]))
            assert (r, te, tr) == (rew[i], term[i], trunc[i])
            if te or tr:
                ended[i] += 1
                # SAME_STEP: the finished game's last observation aside, the new game's first returned
                assert info["_final_obs"][i] and np.array_equal(info["final_obs"][i], o)
                assert info["final_info"]["winners"][i] == inf["winners"]
                o, inf = e.reset()
            assert np.array_equal(obs[i], o)
            assert np.array_equal(info["action_mask"][i], inf["action_mask"])
            assert info["action_mask"][i].any()     # never a finished game's empty mask
    assert (ended >= 1).all()


def test_masks_only_plays_the_same_games():
    full = _run(ThievesVectorEnv(SLUG, N, 2, opponents="greedy", seat=None), 80, 2)
    bare = _run(ThievesVectorEnv(SLUG, N, 2, opponents="greedy", seat=None, tensors=False), 80, 2)
    assert all(b[0].shape == (2, 0) for b in bare)
    assert all(all(np.array_equal(x, y) for x, y in zip(f[1:], b[1:])) for f, b in zip(full, bare))
    assert any(f[3].any() for f in full[1:])   # a game ended and was reset on the way
