"""The observation's log is kept per viewer between calls (``State._log_items``).

A log only grows, so an observation reads only the entries added since the
viewer's previous one. Here, along seeded random games of every game: the kept
log always equals a fresh reading of the visible events, for spectators and
every seat (so what one seat may read never reaches another); a copy and a
restored snapshot start their own; and the consumers of an observation (the
server's views, the text view, the terminal's words for an action) leave its
log items as they were, since the items are shared between one viewer's calls.
"""
from __future__ import annotations

import copy

import pytest

import thieves
from thieves.core.rng import Rng
from thieves.server.storage import Storage
from thieves.server.tables import TableManager
from thieves.server.views import build_view
from thieves.testing import random_step

GAMES = ["thiefs-market", "thieves-den", "age-of-thieves", "thiefdom", "cadwallon"]


def _fresh(state, viewer):
    return state.visible_events(viewer)


@pytest.mark.parametrize("slug", GAMES)
def test_the_kept_log_is_what_a_fresh_reading_gives(slug):
    game = thieves.load_game(slug)
    n = min(max(game.min_players, 3), game.max_players)
    state = game.new_game(n, 4)
    rng = Rng.from_seed(4)
    viewers = [None, *range(n)]
    for step in range(160):
        if state.is_terminal():
            break
        if step % 5 == 0:
            for v in viewers:
                got = state.observation(v)["log"]
                assert got == _fresh(state, v), (slug, step, v)
                got.append("scribble")  # the list is the caller's own
                assert state.observation(v)["log"] == _fresh(state, v)
        random_step(state, rng)
    before = {v: copy.deepcopy(state.observation(v)["log"]) for v in viewers}
    twin = state.clone()
    for _ in range(12):
        if twin.is_terminal():
            break
        random_step(twin, rng)
    for v in viewers:
        assert twin.observation(v)["log"] == _fresh(twin, v)
        assert state.observation(v)["log"] == before[v] == _fresh(state, v)
    restored = game.state_from_json(state.to_json())
    for v in viewers:
        assert restored.observation(v)["log"] == before[v]


@pytest.mark.parametrize("slug", GAMES)
def test_consumers_leave_the_log_items_as_they_were(slug, tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'v.db'}"))
    game = thieves.load_game(slug)
    n = min(game.max_players, 3)
    table, _ = manager.create(slug, n, [{"kind": "human", "name": f"P{i}"} for i in range(n)], seed=3)
    rng = Rng.from_seed(3)
    checked = 0
    for step in range(40):
        state = table.state
        if state.is_terminal():
            break
        for v in [None, *range(n)]:
            obs = state.observation(v)
            kept = copy.deepcopy(obs["log"])
            build_view(table, state, v, "fr", layout="narrow" if step % 2 else "wide")
            state.render_text(v)
            to_act = state.players_to_act()
            if to_act and to_act[0] == v:
                state.describe_action(state.legal_actions(v)[0])
            assert obs["log"] == kept, (slug, step, v)
            assert state.observation(v)["log"] == kept == _fresh(state, v)
            checked += 1
        state = state.clone()
        random_step(state, rng)
        table.state = state
        table.version += 1
    assert checked >= 40
