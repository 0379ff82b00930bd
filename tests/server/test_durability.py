"""Durability: an accepted action is stored first; a killed server loses nothing."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from thieves.server.app import create_app

from .conftest import TestClient, new_table

ROOT = Path(__file__).resolve().parents[2]


def test_an_action_that_cannot_be_stored_is_refused(client):
    t = new_table(client, 2)
    tid, tok = t["id"], t["tokens"]["0"]
    platform = client.app.state.platform

    def broken(*args, **kwargs):
        raise OSError("disk full")

    platform.storage.add_action = broken
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": "bid 2"})
    assert r.status_code == 503 and r.json()["error"] == "storage"
    v = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    assert v["ply"] == 0 and v["observation"]["my_bid"] is None and v["chosen"] == []


def test_tables_resume_in_a_new_app_on_the_same_database(db_url):
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        t = new_table(c, 3, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
                      options={"rounds": 4})
        tid, toks = t["id"], t["tokens"]
        c.post(f"/api/tables/{tid}/actions", json={"token": toks["0"], "action": "bid 1"})
        before = {k: c.get(f"/api/tables/{tid}/view", params={"token": v}).json() for k, v in toks.items()}
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        after = {k: c.get(f"/api/tables/{tid}/view", params={"token": v}).json() for k, v in toks.items()}
        assert after == before


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(port: int, url: str) -> subprocess.Popen:
    code = ("import sys; import tests.core.toy_game, tests.server.svg_game; from thieves.cli.main import main; "
            f"sys.exit(main(['serve', '--host', '127.0.0.1', '--port', '{port}', '--database-url', {url!r}]))")
    env = dict(os.environ, THIEVES_BOT_DELAY="0", PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "src")]))
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError("server exited: " + proc.stderr.read().decode())
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("server did not start")


@pytest.mark.slow  # a real server process
def test_kill_9_loses_no_accepted_action(tmp_path):
    url = f"sqlite:///{tmp_path / 'killed.db'}"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(port, url)
    try:
        r = httpx.post(f"{base}/api/tables", json={
            "game": "toy-bids", "players": 3, "options": {"rounds": 5},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]})
        assert r.status_code == 201
        tid, toks = r.json()["id"], r.json()["tokens"]
        for action in ("bid 1", "bid 2"):
            assert httpx.post(f"{base}/api/tables/{tid}/actions",
                              json={"token": toks["0"], "action": action}).status_code == 200
            assert httpx.post(f"{base}/api/tables/{tid}/actions",
                              json={"token": toks["1"], "action": "bid 3"}).status_code == 200
        # one more secret choice, accepted just before the crash
        assert httpx.post(f"{base}/api/tables/{tid}/actions",
                          json={"token": toks["1"], "action": "bid 2"}).status_code == 200
        views = {k: httpx.get(f"{base}/api/tables/{tid}/view", params={"token": v}).json()
                 for k, v in toks.items()}
        spectator = httpx.get(f"{base}/api/tables/{tid}/view").json()
        assert views["0"]["ply"] == 8  # the bot chose first in each round
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    proc = _start(port, url)
    try:
        again = {k: httpx.get(f"{base}/api/tables/{tid}/view", params={"token": v}).json()
                 for k, v in toks.items()}
        assert again == views
        assert httpx.get(f"{base}/api/tables/{tid}/view").json() == spectator
        assert again["1"]["observation"]["my_bid"] == 2 and again["1"]["chosen"] == [1, 2]
        # the game goes on where it was
        r = httpx.post(f"{base}/api/tables/{tid}/actions", json={"token": toks["0"], "action": "bid 3"})
        assert r.status_code == 200 and r.json()["ply"] == 10  # then the bot again
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)


@pytest.mark.parametrize("bad", ["not a url"])
def test_serve_refuses_a_bad_database_url(bad):
    with pytest.raises(Exception):
        create_app(bad, bot_delay=0)
