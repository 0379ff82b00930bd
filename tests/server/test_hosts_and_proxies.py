"""A Host allow-list against DNS rebinding (HTTP and websockets), and
X-Forwarded-For read only from the proxies configured as trusted."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from thieves.server.app import create_app, host_allow_list
from thieves.server.limits import Limits

GAME = {"game": "toy-bids", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def test_the_allow_list_comes_from_the_public_url_and_the_allowed_hosts():
    assert host_allow_list(None, []) == ["localhost", "127.0.0.1", "[::1]"]
    assert host_allow_list(None, [], "192.168.1.5") == ["localhost", "127.0.0.1", "[::1]", "192.168.1.5"]
    assert host_allow_list(None, [], "0.0.0.0") == ["localhost", "127.0.0.1", "[::1]"]
    assert host_allow_list("https://thieves.example:8443", []) == ["thieves.example"]
    assert host_allow_list("https://thieves.example", ["Play.Example", " "]) == ["play.example", "thieves.example"]
    assert host_allow_list("http://[::1]:8000", []) == ["[::1]"]


def test_a_request_for_another_host_is_refused_without_a_public_url(db_url):
    app = create_app(db_url, bot_delay=0, allowed_hosts=[])  # [], not the tests' list: the default
    evil = {"host": "evil.example", "origin": "http://evil.example"}
    with TestClient(app, base_url="http://127.0.0.1") as c:
        r = c.post("/api/tables", json=GAME, headers=evil)
        assert r.status_code == 400 and "host" in r.text.lower()
        assert c.get("/", headers={"host": "evil.example:8000"}).status_code == 400
        assert c.get("/", headers={"host": "localhost:8000"}).status_code == 200
        assert c.get("/", headers={"host": "[::1]:8000"}).status_code == 200
        r = c.post("/api/tables", json=GAME)  # Host 127.0.0.1
        assert r.status_code == 201
        tid = r.json()["id"]
        with pytest.raises(WebSocketDenialResponse):
            with c.websocket_connect(f"/ws/{tid}", headers=evil):
                pass
        with c.websocket_connect(f"ws://127.0.0.1/ws/{tid}") as ws:
            assert ws.receive_json()["type"] == "state"


def test_allowed_hosts_and_the_public_url_replace_the_local_names(db_url):
    app = create_app(db_url, bot_delay=0, public_url="https://thieves.example", allowed_hosts=["*.lan"])
    with TestClient(app, base_url="https://thieves.example") as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"host": "box.lan"}).status_code == 200
        assert c.get("/", headers={"host": "127.0.0.1"}).status_code == 400


def _creations(db_url, trusted, forwarded):
    app = create_app(db_url, bot_delay=0, limits=Limits(tables_per_address=1), trusted_proxies=trusted)
    codes = []
    with TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 5000)) as c:
        for address in forwarded:
            codes.append(c.post("/api/tables", json=GAME, headers={"x-forwarded-for": address}).status_code)
    return codes


def test_x_forwarded_for_is_read_only_from_trusted_proxies(db_url):
    # no trusted proxy (the default): the header is anyone's to set, the peer counts
    assert _creations(db_url, None, ["1.1.1.1", "2.2.2.2"]) == [201, 429]
    # the local proxy is trusted: each forwarded address has its own limit
    assert _creations(db_url, ["127.0.0.1"], ["3.3.3.3", "4.4.4.4", "3.3.3.3"]) == [201, 201, 429]


def test_serve_takes_hosts_and_proxies_from_the_command_line():
    from thieves.cli.main import build_parser

    args = build_parser().parse_args(["serve", "--allowed-host", "a.example", "--allowed-host", "b.example",
                                      "--trusted-proxy", "10.0.0.1"])
    assert args.allowed_host == ["a.example", "b.example"] and args.trusted_proxy == ["10.0.0.1"]
    args = build_parser().parse_args(["serve"])
    assert args.allowed_host is None and args.trusted_proxy is None
