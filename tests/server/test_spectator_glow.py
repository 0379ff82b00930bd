"""A spectator decides nothing: what lights up on the board for them is what
the last move that showed anything changed, not everything since the setup
(State.last_decision(None), read by the table's view)."""
from __future__ import annotations

import pytest

from thieves.core.rng import Rng
from thieves.server.storage import Storage
from thieves.server.tables import TableManager
from thieves.server.views import build_view
from thieves.testing import random_step

GAMES = ("thiefs-market", "thieves-den", "cadwallon", "age-of-thieves", "thiefdom")


@pytest.mark.parametrize("slug", GAMES)
def test_a_spectator_sees_only_the_last_moves_glow(slug, tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 't.db'}"))
    table, _ = manager.create(slug, 3, [{"kind": "human"}] * 3, seed=4)
    rng = Rng.from_seed(4)
    checked = 0
    for _ in range(40):
        if table.state.is_terminal():
            break
        state = table.state.clone()
        random_step(state, rng)
        table.state = state
        table.version += 1
        events = state.visible_events(None)
        if not events:
            continue
        view = build_view(table, state, None, "en")
        recent = [ev for ev, lit in zip(events, view["log_recent"]) if lit]
        # the events lit are exactly those of the last move that showed anything
        assert recent and all(ev["ply"] == events[-1]["ply"] for ev in recent), slug
        assert len(recent) == sum(ev["ply"] == events[-1]["ply"] for ev in events)
        assert len(view["log_recent"]) == len(events)
        checked += 1
    assert checked > 10
