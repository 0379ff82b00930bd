"""Fair bots: what a bot is given is what its seat may know.

A bot never sees the real position. :func:`fair_view` hands it a copy in which

* everything its seat cannot see is re-dealt (``state.determinize``: other
  players' hands, decks, face-down tiles, unrevealed plans);
* the random generator is re-seeded from a seed that does not depend on the
  real one, so the copy's "future dice" say nothing about the real future;
* the real game seed is gone (with it and the history one could replay the
  whole game, hidden cards and future dice included);
* the event log keeps only the events the seat may read, and the history hides
  the other players' decisions, unless the game declares every decision public
  (``public_history = True`` on its state class).

:func:`choose_fairly` is the one way bots are asked for a decision in
simulations, in the terminal and on the server.
"""
from __future__ import annotations

import hashlib
from typing import Any

from ..core.game import State
from ..core.texts import public_key
from ..core.rng import Rng, _mix_seed
from .base import Bot

__all__ = ["fair_view", "choose_fairly", "view_seed", "bot_seed", "LegalActionsOnly"]

#: what a hidden decision of another player looks like in a bot's copy of the history
HIDDEN = "?"


def bot_seed(*parts: object) -> int:
    """A seed for a bot made from ``parts`` (game seed, seat...) by a one-way hash, so that
    the bot cannot work the real game seed back out of its own generator."""
    text = "\x1f".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def view_seed(seed: int, ply: int, player: int) -> int:
    """The seed of one decision's view: from public facts only (a base seed, ply and seat)."""
    return _mix_seed((seed * 1_000_003 + ply * 7_919 + player) & ((1 << 64) - 1))


def fair_view(state: State, player: int, seed: int) -> State:
    """A copy of ``state`` consistent with what ``player`` knows (see the module docstring)."""
    view = state.determinize(player, seed)
    view._legal_cache = None  # the real position's cached answers may be another seat's
    if view.rng.to_json() == state.rng.to_json():  # a game's determinize kept the real generator
        view.rng = Rng.from_seed(seed ^ 0x5DEECE66D)
        view.rng_kind = "splitmix"
    view.seed = 0
    view.log = [e for e in (_as_seen(entry, player) for entry in view.log) if e is not None]
    if not getattr(view, "public_history", False):
        view.history = [[q, a if q == player else HIDDEN] for q, a in view.history]
    return view


def _as_seen(entry: Any, player: int) -> Any:
    """A log entry as ``player`` may read it: unchanged, its public form, or None."""
    to = entry.get("to")
    if to is None or player in to:
        return entry
    if entry.get("secret") is not None:  # others read the public template, no secrets
        return {"key": public_key(entry["key"]), "args": entry["args"], "ply": entry["ply"]}
    return None


class LegalActionsOnly:
    """What a bot that declares ``reads_only_legal_actions = True`` is handed instead of a
    state: its seat's legal actions and nothing else. It holds no reference to the real
    position (no seed, generator, hands or decks), so the flag buys speed, never secrets;
    a bot that reads anything more fails with AttributeError."""

    __slots__ = ("_player", "_actions")

    def __init__(self, player: int, actions: list[str]) -> None:
        self._player = player
        self._actions = tuple(actions)

    def legal_actions(self, player: int) -> list[str]:
        return list(self._actions) if player == self._player else []

    def __repr__(self) -> str:
        return f"<the {len(self._actions)} legal actions of seat {self._player}>"


def choose_fairly(bot: Bot, state: State, player: int, seed: int, legal: list[str] | None = None) -> str:
    """Ask ``bot`` for ``player``'s decision on a fair view of ``state``.

    A bot that declares ``reads_only_legal_actions = True`` (the random bot) gets
    only its legal actions (:class:`LegalActionsOnly`): they are the same in every
    view, and copying is the dearest part of a random decision. ``legal``: the
    player's legal actions, where the caller has them already.
    """
    if getattr(bot, "reads_only_legal_actions", False):
        actions = state.legal_actions(player) if legal is None else legal
        return bot.choose(LegalActionsOnly(player, actions), player)  # type: ignore[arg-type]
    return bot.choose(fair_view(state, player, view_seed(seed, state.ply, player)), player)
