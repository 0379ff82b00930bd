"""Thiefdom's search value: a walk's progress towards the thief's next target counts."""
from __future__ import annotations

import pytest

from thieves.games.thiefdom.bots import WALK_CAP, WALK_STEP, GreedyBot, evaluate, search_value, \
    targets, walk_distance

from .helpers import GAME

STEPS = ("n", "e", "s", "w")


def _walks(count: int):
    """Positions of a seeded greedy game where a thief is walking with several steps open."""
    s = GAME.new_game(2, seed=3)
    bots = [GreedyBot(seed=p) for p in range(2)]
    found = []
    while not s.is_terminal() and len(found) < count:
        p = s.players_to_act()[0]
        if s.phase == "action" and s.turn and s.turn["moving"] and \
                sum(a in STEPS for a in s.legal_actions(p)) >= 2:
            found.append((s.clone(), p))
        s.apply_action(p, bots[p].choose(s, p))
    return found


def test_walk_distance_is_zero_on_a_target_and_capped():
    for s, p in _walks(8):
        for q in range(2):
            for t, th in enumerate(s.thieves[q]):
                d = walk_distance(s, q, t)
                assert 0 <= d <= WALK_CAP
                if th["pos"] is not None and th["pos"] in targets(s, q, t):
                    assert d == 0


def test_a_step_towards_the_target_raises_the_search_value():
    compared = 0
    for s, p in _walks(8):
        t = s.turn["t"]
        after = {}
        for a in s.legal_actions(p):
            if a not in STEPS:
                continue
            trial = s.clone()
            trial.apply_action(p, a)
            if trial.turn is None or trial.turn["t"] != t or evaluate(trial, p) != evaluate(s, p):
                continue  # the walk ended or something else happened: not a plain step
            after[a] = (walk_distance(trial, p, t), search_value(trial, p))
        if len({d for d, _ in after.values()}) < 2:
            continue
        near = min(after.values())
        far = max(after.values())
        assert near[1] - far[1] == pytest.approx(WALK_STEP * (far[0] - near[0]))
        compared += 1
    assert compared >= 2
