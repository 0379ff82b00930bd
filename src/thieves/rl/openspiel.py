"""Every game as an OpenSpiel Python game (``pyspiel.register_game``).

>>> from thieves.rl import openspiel as tos          # doctest: +SKIP
>>> game = tos.load("thieves-den", 3, seed=7)        # doctest: +SKIP
>>> state = game.new_initial_state()                 # the same deal at every call  # doctest: +SKIP

Short names are ``python_thieves_<package>`` (``python_thieves_thiefs_market``,
``python_thieves_thieves_den``, ``python_thieves_age_of_thieves``,
``python_thieves_thiefdom``, ``python_thieves_cadwallon``), registered when this
module is imported; parameters ``players``, ``seed`` and ``deals``.

Chance. The engine draws all chance (the deal, dice, draws) from the state's
generator, set up from a seed, so a game is a function of its seed and the
actions. With ``deals=1`` (the default) the game object *is* one deal:
``new_initial_state()`` sets up the game with ``seed`` at every call, and the game
has no chance at all from OpenSpiel's point of view (it is declared
``EXPLICIT_STOCHASTIC`` with no chance node). Different deals are different
``seed`` values, or ``deals=k``: the initial state is then one chance node that
picks one of the seeds ``seed`` ... ``seed + k - 1`` uniformly (outcome ``i`` is
seed ``seed + i``), and the rest follows from it: the exact game "the world is one
of these k seeds", which players tell apart only through what they are shown.

States serialize as the game's parameters plus the actions, replayed on
deserialization (``state.serialize()``, ``game.deserialize_state``,
``pyspiel.serialize_game_and_state``, ``pickle``); a state made by
:func:`resample` keeps its engine state instead (its hidden part is not the
seed's). Actions are the integers of the game's token space (docs/rl.md), one
sub-decision per OpenSpiel move. The games are sequential: secret simultaneous
choices are made one player after the other, each seeing only its own
information. Returns: +1 per winner, -1 for the others; a game cut at the length
bound returns 0 to everybody.
"""
from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError("OpenSpiel is not installed: pip install 'thieves[rl]' "
                      "(or pip install open_spiel)") from exc

import thieves
from thieves.core.game import State
from thieves.core.registry import GAME_MODULES

from .driver import Table, agent_observation_shape, max_game_length
from .spaces import action_space

#: the games with a fixed observation layout (each declares it: ``Game.research.layout``)
SLUGS = tuple(slug for slug in GAME_MODULES if thieves.load_game(slug).research.layout)

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(slug: str) -> str:
    return "python_thieves_" + slug.replace("-", "_")


def _game_type(slug: str) -> "pyspiel.GameType":
    g = thieves.load_game(slug)
    return pyspiel.GameType(
        short_name=short_name(slug),
        long_name=f"thieves: {g.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        # chance is explicit: none with deals=1, one chance node picking the seed otherwise
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players,
        min_num_players=g.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": max(g.min_players, min(3, g.max_players)),
                                 "seed": 0, "deals": 1},
    )


class ThievesSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """One thieves game for OpenSpiel (made by ``pyspiel.load_game``)."""

    slug: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = _game_type(self.slug).parameter_specification
        n = int(params.get("players", spec["players"]))
        deals = int(params.get("deals", 1))
        g = thieves.load_game(self.slug)
        if not g.min_players <= n <= g.max_players:
            raise ValueError(f"{g.name} is played by {g.min_players} to {g.max_players} players")
        if deals < 1:
            raise ValueError("deals must be 1 or more")
        length = max_game_length(self.slug, n)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space(self.slug).n,
            max_chance_outcomes=deals if deals > 1 else 0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=length + (1 if deals > 1 else 0))
        super().__init__(_game_type(self.slug), info, params)
        self.thieves_players = n
        self.thieves_seed = int(params.get("seed", 0))
        self.thieves_deals = deals
        self.thieves_length = length
        self._observation_size: int | None = None
        self._initial_observations: dict[tuple[int, int], np.ndarray] = {}

    def initial_observation(self, seed: int, player: int) -> np.ndarray:
        """``Table.observe(player)`` of the game set up with ``seed`` (kept)."""
        key = (seed, player)
        got = self._initial_observations.get(key)
        if got is None:
            got = self._initial_observations[key] = _initial_table(
                self.slug, self.thieves_players, seed).observe(player)
        return got

    def observation_size(self) -> int:
        """The length of ``Table.observe`` (worked out once per game object)."""
        if self._observation_size is None:
            self._observation_size = agent_observation_shape(self.slug, self.thieves_players)[0]
        return self._observation_size

    def new_initial_state(self) -> "ThievesSpielState":
        """The game with ``seed`` (the same at every call), or, with ``deals`` > 1, the
        chance node that picks the seed."""
        return ThievesSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ThievesObserver":
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ThievesObserver(self, perfect_recall)

    def __reduce__(self) -> tuple[Callable[[str], "pyspiel.Game"], tuple[str]]:
        return (_load_game_string, (str(self),))


