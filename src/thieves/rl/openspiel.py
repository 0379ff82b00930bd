"""Every game as an OpenSpiel Python game (``pyspiel.register_game``).

>>> from thieves.rl import openspiel as tos          # doctest: +SKIP
>>> tos.register()                                   # doctest: +SKIP
>>> game = pyspiel.load_game("python_thieves_thieves_den", {"players": 3})  # doctest: +SKIP

Short names are ``python_thieves_<package>`` (``python_thieves_thiefs_market``,
``python_thieves_thieves_den``, ``python_thieves_age_of_thieves``,
``python_thieves_thiefdom``, ``python_thieves_cadwallon``); parameters
``players`` and ``seed`` (the n-th game a game object sets up uses
``seed + n``; clones take no seed). Actions are the integers of the game's token space
(docs/rl.md), one sub-decision per OpenSpiel move. The games are sequential:
secret simultaneous choices are made one player after the other, each seeing
only its own information. Chance is inside the engine (its generator is part
of the state), so the games are declared ``SAMPLED_STOCHASTIC``: a cloned state
has the same future, and :func:`resample` (our ``determinize``) gives a state
consistent with what one player knows, for ISMCTS. Returns: +1 per winner, -1
for the others; a game cut at the length bound returns 0 to everybody.
"""
from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError("OpenSpiel is not installed: pip install 'thieves[rl]' "
                      "(or pip install open_spiel)") from exc

import thieves

from .driver import Table, agent_observation_shape, max_game_length
from .spaces import action_space

SLUGS = ("thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon")


def short_name(slug: str) -> str:
    return "python_thieves_" + slug.replace("-", "_")


def _game_type(slug: str) -> "pyspiel.GameType":
    g = thieves.load_game(slug)
    return pyspiel.GameType(
        short_name=short_name(slug),
        long_name=f"thieves: {g.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players,
        min_num_players=g.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": max(g.min_players, min(3, g.max_players)), "seed": 0},
    )


class ThievesSpielGame(pyspiel.Game):
    """One thieves game for OpenSpiel (made by ``pyspiel.load_game``)."""

    slug: str = ""

    def __init__(self, params: dict | None = None) -> None:
        params = dict(params or {})
        gtype = _game_type(self.slug)
        n = int(params.get("players", gtype.parameter_specification["players"]))
        g = thieves.load_game(self.slug)
        if not g.min_players <= n <= g.max_players:
            raise ValueError(f"{g.name} is played by {g.min_players} to {g.max_players} players")
        space = action_space(self.slug)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.n,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=max_game_length(self.slug, n))
        super().__init__(gtype, info, params)
        self.thieves_players = n
        self.thieves_seed = int(params.get("seed", 0))
        self._counter = itertools.count()

    def new_initial_state(self) -> "ThievesSpielState":
        return ThievesSpielState(self)

    def next_seed(self) -> int:
        """The seed of the next game set up (``seed``, ``seed + 1``, ...)."""
        return self.thieves_seed + next(self._counter)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "ThievesObserver":
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ThievesObserver(perfect_recall, agent_observation_shape(self.slug, self.thieves_players)[0])


class _Lazy:
    """A table made on first use, so that OpenSpiel's clones (a new initial state whose
    attributes are then overwritten) never set up a game, nor take a seed, for nothing."""

    __slots__ = ("game", "table")

    def __init__(self, game: "ThievesSpielGame") -> None:
        self.game = game
        self.table: Table | None = None

    def get(self) -> Table:
        if self.table is None:
            g = self.game
            self.table = Table(g.slug, g.thieves_players, g.next_seed())
        return self.table

    def __deepcopy__(self, memo: dict) -> "_Lazy":
        new = _Lazy(self.game)
        new.table = self.get().clone()
        return new


class ThievesSpielState(pyspiel.State):
    """An OpenSpiel state around a :class:`~thieves.rl.driver.Table`."""

    def __init__(self, game: ThievesSpielGame) -> None:
        super().__init__(game)
        self._lazy = _Lazy(game)

    @property
    def table(self) -> Table:
        return self._lazy.get()

    def current_player(self) -> int:
        t = self.table
        if t.is_over() or t.truncated():
            return int(pyspiel.PlayerId.TERMINAL)
        return t.seat

    def _legal_actions(self, player: int) -> list[int]:
        t = self.table
        if t.is_over() or t.truncated() or player != t.current:
            return []
        return sorted(t.legal())

    def _apply_action(self, action: int) -> None:
        self.table.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.table.space.tokens[action]

    def is_terminal(self) -> bool:
        t = self.table
        return t.is_over() or t.truncated()

    def returns(self) -> list[float]:
        t = self.table
        return t.returns() if t.is_over() else [0.0] * t.num_players

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        return _info_string(self.table, player, with_log=True)

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        return _info_string(self.table, player, with_log=False)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        if player is None:
            player = self.current_player()
        return self.table.observe(player).tolist()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "ThievesSpielState":
        return resample(self, player_id, np.random.randint(2**31))

    def __str__(self) -> str:
        t = self.table
        return f"{t.slug} ply {t.state.ply} to act {t.current} {t.partial()!r}"


def _info_string(t: Table, player: int, with_log: bool) -> str:
    """What ``player`` knows: its observation (with the log it may read: all it has
    seen, in order) and, while it is building an action, the pieces it gave so far."""
    obs = t.state.observation(None if player < 0 else player)
    if not with_log:
        obs.pop("log", None)
    own = t.partial() if player is not None and t.current == player else ""
    return json.dumps(obs, sort_keys=True, separators=(",", ":")) + "|" + own


class ThievesObserver:
    """OpenSpiel's observer interface: the tensor of :mod:`thieves.rl.observe`."""

    def __init__(self, perfect_recall: bool, size: int) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ThievesSpielState, player: int) -> None:
        self.tensor[:] = state.table.observe(player)

    def string_from(self, state: ThievesSpielState, player: int) -> str:
        return _info_string(state.table, player, with_log=self.perfect_recall)


def resample(state: ThievesSpielState, player: int, seed: int) -> ThievesSpielState:
    """A state consistent with what ``player`` knows (``determinize``), with the same
    pieces of the action being built: ISMCTS's resampler."""
    new = state.clone()
    t = state.table
    det = t.state.determinize(player, seed)
    nt = Table(t.slug, t.num_players, options=t.options, state=det)
    nt.steps = t.steps
    if t.decision is not None and nt.decision is not None:
        for i, tok in enumerate(t.decision.prefix):
            if len(nt.decision.prefix) <= i:
                nt.decision.choose(tok)
    new._lazy.table = nt
    return new


_registered: set[str] = set()


def register(slugs: tuple[str, ...] = SLUGS) -> list[str]:
    """Register the games with OpenSpiel (once); returns their short names."""
    names = []
    for slug in slugs:
        name = short_name(slug)
        if name not in _registered:
            cls = type(f"ThievesSpielGame_{slug.replace('-', '_')}", (ThievesSpielGame,), {"slug": slug})
            pyspiel.register_game(_game_type(slug), cls)
            _registered.add(name)
        names.append(name)
    return names


def load(slug: str, num_players: int, seed: int = 0) -> "pyspiel.Game":
    """Register if needed and load one game."""
    register((slug,))
    return pyspiel.load_game(short_name(slug), {"players": num_players, "seed": seed})
