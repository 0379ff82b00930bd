"""Corrupted data files in a --data-dir: always a clear DataError, never accepted or a crash."""
from __future__ import annotations

import copy
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from thieves.core.errors import DataError, GameSetupError
from thieves.core.registry import GAME_MODULES, load_game

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]


def data_files(slug: str) -> list[str]:
    root = resources.files(GAME_MODULES[slug]).joinpath("data")
    return sorted(p.name for p in root.iterdir() if p.name.endswith(".yaml") and p.name != "i18n.yaml")


def first_entry(node: Any) -> dict | None:
    """The first dict inside a list (an entry with fields)."""
    stack = [node]
    while stack:
        x = stack.pop(0)
        if isinstance(x, list):
            for item in x:
                if isinstance(item, dict):
                    return item
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
    return None


def first_list_with_ids(node: Any) -> list | None:
    stack = [node]
    while stack:
        x = stack.pop(0)
        if isinstance(x, list):
            if x and isinstance(x[0], dict) and "id" in x[0]:
                return x
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
    return None


def first_number(node: Any) -> tuple[Any, Any] | None:
    stack = [node]
    while stack:
        x = stack.pop(0)
        items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else []
        for k, v in items:
            if type(v) is int:
                return x, k
            stack.append(v)
    return None


def unknown_field(raw: Any) -> bool:
    e = first_entry(raw)
    if e is None:
        return False
    e["surely_not_a_field"] = 1
    return True


def duplicate_id(raw: Any) -> bool:
    lst = first_list_with_ids(raw)
    if not lst:
        return False
    lst.append(copy.deepcopy(lst[0]))
    return True


def absurd_number(raw: Any) -> bool:
    spot = first_number(raw)
    if spot is None:
        return False
    spot[0][spot[1]] = 10 ** 40
    return True


def empty_lists(raw: Any) -> bool:
    changed = False
    if isinstance(raw, dict):
        for k, v in raw.items():
            if isinstance(v, list) and v:
                raw[k] = []
                changed = True
    return changed


CORRUPTIONS: dict[str, Callable[[Any], bool]] = {
    "unknown field": unknown_field, "duplicate id": duplicate_id,
    "absurd number": absurd_number, "empty lists": empty_lists,
}
CASES = [(slug, f, c) for slug in SLUGS for f in data_files(slug) for c in CORRUPTIONS]


@pytest.mark.parametrize("slug,filename,corruption", CASES)
def test_corrupted_data_file_is_refused_clearly(slug: str, filename: str, corruption: str, tmp_path: Path) -> None:
    text = resources.files(GAME_MODULES[slug]).joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    if not CORRUPTIONS[corruption](raw):
        pytest.skip(f"{filename} has nothing to corrupt this way")
    (tmp_path / filename).write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    fresh = type(load_game(slug))()   # no cached data from other tests
    with pytest.raises((DataError, GameSetupError)) as err:
        state = fresh.new_game(fresh.min_players + (1 if fresh.max_players > fresh.min_players else 0), 1,
                               {"data_dir": str(tmp_path)})
        state.legal_actions(state.players_to_act()[0])
    assert filename in str(err.value) or corruption == "empty lists", str(err.value)
