"""Hints at the table and the post-game review (server/review.py, static/hint.js)."""
from __future__ import annotations

import time

from thieves.core.svg import wrap
from thieves.server import review as server_review
from thieves.server.i18n import LANGS, UI

from .conftest import new_table


def hint(client, tid, token=None, lang="en"):
    return client.post(f"/api/tables/{tid}/hint?lang={lang}", json={"token": token} if token else {})


def test_a_seated_player_to_act_gets_the_searchs_best_moves_in_words(client):
    t = new_table(client, 2)
    tid, tok = t["id"], t["tokens"]["0"]
    r = hint(client, tid, tok)
    assert r.status_code == 200, r.text
    body = r.json()
    assert r.headers["cache-control"] == "no-store"
    assert 1 <= len(body["candidates"]) <= 3 and body["budget"] == server_review.HINT_BUDGET
    assert {c["action"] for c in body["candidates"]} <= {"bid 1", "bid 2", "bid 3"}
    assert body["text"].startswith("Search suggests: ") and body["candidates"][0]["percent"] in body["text"]
    # the same position gives the same hint (no fishing for another answer)
    assert hint(client, tid, tok).json() == body
    assert hint(client, tid, tok, lang="de").json()["text"].startswith("Die Suche schlägt vor: ")


def test_hints_are_refused_to_spectators_to_seats_not_to_act_and_in_rated_tables(client):
    t = new_table(client, 2)
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    r = hint(client, tid)
    assert (r.status_code, r.json()["error"]) == (403, "hint_spectator")
    assert hint(client, tid, "not-a-token").status_code == 403
    assert client.post(f"/api/tables/{tid}/actions", json={"token": tok0, "action": "bid 2"}).status_code == 200
    r = hint(client, tid, tok0)  # seat 1 has bid, seat 2 not yet: seat 1 has nothing to decide
    assert (r.status_code, r.json()["error"]) == (409, "hint_not_to_act")
    assert hint(client, tid, tok1).status_code == 200
    # a seat linked to a profile: the table may count in the ratings
    key = client.post("/api/profiles", json={"name": "Ann"}).json()["key"]
    assert client.post(f"/api/tables/{tid}/profile", json={"token": tok1, "key": key}).status_code == 200
    r = hint(client, tid, tok1, lang="fr")
    assert (r.status_code, r.json()["error"]) == (403, "hint_rated")
    assert "classement" in UI["fr"]["err_hint_rated"]


def test_hints_are_rate_limited_per_seat(client):
    t = new_table(client, 2)
    codes = [hint(client, t["id"], t["tokens"]["0"]).status_code for _ in range(server_review.HINTS_PER_WINDOW + 1)]
    assert codes[:-1] == [200] * server_review.HINTS_PER_WINDOW
    assert codes[-1] == 429


def test_the_review_waits_for_the_end_then_is_made_and_kept(client):
    t = new_table(client, 2, options={"rounds": 1})
    tid = t["id"]
    r = client.get(f"/api/tables/{tid}/review")
    assert (r.status_code, r.json()["error"]) == (409, "review_not_over")
    for seat, bid in ((0, "bid 1"), (1, "bid 3")):
        assert client.post(f"/api/tables/{tid}/actions", json={"token": t["tokens"][str(seat)], "action": bid}).status_code == 200
    deadline = time.monotonic() + 30
    body = client.get(f"/api/tables/{tid}/review").json()
    while body["status"] != "ready" and time.monotonic() < deadline:
        assert body["status"] == "running"
        time.sleep(0.1)
        body = client.get(f"/api/tables/{tid}/review").json()
    assert body["status"] == "ready" and body["budget"] == server_review.REVIEW_BUDGET
    assert [s["seat"] for s in body["seats"]] == [0, 1]
    for s in body["seats"]:
        assert s["svg"].startswith("<svg") and "polyline" in s["svg"]
    # kept: asked again, the same review
    assert client.get(f"/api/tables/{tid}/review").json() == body
    de = client.get(f"/api/tables/{tid}/review?lang=de").json()
    assert de["about"].startswith("Gewinnchance")


def test_the_pages_load_the_hint_script_and_the_texts_exist_in_every_language(client):
    t = new_table(client, 2)
    assert '<script src="/static/hint.js">' in client.get(f"/t/{t['id']}/s/{t['tokens']['0']}").text
    assert '<script src="/static/hint.js">' in client.get(f"/t/{t['id']}/replay").text
    assert client.get("/static/hint.js").status_code == 200
    keys = set(UI["en"])
    for lang in LANGS:
        assert {k for k in keys if k.startswith(("hint", "review", "err_hint", "err_review"))} <= set(UI[lang])
    for lang in LANGS:
        assert "{action}" in UI[lang]["hint_first"] and "{pct}" in UI[lang]["hint_first"]
        # the graph's axis label fits under the graph in one line, in every language
        assert len(wrap(UI[lang]["review_axis"], 240, 11)) == 1, lang


def test_a_failed_review_is_not_tried_again_in_a_loop(client, monkeypatch):
    calls = []

    def broken(*args, **kwargs):
        calls.append(1)
        raise RuntimeError("a bug")

    monkeypatch.setattr(server_review, "review", broken)
    t = new_table(client, 2, options={"rounds": 1})
    for seat, bid in ((0, "bid 2"), (1, "bid 1")):
        client.post(f"/api/tables/{t['id']}/actions", json={"token": t["tokens"][str(seat)], "action": bid})
    deadline = time.monotonic() + 10
    body = client.get(f"/api/tables/{t['id']}/review").json()
    while body["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
        body = client.get(f"/api/tables/{t['id']}/review").json()
    assert body == {"status": "none"}
    assert client.get(f"/api/tables/{t['id']}/review").json() == {"status": "none"} and len(calls) == 1


def test_a_game_with_a_person_is_reviewed_as_soon_as_it_ends(client):
    """The server's default (THIEVES_REVIEW_AT_END unset): nobody asks, the review is
    made anyway once a table with a person at it is over; bots alone wait to be asked."""
    reviewer = client.app.state.platform.reviewer
    reviewer.at_end = True
    try:
        t = new_table(client, 2, options={"rounds": 1})
        tid = t["id"]
        assert tid not in reviewer.progress
        for seat, bid in ((0, "bid 2"), (1, "bid 1")):
            assert client.post(f"/api/tables/{tid}/actions",
                               json={"token": t["tokens"][str(seat)], "action": bid}).status_code == 200
        deadline = time.monotonic() + 30
        while tid not in reviewer._made and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tid in reviewer._made  # made and kept without a request
        assert client.get(f"/api/tables/{tid}/review").json()["status"] == "ready"
    finally:
        reviewer.at_end = False
