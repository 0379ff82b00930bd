"""Two `thieves serve` processes on one PostgreSQL database, with Redis
fan-out, play one table together: any process serves any table, each change
reaches the sockets of both, and the bots play each move exactly once; a
process whose Redis connection was cut catches up when it subscribes again;
forwarded views go only to the process that shows them. Skipped only when no
PostgreSQL or Redis server answers."""
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

pytestmark = pytest.mark.slow  # real server processes on PostgreSQL and Redis

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


def _start(port: int, prefix: str, bot_delay: str, redis_url: str = REDIS_URL, **env_more: str) -> subprocess.Popen:
    code = ("import sys; import tests.core.toy_game, tests.server.svg_game; from thieves.cli.main import main; "
            f"sys.exit(main(['serve', '--host', '127.0.0.1', '--port', '{port}', '--database-url', {PG_URL!r},"
            f" '--redis-url', {redis_url!r}]))")
    env = dict(os.environ, THIEVES_BOT_DELAY=bot_delay, THIEVES_TABLE_PREFIX=prefix,
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "src")]), **env_more)
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


def _newest(ws, frames: list[dict]) -> dict | None:
    """The newest frame a socket got (reading what has come)."""
    while True:
        try:
            frames.append(json.loads(ws.recv(timeout=0.05)))
        except TimeoutError:
            return frames[-1] if frames else None


def _at(ws, frames: list[dict], ply: int, timeout: float = 10.0) -> bool:
    return bool(_until(lambda: (f := _newest(ws, frames)) is not None and f["ply"] == ply, timeout))


def _three_seats(base: str) -> tuple[str, dict[str, str]]:
    r = httpx.post(f"{base}/api/tables", json={
        "game": "toy-bids", "players": 3, "options": {"rounds": 3}, "seats": [{"kind": "human"}] * 3})
    assert r.status_code == 201
    return r.json()["id"], r.json()["tokens"]


def _bid(base: str, tid: str, token: str) -> int:
    """One bid through ``base``; the table's move number after it."""
    ply = httpx.get(f"{base}/api/tables/{tid}/view", params={"token": token}).json()["ply"]
    r = httpx.post(f"{base}/api/tables/{tid}/actions", json={"token": token, "action": "bid 1", "ply": ply})
    assert r.status_code == 200, r.text
    return ply + 1


def test_a_process_cut_from_redis_catches_up_when_it_subscribes_again(shared_prefix):
    """Redis drops a process's subscriber (its output buffer limit, a restart):
    what the other processes announce meanwhile is lost to it. When it
    subscribes again it reads every table it holds from the database, so its
    sockets reach the new position without waiting for another change."""
    websockets = pytest.importorskip("websockets.sync.client")
    redis = pytest.importorskip("redis")
    ports = [_free_port(), _free_port()]
    name = f"thieves-cut-{secrets.token_hex(4)}"  # A's connections, in CLIENT LIST
    procs = [_start(ports[0], shared_prefix, "0", f"{REDIS_URL}?client_name={name}"),
             _start(ports[1], shared_prefix, "0")]
    a, b = (f"http://127.0.0.1:{p}" for p in ports)
    r = redis.Redis.from_url(REDIS_URL)
    channel = f"thieves:{shared_prefix}changes"
    try:
        tid, tokens = _three_seats(b)
        with websockets.connect(f"ws://127.0.0.1:{ports[0]}/ws/{tid}") as ws:
            frames: list[dict] = []
            assert _at(ws, frames, 0)
            assert _until(lambda: r.pubsub_numsub(channel)[0][1] == 2)
            assert _at(ws, frames, _bid(b, tid, tokens["0"]))  # A follows B's news
            procs[0].send_signal(signal.SIGSTOP)  # A cannot subscribe again until it goes on
            try:
                mine = [c["id"] for c in r.client_list(_type="pubsub") if c.get("name") == name]
                assert len(mine) == 1, r.client_list(_type="pubsub")
                r.execute_command("CLIENT", "KILL", "ID", mine[0])
                assert r.pubsub_numsub(channel)[0][1] == 1  # only B listens now
                ply = _bid(b, tid, tokens["1"])  # announced to nobody
            finally:
                procs[0].send_signal(signal.SIGCONT)
            # no other change comes: A reads the table again once it has subscribed again
            assert _at(ws, frames, ply, timeout=8.0), frames[-1:]
            assert r.pubsub_numsub(channel)[0][1] == 2
        assert httpx.get(f"{a}/api/tables/{tid}/view").json()["ply"] == ply
    finally:
        r.close()
        for proc in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)


