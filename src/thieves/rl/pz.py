"""PettingZoo AEC environment for every game: ``thieves.rl.env(slug, num_players)``.

Agents are ``player_0`` ... ``player_{n-1}``. The agent selected is the first
player the engine waits for; simultaneous secret choices are made one agent
after the other, each seeing only its own observation. Observations are dicts
``{"observation": float32[k], "action_mask": int8[space.n]}`` (k from
``observation_shape``); an action is
one integer of the game's token space (docs/rl.md). Rewards come at the end:
+1 for each winner, -1 for everyone else.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import thieves

from .driver import Table, agent_observation_shape
from .spaces import action_space


class ThievesAEC(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """One thieves game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "thieves_v0", "is_parallelizable": False}

    def __init__(self, slug: str, num_players: int, options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, seed: int | None = None) -> None:
        super().__init__()
        game = thieves.load_game(slug)
        if not game.min_players <= num_players <= game.max_players:
            raise ValueError(f"{game.name} is played by {game.min_players} to {game.max_players} "
                             f"players, not {num_players}")
        self.slug = slug
        self.num_players = num_players
        self.game_options = dict(options or {})
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"thieves_{slug.replace('-', '_')}_v0")
        self.space = action_space(slug, self.game_options.get("data_dir"))
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, agent_observation_shape(slug, num_players, self.game_options.get("data_dir")), np.float32),
            "action_mask": spaces.Box(0, 1, (self.space.n,), np.int8),
        })
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.space.n) for a in self.possible_agents}
        self._seed_rng = np.random.default_rng(seed)
        self.table: Table | None = None

    # -- spaces --------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_spaces[agent]

    # -- the AEC loop ------------------------------------------------------------------
    @property
    def _live(self) -> Table:
        """The table in play (``reset()`` makes one)."""
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**62))
        self.table = Table(self.slug, self.num_players, game_seed, self.game_options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._live.seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._index[agent]
        t = self._live
        mask = t.mask() if t.current == p else np.zeros(self.space.n, dtype=np.int8)
        return {"observation": t.observe(p), "action_mask": mask}

    def action_mask(self, agent: str) -> np.ndarray:
        """The mask alone (no observation tensor): for agents that read no observation."""
        t = self._live
        if t.current == self._index[agent]:
            return t.mask()
        return np.zeros(self.space.n, dtype=np.int8)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        t = self._live
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise ValueError(f"{agent} must act: a live agent's action cannot be None")
        t.step(int(action))
        for a in self.agents:
            self.rewards[a] = 0.0
        if t.is_over() or t.truncated():
            over = t.is_over()
            for a, r in zip(self.possible_agents, t.returns() if over else [0.0] * self.num_players):
                self.rewards[a] = r
                self.terminations[a] = over
                self.truncations[a] = not over
                if over:
                    self.infos[a] = {"winners": t.state.winners(), "scores": t.state.scores()}
            self._accumulate_rewards()
            # every agent then makes its dead step, in seat order
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[t.seat]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.table is None:
            return None
        text = self._live.state.render_text(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(slug: str, num_players: int, options: Mapping[str, Any] | None = None,
        render_mode: str | None = None, seed: int | None = None) -> ThievesAEC:
    """A PettingZoo AEC environment of game ``slug`` for ``num_players`` players."""
    return ThievesAEC(slug, num_players, options=options, render_mode=render_mode, seed=seed)
