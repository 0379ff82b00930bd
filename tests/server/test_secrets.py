"""Table seeds are 128-bit secrets with a keyed generator; old databases still load."""
from __future__ import annotations

import json

import sqlalchemy as sa

from thieves.core.replay import Replay
from thieves.core.rng import KeyedRng

from .conftest import TestClient, create_app, new_table


def test_new_tables_get_128_bit_seeds_and_the_keyed_generator(client):
    platform = client.app.state.platform
    ids = [new_table(client, 2)["id"] for _ in range(6)]
    seeds = [platform.manager.get(i).rec.seed for i in ids]
    assert len(set(seeds)) == 6
    assert max(s.bit_length() for s in seeds) >= 124 and all(s < 2**128 for s in seeds)
    table = platform.manager.get(ids[0])
    assert table.rec.rng == "keyed" and isinstance(table.state.rng, KeyedRng)
    # stored exactly (a 128-bit number is no 64-bit column) and read back the same
    rec = {r.id: r for r in platform.storage.load_tables()}[ids[0]]
    assert rec.seed == seeds[0] and rec.rng == "keyed"


def test_the_replay_file_names_the_keyed_generator_and_replays_exactly(client):
    t = new_table(client, 2, options={"rounds": 1})
    tid, toks = t["id"], t["tokens"]
    client.post(f"/api/tables/{tid}/actions", json={"token": toks["0"], "action": "bid 2"})
    client.post(f"/api/tables/{tid}/actions", json={"token": toks["1"], "action": "bid 3"})
    text = client.get(f"/api/tables/{tid}/replay.json").text
    replay = Replay.from_json(text)
    assert replay.rng == "keyed" and replay.seed.bit_length() > 64
    table = client.app.state.platform.manager.get(tid)
    assert replay.final_state().to_json() == table.state.to_json()


def test_an_older_database_with_64_bit_seeds_is_migrated(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as c:  # the schema before seeds became 128-bit secrets
        c.execute(sa.text("CREATE TABLE thieves_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL, "
                          "num_players INTEGER NOT NULL, seed BIGINT NOT NULL, options TEXT NOT NULL, "
                          "seats TEXT NOT NULL, lang VARCHAR(8) NOT NULL, created FLOAT NOT NULL)"))
        c.execute(sa.text("CREATE TABLE thieves_actions (table_id VARCHAR(32), ply INTEGER, player INTEGER NOT NULL, "
                          "action TEXT NOT NULL, PRIMARY KEY (table_id, ply))"))
        seats = [{"kind": "human", "bot": None, "name": "Ann"}, {"kind": "bot", "bot": "random", "name": "Bot"}]
        c.execute(sa.text("INSERT INTO thieves_tables VALUES ('old1', 'toy-bids', 2, 2147483000, :o, :s, 'en', 1.0)"),
                  {"o": json.dumps({"rounds": 1}), "s": json.dumps(seats)})
        c.execute(sa.text("INSERT INTO thieves_actions VALUES ('old1', 0, 1, 'bid 3'), ('old1', 1, 0, 'bid 1')"))
    engine.dispose()
    import thieves
    expected = thieves.load_game("toy-bids").new_game(2, 2147483000, {"rounds": 1})
    expected.apply_action(1, "bid 3")
    expected.apply_action(0, "bid 1")
    with TestClient(create_app(url, bot_delay=0), base_url="http://127.0.0.1") as c:
        table = c.app.state.platform.manager.get("old1")
        assert table.rec.rng == "splitmix" and table.rec.seed == 2147483000
        assert table.state.to_json() == expected.to_json()  # same dice as before the change
        assert new_table(c, 2)["id"] != "old1"
    with TestClient(create_app(url, bot_delay=0), base_url="http://127.0.0.1") as c:  # migrated once
        assert len(c.get("/api/tables").json()) == 2
