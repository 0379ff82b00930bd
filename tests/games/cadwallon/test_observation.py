"""The observation holds exactly the keys :class:`CadwallonObservation` declares, with
values of the declared types, for every seat and the spectator, all through real games."""
from __future__ import annotations

import types
import typing
from typing import Any, Union

import pytest

from thieves.games.cadwallon.observation import CadwallonObservation, CadwallonView, Chest

from .test_properties import walk

HINTS = typing.get_type_hints(CadwallonObservation)


def fits(value: Any, hint: Any) -> bool:
    """``value`` is of type ``hint`` (the plain types, lists, dicts, unions and TypedDicts
    the observation declares)."""
    if hint is Any:
        return True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        return any(fits(value, a) for a in args)
    if origin is list:
        return type(value) is list and all(fits(v, args[0]) for v in value)
    if origin is dict:
        return type(value) is dict and all(fits(k, args[0]) and fits(v, args[1]) for k, v in value.items())
    if typing.is_typeddict(hint):
        inner = typing.get_type_hints(hint)
        return type(value) is dict and set(value) == set(inner) and all(fits(value[k], inner[k]) for k in inner)
    if hint is type(None):
        return value is None
    if hint is float:
        return type(value) is float
    if hint is int:
        return type(value) is int
    return isinstance(value, hint)


def test_the_declaration_checks_what_it_declares() -> None:
    assert fits({"t": "red1", "sealed": False}, Chest)
    assert not fits({"t": "red1"}, Chest)
    assert not fits([1, "a"], list[int])
    assert fits(None, str | None) and not fits(True, int)
    assert set(CadwallonView.__required_keys__) < set(HINTS)


@pytest.mark.parametrize("n,seed,options", [(2, 3, {"gang_choice": "pick"}), (4, 8, {"gang_choice": "seat"})])
def test_observations_hold_exactly_the_declared_keys(n: int, seed: int, options: dict[str, Any] | None) -> None:
    checked = 0
    for i, st in enumerate(walk(n, seed, options=options)):
        if i % 9 and not st.is_terminal():
            continue
        for viewer in [*range(n), None]:
            obs = st.observation(viewer)
            assert set(obs) == set(HINTS), (set(obs) ^ set(HINTS))
            wrong = [k for k, hint in HINTS.items() if not fits(obs[k], hint)]
            assert not wrong, {k: obs[k] for k in wrong}
            checked += 1
    assert checked > 20
