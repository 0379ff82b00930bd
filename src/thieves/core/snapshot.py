"""Checking a snapshot before a state is built from it.

A snapshot (:meth:`State.to_json`) may come from a file a person edited or
from someone hostile. Before any game code sees it, this module checks:

* its size and nesting depth (a bomb is refused before it is parsed whole);
* the envelope: the game, a player count the game allows, a seed, known
  options, the generator, the move number and a history of
  ``[seat, notation]`` pairs that matches it;
* the fields: exactly the game's ``FIELDS``, each of the same JSON kind as in
  a freshly set-up game (a list stays a list, a number a number), with
  numbers of a sane size and lists of a sane length;
* then the game's own bounds (:meth:`State._check_snapshot`), a game's
  ``SNAPSHOT_MAX_INT`` (the largest number its fields may hold, so that no count
  makes a loop run for ever);
* last, a trial of the next decision (:func:`trial`): every view, the legal
  actions of each seat to act, and some of them applied to copies.

Every refusal is a :class:`GameSetupError` that says what is wrong.
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Protocol

from .errors import GameSetupError

MAX_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 24
MAX_INT = 1 << 64
MAX_ITEMS = 200_000
ENVELOPE = ("game", "num_players", "seed", "options", "rng", "ply", "history", "fields")


def parse(text: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """The snapshot as a dict, refusing what is too large, too deep or not JSON."""
    if isinstance(text, Mapping):
        d = dict(text)
    elif isinstance(text, (str, bytes)):
        if len(text) > MAX_BYTES:
            raise GameSetupError(f"the snapshot is larger than {MAX_BYTES // (1024 * 1024)} MB")
        if _depth(text) > MAX_DEPTH:
            raise GameSetupError(f"the snapshot is nested deeper than {MAX_DEPTH} levels")
        try:
            d = json.loads(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise GameSetupError(f"the snapshot is not valid JSON: {exc}") from None
    else:
        raise GameSetupError(f"a snapshot is JSON text or a mapping, not {type(text).__name__}")
    if not isinstance(d, dict):
        raise GameSetupError("a snapshot is a JSON object")
    return d


def _depth(text: str | bytes) -> int:
    """The deepest nesting of brackets outside strings (a cheap scan)."""
    s = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    depth = best = 0
    in_str = esc = False
    for ch in s:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > best:
                best = depth
                if best > MAX_DEPTH:
                    return best
        elif ch in "]}":
            depth -= 1
    return best


def _is_int(x: Any) -> bool:
    return type(x) is int


class GameBounds(Protocol):
    """What the envelope is checked against (a :class:`~thieves.core.game.Game`)."""

    @property
    def slug(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...


def check_envelope(game: GameBounds, d: dict[str, Any]) -> None:
    missing = [k for k in ENVELOPE if k not in d]
    if missing:
        raise GameSetupError(f"the snapshot lacks {', '.join(missing)}")
    if d["game"] != game.slug:
        raise GameSetupError(f"this snapshot is of {d['game']!r}, not {game.slug!r}")
    n = d["num_players"]
    if not _is_int(n) or not game.min_players <= n <= game.max_players:
        raise GameSetupError(f"num_players must be {game.min_players} to {game.max_players}, not {n!r}")
    if not _is_int(d["seed"]):
        raise GameSetupError("seed must be an integer")
    if not isinstance(d["options"], dict):
        raise GameSetupError("options must be an object")
    ply, history = d["ply"], d["history"]
    if not _is_int(ply) or ply < 0:
        raise GameSetupError("ply must be a whole number")
    if not isinstance(history, list) or len(history) != ply:
        raise GameSetupError(f"history must list the {ply} decisions made so far")
    for i, entry in enumerate(history):
        if (not isinstance(entry, list) or len(entry) != 2 or not _is_int(entry[0])
                or not 0 <= entry[0] < n or not isinstance(entry[1], str) or len(entry[1]) > 10_000):
            raise GameSetupError(f"history[{i}] must be [seat, action], not {str(entry)[:80]}")
    if "log" in d and not (isinstance(d["log"], list) and all(isinstance(e, dict) for e in d["log"])):
        raise GameSetupError("log must be a list of events")
    if not isinstance(d["fields"], dict):
        raise GameSetupError("fields must be an object")


def _kind(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, (int, float)):
        return "number"
    if isinstance(x, str):
        return "str"
    if isinstance(x, list):
        return "list"
    if isinstance(x, dict):
        return "object"
    return type(x).__name__


def _sane(value: Any, where: str, budget: list[int], max_int: int = MAX_INT) -> None:
    """Numbers of a sane size, strings and lists of a sane length, all JSON."""
    stack = [(value, where)]
    while stack:
        x, at = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise GameSetupError(f"the snapshot's fields hold more than {MAX_ITEMS} values")
        if isinstance(x, bool) or x is None or isinstance(x, str):
            if isinstance(x, str) and len(x) > 10_000:
                raise GameSetupError(f"{at}: a text of {len(x)} characters")
        elif isinstance(x, int):
            if abs(x) >= max_int:
                raise GameSetupError(f"{at}: the number {x} is out of range")
        elif isinstance(x, float):
            if x != x or abs(x) == float("inf"):
                raise GameSetupError(f"{at}: not a finite number")
        elif isinstance(x, list):
            stack.extend((v, f"{at}[{i}]") for i, v in enumerate(x))
        elif isinstance(x, dict):
            stack.extend((v, f"{at}.{k}") for k, v in x.items())
        else:
            raise GameSetupError(f"{at}: not JSON data")


def check_fields(fresh: Any, fields: dict[str, Any]) -> None:
    """The fields are exactly the game's, each of the same JSON kind as in
    a freshly set-up game (``null`` may stand for anything and anything for
    ``null``: a game may leave a field empty until it is used)."""
    names = type(fresh).FIELDS
    unknown = sorted(set(fields) - set(names))
    missing = [f for f in names if f not in fields]
    if unknown:
        raise GameSetupError(f"unknown fields: {', '.join(unknown)[:200]}")
    if missing:
        raise GameSetupError(f"missing fields: {', '.join(missing)[:200]}")
    budget = [MAX_ITEMS]
    max_int = getattr(type(fresh), "SNAPSHOT_MAX_INT", MAX_INT)
    for name in names:
        value = fields[name]
        _sane(value, name, budget, max_int)
        want, got = _kind(getattr(fresh, name)), _kind(value)
        if want != got and "null" not in (want, got):
            raise GameSetupError(f"field {name} must be a {want}, not a {got}")


#: how many legal actions of each seat :func:`trial` applies (spread over the list)
TRIAL_ACTIONS = 8


def trial(state: Any) -> None:
    """Use a loaded state as a player would next: every seat's view, the scores, the
    legal actions of each seat to act, and up to :data:`TRIAL_ACTIONS` of them applied
    to copies (with the legal actions that follow). A malformed snapshot that the
    checks above let through fails here, while loading, rather than in a later call."""
    state._observe(None)
    for p in range(state.num_players):
        state._observe(p)
    state._scores()
    if state._is_terminal():
        state._winners()
        return
    for p in state._players_to_act():
        legal = state._legal_actions(p)
        step = max(1, len(legal) // TRIAL_ACTIONS)
        for action in legal[::step][:TRIAL_ACTIONS]:
            copy = state.clone()
            copy.apply_trusted(p, action)
            copy._is_terminal()
            for q in copy._players_to_act():
                copy._legal_actions(q)
def check_secret_steps(d: dict[str, Any]) -> list[int]:
    """The snapshot's ``secret_steps`` (indexes of the history's secret steps,
    ascending); an older snapshot without them gets an empty list."""
    steps = d.get("secret_steps", [])
    if not isinstance(steps, list) or len(steps) > d["ply"]:
        raise GameSetupError("secret_steps must list indexes of the history")
    last = -1
    for i in steps:
        if not _is_int(i) or not last < i < d["ply"]:
            raise GameSetupError("secret_steps must list indexes of the history, ascending")
        last = i
    return list(steps)
