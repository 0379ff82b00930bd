"""The examples in the docstrings run as written."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "thieves",
    "thieves.core.rng",
    "thieves.bots.stats",
    "thieves.bots.match",
    "thieves.bots.tournament",
    "thieves.games.thiefdom.notation",
    "thieves.games.cadwallon.notation",
    "thieves.games.thieves_den.notation",
    "thieves.games.age_of_thieves.notation",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples any more: drop it from the list"
    assert result.failed == 0
