"""The HTTP API: tables, seats, actions, errors, replays, languages."""
from __future__ import annotations

import json

from .conftest import new_table

JSON = {"content-type": "application/json"}


def act(client, tid, token, action):
    return client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": action})


def test_lobby_lists_games_and_tables(client):
    r = client.get("/")
    assert r.status_code == 200
    assert "Sealed Bids" in r.text and "2–4" in r.text
    games = {g["slug"]: g for g in client.get("/api/games").json()}
    assert games["toy-bids"]["min_players"] == 2 and games["toy-bids"]["max_players"] == 4
    assert [o["name"] for o in games["toy-bids"]["options"]] == ["rounds"]  # never data_dir
    t = new_table(client, 3, [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}])
    tables = {x["id"]: x for x in client.get("/api/tables").json()}
    assert tables[t["id"]]["status"] == "open"
    assert f'/t/{t["id"]}/join/1' in client.get("/").text


def test_create_table_from_the_lobby_form(client):
    r = client.post("/tables", data={"game": "toy-bids", "players": "2", "seat_0": "you",
                                     "seat_1": "bot:random", "name": "Ann", "opt_rounds": "2"},
                    follow_redirects=False)
    assert r.status_code == 303 and "/s/" in r.headers["location"]
    page = client.get(r.headers["location"])
    assert page.status_code == 200 and "Sealed Bids" in page.text
    tid = r.headers["location"].split("/")[2]
    summary = {x["id"]: x for x in client.get("/api/tables").json()}[tid]
    assert summary["seats"][0]["name"] == "Ann" and summary["seats"][1]["kind"] == "bot"


def test_bad_table_creation_is_refused(client):
    for body, code in [
        ({"game": "chess", "players": 2, "seats": []}, "unknown_game"),
        ({"game": "toy-bids", "players": 9, "seats": [{"kind": "human"}] * 9}, "bad_setup"),
        ({"game": "toy-bids", "players": 2, "seats": [{"kind": "human"}]}, "bad_request"),
        ({"game": "toy-bids", "players": 2, "seats": [{"kind": "alien"}] * 2}, "bad_request"),
        ({"game": "toy-bids", "players": 2, "seats": [{"kind": "bot", "bot": "genius"}] * 2}, "bad_request"),
        ({"game": "toy-bids", "players": 2, "seats": [{"kind": "human"}] * 2,
          "options": {"rounds": 99}}, "bad_setup"),
        ({"game": "toy-bids", "players": 2, "seats": [{"kind": "human"}] * 2,
          "options": {"data_dir": "/etc"}}, "bad_request"),
    ]:
        r = client.post("/api/tables", json=body)
        assert r.status_code in (400, 404) and r.json()["error"] == code, (body, r.text)
    assert client.post("/api/tables", content=b"{not json", headers=JSON).json()["error"] == "malformed"
    assert client.get("/api/tables").json() == []


def test_seat_tokens_are_long_random_and_authorize_only_their_seat(client):
    t = new_table(client, 2)
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    assert len(tok0) >= 22 and tok0 != tok1  # at least 128 random bits
    assert act(client, tid, tok0, "bid 2").status_code == 200
    # seat 0 already chose: its token cannot act again, nor for seat 1
    r = act(client, tid, tok0, "bid 1")
    assert r.status_code == 409 and r.json()["error"] == "not_your_turn"
    r = act(client, tid, "x" * 32, "bid 1")
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    r = act(client, tid, None, "bid 1")
    assert r.status_code == 403 and r.json()["error"] == "not_a_player"
    r = act(client, "nope", tok1, "bid 1")
    assert r.status_code == 404 and r.json()["error"] == "unknown_table"
    assert client.get(f"/api/tables/{tid}/view").json()["ply"] == 1
    assert act(client, tid, tok1, "bid 3").status_code == 200


def test_illegal_and_malformed_actions_change_nothing(client):
    t = new_table(client, 2)
    tid, tok = t["id"], t["tokens"]["0"]
    before = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    for action, code in [("bid 7", "illegal"), ("", "malformed"), (12, "malformed"),
                         (None, "malformed"), ("x" * 500, "malformed")]:
        r = act(client, tid, tok, action)
        assert r.status_code in (400, 409) and r.json()["error"] == code, (action, r.text)
        assert r.json()["message"]
    r = client.post(f"/api/tables/{tid}/actions", content=b"[1,2]", headers=JSON)
    assert r.json()["error"] == "malformed"
    after = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    assert after == before


def test_open_seats_are_claimed_once(client):
    t = new_table(client, 2, [{"kind": "human"}, {"kind": "open"}])
    tid = t["id"]
    r = client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bea<script>"})
    assert r.status_code == 201
    token = r.json()["token"]
    assert client.get(f"/api/tables/{tid}/view", params={"token": token}).json()["viewer"] == 1
    assert client.get(f"/api/tables/{tid}/view").json()["seats"][1]["name"] == "Beascript"
    again = client.post(f"/api/tables/{tid}/seats/1/claim", json={})
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    assert client.post(f"/api/tables/{tid}/seats/7/claim").json()["error"] == "bad_seat"
    r = client.post(f"/t/{tid}/join/0", data={"name": "Eve"}, follow_redirects=False)
    assert r.status_code == 409  # seat 0 belongs to its creator


