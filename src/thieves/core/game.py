"""The engine contract shared by every game.

A :class:`Game` describes one board game (its rules, player counts, options
and component data) and makes :class:`State` objects. A state is a small
explicit state machine in the style of OpenSpiel: it says who must act
(:meth:`State.players_to_act`), what they may do (:meth:`State.legal_actions`,
short notation strings) and changes by :meth:`State.apply_action`.

How a game plugs in
-------------------
A game subclasses :class:`Game` and :class:`State`:

* ``State.FIELDS`` names the attributes that hold the game's whole position.
  They hold plain JSON data only (dict with ``str`` keys, list, str, int,
  float, bool, None) so that copying and serializing are cheap and exact.
* ``State._setup()`` builds the starting position (``self.rng`` is ready).
* ``State._players_to_act()``, ``State._legal_actions(p)``,
  ``State._apply(p, action)`` (called only with a legal action),
  ``State._observe(p)``, ``State._scores()``, ``State._winners()``.
* Optionally ``State._explain(p, action)`` for a precise reason why an
  action is illegal, and ``State.determinize(p, seed)`` when the game has
  hidden information other than the future of the random generator.

The base class checks turns and legality before ``_apply`` runs, so an
illegal action never changes anything.
"""
from __future__ import annotations

import json
import marshal
from typing import Any, ClassVar, Iterable, Mapping

from .errors import GameSetupError, IllegalAction
from .rng import RNG_KINDS, Rng, make_rng, rng_from_json

JSON = Any


class Option:
    """One documented game option with its default and allowed values."""

    __slots__ = ("name", "default", "choices", "help", "kind")

    def __init__(self, name: str, default: Any, help: str, choices: Iterable[Any] | None = None,
                 kind: type | None = None) -> None:
        self.name = name
        self.default = default
        self.help = help
        self.choices = list(choices) if choices is not None else None
        self.kind = kind if kind is not None else type(default)

    def check(self, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise GameSetupError(
                    f"option {self.name!r} must be one of {self.choices}, not {value!r}")
            return value
        if self.kind is bool and not isinstance(value, bool):
            raise GameSetupError(f"option {self.name!r} must be true or false, not {value!r}")
        if self.kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise GameSetupError(f"option {self.name!r} must be an integer, not {value!r}")
        if self.kind is str and value is not None and not isinstance(value, str):
            raise GameSetupError(f"option {self.name!r} must be a string, not {value!r}")
        return value

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "default": self.default, "choices": self.choices,
                "help": self.help, "type": self.kind.__name__}


DATA_DIR_OPTION = Option(
    "data_dir", None,
    "Directory of your own component data files; each file found there replaces "
    "the shipped one of the same name, after the same validation.", kind=str)


class Game:
    """One board game: its rules, player counts, options and data.

    Subclasses set the class attributes and ``state_class``.
    """

    slug: ClassVar[str] = ""
    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    options: ClassVar[tuple[Option, ...]] = ()
    state_class: ClassVar[type["State"]]
    #: a one-line status for the README and the lobby
    summary: ClassVar[str] = ""
    #: True where the rules let a game end with nobody winning (``winners() == []``)
    all_may_lose: ClassVar[bool] = False

    def __init__(self) -> None:
        self._data_cache: dict[str | None, Any] = {}

    # -- options and data -------------------------------------------------
    def all_options(self) -> tuple[Option, ...]:
        return self.options + (DATA_DIR_OPTION,)

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and check every option; unknown names are an error."""
        known = {o.name: o for o in self.all_options()}
        given = dict(options or {})
        for key in given:
            if key not in known:
                raise GameSetupError(
                    f"{self.name} has no option {key!r}; options are: {', '.join(sorted(known))}")
        return {name: opt.check(given.get(name, opt.default)) for name, opt in known.items()}

    def data(self, data_dir: str | None = None) -> Any:
        """The game's validated component data (cached per data directory)."""
        if data_dir not in self._data_cache:
            self._data_cache[data_dir] = self.load_data(data_dir)
        return self._data_cache[data_dir]

    def load_data(self, data_dir: str | None) -> Any:
        """Load and validate the component data; games with data override this."""
        return None

    # -- making states ------------------------------------------------------
    def new_game(self, num_players: int, seed: int = 0, options: Mapping[str, Any] | None = None,
                 rng: str = "splitmix") -> "State":
        """Start a game. Raises :class:`GameSetupError` for a bad count or option.

        ``rng`` picks the generator (``core/rng.py``): "splitmix" (fast, the
        default) or "keyed" (unguessable with a seed of 128+ random bits, for
        games people play against each other on a server).
        """
        if not isinstance(num_players, int) or isinstance(num_players, bool):
            raise GameSetupError("the number of players must be an integer")
        if not self.min_players <= num_players <= self.max_players:
            raise GameSetupError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {num_players}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise GameSetupError("the seed must be an integer")
        if rng not in RNG_KINDS:
            raise GameSetupError(f"unknown generator {rng!r}; generators are: {', '.join(RNG_KINDS)}")
        opts = self.resolve_options(options)
        self.check_options(num_players, opts)
        state = self.state_class.__new__(self.state_class)
        state._init(self, num_players, seed, opts, rng)
        state._setup()
        return state

    def check_options(self, num_players: int, options: dict[str, Any]) -> None:
        """Reject option combinations the rules do not allow (override)."""

    def state_from_json(self, text: str | Mapping[str, Any]) -> "State":
        """Rebuild a state from :meth:`State.to_json` exactly (generator included)."""
        d = json.loads(text) if isinstance(text, (str, bytes)) else dict(text)
        if d.get("game") != self.slug:
            raise GameSetupError(f"this snapshot is of {d.get('game')!r}, not {self.slug!r}")
        state = self.state_class.__new__(self.state_class)
        state._init(self, d["num_players"], d["seed"], self.resolve_options(d["options"]),
                    d.get("rng_kind", "splitmix"))
        state.rng = rng_from_json(d["rng"])
        state.ply = d["ply"]
        state.log = d["log"]
        state.history = d["history"]
        fields = d["fields"]
        for f in self.state_class.FIELDS:
            setattr(state, f, fields[f])
        state._after_load()
        return state

    def describe(self) -> dict[str, Any]:
        return {"slug": self.slug, "name": self.name, "min_players": self.min_players,
                "max_players": self.max_players, "summary": self.summary,
                "options": [o.describe() for o in self.all_options()]}

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"


