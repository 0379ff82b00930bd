"""Hostile snapshots: real snapshots of every game with one value of their fields mutated
(wrong type, huge, negative, removed, duplicated, a list of the wrong length).

Used by ``test_snapshots.py`` (a bounded sample) and ``tools/hostile_snapshots.py``
(the whole corpus, with a time bound on each)."""
from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any, Iterator

from thieves.core.errors import GameSetupError
from thieves.core.registry import load_game
from thieves.core.rng import Rng
from thieves.testing import random_step

SLUGS = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]
WRONG = [None, True, "x", "", 1.5, [], {}, [1], {"a": 1}, -1, 0, 10 ** 9, -(10 ** 9), 10 ** 18, 2 ** 63 - 1]


@functools.lru_cache(maxsize=None)
def real_snapshots(slug: str) -> tuple[dict[str, Any], ...]:
    """Snapshots of a few seeded random games, along the way."""
    game = load_game(slug)
    out = []
    for seed in range(2):
        for n in sorted({game.min_players, game.max_players}):
            state = game.new_game(n, seed)
            rng = Rng.from_seed(seed)
            for step in range(300):
                if state.is_terminal():
                    break
                if step % 40 == 0:
                    out.append(json.loads(json.dumps(state.to_dict(log=False))))
                random_step(state, rng)
    return tuple(out)


def spots(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every path into ``node`` (keys and indices)."""
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from spots(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:12]):
            yield from spots(v, path + (i,))


def mutate(d: dict[str, Any], r: random.Random) -> str:
    """Change one value under ``d["fields"]`` in place; returns what was done."""
    paths = [p for p in spots(d["fields"]) if p]
    path = r.choice(paths)
    parent = d["fields"]
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    value = parent[key]
    how = r.randrange(8)
    if how == 0 and isinstance(parent, dict):
        del parent[key]
        return f"{path} removed"
    if how == 1 and isinstance(parent, list):
        parent.append(copy.deepcopy(value))
        return f"{path} duplicated"
    if how == 2 and isinstance(value, list):
        parent[key] = value[:-1] if r.random() < 0.5 else value + value
        return f"{path} of another length"
    if how == 3 and isinstance(value, dict):
        value[r.choice(["x", "99", "-1", "0"])] = copy.deepcopy(next(iter(value.values()), 0))
        return f"{path} with a key more"
    if how == 4 and isinstance(parent, list):
        del parent[key]
        return f"{path} removed from its list"
    if how == 5 and type(value) is int:
        parent[key] = r.choice([-1, -(10 ** 9), value + 1, value - 1, 10 ** 9, 10 ** 18, 99])
        return f"{path} = {parent[key]}"
    new = r.choice(WRONG)
    parent[key] = copy.deepcopy(new)
    return f"{path} = {new!r}"


def corpus(slug: str, count: int, seed: int = 0) -> Iterator[tuple[str, str]]:
    """``count`` hostile snapshots of ``slug``: (what was changed, the JSON)."""
    r = random.Random(f"{slug}/{seed}")
    reals = real_snapshots(slug)
    for _ in range(count):
        d = copy.deepcopy(r.choice(reals))
        label = mutate(d, r)
        yield label, json.dumps(d)


def try_snapshot(slug: str, text: str) -> str:
    """"refused" (GameSetupError) or "works": the loaded state's next decision and every
    view work. Anything else raises."""
    game = load_game(slug)
    try:
        state = game.state_from_json(text)
    except GameSetupError:
        return "refused"
    state.is_terminal()
    state.scores()
    for p in [None, *range(state.num_players)]:
        state.observation(p)
    to_act = state.players_to_act()
    for p in to_act:
        legal = state.legal_actions(p)
        if legal:
            copy_ = state.clone()
            copy_.apply_action(p, legal[len(legal) // 2])
            for q in copy_.players_to_act():
                copy_.legal_actions(q)
    if state.is_terminal():
        state.winners()
    return "works"
