"""Optional profiles (a key, no password), Elo per game, leaderboard, player page."""
from __future__ import annotations

import pytest

from tests.server.conftest import new_table
from thieves.server.ratings import expected, updated


def test_elo_two_players_and_many():
    assert expected(1500, 1500) == 0.5
    a, b = updated([1500, 1500], [10, 3])
    assert a == pytest.approx(1516) and b == pytest.approx(1484)
    assert updated([1500, 1500], [5, 5]) == [1500, 1500]
    # a favourite gains less by winning than an outsider would
    fav, out = updated([1700, 1500], [2, 1])
    assert 0 < fav - 1700 < 16 and out < 1500
    three = updated([1500, 1500, 1500], [3, 2, 1])
    assert three == pytest.approx([1516, 1500, 1484]) and sum(three) == pytest.approx(4500)


def profile(client, name):
    r = client.post("/api/profiles", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def test_profiles_ratings_leaderboard_and_player_page(client):
    ann, bea = profile(client, "Ann"), profile(client, "Bea")
    assert client.post("/api/profiles", json={"name": ""}).json()["error"] == "bad_request"
    me = client.post("/api/profiles/me", json={"key": ann["key"]}).json()
    assert me["id"] == ann["id"] and me["name"] == "Ann"
    assert client.post("/api/profiles/me", json={"key": "nope"}).json()["error"] == "bad_profile"
    t = new_table(client, 2, options={"rounds": 1})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    for tok, p in ((tok0, ann), (tok1, bea)):
        r = client.post(f"/api/tables/{tid}/profile", json={"token": tok, "key": p["key"]})
        assert r.status_code == 200 and r.json()["linked"]
    # once linked, a seat keeps its profile
    r = client.post(f"/api/tables/{tid}/profile", json={"token": tok0, "key": bea["key"]})
    assert r.json()["linked"] is False
    assert client.post(f"/api/tables/{tid}/profile", json={"key": ann["key"]}).json()["error"] == "not_a_player"
    assert client.post(f"/api/tables/{tid}/actions", json={"token": tok0, "action": "bid 3"}).status_code == 200
    assert client.post(f"/api/tables/{tid}/actions", json={"token": tok1, "action": "bid 1"}).status_code == 200
    v = client.get(f"/api/tables/{tid}/view").json()
    assert v["terminal"]
    winner = 0 if v["scores"][0] > v["scores"][1] else 1
    board = client.get("/api/leaderboard/toy-bids").json()
    assert [row["name"] for row in board] == (["Ann", "Bea"] if winner == 0 else ["Bea", "Ann"])
    assert [row["rating"] for row in board] == [1516, 1484] and all(row["games"] == 1 for row in board)
    # counted once, even if asked again
    platform = client.app.state.platform
    assert platform.storage.rate_table(tid, "toy-bids", [0.0, 1.0]) is False
    page = client.get(f"/p/{ann['id']}?lang=de").text
    assert "Ann" in page and f"/t/{tid}/replay" in page and ("1516" in page or "1484" in page)
    assert "Spieler und Wertungen" in client.get("/players?lang=de").text
    assert client.get("/players").status_code == 200 and "Ann" in client.get("/players").text
    assert client.get("/p/nobody").status_code == 404
    assert client.get(f"/api/players/{bea['id']}").json()["ratings"][0]["games"] == 1
    assert "Mon profil" in client.get("/profile?lang=fr").text
    # renaming with the key
    r = client.post("/api/profiles/me", json={"key": bea["key"], "name": "Beatrix"})
    assert r.json()["name"] == "Beatrix"


def test_games_without_two_profiles_are_not_rated(client):
    ann = profile(client, "Ann")
    t = new_table(client, 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], options={"rounds": 1})
    client.post(f"/api/tables/{t['id']}/profile", json={"token": t["tokens"]["0"], "key": ann["key"]})
    assert client.post(f"/api/tables/{t['id']}/actions",
                       json={"token": t["tokens"]["0"], "action": "bid 1"}).status_code == 200
    assert client.get(f"/api/tables/{t['id']}/view").json()["terminal"]
    assert client.get("/api/leaderboard/toy-bids").json() == []
    # one person on both seats is not rated either
    t = new_table(client, 2, options={"rounds": 1})
    for seat in ("0", "1"):
        client.post(f"/api/tables/{t['id']}/profile", json={"token": t["tokens"][seat], "key": ann["key"]})
    for seat in ("0", "1"):
        client.post(f"/api/tables/{t['id']}/actions", json={"token": t["tokens"][seat], "action": "bid 1"})
    assert client.get("/api/leaderboard/toy-bids").json() == []


def test_profile_texts_exist_in_every_language():
    from thieves.server.i18n import ERRORS, LANGS, ui

    for key in ("leaderboard", "profile", "past_games", "no_rating", "your_key", "key_help",
                "create_profile", "import_key", "import_btn", "profile_help", "rating_help", "forget_profile"):
        assert len({ui(lang)[key] for lang in LANGS}) == 3, key
    assert all(ERRORS[lang]["bad_profile"] and ERRORS[lang]["unknown_player"] for lang in LANGS)