class State:
    """A position of one game. See the module docstring for the contract."""

    #: attribute names holding the game-specific position (plain JSON data)
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # a field must not hide the contract (e.g. a field named "event" or "log")
        reserved = set(dir(State)) | set(State.__annotations__) | {"_legal_cache"}
        clash = sorted(set(cls.FIELDS) & reserved)
        if clash:
            raise TypeError(f"{cls.__name__}.FIELDS hides engine attributes: {', '.join(clash)}")

    game: Game
    num_players: int
    seed: int
    options: dict[str, Any]
    data: Any
    rng: Rng
    #: the generator the game was started with ("splitmix" or "keyed"), kept for replays
    rng_kind: str
    ply: int
    #: event log: ``[visible_to, text]`` where visible_to is None (everyone) or a list of players
    log: list
    #: every accepted decision as ``[player, action]``
    history: list
    #: ``(ply, player, actions)`` of the last ``legal_actions`` call; code that edits
    #: fields directly (tests building a position) must reset it to None
    _legal_cache: tuple[int, int, list[str]] | None

    # -- construction ---------------------------------------------------------
    def _init(self, game: Game, num_players: int, seed: int, options: dict[str, Any],
              rng_kind: str = "splitmix") -> None:
        self.game = game
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.data = game.data(options.get("data_dir"))
        self.rng_kind = rng_kind
        self.rng = make_rng(rng_kind, seed)
        self.ply = 0
        self.log = []
        self.history = []
        self._legal_cache: tuple[int, int, list[str]] | None = None

    def _setup(self) -> None:
        raise NotImplementedError

    def _after_load(self) -> None:
        """Rebuild derived, non-serialized caches after loading or cloning."""

    # -- the contract ------------------------------------------------------------
    def players_to_act(self) -> list[int]:
        """Players who must decide now (several at once for simultaneous choices)."""
        return self._players_to_act()

    def legal_actions(self, player: int) -> list[str]:
        """Legal actions of ``player`` now, in a stable order (empty if not to act)."""
        cache = self._legal_cache
        if cache is not None and cache[0] == self.ply and cache[1] == player:
            return list(cache[2])
        if not self._is_player(player) or player not in self._players_to_act():
            return []
        acts = self._legal_actions(player)
        self._legal_cache = (self.ply, player, acts)
        return list(acts)

    def apply_action(self, player: int, action: str) -> None:
        """Apply one decision. Illegal input raises :class:`IllegalAction` and changes nothing."""
        if type(action) is not str:
            raise IllegalAction(f"an action is a notation string, not {type(action).__name__}")
        if not self._is_player(player):
            raise IllegalAction(f"there is no player {player!r} in a {self.num_players}-player game")
        to_act = self._players_to_act()
        if player not in to_act:
            if self.is_terminal():
                raise IllegalAction("the game is over")
            raise IllegalAction(
                f"it is not player {player}'s turn (waiting for {', '.join(map(str, to_act))})")
        cache = self._legal_cache
        if cache is not None and cache[0] == self.ply and cache[1] == player:
            legal = cache[2]
        else:
            legal = self._legal_actions(player)
        if action not in legal:
            reason = self._explain(player, action)
            raise IllegalAction(reason or f"{action!r} is not legal now for player {player}")
        self._apply(player, action)
        self.history.append([player, action])
        self.ply += 1
        self._legal_cache = None

    def is_terminal(self) -> bool:
        return self._is_terminal()

    def scores(self) -> list[float]:
        """Current score of every player (final scores once terminal)."""
        return self._scores()

    def winners(self) -> list[int]:
        """Winning players with tie-breakers applied (several on a shared victory)."""
        if not self.is_terminal():
            return []
        return self._winners()

    def observation(self, player: int | None = None) -> dict[str, Any]:
        """JSON-safe view of what ``player`` may know; ``None`` is a spectator."""
        if player is not None and not self._is_player(player):
            raise IllegalAction(f"there is no player {player!r}")
        obs = self._observe(player)
        obs["game"] = self.game.slug
        obs["num_players"] = self.num_players
        obs["ply"] = self.ply
        obs["viewer"] = player
        obs["to_act"] = self._players_to_act()
        obs["terminal"] = self.is_terminal()
        obs["log"] = self.visible_log(player)
        return obs

    def visible_log(self, player: int | None, start: int = 0) -> list[str]:
        """Event texts from ``start`` on that ``player`` may read."""
        return [text for to, text in self.log[start:] if to is None or (player is not None and player in to)]

    # -- snapshots ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = {
            "game": self.game.slug,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": self.options,
            "rng": self.rng.to_json(),
            "ply": self.ply,
            "log": self.log,
            "history": self.history,
            "fields": {f: getattr(self, f) for f in self.FIELDS},
        }
        if self.rng_kind != "splitmix":  # older snapshots have no such key
            d["rng_kind"] = self.rng_kind
        return d

    def to_json(self) -> str:
        """An exact snapshot; :meth:`Game.state_from_json` restores it."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    def clone(self) -> "State":
        """An independent copy: changing one never changes the other."""
        new = self.__class__.__new__(self.__class__)
        new.game = self.game
        new.num_players = self.num_players
        new.seed = self.seed
        new.options = self.options  # never mutated after setup
        new.data = self.data        # immutable component data, shared
        new.rng_kind = self.rng_kind
        new.rng = self.rng.copy()
        new.ply = self.ply
        new.log = self.log.copy()   # entries are never mutated
        new.history = self.history.copy()
        new._legal_cache = self._legal_cache
        fields = self.FIELDS
        values = marshal.loads(marshal.dumps([getattr(self, f) for f in fields]))
        for f, v in zip(fields, values):
            setattr(new, f, v)
        new._after_load()
        return new

    def determinize(self, player: int, seed: int) -> "State":
        """A copy consistent with what ``player`` knows, for search bots.

        The default re-seeds the generator (the future is unknown to players);
        games with hidden cards override this to reshuffle what ``player``
        cannot see.
        """
        new = self.clone()
        new.rng = Rng.from_seed(seed)
        return new

    # -- helpers for games ---------------------------------------------------------
    def event(self, text: str, to: list[int] | None = None) -> None:
        """Record an event in words; ``to`` limits it to some players."""
        self.log.append([to, text])

    def player_name(self, p: int) -> str:
        return f"Player {p + 1}"

    def _is_player(self, player: Any) -> bool:
        return type(player) is int and 0 <= player < self.num_players

    def _explain(self, player: int, action: str) -> str | None:
        return None

    def _winners(self) -> list[int]:
        """Default: highest score wins, ties shared (games add tie-breakers)."""
        sc = self._scores()
        best = max(sc)
        return [p for p, s in enumerate(sc) if s == best]

    # -- to implement ------------------------------------------------------------------
    def _players_to_act(self) -> list[int]:
        raise NotImplementedError

    def _legal_actions(self, player: int) -> list[str]:
        raise NotImplementedError

    def _apply(self, player: int, action: str) -> None:
        raise NotImplementedError

    def _is_terminal(self) -> bool:
        raise NotImplementedError

    def _scores(self) -> list[float]:
        raise NotImplementedError

    def _observe(self, player: int | None) -> dict[str, Any]:
        raise NotImplementedError

    # -- presentation hooks (optional) -------------------------------------------
    def describe_action(self, action: str) -> str:
        """A longer description of an action for people (defaults to the notation)."""
        return action

    def render_text(self, player: int | None) -> str:
        """A plain-text summary of the position as ``player`` sees it."""
        return json.dumps(self.observation(player), indent=1)

    def __repr__(self) -> str:
        return f"<{self.game.slug} state ply={self.ply} to_act={self._players_to_act()}>"
