"""Web hygiene: other sites' pages cannot act, the API reads JSON only, seat
pages are never cached, links use the configured address, frames over the
limit are refused before they are read, static files are compressed and cached."""
from __future__ import annotations

import json
import re
import signal

import httpx
import pytest
from starlette.testclient import WebSocketDenialResponse

from thieves.server.app import create_app

from .conftest import TestClient, new_table
from .test_durability import _free_port, _start

BODY = {"game": "toy-bids", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "options": {}}
EVIL = {"origin": "http://evil.example"}


def test_other_sites_cannot_create_tables_or_take_seats(client):
    r = client.post("/api/tables", json=BODY, headers=EVIL)
    assert r.status_code == 403 and r.json()["error"] == "forbidden_origin"
    r = client.post("/tables", data={"game": "toy-bids", "players": "2", "seat_0": "you"}, headers=EVIL)
    assert r.status_code == 403
    for headers in ({"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"}, {"origin": "null"},
                    {"origin": "null", "sec-fetch-site": "cross-site"}):
        r = client.post("/api/tables", json=BODY, headers=headers)
        assert r.status_code == 403, headers
    assert client.get("/api/tables").json() == []  # nothing was made
    t = new_table(client, 2, [{"kind": "human"}, {"kind": "open"}])
    r = client.post(f"/api/tables/{t['id']}/seats/1/claim", json={}, headers=EVIL)
    assert r.status_code == 403
    r = client.post(f"/t/{t['id']}/join/1", data={"name": "x"}, headers=EVIL)
    assert r.status_code == 403
    r = client.post(f"/api/tables/{t['id']}/actions", json={"token": t["tokens"]["0"], "action": "bid 1"},
                    headers=EVIL)
    assert r.status_code == 403
    assert client.get(f"/api/tables/{t['id']}/view").json()["ply"] == 0
    # this site's own pages (and programs that send no Origin) are let in
    r = client.post("/api/tables", json=BODY, headers={"origin": "http://127.0.0.1"})
    assert r.status_code == 201 and r.headers["cache-control"] == "no-store"
    # what Chromium sends for our own forms under Referrer-Policy: no-referrer
    r = client.post("/api/tables", json=BODY, headers={"origin": "null", "sec-fetch-site": "same-origin"})
    assert r.status_code == 201


def test_the_json_api_reads_only_json(client):
    t = new_table(client, 2)
    for headers, body in (({"content-type": "text/plain"}, json.dumps(BODY)),
                          ({"content-type": "application/x-www-form-urlencoded"}, "game=toy-bids"),
                          ({"content-type": "multipart/form-data; boundary=x"}, "--x--")):
        r = client.post("/api/tables", content=body, headers=headers)
        assert r.status_code == 415 and r.json()["error"] == "unsupported_media_type", headers
    r = client.post(f"/api/tables/{t['id']}/actions", content=json.dumps({"token": t["tokens"]["0"],
                    "action": "bid 1"}), headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/tables", content=json.dumps(BODY),
                    headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201


def test_websockets_from_other_sites_are_refused(client):
    t = new_table(client, 2)
    with pytest.raises(WebSocketDenialResponse) as info:
        with client.websocket_connect(f"/ws/{t['id']}?token={t['tokens']['0']}", headers=EVIL):
            pass
    assert info.value.status_code == 403 and info.value.json()["error"] == "forbidden_origin"
    with client.websocket_connect(f"/ws/{t['id']}", headers={"origin": "http://testserver"}) as w:
        assert w.receive_json()["type"] == "state"


def test_seat_pages_are_never_cached(client):
    t = new_table(client, 2)
    seat = client.get(f"/t/{t['id']}/s/{t['tokens']['0']}")
    assert seat.status_code == 200 and seat.headers["cache-control"] == "no-store"
    assert client.get(f"/t/{t['id']}/s/{t['tokens']['0']}/replay").headers["cache-control"] == "no-store"
    assert "no-store" not in client.get(f"/t/{t['id']}").headers.get("cache-control", "")


def test_links_come_from_the_configured_public_address(db_url):
    app = create_app(db_url, bot_delay=0, public_url="https://thieves.example/")
    with TestClient(app, base_url="http://127.0.0.1") as c:
        form = {"game": "toy-bids", "players": "2", "seat_0": "you", "seat_1": "you"}
        # a host the server does not answer to is refused (see test_hosts_and_proxies)
        assert c.post("/tables", data=form, headers={"origin": "https://thieves.example",
                                                     "host": "attacker.example"}).status_code == 400
        # another host it answers to (the tests' 127.0.0.1) never makes the links
        r = c.post("/tables", data=form, headers={"origin": "https://thieves.example"})
        assert r.status_code == 201 and "no-store" in r.headers["cache-control"]
        assert "https://thieves.example/t/" in r.text and "127.0.0.1" not in r.text
        # the public address is this site: the local origin is another one now
        assert c.post("/api/tables", json=BODY, headers={"origin": "http://127.0.0.1"}).status_code == 403
        assert re.search(r"https://thieves\.example/t/([\w-]+)/s/([\w-]+)", r.text)
        r = c.post("/tables", data={**form, "seat_1": "open"}, headers={"origin": "https://thieves.example"},
                   follow_redirects=False)
        tid = r.headers["location"].split("/")[2]
        page = c.get(r.headers["location"])  # the invitation link
        assert f"https://thieves.example/t/{tid}" in page.text and "http://127.0.0.1" not in page.text


def test_static_files_are_compressed_and_cached(client):
    r = client.get("/static/table.js", headers={"accept-encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert "max-age" in r.headers["cache-control"] and r.headers.get("etag")
    again = client.get("/static/table.js", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304


@pytest.mark.slow  # a real server process
def test_a_frame_over_the_limit_is_refused_before_it_is_read(tmp_path):
    websockets = pytest.importorskip("websockets.sync.client")
    port = _free_port()
    proc = _start(port, f"sqlite:///{tmp_path / 'big.db'}")
    try:
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=BODY)
        tid = r.json()["id"]
        with websockets.connect(f"ws://127.0.0.1:{port}/ws/{tid}", max_size=None) as ws:
            json.loads(ws.recv())
            ws.send("x" * (1 << 20))  # 1 MiB: over the 64 KiB frame limit
            with pytest.raises(Exception):
                while True:
                    ws.recv(timeout=5)
            assert ws.close_code == 1009  # "message too big", from the protocol layer
        assert httpx.get(f"http://127.0.0.1:{port}/api/tables/{tid}/view").status_code == 200
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