def test_forwarded_views_go_only_to_the_process_that_shows_them(shared_prefix):
    """With ``THIEVES_FORWARD_VIEWS=1``: A shows a table's spectators and says
    so; B, which changes the table, sends A the spectators' view, compressed,
    on A's own channel (the news alone on the shared one), and A's socket gets
    exactly that view."""
    websockets = pytest.importorskip("websockets.sync.client")
    redis = pytest.importorskip("redis")
    from thieves.server.shared import unpack_views
    from thieves.server.wsdeflate import FORWARD_BITS, Frames

    ports = [_free_port(), _free_port()]
    procs = [_start(p, shared_prefix, "0", THIEVES_FORWARD_VIEWS="1") for p in ports]
    b = f"http://127.0.0.1:{ports[1]}"
    r = redis.Redis.from_url(REDIS_URL)
    seen = r.pubsub(ignore_subscribe_messages=True)
    seen.psubscribe(f"thieves:{shared_prefix}*")
    channel = f"thieves:{shared_prefix}changes".encode()
    messages: list[dict] = []

    def read() -> list[dict]:
        while (m := seen.get_message(timeout=0.05)) is not None:
            messages.append(m)
        return messages

    def said_watching() -> str | None:
        for m in read():
            if m["channel"] == channel:
                for change in json.loads(m["data"])["changes"]:
                    if change.get("watch") == [["en", "wide"]] and change["table"] == tid:
                        return json.loads(m["data"])["from"]
        return None

    try:
        tid, tokens = _three_seats(b)
        with websockets.connect(f"ws://127.0.0.1:{ports[0]}/ws/{tid}") as ws:
            frames: list[dict] = []
            texts: list[str] = []
            assert _at(ws, frames, 0)
            assert _at(ws, frames, _bid(b, tid, tokens["0"]))
            watcher = _until(said_watching)  # A, after B's first news
            assert watcher and watcher.startswith(f"{procs[0].pid}-")
            time.sleep(0.2)  # B has read it
            ply = _bid(b, tid, tokens["1"])
            assert _until(lambda: (t := ws.recv(timeout=0.05)) and texts.append(t) is None
                          and json.loads(texts[-1])["ply"] == ply, 10)
        read()
        letters = [unpack_views(m["data"]) for m in messages if m["channel"] != channel]
        assert {m["channel"] for m in messages} == {channel, f"thieves:{shared_prefix}to:{watcher}".encode()}
        assert len(letters) == 1 and letters[0] is not None
        sender, views = letters[0]
        assert not sender.startswith(f"{procs[0].pid}-")  # from B
        [(key, shown)] = views.items()
        assert key[0] == tid and key[1][0] == ply and [v[:2] for v in shown] == [("en", "wide")]
        assert Frames.from_deflated(shown[0][2], FORWARD_BITS).text == texts[-1]
        for m in messages:  # the shared channel carries no views
            if m["channel"] == channel:
                assert all("views" not in c for c in json.loads(m["data"])["changes"])
    finally:
        seen.close()
        r.close()
        for proc in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)


def test_another_process_takes_the_bots_over_soon_after_one_dies(shared_prefix):
    """docs/server.md: a killed process's bots are taken over within ~10 s."""
    ports = [_free_port(), _free_port()]
    procs = [_start(p, shared_prefix, "0.2") for p in ports]
    a, b = (f"http://127.0.0.1:{p}" for p in ports)
    try:
        r = httpx.post(f"{a}/api/tables", json={
            "game": "thiefs-market", "players": 3,  # long enough: hundreds of decisions
            "seats": [{"kind": "bot", "bot": "random"}] * 3})
        assert r.status_code == 201
        tid = r.json()["id"]

        def ply() -> int:
            return int(httpx.get(f"{b}/api/tables/{tid}/view").json()["ply"])

        # the process that made the table plays its bots; the other one holds it too
        assert _until(lambda: ply() >= 6)
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(10)
        killed = time.time()
        before = ply()
        assert _until(lambda: ply() > before + 1, timeout=20.0), "the bots were not taken over"
        took = time.time() - killed
        print(f"taken over after {took:.1f} s")
        assert took < 10.0, f"the bots were taken over after {took:.1f} s"
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait(10)
