"""Reinforcement learning and research interop (optional extra ``rl``).

* :func:`action_space` - a game's fixed integer action space (docs/rl.md)
* :func:`observation_tensor` - fixed-shape float32 observation of one player
* :func:`env` - PettingZoo AEC environment; :class:`ThievesGym` - Gymnasium, one seat
  against built-in bots
* :func:`thieves.rl.openspiel.register` - every game as an OpenSpiel Python game
"""
from __future__ import annotations

from typing import Any

from .spaces import ActionSpace, Decision, action_space

__all__ = ["ActionSpace", "Decision", "action_space", "observation_tensor", "observation_shape",
           "env", "ThievesGym", "Table", "max_game_length"]


def __getattr__(name: str) -> Any:
    # numpy, gymnasium and pettingzoo load only when asked for
    if name in ("Table", "max_game_length"):
        from . import driver
        return getattr(driver, name)
    if name in ("observation_tensor", "observation_shape"):
        from . import observe
        return getattr(observe, name)
    if name == "env":
        from .pz import env
        return env
    if name == "ThievesGym":
        from .gym_env import ThievesGym
        return ThievesGym
    raise AttributeError(f"module 'thieves.rl' has no attribute {name!r}")
