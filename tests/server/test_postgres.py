"""The same storage layer on a real PostgreSQL server (skipped when none answers)."""
from __future__ import annotations

import secrets
import socket

import pytest
import sqlalchemy

from thieves.server.app import create_app
from thieves.server.storage import Storage

from .conftest import TestClient, new_table

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _pg_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            pass
        engine = sqlalchemy.create_engine(PG_URL)
        with engine.connect() as conn:
            conn.execute(sqlalchemy.text("select 1"))
        engine.dispose()
    except Exception:
        return False
    return True


@pytest.fixture
def pg_prefix():
    if not _pg_answers():
        pytest.skip("no PostgreSQL server answers at 127.0.0.1:5432 (database 'test')")
    prefix = f"t{secrets.token_hex(4)}_"
    yield prefix
    Storage(PG_URL, prefix=prefix).drop_all()


def test_postgres_tables_survive_a_restart(pg_prefix):
    with TestClient(create_app(PG_URL, bot_delay=0, table_prefix=pg_prefix), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], options={"rounds": 2})
        tid, tok = t["id"], t["tokens"]["0"]
        r = c.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": "bid 2"})
        assert r.status_code == 200 and r.json()["ply"] == 3  # bot, us, bot
        before = c.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
        bad = c.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": "bid 0"})
        assert bad.status_code == 409
    with TestClient(create_app(PG_URL, bot_delay=0, table_prefix=pg_prefix), base_url="http://127.0.0.1") as c:
        assert c.get(f"/api/tables/{tid}/view", params={"token": tok}).json() == before
        v = c.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": "bid 1"}).json()
        assert v["terminal"] and c.get(f"/api/tables/{tid}/replay.json").status_code == 200


def test_postgres_claims_and_a_lost_commit_answer(pg_prefix):
    with TestClient(create_app(PG_URL, bot_delay=0, table_prefix=pg_prefix), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, [{"kind": "human"}, {"kind": "open"}])
        tid, tok0 = t["id"], t["tokens"]["0"]
        r = c.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bea"})
        tok1 = r.json()["token"]
        storage = c.app.state.platform.storage
        real = storage.add_action

        def commits_then_fails(*args):
            real(*args)
            raise ConnectionError("lost while acknowledging the commit")

        storage.add_action = commits_then_fails
        assert c.post(f"/api/tables/{tid}/actions", json={"token": tok0, "action": "bid 2"}).status_code == 200
    with TestClient(create_app(PG_URL, bot_delay=0, table_prefix=pg_prefix), base_url="http://127.0.0.1") as c:
        v = c.get(f"/api/tables/{tid}/view", params={"token": tok1}).json()
        assert v["viewer"] == 1 and v["seats"][1]["name"] == "Bea" and v["ply"] == 1
        assert c.post(f"/api/tables/{tid}/actions", json={"token": tok1, "action": "bid 1"}).json()["ply"] == 2
