"""A runtime check of a value against a ``TypedDict`` (docs/engine.md, "Typed
observations"): every required key present, optional ones allowed, no other
key, each value of its declared type, recursively. Each type is read once
into a checking function (kept), so whole games of observations check fast."""
from __future__ import annotations

import functools
import types
import typing
from typing import Any, Callable, Literal, NotRequired, Required, Union, get_args, get_origin, is_typeddict

#: a type's check: ``(value, where) -> what is wrong`` (empty: nothing)
Check = Callable[[Any, str], list[str]]


def mismatches(value: Any, tp: Any, where: str = "obs") -> list[str]:
    """Where ``value`` is not of type ``tp`` (empty: it is). Knows what an
    observation holds: TypedDicts, ``list``, ``dict``, ``Literal``, unions,
    ``None``, ``int`` (not ``bool``), ``float``, ``bool``, ``str`` and ``Any``."""
    return checker(tp)(value, where)


@functools.cache
def checker(tp: Any) -> Check:
    """The check of ``tp`` (TypeError for a type it does not know)."""
    origin, args = get_origin(tp), get_args(tp)
    if tp is Any:
        return lambda value, where: []
    if tp is None or tp is type(None):
        return lambda value, where: [] if value is None else [f"{where}: {value!r} is not None"]
    if origin in (NotRequired, Required):
        return checker(args[0])
    if origin is Literal:
        allowed = {(type(a), a) for a in args}
        return lambda value, where: [] if (type(value), value) in allowed else \
            [f"{where}: {value!r} is not one of {args}"]
    if origin in (Union, types.UnionType):
        branches = [checker(a) for a in args]
        return lambda value, where: [] if any(not b(value, where) for b in branches) else \
            [f"{where}: {value!r} is none of {args}"]
    if is_typeddict(tp):
        return _typed_dict(tp)
    if origin is list:
        item = checker(args[0])
        return lambda value, where: [f"{where}: {type(value).__name__}, not a list"] if type(value) is not list \
            else [m for i, v in enumerate(value) for m in item(v, f"{where}[{i}]")]
    if origin is dict:
        key, val = checker(args[0]), checker(args[1])
        return lambda value, where: [f"{where}: {type(value).__name__}, not a dict"] if type(value) is not dict \
            else [m for k, v in value.items() for m in key(k, f"{where} key {k!r}") + val(v, f"{where}[{k!r}]")]
    if tp is float:
        return lambda value, where: [] if type(value) in (int, float) else [f"{where}: {value!r} is not a number"]
    if tp in (int, bool, str):   # exactly: True is no count
        return lambda value, where: [] if type(value) is tp else [f"{where}: {value!r} is not {tp.__name__}"]
    raise TypeError(f"the check does not know the type {tp!r}")


def _typed_dict(tp: Any) -> Check:
    required, optional = tp.__required_keys__, tp.__optional_keys__
    fields = {k: checker(t) for k, t in typing.get_type_hints(tp, include_extras=True).items()}
    name = tp.__name__

    def check(value: Any, where: str) -> list[str]:
        if type(value) is not dict:
            return [f"{where}: {type(value).__name__}, not a dict ({name})"]
        keys = value.keys()
        out = [f"{where}: key {k!r} is not declared in {name}" for k in keys - required - optional]
        out += [f"{where}: required key {k!r} of {name} is missing" for k in required - keys]
        for k in keys & fields.keys():
            out += fields[k](value[k], f"{where}[{k!r}]")
        return out
    return check


def assert_keys(value: dict[str, Any], shape: Any, where: str) -> set[str]:
    """The keys of ``value`` are exactly ``shape``'s (a ``TypedDict``: every
    required one, optional ones allowed, nothing else); returns the optional
    keys met."""
    keys = set(value)
    missing = shape.__required_keys__ - keys
    extra = keys - shape.__required_keys__ - shape.__optional_keys__
    assert not missing and not extra, f"{where}: missing {sorted(missing)}, undeclared {sorted(extra)}"
    return keys & shape.__optional_keys__


def seeded_observations(game: Any, n: int, seed: int) -> typing.Iterator[tuple[dict[str, Any], str]]:
    """Every viewer's observation (the spectator's too) at every position of a
    seeded random game of ``n`` players, its end included, with where it was."""
    from thieves.core.rng import Rng
    s = game.new_game(n, seed)
    rng = Rng.from_seed(seed)
    while True:
        for viewer in [None, *range(n)]:
            yield s.observation(viewer), f"{n} players, ply {s.ply}, viewer {viewer}"
        if s.is_terminal():
            return
        to_act = s.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[rng.below(len(acts))])
