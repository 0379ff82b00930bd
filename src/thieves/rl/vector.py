"""Gymnasium vector environments: N games of one seat against built-in bots, stepped at once.

* :class:`ThievesVectorEnv` - a native ``gymnasium.vector.VectorEnv``: N
  :class:`~thieves.rl.gym_env.ThievesGym` games stepped in one call, observations
  stacked in one ``(N, k)`` float32 array and the legal actions in one ``(N, space.n)``
  int8 array (``infos["action_mask"]`` and :meth:`ThievesVectorEnv.action_masks`).
  ``tensors=False`` skips the observation tensors (observations of width 0) for
  agents that read only the masks; tensors are most of the cost of a step.
* :func:`gym_vector_env` - the same games in Gymnasium's own ``SyncVectorEnv`` or
  ``AsyncVectorEnv`` (one process per game), for code that expects those classes.

Both autoreset in Gymnasium's ``SAME_STEP`` mode: a game that ends is reset in the
same step, the observation and mask returned are the new game's first, and the
finished game's last observation and info are in ``infos["final_obs"]`` and
``infos["final_info"]`` (where ``infos["_final_obs"]`` is true). So every mask
returned has a legal action and an agent never has to step a finished game.
``reset(seed=s)`` seeds game ``i`` with ``s + i`` (Gymnasium's convention), and each
game then draws its later games from its own generator: the trajectories are those
of N single :class:`ThievesGym` reset with ``s + i`` once and without a seed after
each game (tested).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv
from gymnasium.vector.utils import batch_space

from .driver import agent_observation_shape
from .gym_env import ThievesGym

__all__ = ["ThievesVectorEnv", "gym_vector_env"]


class ThievesVectorEnv(VectorEnv):
    """``num_envs`` games of ``slug`` for one seat against bots, stepped together."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, slug: str, num_players: int, num_envs: int,
                 opponents: str | Sequence[str] = "random", seat: int | None = 0,
                 options: Mapping[str, Any] | None = None, reward: str = "win",
                 tensors: bool = True) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.envs = [ThievesGym(slug, num_players, opponents, seat, options, reward=reward)
                     for _ in range(num_envs)]
        self.num_envs = num_envs
        self.tensors = tensors
        first = self.envs[0]
        self.space = first.space
        width = agent_observation_shape(slug, num_players, first.game_options.get("data_dir"))[0] if tensors else 0
        self.single_observation_space = gym.spaces.Box(-np.inf, np.inf, (width,), np.float32)
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, width), dtype=np.float32)
        self._masks = np.zeros((num_envs, self.space.n), dtype=np.int8)

    def _fill(self, i: int) -> None:
        """Copy game ``i``'s observation and mask into the batch."""
        env = self.envs[i]
        t = env._live
        if self.tensors:
            self._obs[i] = t.observe(env.seat)
        row = self._masks[i]
        row.fill(0)
        if t.decision is not None:
            row.put(t.decision._opts, 1)

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(), "_action_mask": np.ones(self.num_envs, dtype=bool)}

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give one seed per game ({self.num_envs}), not {len(seeds)}")
        for i, env in enumerate(self.envs):
            env.reset(seed=seeds[i])
            self._fill(i)
        return self._obs.copy(), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = np.asarray(actions).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terms = np.zeros(self.num_envs, dtype=bool)
        truncs = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        for i, env in enumerate(self.envs):
            rewards[i], terms[i], truncs[i], info = env.advance(int(acts[i]), mask=False)
            if terms[i] or truncs[i]:
                last = env._obs() if self.tensors else np.zeros(0, dtype=np.float32)
                infos = self._add_info(infos, {"final_obs": last, "final_info": info}, i)
                env.reset()
            self._fill(i)
        infos.update(self._infos())
        return self._obs.copy(), rewards, terms, truncs, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, space.n)`` booleans: the legal actions of every game (masked PPO)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        self.envs = []


def gym_vector_env(slug: str, num_players: int, num_envs: int, vectorization: str = "sync",
                   **kwargs: Any) -> VectorEnv:
    """``num_envs`` :class:`ThievesGym` games in Gymnasium's ``SyncVectorEnv`` (one process)
    or ``AsyncVectorEnv`` (``vectorization="async"``: one worker process per game), with
    ``SAME_STEP`` autoreset; ``kwargs`` go to :class:`ThievesGym`. The masks are in
    ``infos["action_mask"]``, stacked by Gymnasium."""
    def make() -> ThievesGym:
        return ThievesGym(slug, num_players, **kwargs)
    fns = [make] * num_envs
    if vectorization == "sync":
        return SyncVectorEnv(fns, autoreset_mode=AutoresetMode.SAME_STEP)
    if vectorization == "async":
        return AsyncVectorEnv(fns, autoreset_mode=AutoresetMode.SAME_STEP)
    raise ValueError("vectorization must be 'sync' or 'async'")
