"""Corrupted data files in a --data-dir: always a clear DataError, never accepted or a crash."""
from __future__ import annotations

import copy
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from thieves.core.data import load_yaml
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


# -- YAML tricks: alias bombs and keys given twice ------------------------------------
ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
    for p, c in zip("abcdefgh", "bcdefghi"))


def fresh_game(slug: str) -> Any:
    return type(load_game(slug))()   # no cached data from other tests


@pytest.mark.parametrize("slug", SLUGS)
def test_an_alias_bomb_is_refused_at_once(slug: str, tmp_path: Path) -> None:
    import time
    filename = data_files(slug)[0]
    (tmp_path / filename).write_text(ALIAS_BOMB, encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(DataError, match="aliases") as err:
        fresh_game(slug).load_data(str(tmp_path))
    assert filename in str(err.value)
    assert time.perf_counter() - start < 2


def test_thieves_data_check_refuses_an_alias_bomb(tmp_path: Path) -> None:
    from thieves.cli import data as cli_data
    (tmp_path / "cards.yaml").write_text(ALIAS_BOMB, encoding="utf-8")
    with pytest.raises(DataError, match="cards.yaml.*aliases"):
        cli_data.check("thiefs-market", str(tmp_path))


@pytest.mark.parametrize("text,error", [
    (ALIAS_BOMB, "repeat more than"), ("a: &a [1, *a]\n", "inside its own anchor"),
    ("a: &a {b: [*a]}\n", "inside its own anchor"),
])
def test_yaml_aliases_are_bounded(text: str, error: str) -> None:
    with pytest.raises(yaml.YAMLError, match=error):
        load_yaml(text)


def test_a_few_aliases_still_load() -> None:
    """PyYAML's safe_dump writes aliases for shared values: an owner's script may too."""
    shared = [1, 2]
    assert load_yaml(yaml.safe_dump({"a": shared, "b": shared})) == {"a": [1, 2], "b": [1, 2]}


FILES = [(slug, f) for slug in SLUGS for f in data_files(slug)]


@pytest.mark.parametrize("slug,filename", FILES)
def test_a_key_given_twice_is_refused(slug: str, filename: str, tmp_path: Path) -> None:
    text = resources.files(GAME_MODULES[slug]).joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    key = next(iter(raw))
    again = yaml.safe_dump({key: raw[key]}, allow_unicode=True)
    (tmp_path / filename).write_text(text + "\n" + again, encoding="utf-8")
    with pytest.raises(DataError, match=f"the key '{key}' is given twice") as err:
        fresh_game(slug).load_data(str(tmp_path))
    assert filename in str(err.value)


def _edit(slug: str, filename: str, change: Callable[[Any], None], tmp_path: Path) -> str:
    text = resources.files(GAME_MODULES[slug]).joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    change(raw)
    (tmp_path / filename).write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError) as err:
        fresh_game(slug).load_data(str(tmp_path))
    assert filename in str(err.value), str(err.value)
    return str(err.value)


def _twice(seq: list) -> None:
    seq.append(copy.deepcopy(seq[0]))


DUPLICATES = {
    "den treasures": ("thieves-den", "board.yaml", lambda r: _twice(r["treasures"]), "duplicate treasure"),
    "den location types": ("thieves-den", "board.yaml", lambda r: _twice(r["location_types"]),
                           "duplicate location type"),
    "den setup row as a number": ("thieves-den", "board.yaml", lambda r: r["setup"].update({2: r["setup"]["2"]}),
                                  "key '2' is given twice"),
    "thiefdom section face": ("thiefdom", "sections.yaml", lambda r: _twice(r["sections"]),
                              "duplicate section face '1A'"),
    "thiefdom solo rival as text": ("thiefdom", "solo.yaml", lambda r: r["rivals"].update({"1": r["rivals"][1]}),
                                    "key '1' is given twice"),
    "thiefdom solo rating": ("thiefdom", "solo.yaml", lambda r: _twice(r["ratings"]), "duplicate rating"),
    "cadwallon arcana kind": ("cadwallon", "arcana.yaml", lambda r: _twice(r["cards"]), "duplicate arcana kind"),
    "cadwallon connection": ("cadwallon", "board.yaml", lambda r: _twice(r["connections"]), "duplicate connection"),
    "cadwallon roofed zone": ("cadwallon", "board.yaml", lambda r: _twice(r["roofed"]), "duplicate roofed zone"),
    "thiefdom loot guard": ("thiefdom", "board.yaml", lambda r: _twice(r["loot_board"]["1-2"]["guards"]),
                            "duplicate guard"),
    "market use face": ("thiefs-market", "cards.yaml",
                        lambda r: _twice(next(c for c in r["cards"] if c["effect"].get("to"))["effect"]["to"]),
                        "duplicate face"),
}


@pytest.mark.parametrize("case", sorted(DUPLICATES))
def test_ids_given_twice_without_an_id_field_are_refused(case: str, tmp_path: Path) -> None:
    slug, filename, change, message = DUPLICATES[case]
    assert message in _edit(slug, filename, change, tmp_path)
