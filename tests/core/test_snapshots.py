"""Snapshots restore exactly, and hostile ones get a clear error."""
from __future__ import annotations

import json

import pytest

from thieves.core.errors import GameSetupError
from thieves.core.registry import load_game
from thieves.core.rng import Rng
from thieves.testing import random_step

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]


def midgame(slug: str, steps: int = 60, seed: int = 3):
    state = load_game(slug).new_game(load_game(slug).min_players + 1, seed)
    rng = Rng.from_seed(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        random_step(state, rng)
    return state


@pytest.mark.parametrize("slug", SLUGS)
def test_restore_is_exact_order_and_future(slug: str) -> None:
    state = midgame(slug)
    restored = load_game(slug).state_from_json(state.to_json())
    assert restored.to_json() == state.to_json()  # unsorted: key order is kept too
    # an index-picking bot plays on identically on both: same legal order, same log, same future
    for _ in range(40):
        if state.is_terminal():
            break
        p = state.players_to_act()[0]
        assert restored.players_to_act()[0] == p
        legal = state.legal_actions(p)
        assert restored.legal_actions(p) == legal
        state.apply_action(p, legal[len(legal) // 2])
        restored.apply_action(p, legal[len(legal) // 2])
        assert restored.log == state.log
    assert restored.to_json() == state.to_json()


def test_a_snapshot_without_its_log_rebuilds_it_from_the_history() -> None:
    state = midgame("thiefs-market")
    d = state.to_dict(log=False)
    assert "log" not in d
    assert load_game("thiefs-market").state_from_json(d).log == state.log


def _mutated(slug: str, change) -> str:
    d = json.loads(midgame(slug, 20).to_json())
    change(d)
    return json.dumps(d)


def _typed(d: dict, kind: type) -> str:
    """The first field holding a value of ``kind`` (a list, a number)."""
    return next(k for k, v in d["fields"].items() if type(v) is kind)


HOSTILE = {
    "not json": lambda slug: "{not json",
    "a list": lambda slug: "[1, 2]",
    "deep": lambda slug: "[" * 100_000 + "]" * 100_000,
    "binary": lambda slug: b"\xff\xfe\x00garbage",
    "missing fields": lambda slug: _mutated(slug, lambda d: d.pop("fields")),
    "players 0": lambda slug: _mutated(slug, lambda d: d.update(num_players=0)),
    "players text": lambda slug: _mutated(slug, lambda d: d.update(num_players="3")),
    "history short": lambda slug: _mutated(slug, lambda d: d.update(history=d["history"][:-1])),
    "history junk": lambda slug: _mutated(slug, lambda d: d["history"].__setitem__(0, ["x", 5])),
    "unknown field": lambda slug: _mutated(slug, lambda d: d["fields"].update(bogus=1)),
    "field dropped": lambda slug: _mutated(slug, lambda d: d["fields"].pop(next(iter(d["fields"])))),
    "field wrong kind": lambda slug: _mutated(slug, lambda d: d["fields"].update({_typed(d, list): "oops"})),
    "huge number": lambda slug: _mutated(slug, lambda d: d["fields"].update({_typed(d, int): 10 ** 40})),
    "rng text": lambda slug: _mutated(slug, lambda d: d.update(rng="abc")),
    "bad option": lambda slug: _mutated(slug, lambda d: d["options"].update(nope=1)),
    "other game": lambda slug: _mutated(slug, lambda d: d.update(game="chess")),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
@pytest.mark.parametrize("slug", SLUGS)
def test_hostile_snapshots_get_a_clear_error(slug: str, case: str) -> None:
    text = HOSTILE[case](slug)
    with pytest.raises(GameSetupError) as err:
        load_game(slug).state_from_json(text)
    assert str(err.value) and "Traceback" not in str(err.value)


def test_thiefdom_city_size_is_bounded() -> None:
    text = _mutated("thiefdom", lambda d: d["fields"].update(ncols=100000))
    with pytest.raises(GameSetupError, match="ncols"):
        load_game("thiefdom").state_from_json(text)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_redealt_copy_forgets_the_cached_legal_actions(slug: str) -> None:
    state = midgame(slug, 30)
    if state.is_terminal():
        pytest.skip("game over")
    p = state.players_to_act()[0]
    state.legal_actions(p)  # fills the cache
    assert state._legal_cache is not None
    copy = state.determinize(p, 99)
    assert copy._legal_cache is None
    assert copy.rng.state != state.rng.state  # chance is reseeded too


# -- a corpus of hostile snapshots: one value of a real snapshot's fields mutated ------------
@pytest.mark.parametrize("slug", SLUGS)
def test_a_mutated_snapshot_is_refused_or_plays_on_in_bounded_time(slug: str) -> None:
    """Wrong types, huge and negative numbers, missing keys, wrong lengths (tests/core/hostile.py;
    tools/hostile_snapshots.py runs thousands): GameSetupError, or a state whose views, legal
    actions and next decision all work, quickly."""
    import time
    from .hostile import corpus, try_snapshot
    for label, text in corpus(slug, 80, seed=1):
        start = time.perf_counter()
        try:
            try_snapshot(slug, text)
        except Exception as exc:  # noqa: BLE001 - name the mutation that broke it
            raise AssertionError(f"{label}: {type(exc).__name__}: {exc}") from None
        assert time.perf_counter() - start < 3, label


@pytest.mark.parametrize("slug,change", [
    ("thiefs-market", lambda f: f["center"].__setitem__(0, 10 ** 9)),
    ("thiefs-market", lambda f: f["returning"].__setitem__(3, 2 ** 63 - 1)),
    ("thiefs-market", lambda f: f.update(gold=f["gold"][:-1])),
    ("thiefs-market", lambda f: f["gold"].__setitem__(0, None)),
    ("thieves-den", lambda f: f["hands"].__setitem__(0, "x")),
    ("age-of-thieves", lambda f: f["thieves"][0]["hand"].insert(0, 0)),
    ("thiefdom", lambda f: f["vp"].__setitem__(0, "x")),
    ("cadwallon", lambda f: f["hands"].__setitem__(0, {"a": 1})),
])
def test_snapshots_that_crashed_or_hung_after_loading_are_refused(slug: str, change) -> None:
    def edit(d: dict) -> None:
        change(d["fields"])
    with pytest.raises(GameSetupError):
        load_game(slug).state_from_json(_mutated(slug, edit))
