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


def elsewhere(client, address="203.0.113.7"):
    """Another player's browser, at another address, on the same server."""
    from fastapi.testclient import TestClient

    return TestClient(client.app, base_url="http://127.0.0.1", client=(address, 50000))


def link(client, tid, token, key):
    return client.post(f"/api/tables/{tid}/profile", json={"token": token, "key": key})


def test_profiles_ratings_leaderboard_and_player_page(client):
    ann, bea = profile(client, "Ann"), profile(client, "Bea")
    other = elsewhere(client)
    assert client.post("/api/profiles", json={"name": ""}).json()["error"] == "bad_request"
    me = client.post("/api/profiles/me", json={"key": ann["key"]}).json()
    assert me["id"] == ann["id"] and me["name"] == "Ann"
    assert client.post("/api/profiles/me", json={"key": "nope"}).json()["error"] == "bad_profile"
    t = new_table(client, 2, options={"rounds": 1})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    for c, tok, p in ((client, tok0, ann), (other, tok1, bea)):
        r = link(c, tid, tok, p["key"])
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
    assert "gewertet" in page and "nicht gewertet" not in page
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


def _play_out(client, tid, tokens, action="bid 1"):
    for seat, tok in sorted(tokens.items()):
        assert client.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": action}).status_code == 200


def _unrated(client, tid, key, profile_id):
    """The leaderboard is empty and the player's page says why this table was not rated."""
    platform = client.app.state.platform
    assert client.get("/api/leaderboard/toy-bids").json() == []
    return platform.storage.unrated([tid])[tid]


def test_two_profiles_from_one_browser_or_address_do_not_rate_each_other(client):
    ann, bea = profile(client, "Ann"), profile(client, "Bea")
    # one browser (and one address): the farm of the issue, two profiles at one table
    t = new_table(client, 2, options={"rounds": 1})
    link(client, t["id"], t["tokens"]["0"], ann["key"])
    link(client, t["id"], t["tokens"]["1"], bea["key"])
    _play_out(client, t["id"], t["tokens"])
    assert _unrated(client, t["id"], ann["key"], ann["id"]) in ("same_address", "same_browser")
    page = client.get(f"/p/{ann['id']}").text
    assert "not rated: two profiles linked from one address" in page
    # another address, but the same browser (its cookie came along)
    t = new_table(client, 2, options={"rounds": 1})
    link(client, t["id"], t["tokens"]["0"], ann["key"])
    other = elsewhere(client)
    other.cookies.set("thieves_browser", client.cookies.get("thieves_browser"))
    link(other, t["id"], t["tokens"]["1"], bea["key"])
    _play_out(client, t["id"], t["tokens"])
    assert _unrated(client, t["id"], ann["key"], ann["id"]) == "same_browser"


def test_a_profile_linked_after_its_first_move_is_not_rated(client):
    ann, bea = profile(client, "Ann"), profile(client, "Bea")
    t = new_table(client, 2, options={"rounds": 2})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    link(client, tid, tok0, ann["key"])
    _play_out(client, tid, t["tokens"])  # round 1: Bea has seen it go her way
    link(elsewhere(client), tid, tok1, bea["key"])
    _play_out(client, tid, t["tokens"])
    assert client.get(f"/api/tables/{tid}/view").json()["terminal"]
    assert _unrated(client, tid, ann["key"], ann["id"]) == "late_link"
    assert "after its seat" in client.get(f"/p/{bea['id']}").text


def test_a_game_mostly_played_by_substitutes_is_not_rated(client):
    ann, bea = profile(client, "Ann"), profile(client, "Bea")
    t = new_table(client, 2, options={"rounds": 3})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    link(client, tid, tok0, ann["key"])
    link(elsewhere(client), tid, tok1, bea["key"])
    _play_out(client, tid, t["tokens"])  # one decision each of three
    # both leave: bots play the remaining two thirds of each seat (the farm of the issue)
    for tok in (tok0, tok1):
        assert client.post(f"/api/tables/{tid}/leave", json={"token": tok}).status_code == 200
    assert client.get(f"/api/tables/{tid}/view").json()["terminal"]
    assert _unrated(client, tid, ann["key"], ann["id"]) == "substitutes"


def test_unrated_reasons():
    from thieves.server.ratings import unrated_reason

    a = {"profile": "a", "ply": 0, "address": "x", "browser": "p"}
    b = {"profile": "b", "ply": 0, "address": "y", "browser": "q"}
    hist = [(0, "m"), (1, "m"), (0, "m"), (1, "m")]
    assert unrated_reason({0: a, 1: b}, hist, set()) is None
    assert unrated_reason({0: a}, hist, set()) == "few_profiles"
    assert unrated_reason({0: a, 1: {**b, "profile": "a"}}, hist, set()) == "same_profile"
    assert unrated_reason({0: a, 1: {**b, "ply": 1}}, hist, set()) is None  # before its first decision
    assert unrated_reason({0: a, 1: {**b, "ply": 2}}, hist, set()) == "late_link"
    assert unrated_reason({0: a, 1: {**b, "ply": None}}, hist, set()) is None  # linked before the rule
    assert unrated_reason({0: a, 1: {**b, "address": "x"}}, hist, set()) == "same_address"
    assert unrated_reason({0: a, 1: {**b, "browser": "p"}}, hist, set()) == "same_browser"
    assert unrated_reason({0: a, 1: b}, hist, {1}) is None  # half of seat 1's decisions: not more
    assert unrated_reason({0: a, 1: b}, hist, {1, 3}) == "substitutes"
    assert unrated_reason({0: a, 1: b}, hist, set(), hinted=True) == "hints"


def test_a_rematch_counts_as_a_table_made(db_url):
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app
    from thieves.server.limits import Limits

    app = create_app(db_url, bot_delay=0, limits=Limits(tables_per_address=1))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], options={"rounds": 1})
        _play_out(c, t["id"], {"0": t["tokens"]["0"]})
        r = c.post(f"/api/tables/{t['id']}/rematch", json={"token": t["tokens"]["0"]})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"


def test_a_table_where_a_seat_asked_for_a_hint_is_not_rated(client):
    """A hint before any profile is linked is allowed; the table then never counts,
    even when both seats link before their first decision."""
    ann, bea = profile(client, "Ann"), profile(client, "Bea")
    t = new_table(client, 2, options={"rounds": 1})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    r = client.post(f"/api/tables/{tid}/hint", json={"token": tok0})
    assert r.status_code == 200, r.text
    link(client, tid, tok0, ann["key"])
    link(elsewhere(client), tid, tok1, bea["key"])
    # what the others are sent does not say who asked
    assert "hinted" not in client.get(f"/api/tables/{tid}/view").text
    _play_out(client, tid, t["tokens"])
    assert client.get(f"/api/tables/{tid}/view").json()["terminal"]
    assert _unrated(client, tid, ann["key"], ann["id"]) == "hints"
    assert "asked for hints" in client.get(f"/p/{bea['id']}").text
