"""Replays of live tables: from checkpoints, equal to a replay from move 0, limited per address."""
from __future__ import annotations

from thieves.core.rng import Rng
from thieves.server.limits import Limits
from thieves.server.replays import Checkpoints, public_positions, replay_view

from .conftest import TestClient, create_app


def _played(platform, slug, players, decisions, seed=3):
    r_seats = [{"kind": "human"} for _ in range(players)]
    table_id = platform.manager.create(slug, players, r_seats)[0].id
    table = platform.manager.get(table_id)
    rng = Rng.from_seed(seed)
    while table.state.ply < decisions and not table.state.is_terminal():
        to_act = table.state.players_to_act()
        p = to_act[rng.below(len(to_act))]
        acts = table.state.legal_actions(p)
        platform.manager.act(table, p, acts[rng.below(len(acts))])
    return table


def _from_zero(table, ply):
    state = table.game.new_game(table.rec.num_players, table.rec.seed, table.rec.options, rng=table.rec.rng)
    for p, a in table.state.history[:ply]:
        state.apply_action(p, a)
    return state


def test_a_position_from_a_checkpoint_equals_the_replay_from_move_0(client):
    platform = client.app.state.platform
    table = _played(platform, "age-of-thieves", 3, 150)
    history = table.state.history
    kept = Checkpoints(every=7, tables=2)
    for ply in [150, 3, 77, 78, 140, 0, 150, 64, 7, 14]:   # checkpoints made, then used
        assert kept.position(table, history, ply).to_json() == _from_zero(table, ply).to_json()
    assert len(kept._kept[table.id]) == 150 // 7
    # a history that no longer begins with a checkpoint's decisions (an undo) is not read from it
    other = [list(h) for h in history[:70]]
    other[69] = [other[69][0], "not the same decision"]
    start = kept._nearest(table.id, other, 70)
    assert start is not None and start.ply == 63 and start.history == history[:63]


def test_the_replay_view_from_checkpoints_is_the_view_from_move_0(client, monkeypatch):
    """Checkpoints and the log lines kept from longer positions give the views of a
    replay from move 0 with every line written anew."""
    from thieves.server import replays

    platform = client.app.state.platform
    table = _played(platform, "age-of-thieves", 2, 120, seed=5)
    positions = public_positions(table.state)
    assert len(positions) - 1 == table.state.public_ply
    fine, none = Checkpoints(every=3), Checkpoints(every=10_000)
    kept = replays.LogMemo()
    for step in (len(positions) - 1, 1, len(positions) // 2, len(positions) // 2 + 1):
        monkeypatch.setattr(replays, "LOGS", kept)
        shortcut = replay_view(table, step, None, "en", None, checkpoints=fine)
        monkeypatch.setattr(replays, "LOGS", replays.LogMemo())
        assert shortcut == replay_view(table, step, None, "en", None, checkpoints=none)


def test_replay_steps_are_limited_per_address(db_url):
    limits = Limits(replays_per_address=3, replays_window=60.0)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits), base_url="http://127.0.0.1") as c:
        r = c.post("/api/tables", json={"game": "toy-bids", "players": 2,
                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
        tid = r.json()["id"]
        assert all(c.get(f"/api/tables/{tid}/replay/0").status_code == 200 for _ in range(3))
        refused = c.get(f"/api/tables/{tid}/replay/0")
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert c.get(f"/api/tables/{tid}/view").status_code == 200   # the table itself still opens
