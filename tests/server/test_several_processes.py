"""Two `thieves serve` processes on one PostgreSQL database, with Redis
fan-out, play one table together: any process serves any table, each change
reaches the sockets of both, and the bots play each move exactly once.
Skipped only when no PostgreSQL or Redis server answers."""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from thieves.server.storage import Storage

from .test_postgres import PG_URL, _pg_answers

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = "redis://127.0.0.1:6379/0"


def _redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def shared_prefix():
    if not _pg_answers():
        pytest.skip("no PostgreSQL server answers at 127.0.0.1:5432 (database 'test')")
    if not _redis_answers():
        pytest.skip("no Redis server answers at 127.0.0.1:6379")
    prefix = f"t{secrets.token_hex(4)}_"
    yield prefix
    Storage(PG_URL, prefix=prefix).drop_all()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(port: int, prefix: str, bot_delay: str) -> subprocess.Popen:
    code = ("import sys; import tests.core.toy_game, tests.server.svg_game; from thieves.cli.main import main; "
            f"sys.exit(main(['serve', '--host', '127.0.0.1', '--port', '{port}', '--database-url', {PG_URL!r},"
            f" '--redis-url', {REDIS_URL!r}]))")
    env = dict(os.environ, THIEVES_BOT_DELAY=bot_delay, THIEVES_TABLE_PREFIX=prefix,
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "src")]))
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 40
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError("server exited: " + proc.stderr.read().decode()[-3000:])
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("server did not start")


def _until(check, timeout=10.0):
    deadline = time.time() + timeout
    while True:
        value = check()
        if value or time.time() > deadline:
            return value
        time.sleep(0.05)


@pytest.mark.parametrize("bot_delay", ["0", "0.05"])
def test_two_processes_play_one_table(shared_prefix, bot_delay):
    websockets = pytest.importorskip("websockets.sync.client")
    ports = [_free_port(), _free_port()]
    procs = [_start(p, shared_prefix, bot_delay) for p in ports]
    a, b = (f"http://127.0.0.1:{p}" for p in ports)
    try:
        r = httpx.post(f"{a}/api/tables", json={
            "game": "toy-bids", "players": 3, "options": {"rounds": 3},
            "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]})
        assert r.status_code == 201
        tid, tok0 = r.json()["id"], r.json()["tokens"]["0"]
        # the other process serves the table made here, and takes its open seat
        r = httpx.post(f"{b}/api/tables/{tid}/seats/1/claim", json={"name": "Bea"})
        assert r.status_code == 201
        tok1 = r.json()["token"]
        assert _until(lambda: httpx.get(f"{a}/api/tables/{tid}/view").json()["seats"][1]["name"] == "Bea")
        stack = contextlib.ExitStack()
        spectators = [stack.enter_context(websockets.connect(f"ws://127.0.0.1:{p}/ws/{tid}")) for p in ports]
        frames: list[list[dict]] = [[], []]

        def newest(i):
            ws = spectators[i]
            while True:
                try:
                    frames[i].append(json.loads(ws.recv(timeout=0.05)))
                except TimeoutError:
                    return frames[i][-1] if frames[i] else None

        for rnd in range(3):
            ply = _until(lambda: (v := httpx.get(f"{b}/api/tables/{tid}/view", params={"token": tok1}).json())
                         ["to_act"] == [0, 1] and v["ply"])
            assert ply, "the bot did not play"
            r0 = httpx.post(f"{a}/api/tables/{tid}/actions", json={"token": tok0, "action": "bid 1", "ply": ply})
            r1 = httpx.post(f"{b}/api/tables/{tid}/actions", json={"token": tok1, "action": "bid 2", "ply": ply})
            assert r0.status_code == 200 and r1.status_code == 200, (r0.text, r1.text)
            # both processes' sockets see the same newest position, with no reload
            want = ply + (2 if rnd == 2 else 3)
            for i in (0, 1):
                assert _until(lambda: (f := newest(i)) is not None and f["ply"] == want), (i, frames[i][-1:])
        views = [httpx.get(f"{base}/api/tables/{tid}/view", params={"token": tok0}).json() for base in (a, b)]
        assert views[0] == views[1] and views[0]["terminal"]
        for i in (0, 1):
            plies = [f["ply"] for f in frames[i]]
            assert plies == sorted(plies)
        stack.close()
        stored = Storage(PG_URL, prefix=shared_prefix).load_actions(tid)
        assert len(stored) == 9 and sorted(p for p, _ in stored) == [0] * 3 + [1] * 3 + [2] * 3
        assert httpx.get(f"{b}/api/tables/{tid}/replay.json").json()["actions"] == stored
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
