"""Reinforcement learning and research interop (optional extra ``rl``).

* :func:`action_space` - a game's fixed integer action space (docs/rl.md)
* :func:`observation_tensor` - fixed-shape float32 observation of one player
* :func:`env` - PettingZoo AEC environment; :class:`ThievesGym` - Gymnasium, one seat
  against built-in bots; :class:`ThievesVectorEnv` - N of those games stepped at once
  (Gymnasium vector API)
* :func:`thieves.rl.dataset.write_dataset` - bot games as per-decision records (Parquet)
* :func:`thieves.rl.openspiel.register` - every game as an OpenSpiel Python game
"""
from __future__ import annotations

import importlib
from typing import Any

from .spaces import ActionSpace, Decision, action_space

__all__ = ["ActionSpace", "Decision", "action_space", "observation_tensor", "observation_shape",
           "env", "ThievesGym", "ThievesVectorEnv", "Table", "max_game_length"]


def __getattr__(name: str) -> Any:
    # numpy, gymnasium and pettingzoo load only when asked for
    where = {"Table": "driver", "max_game_length": "driver", "observation_tensor": "observe",
             "observation_shape": "observe", "env": "pz", "ThievesGym": "gym_env", "ThievesVectorEnv": "vector"}.get(name)
    if where is None:
        raise AttributeError(f"module 'thieves.rl' has no attribute {name!r}")
    try:
        module = importlib.import_module(f"{__name__}.{where}")
    except ImportError as exc:
        raise ImportError(f"thieves.rl.{name} needs the rl extra: pip install 'thieves[rl]' "
                          f"({exc})") from exc
    return getattr(module, name)
