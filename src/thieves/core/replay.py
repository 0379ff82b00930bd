"""The replay file format and replaying.

A replay is a JSON object::

    {"format": "thieves-replay/1", "game": "thiefs-market", "num_players": 4,
     "seed": 7, "options": {...}, "players": ["Ann", "random", ...],
     "actions": [[0, "take 3"], [1, "pass"], ...]}

``players`` names who sat in each seat (people or bots); it does not change
the game. ``"rng": "keyed"`` (absent: ``"splitmix"``) names the generator
the game was started with (``core/rng.py``). Replaying the actions on a new game with the same seed and
options gives the same game, always.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

from .errors import ThievesError
from .game import State
from .registry import load_game

FORMAT = "thieves-replay/1"


@dataclass
class Replay:
    game: str
    num_players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    actions: list[list[Any]] = field(default_factory=list)
    rng: str = "splitmix"

    @classmethod
    def of(cls, state: State, players: list[str] | None = None) -> "Replay":
        """The replay of everything played in ``state`` so far."""
        opts = {k: v for k, v in state.options.items() if v is not None}
        return cls(state.game.slug, state.num_players, state.seed, opts,
                   players or [state.player_name(p) for p in range(state.num_players)],
                   [list(a) for a in state.history], getattr(state, "rng_kind", "splitmix"))

    def to_json(self) -> str:
        d = {"format": FORMAT, "game": self.game, "num_players": self.num_players,
             "seed": self.seed, "options": self.options, "players": self.players,
             "actions": self.actions}
        if self.rng != "splitmix":  # older readers see the same file for old games
            d["rng"] = self.rng
        return json.dumps(d, indent=1)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Replay":
        """Read a replay file; anything malformed is a :class:`ThievesError` saying what."""
        from .snapshot import MAX_BYTES, MAX_DEPTH, _depth
        if len(text) > MAX_BYTES or _depth(text) > MAX_DEPTH:
            raise ThievesError("not a replay file: too large or nested too deep")
        try:
            d = json.loads(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ThievesError(f"not a replay file: {exc}") from None
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise ThievesError(f"not a replay file (format must be {FORMAT!r})")
        game, n, seed, actions = d.get("game"), d.get("num_players"), d.get("seed"), d.get("actions")
        if not isinstance(game, str):
            raise ThievesError("replay file: 'game' must be a game's name")
        if type(n) is not int or type(seed) is not int:
            raise ThievesError("replay file: 'num_players' and 'seed' must be integers")
        if not isinstance(d.get("options") or {}, dict) or not isinstance(d.get("players") or [], list):
            raise ThievesError("replay file: 'options' must be an object and 'players' a list")
        if not isinstance(actions, list):
            raise ThievesError("replay file: 'actions' must be a list of [seat, action]")
        for i, a in enumerate(actions):
            if not (isinstance(a, list) and len(a) == 2 and type(a[0]) is int and isinstance(a[1], str)):
                raise ThievesError(f"replay file: action {i + 1} must be [seat, action], not {str(a)[:60]}")
        rng = d.get("rng") or "splitmix"
        if not isinstance(rng, str):
            raise ThievesError("replay file: 'rng' must name the generator")
        players = [str(p) for p in d.get("players") or []]
        return cls(game, n, seed, dict(d.get("options") or {}), players, [list(a) for a in actions], rng)

    def start(self) -> State:
        return load_game(self.game).new_game(self.num_players, self.seed, self.options, rng=self.rng)

    def states(self) -> Iterator[State]:
        """The starting state, then the state after each action (one object, advanced)."""
        state = self.start()
        yield state
        for i, (player, action) in enumerate(self.actions):
            try:
                state.apply_action(player, action)
            except ThievesError as exc:
                raise ThievesError(f"replay action {i + 1} ({player}, {action!r}) failed: {exc}") from None
            yield state

    def final_state(self) -> State:
        state = None
        for state in self.states():
            pass
        assert state is not None
        return state
