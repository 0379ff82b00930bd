"""Bounded resources: every limit answers 429 with a Retry-After time; idle
tables leave memory and come back on demand; abandoned tables expire."""
from __future__ import annotations

import json
import time

import pytest
from starlette.testclient import WebSocketDenialResponse

from thieves.server.app import create_app
from thieves.server.limits import Limits, RateLimit

from .conftest import TestClient, new_table

BODY = {"game": "toy-bids", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "options": {}}


def _app(db_url, **limits):
    return TestClient(create_app(db_url, bot_delay=0, limits=Limits(**limits)), base_url="http://127.0.0.1")


def test_tables_per_address_are_limited(db_url):
    with _app(db_url, tables_per_address=3, tables_window=3600) as c:
        for _ in range(3):
            assert c.post("/api/tables", json=BODY).status_code == 201
        r = c.post("/api/tables", json=BODY)
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert 3000 < int(r.headers["Retry-After"]) <= 3600
        # the lobby's form gets the same answer, as a page in its language
        r = c.post("/tables", data={"game": "toy-bids", "players": "2", "lang": "fr"})
        assert r.status_code == 429 and "Retry-After" in r.headers and "Trop de demandes" in r.text
        assert len(c.get("/api/tables").json()) == 3  # nothing was made


def test_the_sliding_window_lets_clients_in_again():
    rl = RateLimit(2, 10)
    rl.check("a", "x", now=0)
    rl.check("a", "x", now=1)
    rl.check("b", "x", now=1)  # another address has its own count
    with pytest.raises(Exception) as info:
        rl.check("a", "x", now=5)
    assert info.value.status == 429 and info.value.retry_after == 5
    rl.check("a", "x", now=10.5)


def test_open_tables_on_the_site_are_limited(db_url):
    with _app(db_url, open_tables=2) as c:
        a = new_table(c, 2, options={"rounds": 1})
        new_table(c, 2)
        r = c.post("/api/tables", json=BODY)
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        # a finished table no longer counts
        for seat, bid in (("0", 1), ("1", 2)):
            c.post(f"/api/tables/{a['id']}/actions", json={"token": a["tokens"][seat], "action": f"bid {bid}"})
        assert c.post("/api/tables", json=BODY).status_code == 201


def test_sockets_per_table_and_per_address_are_limited(db_url):
    with _app(db_url, sockets_per_table=2, sockets_per_address=3) as c:
        t1, t2 = new_table(c, 2)["id"], new_table(c, 2)["id"]
        with c.websocket_connect(f"/ws/{t1}") as a, c.websocket_connect(f"/ws/{t1}") as b:
            a.receive_json(), b.receive_json()
            with pytest.raises(WebSocketDenialResponse) as info:
                with c.websocket_connect(f"/ws/{t1}"):
                    pass
            assert info.value.status_code == 429 and info.value.headers["retry-after"] == "30"
            assert info.value.json()["error"] == "rate_limited"
            with c.websocket_connect(f"/ws/{t2}") as d:
                d.receive_json()
                with pytest.raises(WebSocketDenialResponse):  # a fourth from this address
                    with c.websocket_connect(f"/ws/{t2}"):
                        pass
        with c.websocket_connect(f"/ws/{t1}") as again:  # closed sockets free their place
            assert again.receive_json()["table"] == t1


def test_idle_and_finished_tables_leave_memory_and_come_back(db_url):
    with _app(db_url, idle_unload=3600) as c:
        platform = c.app.state.platform
        done = new_table(c, 2, options={"rounds": 1})
        waiting = new_table(c, 2, options={"rounds": 2})
        busy = new_table(c, 2)
        for seat, bid in (("0", 1), ("1", 2)):
            c.post(f"/api/tables/{done['id']}/actions", json={"token": done["tokens"][seat], "action": f"bid {bid}"})
        c.post(f"/api/tables/{waiting['id']}/actions", json={"token": waiting["tokens"]["0"], "action": "bid 3"})
        before = {t["id"]: c.get(f"/api/tables/{t['id']}/view", params={"token": t["tokens"]["1"]}).json()
                  for t in (done, waiting)}
        with c.websocket_connect(f"/ws/{busy['id']}") as w:
            w.receive_json()
            assert platform.sweep() == [done["id"]]  # finished: out at once
            gone = platform.sweep(now=time.time() + 7200)  # idle for two hours
            assert gone == [waiting["id"]] and busy["id"] in platform.manager.tables  # a socket keeps it
        assert set(platform.manager.tables) == {busy["id"]}
        # the lobby still lists them, from the database
        listed = {t["id"]: t["status"] for t in c.get("/api/tables").json()}
        assert listed[done["id"]] == "finished" and listed[waiting["id"]] == "playing"
        # opened again: read back and replayed, the same as before
        for t in (done, waiting):
            assert c.get(f"/api/tables/{t['id']}/view", params={"token": t["tokens"]["1"]}).json() == before[t["id"]]
        r = c.post(f"/api/tables/{waiting['id']}/actions", json={"token": waiting["tokens"]["1"], "action": "bid 1"})
        assert r.status_code == 200 and r.json()["ply"] == 2
        assert c.get("/api/tables/nope-nope/view").status_code == 404


def test_abandoned_tables_expire(db_url):
    with _app(db_url, expire_after=3600) as c:
        platform = c.app.state.platform
        t = new_table(c, 2)
        tid, toks = t["id"], t["tokens"]
        with platform.storage.engine.begin() as conn:  # nothing happened for two hours
            conn.execute(platform.storage.tables.update().values(updated=time.time() - 7200))
        platform.manager.tables[tid].touched = time.time() - 7200
        r = c.post(f"/api/tables/{tid}/actions", json={"token": toks["0"], "action": "bid 1"})
        assert r.status_code == 410 and r.json()["error"] == "expired"
        assert c.get(f"/api/tables/{tid}/view").json()["status"] == "expired"
        assert platform.sweep() == [tid]
        assert [x["status"] for x in c.get("/api/tables").json()] == ["expired"]
        assert platform.storage.count_live(time.time() - 3600) == 0
    with _app(db_url, expire_after=3600) as c:  # not loaded at start
        assert c.app.state.platform.manager.tables == {}


def test_limits_come_from_the_environment():
    lim = Limits.from_env({"THIEVES_TABLES_PER_ADDRESS": "5", "THIEVES_IDLE_UNLOAD": "30.5"})
    assert lim.tables_per_address == 5 and lim.idle_unload == 30.5 and lim.open_tables == Limits().open_tables
    with pytest.raises(ValueError):
        Limits.from_env({"THIEVES_OPEN_TABLES": "many"})
