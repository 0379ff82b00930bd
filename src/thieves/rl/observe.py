"""Fixed-shape observation tensors built only from ``state.observation(p)``.

Every game has a layout (``tm_layout``, ``td_layout``, ``aot_layout``,
``tf_layout``, ``cw_layout``): named blocks of fixed width per player count,
seats turned relative to the viewer (seat 0 of a tensor is always the viewer, 1
the next player, ...). What varies in shape (plans, the move or fight in
progress...) goes into a small hashed "detail" block. A game without a layout
falls back on the generic encoder, feature hashing into :data:`SIZE` numbers:

* every leaf of the observation is named by its path (dict keys, and list
  positions for lists of non-strings; a list of strings such as a hand is a
  bag of its strings, unless it is a per-seat list);
* a number adds its value to the slot of its path; a string, ``None`` or a
  boolean adds 1 to the slot of ``path=value``;
* per-seat lists (``players``, ``gold``, ...) are rotated so that position 0
  is the viewer, and seat numbers (``to_act``, ``current``, ...) become
  relative seats;
* the text log is left out (its facts are in the rest of the observation);
* slots are chosen by CRC-32, stable across machines and Python runs; two
  features may share a slot.

Because they read nothing but ``observation(p)``, the tensors hide exactly what
the observation hides: ``determinize(p, seed)`` never changes them (tested).
The layouts are documented in docs/rl.md.

**Fast path.** Building ``observation(p)`` and walking it costs several engine
steps, so every game with a layout also has a fast encoder (``fast_encoder`` of
its layout module) that writes the same tensor straight from the state: it
reads only the fields the layout uses, with the same hiding rules as the
game's ``_observe`` (what another seat may not see is left out or replaced
exactly as there), and no copy. It is bit-identical to the reference encoder
(the observation dict and the layout's ``encoder``), which stays the definition
and is what :func:`reference_observation_tensor` computes; tests compare the two
over random positions of every game and player count, and check that the fast
path ignores a rival's hidden information. :func:`set_fast_path` selects the path
of :func:`observation_tensor` (the fast one by default).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from thieves.core.game import State

from .hashing import _PATHS, SIZE, Paths, encode
from .layouts import Encode, FastEncode, encoder_builder, fast_builder
from .layouts.age_of_thieves import aot_layout
from .layouts.cadwallon import cw_layout
from .layouts.thiefdom import tf_layout
from .layouts.thieves_den import td_layout
from .layouts.thiefs_market import tm_layout

__all__ = ["observation_tensor", "observation_shape", "reference_observation_tensor", "set_fast_path",
           "fast_path_enabled", "SIZE", "tm_layout", "td_layout", "aot_layout", "tf_layout", "cw_layout"]

_built: dict[tuple[str, int, Any], tuple[int, Encode]] = {}
_fast: dict[tuple[str, int, Any], FastEncode | None] = {}
_use_fast = True


def set_fast_path(on: bool) -> None:
    """Make :func:`observation_tensor` use the fast path (default) or the reference encoder."""
    global _use_fast
    _use_fast = bool(on)


def fast_path_enabled() -> bool:
    """Whether :func:`observation_tensor` uses the fast path."""
    return _use_fast


def _fast_of(state: State) -> FastEncode | None:
    slug = state.game.slug
    key = (slug, state.num_players, state.options.get("data_dir"))
    try:
        return _fast[key]
    except KeyError:
        pass
    build = fast_builder(slug)
    got = _fast[key] = None if build is None else build(state)
    return got


def _encoder_of(state: State) -> tuple[int, Encode] | None:
    slug = state.game.slug
    build = encoder_builder(slug)
    if build is None:
        return None
    key = (slug, state.num_players, state.options.get("data_dir"))
    got = _built.get(key)
    if got is None:
        got = _built[key] = build(state)
    return got


def observation_tensor(state: State, player: int) -> np.ndarray:
    """The fixed-shape float32 observation of ``player`` (see :func:`observation_shape`).

    It reads ``state.observation(player)`` without its text log (the engine's
    ``_observe`` plus the same public fields the contract adds), which is what
    the tensor uses.
    """
    if _use_fast:
        fast = _fast_of(state)
        if fast is not None:
            if not state._is_player(player):
                raise ValueError(f"there is no player {player!r}")
            return fast(state, player)
    return reference_observation_tensor(state, player)


def reference_observation_tensor(state: State, player: int) -> np.ndarray:
    """The tensor of :func:`observation_tensor` built the reference way: from the
    observation dict, by the layout's encoder (or the generic one)."""
    if not state._is_player(player):
        raise ValueError(f"there is no player {player!r}")
    obs = state._observe(player)
    obs["num_players"] = state.num_players
    obs["ply"] = state.ply
    obs["to_act"] = state._players_to_act()
    obs["terminal"] = state.is_terminal()
    special = _encoder_of(state)
    if special is not None:
        return special[1](obs, player)
    slug = state.game.slug
    paths = _PATHS.get(slug)
    if paths is None:
        paths = _PATHS[slug] = Paths()
    return encode(obs, state.num_players, player, state.game.research.seat_lists, paths)


def observation_shape(slug: str, num_players: int, data_dir: str | None = None) -> tuple[int]:
    """The tensor shape of a game at a player count."""
    if encoder_builder(slug) is not None:
        import thieves
        st = thieves.load_game(slug).new_game(num_players, 0, {"data_dir": data_dir} if data_dir else None)
        built = _encoder_of(st)
        assert built is not None  # the game has an encoder (checked above)
        return (built[0],)
    return (SIZE,)
