"""One game driven by integer tokens: the core shared by PettingZoo, Gymnasium and OpenSpiel.

:class:`Table` holds an engine state and the sub-decision in progress. Whoever
is first in ``players_to_act()`` acts; when several players make secret
choices at once, they act one after the other here, each choosing only from
its own observation (the engine takes each secret choice separately and shows
nobody else's before all are in).
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

import thieves
from thieves.core.game import State

from .observe import observation_shape, observation_tensor
from .spaces import ActionSpace, Decision, action_space


def agent_observation_shape(slug: str, num_players: int, data_dir: str | None = None) -> tuple[int]:
    """Shape of :meth:`Table.observe`: the tensor plus the pieces of the unfinished action."""
    space = action_space(slug, data_dir)
    k = observation_shape(slug, num_players, data_dir)[0]
    return (k if space.whole_actions else k + space.n,)


def max_game_length(slug: str, num_players: int) -> int:
    """The most integer steps a game may take in the wrappers (then it is truncated)."""
    # the game's bound of the wrapper, not of the rules (core/parts.py Research):
    # random play never came near it (docs/rl.md gives the figures)
    return thieves.load_game(slug).research.steps_per_player * max(num_players, 2)


class Table:
    """An engine state plus the sub-decision being built, driven by integer tokens."""

    #: keep each player's tensor until the next applied action (the steps of one decision
    #: see the same position); False: build it at every call
    reuse_tensors = True

    def __init__(self, slug: str, num_players: int, seed: int = 0,
                 options: Mapping[str, Any] | None = None, state: State | None = None) -> None:
        self.game = thieves.load_game(slug)
        self.slug = slug
        self.num_players = num_players
        self.options = dict(options or {})
        self.space: ActionSpace = action_space(slug, self.options.get("data_dir"))
        self.max_steps = max_game_length(slug, num_players)
        self.state = state if state is not None else self.game.new_game(num_players, seed, self.options)
        self.steps = 0
        self.decision: Decision | None = None
        self._refresh()

    # -- who acts and what is legal -------------------------------------------------
    def _refresh(self) -> None:
        st = self.state
        # tensors already built for this position (the pieces of one decision share it)
        self._tensors: dict[tuple[int, int, int], np.ndarray] = {}
        if st.is_terminal():
            self.decision = None
            return
        p = st.players_to_act()[0]
        self.decision = Decision(self.space, st, p)

    @property
    def current(self) -> int | None:
        """The player to give the next token (None once the game is over)."""
        return None if self.decision is None else self.decision.player

    @property
    def seat(self) -> int:
        """The player to give the next token; only while the game goes on."""
        if self.decision is None:
            raise RuntimeError("the game is over: nobody is to act")
        return self.decision.player

    def is_over(self) -> bool:
        return self.decision is None

    def truncated(self) -> bool:
        return self.decision is not None and self.steps >= self.max_steps

    def legal(self) -> list[int]:
        return [] if self.decision is None else self.decision.options()

    def mask(self) -> np.ndarray:
        """int8 vector over the space: 1 for each legal next token (a new array each call)."""
        m = np.zeros(self.space.n, dtype=np.int8)
        if self.decision is not None:
            m.put(self.decision._opts, 1)
        return m

    # -- acting -----------------------------------------------------------------------
    def step(self, token: int) -> str | None:
        """Give one token; returns the engine action once it was applied (else None)."""
        dec = self.decision
        if dec is None:
            raise ValueError("the game is over")
        action = dec.choose(int(token))
        self.steps += 1
        if action is not None:
            self.state.apply_action(dec.player, action)
            self._refresh()
        return action

    def observe(self, player: int) -> np.ndarray:
        """The tensor of ``player`` followed, where actions are built piece by piece, by
        the pieces it has given so far in its unfinished action (counts over the space;
        zeros for everyone else): what an agent sees in the wrappers. The tensor is kept
        per player until the next action is applied (:attr:`reuse_tensors`); a change
        made to ``state`` by hand, not through the table, needs ``_refresh()``."""
        st = self.state
        if self.space.whole_actions:                  # one step, one decision: nothing to keep
            return observation_tensor(st, player)
        key = (player, id(st), len(st.history))
        t = self._tensors.get(key)
        if t is None:
            t = observation_tensor(st, player)
            if self.reuse_tensors:
                self._tensors[key] = t
        own = np.zeros(self.space.n, dtype=np.float32)
        if self.decision is not None and self.decision.player == player:
            for i in self.decision.prefix:
                own[i] += 1.0
        return np.concatenate([t, own])

    def steps_for(self, action: str) -> list[int]:
        """The integers an agent gives, from the start of the current decision, to make the
        engine ``action`` (pieces filled in by the wrapper are left out). For imitation of
        bots and for replaying recorded games through the wrappers."""
        dec = self.decision
        if dec is None or dec.prefix:
            raise ValueError("steps_for works at the start of a decision")
        toks = self.space.split(action)
        if action not in {a for _, a in dec.cands} and (dec._whole is None or action not in dec._whole.values()):
            raise ValueError(f"{action!r} is not legal now")
        if dec._whole is not None:
            return [toks[0]]
        probe = Decision.__new__(Decision)
        probe.space, probe.player, probe.prefix = dec.space, dec.player, []
        probe.cands, probe._opts, probe._complete, probe._whole = dec.cands, dec._opts, dec._complete, None
        out: list[int] = []
        while True:
            k = len(probe.prefix)
            tok = toks[k] if k < len(toks) else 0
            out.append(tok)
            if probe.choose(tok) is not None:
                return out

    def partial(self) -> str:
        """The action being built, as notation (empty between decisions)."""
        return "" if self.decision is None else self.space.join(self.decision.prefix)

    def returns(self) -> list[float]:
        """+1 for each winner, -1 for every other player, once the game is over (else 0)."""
        if not self.state.is_terminal():
            return [0.0] * self.num_players
        won = set(self.state.winners())
        return [1.0 if p in won else -1.0 for p in range(self.num_players)]

    def clone(self) -> "Table":
        new = Table.__new__(Table)
        new.__dict__.update(self.__dict__)
        new.state = self.state.clone()
        new._tensors = {}
        if self.decision is not None:
            d = Decision.__new__(Decision)
            for k in Decision.__slots__:
                setattr(d, k, getattr(self.decision, k))
            d.prefix = list(self.decision.prefix)
            if d._whole is not None:
                d._whole = dict(d._whole)
            d.cands = list(self.decision.cands)
            d._opts = list(self.decision._opts)
            new.decision = d
        return new
