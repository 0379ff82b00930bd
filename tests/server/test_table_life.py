"""Table life around the game: waiting for players before the start."""
from __future__ import annotations

from tests.server.conftest import new_table
from thieves.bots import bot_names


def view(client, tid, token=None):
    return client.get(f"/api/tables/{tid}/view", params={"token": token} if token else {}).json()


def act(client, tid, token, action, **extra):
    return client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": action, **extra})


def test_a_table_with_an_open_seat_waits_for_it(client):
    t = new_table(client, 3, [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}])
    tid, tok0 = t["id"], t["tokens"]["0"]
    v = view(client, tid, tok0)
    assert v["status"] == "open" and v["waiting"] == [1] and v["host"] and v["ply"] == 0
    assert v["to_act"] == []  # nobody acts before the start
    assert [b["bot"] for b in v["fill_bots"]] == bot_names("toy-bids")
    r = act(client, tid, tok0, "bid 1")
    assert r.status_code == 409 and r.json()["error"] == "waiting"
    assert view(client, tid)["ply"] == 0  # the bot did not play either
    # taking the last open seat starts the game: the bot plays at once (bot_delay 0)
    tok1 = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bea"}).json()["token"]
    v = view(client, tid, tok1)
    assert v["status"] == "playing" and v["waiting"] == [] and not v["host"] and v["fill_bots"] == []
    assert v["ply"] == 1 and v["to_act"] == [0, 1]
    assert act(client, tid, tok0, "bid 1").status_code == 200


def test_the_creator_fills_open_seats_with_bots(client):
    t = new_table(client, 3, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}], options={"rounds": 1})
    tid, tok0 = t["id"], t["tokens"]["0"]
    tok1 = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bea"}).json()["token"]
    # only the creator may: another player, a spectator and a wrong bot are refused
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tok1, "bot": "random"})
    assert r.status_code == 403 and r.json()["error"] == "not_host"
    r = client.post(f"/api/tables/{tid}/fill", json={"bot": "random"})
    assert r.status_code == 403 and r.json()["error"] == "not_host"
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tok0, "bot": "nobody"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    assert view(client, tid)["waiting"] == [2]
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tok0, "bot": "random"})
    assert r.status_code == 200 and r.json() == {"filled": [2]}
    v = view(client, tid, tok0)
    assert v["status"] == "playing" and v["seats"][2]["kind"] == "bot" and v["seats"][2]["bot"] == "random"
    assert v["ply"] == 1 and v["to_act"] == [0, 1]  # the bot chose already
    r = client.post(f"/api/tables/{tid}/fill", json={"token": tok0})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    assert act(client, tid, tok0, "bid 1").status_code == 200
    assert act(client, tid, tok1, "bid 2").status_code == 200
    assert view(client, tid)["terminal"]


def test_filled_seats_and_waiting_survive_a_restart(db_url):
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, [{"kind": "human"}, {"kind": "open"}])
        other = new_table(c, 2, [{"kind": "human"}, {"kind": "open"}])
        assert c.post(f"/api/tables/{t['id']}/fill", json={"token": t["tokens"]["0"]}).status_code == 200
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        v = view(c, t["id"], t["tokens"]["0"])
        assert v["seats"][1]["kind"] == "bot" and v["ply"] == 1 and v["waiting"] == []
        w = view(c, other["id"], other["tokens"]["0"])
        assert w["waiting"] == [1] and w["host"] and w["ply"] == 0
        assert act(c, other["id"], other["tokens"]["0"], "bid 1").json()["error"] == "waiting"


def test_the_waiting_texts_exist_in_every_language(client):
    from thieves.server.i18n import ERRORS, LANGS, ui

    for lang in LANGS:
        texts = ui(lang)
        assert "{seats}" in texts["waiting_players"] and texts["fill_bots"] and texts["fill_bot_level"]
        assert ERRORS[lang]["waiting"] and ERRORS[lang]["not_host"]
    assert len({ui(lang)["fill_bots"] for lang in LANGS}) == 3