def _load_game_string(game_string: str) -> "pyspiel.Game":
    register()
    return pyspiel.load_game(game_string)


def _deserialize(game_string: str, serialized: str) -> "pyspiel.State":
    return _load_game_string(game_string).deserialize_state(serialized)


class _Play:
    """What a state is: the seed and the (player, token) moves since it, with the table
    they lead to, made on first use (OpenSpiel's clones and deserialization make a new
    initial state and then overwrite its attributes: no game is set up for nothing).

    Pickled as the seed and the moves, replayed when read back; a resampled state
    (``world`` set) keeps its engine state, the pieces being built and the steps."""

    __slots__ = ("slug", "players", "seed", "moves", "table", "world")

    def __init__(self, slug: str, players: int, seed: int | None) -> None:
        self.slug = slug
        self.players = players
        self.seed = seed
        self.moves: list[tuple[int, int]] = []
        self.table: Table | None = None
        self.world: tuple[State, list[int], int] | None = None

    def get(self) -> Table:
        if self.table is None:
            if self.world is not None:
                state, prefix, steps = self.world
                self.table = _table_from(self.slug, self.players, state.clone(), prefix, steps)
                return self.table
            if self.seed is None:
                raise RuntimeError("the deal is not chosen yet (a chance node)")
            t = _initial_table(self.slug, self.players, self.seed).clone()
            for _, tok in self.moves:
                t.step(tok)
            self.table = t
        return self.table

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Play":
        new = _Play(self.slug, self.players, self.seed)
        new.moves = list(self.moves)
        new.world = self.world
        new.table = None if self.seed is None and self.world is None else self.get().clone()
        return new

    def __getstate__(self) -> dict[str, Any]:
        world = None
        if self.world is not None:  # a resampled world: its engine state, as it is now
            t = self.get()
            world = (t.state, list(t.decision.prefix) if t.decision else [], t.steps)
        return {"slug": self.slug, "players": self.players, "seed": self.seed,
                "moves": list(self.moves), "world": world}

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.slug, self.players, self.seed = d["slug"], d["players"], d["seed"]
        self.moves = [(int(p), int(tok)) for p, tok in d["moves"]]
        self.world = d["world"]
        self.table = None


_INITIAL: dict[tuple[str, int, int], Table] = {}
_INITIAL_KEPT = 64


def _initial_table(slug: str, players: int, seed: int) -> Table:
    """The game set up with ``seed``, kept for the last few seeds used: new states and
    OpenSpiel's shape queries (a new initial state each time, from C++) take a clone."""
    key = (slug, players, seed)
    t = _INITIAL.pop(key, None)
    if t is None:
        t = Table(slug, players, seed)
        while len(_INITIAL) >= _INITIAL_KEPT:
            _INITIAL.pop(next(iter(_INITIAL)))
    _INITIAL[key] = t  # the most recently used last
    return t


def _table_from(slug: str, players: int, state: State, prefix: list[int], steps: int) -> Table:
    """A table around an engine state, with the pieces ``prefix`` of its current
    decision given again and ``steps`` steps counted."""
    t = Table(slug, players, state=state)
    t.steps = steps
    if t.decision is not None:
        for i, tok in enumerate(prefix):
            if len(t.decision.prefix) <= i:  # pieces the wrapper filled in come back by themselves
                t.decision.choose(tok)
    return t


class ThievesSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """An OpenSpiel state around a :class:`~thieves.rl.driver.Table`."""

    def __init__(self, game: ThievesSpielGame) -> None:
        super().__init__(game)
        seed = game.thieves_seed if game.thieves_deals == 1 else None
        self._play = _Play(game.slug, game.thieves_players, seed)

    @property
    def table(self) -> Table:
        return self._play.get()

    def _dealt(self) -> bool:
        return self._play.seed is not None or self._play.world is not None

    def current_player(self) -> int:
        if not self._dealt():
            return CHANCE
        t = self.table
        if t.is_over() or t.truncated():
            return TERMINAL
        return t.seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._dealt():
            return []
        k = self.get_game().thieves_deals
        return [(i, 1.0 / k) for i in range(k)]

    def _legal_actions(self, player: int) -> list[int]:
        t = self.table
        if t.is_over() or t.truncated() or player != t.current:
            return []
        return sorted(t.legal())

    def _apply_action(self, action: int) -> None:
        play = self._play
        if not self._dealt():
            play.seed = self.get_game().thieves_seed + int(action)
            return
        t = play.get()
        player = t.seat
        t.step(action)
        play.moves.append((player, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"deal seed+{action}"
        return self.table.space.tokens[action]

    def is_terminal(self) -> bool:
        if not self._dealt():
            return False
        t = self.table
        return t.is_over() or t.truncated()

    def returns(self) -> list[float]:
        n = self._play.players
        if not self._dealt():
            return [0.0] * n
        t = self.table
        return t.returns() if t.is_over() else [0.0] * n

    def own_moves(self, player: int) -> list[int]:
        """The tokens ``player`` gave, in order (its own OpenSpiel actions)."""
        return [tok for p, tok in self._play.moves if p == player]

    # Python callers get these without going through C++ (which asks the game for the
    # tensor size, a shape query, at every call); the observers give the same.
    def information_state_string(self, player: int | None = None) -> str:
        return information_state_string(self, self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return observation_string(self, self.current_player() if player is None else player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        values: list[float] = _tensor(self, self.current_player() if player is None else player, True).tolist()
        return values

    def observation_tensor(self, player: int | None = None) -> list[float]:
        values: list[float] = _tensor(self, self.current_player() if player is None else player, False).tolist()
        return values

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "ThievesSpielState":
        return resample(self, player_id, np.random.randint(2**31))

    def __reduce__(self) -> tuple[Callable[[str, str], "pyspiel.State"], tuple[str, str]]:
        return (_deserialize, (str(self.get_game()), self.serialize()))

    def __str__(self) -> str:
        if not self._dealt():
            return f"{self._play.slug} before the deal"
        t = self.table
        return f"{t.slug} ply {t.state.ply} to act {t.current} {t.partial()!r}"


def information_state_string(state: ThievesSpielState, player: int) -> str:
    """What ``player`` knows, with perfect recall: its observation with the log it may
    read (append-only: everything it was shown, in order), the pieces of its unfinished
    action, and every token it gave (its own OpenSpiel actions, in order)."""
    if not state._dealt():
        return ""
    own = ",".join(map(str, state.own_moves(player)))
    return _observation_string(state.table, player, with_log=True) + "|" + own


def observation_string(state: ThievesSpielState, player: int) -> str:
    """``player``'s observation now, without the log, and its unfinished action."""
    if not state._dealt():
        return ""
    return _observation_string(state.table, player, with_log=False)


def _observation_string(t: Table, player: int, with_log: bool) -> str:
    obs = t.state.observation(player)
    if not with_log:
        obs.pop("log", None)
    own = t.partial() if t.current == player else ""
    return json.dumps(obs, sort_keys=True, separators=(",", ":")) + "|" + own


def _tensor(state: ThievesSpielState, player: int, perfect_recall: bool) -> np.ndarray:
    obs = ThievesObserver(state.get_game(), perfect_recall)
    obs.set_from(state, player)
    return obs.tensor


class ThievesObserver:
    """OpenSpiel's observer interface.

    ``observation``: what an agent sees in the wrappers (``Table.observe``). With
    perfect recall (the information state) also ``own_actions``: one number per step
    the seat may take (the game's length bound), the i-th being 1 + the token of its
    i-th own action, 0 for steps not taken yet. A shape query (player < 0) or a state
    before the deal writes zeros and sets nothing up."""

    def __init__(self, game: ThievesSpielGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = game.observation_size()
        self.tensor = np.zeros(size + (game.thieves_length if perfect_recall else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["own_actions"] = self.tensor[size:]

    def set_from(self, state: ThievesSpielState, player: int) -> None:
        self.tensor[:] = 0.0
        if player < 0 or not state._dealt():
            return
        play = state._play
        if play.table is None and not play.moves and play.world is None:
            # an untouched initial state (OpenSpiel's shape queries make one at every
            # tensor call from C++): its observation is the game's, kept per seat
            self.dict["observation"][:] = state.get_game().initial_observation(play.seed, player)
            return
        self.dict["observation"][:] = state.table.observe(player)
        if self.perfect_recall:
            own = state.own_moves(player)
            self.dict["own_actions"][:len(own)] = np.asarray(own, np.float32) + 1.0

    def string_from(self, state: ThievesSpielState, player: int) -> str:
        if self.perfect_recall:
            return information_state_string(state, player)
        return observation_string(state, player)


def resample(state: ThievesSpielState, player: int, seed: int) -> ThievesSpielState:
    """A state consistent with what ``player`` knows (``determinize``), with the same
    pieces of the action being built and the same moves: ISMCTS's resampler."""
    new: ThievesSpielState = state.clone()
    t = state.table
    det = t.state.determinize(player, seed)
    prefix = list(t.decision.prefix) if t.decision is not None else []
    new._play.world = (det, prefix, t.steps)
    new._play.table = _table_from(t.slug, t.num_players, det.clone(), prefix, t.steps)
    return new


_registered: set[str] = set()


def register(slugs: tuple[str, ...] = SLUGS) -> list[str]:
    """Register the games with OpenSpiel (once; done for all five on import); returns
    their short names."""
    names = []
    for slug in slugs:
        name = short_name(slug)
        if name not in _registered:
            cls = type(f"ThievesSpielGame_{slug.replace('-', '_')}", (ThievesSpielGame,), {"slug": slug})
            pyspiel.register_game(_game_type(slug), cls)
            _registered.add(name)
        names.append(name)
    return names


def load(slug: str, num_players: int, seed: int = 0, deals: int = 1) -> "pyspiel.Game":
    """Load one game (``pyspiel.load_game`` with its short name and parameters)."""
    register((slug,))
    return pyspiel.load_game(short_name(slug), {"players": num_players, "seed": seed, "deals": deals})


register()
