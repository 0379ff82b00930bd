"""Gymnasium single-agent environment: one seat learns, built-in bots hold the others.

``ThievesGym(slug, num_players, opponents="random", seat=0)``. The observation is
the float32 tensor of :mod:`thieves.rl.observe`; the legal actions are in
``info["action_mask"]`` and ``env.action_masks()`` (the convention of masked PPO
implementations). An action is one integer of the game's token space. The reward
is +1 for a win, -1 otherwise, given at the end; a game cut at the length bound is
truncated with reward 0. ``seat=None`` takes a random seat each game.
``reward="margin"`` gives instead, at the end, the seat's score minus the best
other score (a denser signal against strong bots, which random play never beats).
An illegal action raises ``ValueError`` (and changes nothing); with
``illegal="lose"`` it ends the episode instead, reward -1 (for agents that do not
mask, and for Gymnasium's ``check_env``, which steps random actions).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np

import thieves
from thieves.bots import choose_fairly, make_bot

from .driver import Table, agent_observation_shape
from .spaces import action_space


class ThievesGym(gym.Env):
    """One seat of a thieves game against built-in bots."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, slug: str, num_players: int, opponents: str | Sequence[str] = "random",
                 seat: int | None = 0, options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, illegal: str = "raise", reward: str = "win") -> None:
        if reward not in ("win", "margin"):
            raise ValueError("reward must be 'win' or 'margin'")
        self.reward_kind = reward
        if illegal not in ("raise", "lose"):
            raise ValueError("illegal must be 'raise' or 'lose'")
        self.illegal = illegal
        game = thieves.load_game(slug)
        if not game.min_players <= num_players <= game.max_players:
            raise ValueError(f"{game.name} is played by {game.min_players} to {game.max_players} "
                             f"players, not {num_players}")
        if seat is not None and not 0 <= seat < num_players:
            raise ValueError(f"seat must be 0 to {num_players - 1}, not {seat}")
        self.slug = slug
        self.num_players = num_players
        self.game_options = dict(options or {})
        names = [opponents] * num_players if isinstance(opponents, str) else list(opponents)
        if len(names) not in (num_players - 1, num_players):
            raise ValueError(f"give one opponent name, or one per other seat ({num_players - 1})")
        self.opponent_names = names
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.space = action_space(slug, self.game_options.get("data_dir"))
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, agent_observation_shape(slug, num_players, self.game_options.get("data_dir")), np.float32)
        self.action_space = gym.spaces.Discrete(self.space.n)
        self.table: Table | None = None
        self.seat = 0
        self.bots: dict[int, Any] = {}
        self._views = 0

    @property
    def _live(self) -> Table:
        """The table in play (``reset()`` makes one)."""
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = int(rng.integers(self.num_players)) if self.fixed_seat is None else self.fixed_seat
        others = [p for p in range(self.num_players) if p != self.seat]
        names = self.opponent_names if len(self.opponent_names) == len(others) else \
            [self.opponent_names[p] for p in others]
        self.bots = {p: make_bot(name, self.slug, seed=int(rng.integers(2**31)))
                     for p, name in zip(others, names)}
        self._views = int(rng.integers(2**62))  # seeds the bots' fair views
        self.table = Table(self.slug, self.num_players, int(rng.integers(2**62)), self.game_options)
        self._play_bots()
        return self._obs(), self._info()

    def _play_bots(self) -> None:
        t = self._live
        while not t.is_over() and t.current != self.seat and not t.truncated():
            p = t.seat
            # the built-in seats decide on fair views, never on the real state (hidden cards)
            t.state.apply_action(p, choose_fairly(self.bots[p], t.state, p, self._views))
            t.steps += 1
            t._refresh()

    def _obs(self) -> np.ndarray:
        return self._live.observe(self.seat)

    def action_masks(self) -> np.ndarray:
        return self._live.mask().astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._live.mask()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        reward, terminated, truncated, info = self.advance(action)
        return self._obs(), reward, terminated, truncated, info

    def advance(self, action: int, mask: bool = True) -> tuple[float, bool, bool, dict[str, Any]]:
        """:meth:`step` without the observation tensor: reward, terminated, truncated, info
        (the vector environment builds tensors only when asked). ``mask=False`` leaves the
        mask out of the info of a game that goes on (the vector environment writes its own)."""
        t = self._live
        if self.illegal == "lose" and int(action) not in t.legal():
            return -1.0, True, False, {"action_mask": t.mask(), "illegal": True}
        t.step(int(action))
        self._play_bots()
        reward = 0.0
        terminated = t.is_over()
        truncated = not terminated and t.truncated()
        if not (mask or terminated or truncated):
            return reward, False, False, {}
        if terminated:
            if self.reward_kind == "win":
                reward = t.returns()[self.seat]
            else:
                sc = t.state.scores()
                reward = float(sc[self.seat] - max(x for q, x in enumerate(sc) if q != self.seat))
        info = self._info()
        if terminated:
            info["winners"] = t.state.winners()
        return reward, terminated, truncated, info

    def render(self) -> str | None:
        return None if self.table is None else self.table.state.render_text(self.seat)