def test_bots_play_their_seats(client):
    t = new_table(client, 3, [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                              {"kind": "bot", "bot": "random"}], options={"rounds": 2})
    tid, tok = t["id"], t["tokens"]["0"]
    v = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    assert v["to_act"] == [0] and v["chosen"] == [1, 2]  # who has chosen, not what
    act(client, tid, tok, "bid 1")
    v = act(client, tid, tok, "bid 2").json()
    assert v["terminal"] and v["status"] == "finished" and v["winners"] and len(v["scores"]) == 3


def test_replay_steps_and_points_of_view(client):
    t = new_table(client, 2, options={"rounds": 1})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    act(client, tid, tok0, "bid 3")
    step = client.get(f"/api/tables/{tid}/replay/1").json()
    assert step["last_action"] == {"seat": 0, "action": None, "text": None, "by": None}  # secret while running
    assert "bid 3" not in json.dumps(step)
    own = client.get(f"/api/tables/{tid}/replay/1", params={"viewer": 0, "token": tok0}).json()
    assert own["last_action"]["action"] == "bid 3" and own["observation"]["my_bid"] == 3
    r = client.get(f"/api/tables/{tid}/replay/1", params={"viewer": 0, "token": tok1})
    assert r.status_code == 403 and r.json()["error"] == "forbidden_view"
    r = client.get(f"/api/tables/{tid}/replay/1", params={"viewer": 0})
    assert r.status_code == 403
    assert client.get(f"/api/tables/{tid}/replay/5").json()["error"] == "bad_ply"
    r = client.get(f"/api/tables/{tid}/replay.json")
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
    act(client, tid, tok1, "bid 1")
    # once over, every point of view is open and the file can be downloaded
    assert client.get(f"/api/tables/{tid}/replay/1", params={"viewer": 0}).json()["observation"]["my_bid"] == 3
    r = client.get(f"/api/tables/{tid}/replay.json")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    from thieves import Replay
    replay = Replay.from_json(r.text)
    assert replay.actions == [[0, "bid 3"], [1, "bid 1"]]
    final = replay.final_state()
    assert final.is_terminal() and final.scores() == client.get(f"/api/tables/{tid}/view").json()["scores"]
    assert client.get(f"/t/{tid}/replay").status_code == 200


def test_languages(client):
    for lang, word in [("en", "Create the table"), ("fr", "Créer la table"), ("de", "Tisch eröffnen")]:
        assert word in client.get("/", params={"lang": lang}).text
    r = client.get("/lang/de", params={"next": "/"}, follow_redirects=False)
    assert r.status_code == 303 and "lang=de" in r.headers["set-cookie"]
    r = client.get("/lang/fr", params={"next": "https://evil.example/"}, follow_redirects=False)
    assert r.headers["location"] == "/"


def test_pages_for_unknown_tables_and_tokens(client):
    t = new_table(client, 2)
    assert client.get("/t/nope").status_code == 404
    r = client.get(f"/t/{t['id']}/s/not-a-token")
    assert r.status_code == 403 and "Unknown table or seat link" in r.text
    assert r.headers["referrer-policy"] == "no-referrer"


def test_table_page_source_holds_no_game_data(client):
    t = new_table(client, 2)
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    act(client, tid, tok0, "bid 3")
    page = client.get(f"/t/{tid}/s/{tok1}").text
    assert tok0 not in page and "bid 3" not in page and "my_bid" not in page


def test_bots_move_on_their_own_with_a_delay(db_url):
    import time

    from thieves.server.app import create_app

    from .conftest import TestClient
    with TestClient(create_app(db_url, bot_delay=0.01), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], options={"rounds": 1})
        tid, tok = t["id"], t["tokens"]["0"]
        deadline = time.time() + 10
        while c.get(f"/api/tables/{tid}/view").json()["ply"] < 1:
            assert time.time() < deadline, "the bot never moved"
            time.sleep(0.02)
        with c.websocket_connect(f"/ws/{tid}?token={tok}") as w:
            assert w.receive_json()["chosen"] == [1]
            w.send_text('{"type": "action", "action": "bid 1"}')
            assert w.receive_json()["terminal"]


def test_game_texts_endpoint(client):
    assert client.get("/api/games/toy-bids/texts", params={"lang": "de"}).json()["log.my_bid"] == "Du bietest {bid}."
    assert client.get("/api/games/chess/texts").status_code == 404


def test_a_crash_in_the_game_code_changes_nothing(client, monkeypatch):
    from tests.core.toy_game import BidState
    t = new_table(client, 2)
    tid, tok = t["id"], t["tokens"]["0"]

    def crash(self, player, action):
        self.points[0] = 99
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(BidState, "_apply", crash)
    r = act(client, tid, tok, "bid 1")
    assert r.status_code == 500 and r.json()["error"] == "engine_error"
    monkeypatch.undo()
    v = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    assert v["ply"] == 0 and v["observation"]["points"] == [0, 0]
    assert act(client, tid, tok, "bid 1").status_code == 200
