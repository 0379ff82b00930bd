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
import sys
from bisect import bisect_left
from typing import Any, ClassVar, Iterable, Mapping, Self, TypedDict

from . import snapshot
from .data import read_yaml
from .parts import Research
from .errors import GameSetupError, IllegalAction
from .rng import RNG_KINDS, Below, Draws, KeyedRng, Rng, make_rng, rng_from_json
from .texts import Texts, flatten, make_event, seat_names, visible_event

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

    #: events that count as a seat using a component, for balance statistics
    #: (:mod:`thieves.bots.usage`): ``(event key, argument, category)``; the event's
    #: ``player`` argument is the seat, the public ``argument`` the component's id
    usage_events: ClassVar[tuple[tuple[str, str, str], ...]] = ()

    #: the game's presentation class (see :mod:`thieves.core.presentation`), if it has one
    presentation_class: ClassVar[type | None] = None
    #: the module with the game's ``measures(state)`` for ``thieves playtest`` (None: none)
    playtest: ClassVar[str | None] = None
    #: the seeded games recorded under tests/playthroughs: (players, seed)
    playthroughs: ClassVar[tuple[tuple[int, int], ...]] = ()
    #: what the research interfaces need of the game (core/parts.py)
    research: ClassVar[Research] = Research()

    def __init__(self) -> None:
        self._data_cache: dict[str | None, Any] = {}
        self._texts_cache: dict[str | None, Texts] = {}

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

    def texts(self, data_dir: str | None = None) -> Texts:
        """The game's texts (``data/i18n.yaml``, the user's copy first), cached."""
        if data_dir not in self._texts_cache:
            module = type(self).__module__
            # a game class defined in its package's __init__ lives in the package itself
            package = module if hasattr(sys.modules.get(module), "__path__") else module.rsplit(".", 1)[0]
            try:
                raw, _ = read_yaml(package, "i18n.yaml", data_dir)
            except Exception:  # noqa: BLE001 - a game without texts prints its keys
                raw = {}
            self._texts_cache[data_dir] = Texts(flatten(raw))
        return self._texts_cache[data_dir]

    def presentation(self, viewer: int | None, names: list[str] | None = None, lang: str = "en",
                     data_dir: str | None = None, layout: str = "wide") -> Any:
        """The game's presentation for one viewer (None where the game has none yet);
        ``layout`` is "wide" or "narrow" (a phone)."""
        cls = self.presentation_class
        if cls is None:
            return None
        return cls(self, viewer, names, lang, data_dir, layout=layout)

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

    def state_from_json(self, text: str | bytes | Mapping[str, Any]) -> "State":
        """Rebuild a state from :meth:`State.to_json` exactly (generator included).

        The snapshot is checked first (:mod:`thieves.core.snapshot`): a bad
        one raises :class:`GameSetupError` saying what is wrong."""
        d = snapshot.parse(text)
        snapshot.check_envelope(self, d)
        options = self.resolve_options(d["options"])
        kind = d.get("rng_kind", "splitmix")
        if kind not in RNG_KINDS:
            raise GameSetupError(f"unknown generator {kind!r}; generators are: {', '.join(RNG_KINDS)}")
        fresh = self.new_game(d["num_players"], d["seed"], options, rng=kind)
        snapshot.check_fields(fresh, d["fields"])
        value = d["rng"]
        if type(value) is int and not 0 <= value < 1 << 64:
            raise GameSetupError("rng must be the generator's 64-bit state")
        try:
            rng = rng_from_json(value)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise GameSetupError(f"rng is not a generator's state ({exc})") from None
        if (kind == "keyed") != (type(value) is dict):
            raise GameSetupError(f"rng does not hold the state of a {kind} generator")
        state = self.state_class.__new__(self.state_class)
        state._init(self, d["num_players"], d["seed"], options, kind)
        state.rng = rng
        state.ply = d["ply"]
        state.log = d["log"] if "log" in d else []
        state.history = d["history"]
        state.secret_steps = snapshot.check_secret_steps(d) if state.has_secret_steps else []
        fields = d["fields"]
        for f in self.state_class.FIELDS:
            setattr(state, f, fields[f])
        try:
            state._check_snapshot()
            state._after_load()
            snapshot.trial(state)
        except GameSetupError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bad snapshot must not crash later
            raise GameSetupError(f"the snapshot is not a consistent {self.name} position "
                                 f"({type(exc).__name__}: {str(exc)[:120]})") from None
        if "log" not in d or (state.has_secret_steps and "secret_steps" not in d and state.history):
            # an older snapshot of a game with secret steps did not mark them: replaying finds them
            try:
                again = self.replay(state)
            except Exception as exc:  # noqa: BLE001 - a history that does not replay
                raise GameSetupError(f"the snapshot's history does not replay ({type(exc).__name__}: "
                                     f"{str(exc)[:120]})") from None
            state.secret_steps = again.secret_steps
            if "log" not in d:
                state.log = again.log
        return state

    def replay(self, state: "State") -> "State":
        """The state's game played again from its seed and history (games are deterministic)."""
        again = self.new_game(state.num_players, state.seed, state.options, rng=state.rng_kind)
        for player, action in state.history:
            again.apply_action(player, action)
        return again

    def replay_log(self, state: "State") -> list[Any]:
        """Rebuild a state's event log from its seed and history (games are deterministic)."""
        return self.replay(state).log

    def describe(self) -> dict[str, Any]:
        return {"slug": self.slug, "name": self.name, "min_players": self.min_players,
                "max_players": self.max_players, "summary": self.summary,
                "options": [o.describe() for o in self.all_options()]}

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"


def _silent(*args: Any, **kwargs: Any) -> None:
    """Stands in for :meth:`State.event` on a muted state."""



class EngineKeys(TypedDict):
    """The keys the engine adds to every game's observation (:meth:`State.observation`);
    a game's observation type extends its own part with them."""

    game: str                   # the game's slug
    num_players: int
    ply: int                    # decisions made so far
    viewer: int | None          # whose observation this is; None for a spectator
    to_act: list[int]           # the seats to act now ([] at the end)
    terminal: bool
    log: list[dict[str, Any]]   # the events the viewer may read

class State:
    """A position of one game. See the module docstring for the contract."""

    #: attribute names holding the game-specific position (plain JSON data)
    FIELDS: ClassVar[tuple[str, ...]] = ()
    #: whether events are recorded (False on a muted copy, see :meth:`mute`)
    recording: bool = True
    #: whether :meth:`random_playout` hands ``_random_playout`` batched :class:`Draws`
    #: (a game that draws ahead in its own way turns it off)
    draws_ahead: ClassVar[bool] = True
    #: whether the game marks secret steps (it overrides :meth:`_secret_step`); set for each class
    has_secret_steps: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # a field must not hide the contract (e.g. a field named "event" or "log")
        reserved = set(dir(State)) | set(State.__annotations__) | {"_legal_cache"}
        clash = sorted(set(cls.FIELDS) & reserved)
        if clash:
            raise TypeError(f"{cls.__name__}.FIELDS hides engine attributes: {', '.join(clash)}")
        cls.has_secret_steps = cls._secret_step is not State._secret_step
        own = getattr(cls, "determinize")  # the game's own, maybe from a mixin
        if own is not State.determinize and not getattr(own, "_clears_cache", False):
            # a game's determinize re-deals hidden cards on a clone: the clone's
            # cached legal actions were those of the real deal, so they go
            def determinize(self: "State", player: int, seed: int, _own: Any = own) -> "State":
                new: State = _own(self, player, seed)
                new._legal_cache = None
                new.rng_kind = "keyed" if isinstance(new.rng, KeyedRng) else "splitmix"
                return new
            determinize.__doc__ = own.__doc__
            determinize._clears_cache = True  # type: ignore[attr-defined]
            cls.determinize = determinize  # type: ignore[method-assign,assignment]

    game: Game
    num_players: int
    seed: int
    options: dict[str, Any]
    data: Any
    rng: Rng
    #: the generator the game was started with ("splitmix" or "keyed"), kept for replays
    rng_kind: str
    ply: int
    #: event log: structured events ``{"key", "args", "ply", "to"?, "secret"?}``
    #: (see :mod:`thieves.core.texts`)
    log: list[dict[str, Any]]
    #: every accepted decision as ``[player, action]``
    history: list[Any]
    #: the indexes in :attr:`history` of the secret steps (see :meth:`_secret_step`), ascending
    secret_steps: list[int]
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
        self.secret_steps = []
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
        cache = self._legal_cache
        if cache is not None and cache[0] == self.ply and cache[1] == player and type(player) is int:
            legal = cache[2]  # listed at this very move for this seat: its turn was checked then
        else:
            if not self._is_player(player):
                raise IllegalAction(f"there is no player {player!r} in a {self.num_players}-player game")
            to_act = self._players_to_act()
            if player not in to_act:
                if self.is_terminal():
                    raise IllegalAction("the game is over")
                raise IllegalAction(
                    f"it is not player {player}'s turn (waiting for {', '.join(map(str, to_act))})")
            legal = self._legal_actions(player)
        if action not in legal:
            reason = self._explain(player, action)
            raise IllegalAction(reason or f"{action!r} is not legal now for player {player}")
        if self.has_secret_steps and self._secret_step(player, action):
            self.secret_steps.append(self.ply)
        self._apply(player, action)
        self.history.append([player, action])
        self.ply += 1
        self._legal_cache = None

    # -- the trusted fast path (search and simulation) ------------------------------
    def apply_trusted(self, player: int, action: str) -> None:
        """Apply ``action`` for ``player`` WITHOUT checking turn or legality.

        Only for actions that came from :meth:`legal_actions` of this very
        position (playouts, search); anything else may corrupt the state.
        Same effect as :meth:`apply_action` for a legal action."""
        if self.has_secret_steps and self._secret_step(player, action):
            self.secret_steps.append(self.ply)
        self._apply(player, action)
        self.history.append([player, action])
        self.ply += 1
        self._legal_cache = None

    def random_playout(self, rng: Rng, max_decisions: int = 1_000_000, keep_log: bool = False) -> int:
        """Play uniformly random legal decisions until the game ends (or after
        ``max_decisions``); returns the number of decisions played.

        ``rng`` picks the decisions (the state's own generator still rolls the
        game's chance). It plays exactly the moves of the checked loop::

            while not s.is_terminal():
                to_act = s.players_to_act()
                p = to_act[0] if len(to_act) == 1 else to_act[rng.below(len(to_act))]
                acts = s.legal_actions(p)
                s.apply_action(p, acts[rng.below(len(acts))])

        with one ``_players_to_act`` and one ``_legal_actions`` per decision.
        Unless ``keep_log``, the playout's events are not recorded (see
        :meth:`mute`): the history, chance, fields and scores are the same."""
        draws: Below = rng
        if type(rng) is Rng and rng is not self.rng and self.draws_ahead:
            draws = Draws(rng)   # the same draws, SplitMix64 mixed a batch at a time
        muted = not keep_log and self.recording
        if muted:
            self.mute()
        try:
            return self._random_playout(draws, max_decisions)
        finally:
            if muted:
                self.unmute()
            if isinstance(draws, Draws):
                draws.close()

    def mute(self) -> None:
        """Stop recording events on this state: a search's throwaway copy, whose log
        nobody reads, saves the work of building them. Moves, chance, fields and
        scores are unchanged; only :attr:`log` stops growing. Clones record again.
        A hot event whose arguments cost something to build may ask
        ``if self.recording:`` first."""
        self.__dict__["event"] = _silent
        self.__dict__["recording"] = False

    def unmute(self) -> None:
        """Record events again after :meth:`mute`."""
        for name in ("event", "recording"):
            self.__dict__.pop(name, None)

    def _random_playout(self, rng: Below, max_decisions: int) -> int:
        """The loop of :meth:`random_playout`; games with a cheaper turn structure override it.
        ``rng`` is the picking generator or its :class:`~thieves.core.rng.Draws` (only
        ``below`` is called)."""
        is_terminal = self._is_terminal
        players_to_act = self._players_to_act
        legal_actions = self._legal_actions
        apply = self._apply
        history = self.history
        below = rng.below
        secret = self._secret_step if self.has_secret_steps else None
        n = 0
        while n < max_decisions and not is_terminal():
            to_act = players_to_act()
            p = to_act[0] if len(to_act) == 1 else to_act[below(len(to_act))]
            acts = legal_actions(p)
            action = acts[below(len(acts))]
            if secret is not None and secret(p, action):
                self.secret_steps.append(self.ply)
            apply(p, action)
            history.append([p, action])
            self.ply += 1
            n += 1
        self._legal_cache = None
        return n

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
        obs = self.observation_without_log(player)
        obs["log"] = self._log_items(player)
        return obs

    #: per viewer, the observation's log made so far: (the log list it was made from,
    #: its length then, its last entry then, the items); see :meth:`_log_items`
    _log_views: dict[int | None, tuple[list[Any], int, Any, list[dict[str, Any]]]] | None = None

    def _log_items(self, player: int | None) -> list[dict[str, Any]]:
        """``self.visible_events(player)``, kept per viewer: a log only
        grows (its entries are never changed; a log read back or filtered is a new
        list), so each call reads only the entries added since the last one. The
        list is new each time; the items in it are shared between the calls of one
        viewer on one state, as their ``args`` already are with the log itself:
        consumers only read them (tests/core/test_observation_log.py)."""
        log = self.log
        views = self._log_views
        if views is None:
            views = self._log_views = {}
        kept = views.get(player)
        n = len(log)
        if kept is not None and kept[0] is log and kept[1] <= n and (
                kept[1] == 0 or log[kept[1] - 1] is kept[2]):
            items = kept[3]
            if kept[1] < n:
                items += self.visible_events(player, kept[1])
        else:
            items = self.visible_events(player)
        views[player] = (log, n, log[-1] if n else None, items)
        return items.copy()

    def observation_without_log(self, player: int | None = None) -> dict[str, Any]:
        """:meth:`observation` but its ``"log"`` (the last key), for callers that
        read the events of the log entries themselves (:meth:`visible_events`),
        e.g. only those of the entries they have not seen yet."""
        if player is not None and not self._is_player(player):
            raise IllegalAction(f"there is no player {player!r}")
        obs = self._observe(player)
        obs["game"] = self.game.slug
        obs["num_players"] = self.num_players
        obs["ply"] = self.public_ply
        obs["viewer"] = player
        obs["to_act"] = self._players_to_act()
        obs["terminal"] = self.is_terminal()
        return obs

    def visible_events(self, player: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The events from ``start`` on that ``player`` may read, secrets resolved:
        ``{"key", "args", "ply"}``."""
        out = []
        for entry in self.log[start:]:
            ev = visible_event(entry, player)
            if ev is not None:
                out.append(ev)
        return out

    def visible_log(self, player: int | None, start: int = 0, lang: str = "en",
                    names: list[str] | None = None) -> list[str]:
        """The events from ``start`` on that ``player`` may read, as lines of text."""
        texts = self.game.texts(self.options.get("data_dir"))
        seats = seat_names(self.num_players, names)
        return [texts.event(ev, lang, seats) for ev in self.visible_events(player, start)]

    # -- snapshots ---------------------------------------------------------------
    def to_dict(self, log: bool = True) -> dict[str, Any]:
        """The snapshot as data; ``log=False`` leaves the event log out (it is
        rebuilt from the history on load)."""
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
        if self.has_secret_steps:  # older snapshots have no such key (it is found again on load)
            d["secret_steps"] = self.secret_steps
        if self.rng_kind != "splitmix":  # older snapshots have no such key
            d["rng_kind"] = self.rng_kind
        if not log:
            del d["log"]
        return d

    def to_json(self) -> str:
        """An exact snapshot; :meth:`Game.state_from_json` restores it.

        Keys keep their order (no sorting): a restored state iterates its
        dicts, and so lists its legal actions, exactly as the original."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def clone(self) -> Self:
        """An independent copy: changing one never changes the other."""
        new = self._clone_contract()
        fields = self.FIELDS
        values = marshal.loads(marshal.dumps([getattr(self, f) for f in fields]))
        for f, v in zip(fields, values):
            setattr(new, f, v)
        new._after_load()
        return new

    def _clone_contract(self) -> Self:
        """A new state holding a copy of this one's engine attributes (not its
        :attr:`FIELDS`): the first half of :meth:`clone`, for games that copy their
        fields their own way."""
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
        new.secret_steps = self.secret_steps.copy()
        new._legal_cache = self._legal_cache
        return new

    def determinize(self, player: int, seed: int) -> Self:
        """A copy consistent with what ``player`` knows, for search bots.

        The default re-seeds the generator (the future is unknown to players);
        games with hidden cards override this to reshuffle what ``player``
        cannot see.
        """
        new = self.clone()
        new.rng = Rng.from_seed(seed)
        new.rng_kind = "splitmix"
        new._legal_cache = None
        return new

    # -- helpers for games ---------------------------------------------------------
    def event(self, key: str, to: list[int] | None = None, secret: Mapping[str, Any] | None = None,
              **args: Any) -> None:
        """Record an event as data: a template key and id arguments.

        ``to`` limits it to some players; with ``secret`` everybody sees the
        event, but only ``to`` reads the secret arguments (the others read
        the ``log.<key>.public`` template). See :mod:`thieves.core.texts`.
        """
        ply = self.ply - len(self.secret_steps)  # the public move number
        if to is None and not secret:  # a public event: make_event's shape, without its checks
            self.log.append({"key": key, "args": args, "ply": ply})
            return
        self.log.append(make_event(key, to, secret, args, ply))

    def last_decision(self, player: int | None) -> int:
        """The public move number of ``player``'s last decision, as events carry it
        (-1: none yet): the events after it have a greater ``ply``.
        A secret step has no number of its own: the events of the public step
        before it are after it (it counts as just after that step). A spectator,
        who decides nothing, is told of the last move that showed anybody
        anything: its events are the recent ones (what the table lights), not
        everything since the setup."""
        if player is None:
            for entry in reversed(self.log):
                ev = visible_event(entry, None)
                if ev is not None:
                    return int(ev.get("ply", 0)) - 1
            return -1
        for i in range(len(self.history) - 1, -1, -1):
            if self.history[i][0] == player:
                public = self.public_index(i)
                return public - 1 if self.is_secret_step(i) else public
        return -1

    # -- secret simultaneous phases ------------------------------------------------
    def _secret_step(self, player: int, action: str) -> bool:
        """Whether ``player``'s legal ``action``, about to be applied, is a *secret step*:
        a decision inside a secret simultaneous phase whose effects no other seat sees
        until the seat's public step (e.g. "done") ends its part of the phase.

        Override in a game with such a phase (e.g. planning behind a screen). A
        secret step records no event for the others and changes nothing they
        observe; it does not advance the public move number (:attr:`public_ply`),
        so what the others see is the same whatever the seat's secret
        sub-decisions were (the conformance kit checks it). Called only with a
        legal action, before it is applied; keep it cheap (playouts call it)."""
        return False

    @property
    def public_ply(self) -> int:
        """The public move number: the decisions so far less the secret steps. Every
        observation (``"ply"``) and event carries it."""
        return self.ply - len(self.secret_steps)

    def is_secret_step(self, index: int) -> bool:
        """Whether the decision ``history[index]`` was a secret step."""
        steps = self.secret_steps
        k = bisect_left(steps, index)
        return k < len(steps) and steps[k] == index

    def public_index(self, index: int) -> int:
        """The public move number when ``history[index]`` was decided (the public steps before it)."""
        return index - bisect_left(self.secret_steps, index)

    def ply_of_public(self, public: int) -> int:
        """The number of decisions right after the ``public``-th public one (the
        position a finished game's replay shows for public move number ``public``)."""
        n, seen = 0, 0
        steps = self.secret_steps
        while n < self.ply and seen < public:
            if not (steps and self.is_secret_step(n)):
                seen += 1
            n += 1
        return n

    def shown_ply(self, player: int | None) -> int:
        """The decisions ``player`` knows of: the public ones and their own secret steps
        (a spectator: the public ones). It grows with each of the player's own
        decisions, so a client can say which position it chose at."""
        steps = self.secret_steps
        n = self.ply - len(steps)
        if player is not None and steps:
            history = self.history
            n += sum(1 for i in steps if history[i][0] == player)
        return n

    def in_secret_phase(self, player: int) -> bool:
        """Whether ``player`` is to act inside a secret simultaneous phase: it, or
        another seat, may take a secret step now."""
        if not self.has_secret_steps or player not in self._players_to_act():
            return False
        return (any(self._secret_step(player, a) for a in self.legal_actions(player))
                or self.others_in_secret_phase(player))

    def is_secret_action(self, player: int, action: str) -> bool:
        """Whether ``player``'s legal ``action`` would be a secret step here."""
        return self.has_secret_steps and self._secret_step(player, action)

    def others_in_secret_phase(self, player: int) -> bool:
        """Whether another seat may take a secret step now (what ``player`` may do
        must then not depend on whether it did, e.g. an undo)."""
        if not self.has_secret_steps:
            return False
        for q in self._players_to_act():
            if q != player and any(self._secret_step(q, a) for a in self.legal_actions(q)):
                return True
        return False

    def player_name(self, p: int) -> str:
        return f"Player {p + 1}"

    def _is_player(self, player: Any) -> bool:
        return type(player) is int and 0 <= player < self.num_players

    def _explain(self, player: int, action: str) -> str | None:
        return None

    def _check_snapshot(self) -> None:
        """Refuse loaded fields outside the game's bounds (raise GameSetupError);
        the generic checks of :mod:`thieves.core.snapshot` have already run."""

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

    # -- table hooks (optional) ---------------------------------------------------
    def reaction_pass(self, player: int) -> str | None:
        """When ``player``'s decision now answers another player's move (a reaction
        window: an interrupt, a card against a roll), the legal answer that lets it go
        by; None otherwise (the default: the game has no reaction windows). A table
        gives this answer for a player who switched reactions off ("not this round").
        Decided only from what every player can see, never from a hand."""
        return None

    def reaction_round(self) -> int | None:
        """The round "not this round" lasts for: reactions come back when it changes
        (None: the game has no rounds, the setting lasts until switched back)."""
        return None

    # -- presentation hooks (optional) -------------------------------------------
    def describe_action(self, action: str) -> str:
        """A longer description of an action for people (defaults to the notation)."""
        return action

    def render_text(self, player: int | None) -> str:
        """A plain-text summary of the position as ``player`` sees it."""
        return json.dumps(self.observation(player), indent=1)

    def __repr__(self) -> str:
        return f"<{self.game.slug} state ply={self.ply} to_act={self._players_to_act()}>"


def engine_observes(state: State) -> bool:
    """The state's observation is the engine's own: its ``"log"`` is
    :meth:`State.visible_events`, so a caller may take the observation without
    its log and read only the events it has not seen yet."""
    cls = type(state)
    return (cls.observation is State.observation and cls.visible_events is State.visible_events
            and cls.observation_without_log is State.observation_without_log)
