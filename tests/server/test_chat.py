"""The table chat: seats and spectators over the socket and the API, its
limits, text kept as typed (never markup), storage across a restart, the
replay, several processes, and nothing of the game in it."""
from __future__ import annotations

import asyncio
import json
import os

import pytest
from fastapi.testclient import TestClient

from thieves import Replay
from thieves.server.app import create_app
from thieves.server.chat import clean_text
from thieves.server.i18n import LANGS, UI
from thieves.server.limits import Limits

from .conftest import new_table

KEYS = {"type", "id", "at", "ply", "seat", "spectator", "name", "text"}


def say(client, tid, text, token=None, name=None):
    body = {"text": text}
    if token is not None:
        body["token"] = token
    if name is not None:
        body["name"] = name
    return client.post(f"/api/tables/{tid}/chat", json=body)


def chat_frames(sock, n):
    """The next ``n`` chat frames of a socket (other frames are skipped)."""
    out = []
    while len(out) < n:
        msg = sock.receive_json()
        if msg["type"] == "chat":
            out.append(msg)
    return out


def test_a_seat_and_a_spectator_talk_over_the_socket(client):
    t = new_table(client, 2, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}])
    tid, toks = t["id"], t["tokens"]
    with client.websocket_connect(f"/ws/{tid}?token={toks['0']}") as ann, \
            client.websocket_connect(f"/ws/{tid}?token={toks['1']}") as bea, \
            client.websocket_connect(f"/ws/{tid}") as watcher:
        for s in (ann, bea, watcher):
            assert s.receive_json()["type"] == "state"
        ann.send_text(json.dumps({"type": "chat", "text": "good luck", "ref": "r1"}))
        got = [s.receive_json() for s in (ann, bea, watcher)]
        assert got[0] == got[1] == got[2]
        msg = got[0]
        assert set(msg) == KEYS and msg["type"] == "chat"
        assert (msg["seat"], msg["spectator"], msg["name"], msg["text"], msg["ply"]) == (0, False, "Ann", "good luck", 0)
        assert ann.receive_json() == {"type": "chat_sent", "id": msg["id"], "ref": "r1"}
        # a spectator is marked as one, under the name they typed (none: "")
        watcher.send_text(json.dumps({"type": "chat", "text": "hi all", "name": "Ann"}))
        seen = [s.receive_json() for s in (ann, bea, watcher)]
        assert seen[0] == seen[1] == seen[2]
        assert (seen[0]["seat"], seen[0]["spectator"], seen[0]["name"]) == (None, True, "Ann")
        assert watcher.receive_json()["type"] == "chat_sent"
        watcher.send_text(json.dumps({"type": "chat", "text": "anonymous"}))
        assert bea.receive_json()["name"] == ""
    history = client.get(f"/api/tables/{tid}/chat").json()["messages"]
    assert [(m["seat"], m["text"]) for m in history] == [(0, "good luck"), (None, "hi all"), (None, "anonymous")]
    assert history[0]["id"] < history[1]["id"] < history[2]["id"]
    since = client.get(f"/api/tables/{tid}/chat", params={"since": history[0]["id"]}).json()["messages"]
    assert [m["text"] for m in since] == ["hi all", "anonymous"]


def test_a_refused_message_is_told_to_its_sender_alone(client):
    t = new_table(client, 2)
    tid, toks = t["id"], t["tokens"]
    with client.websocket_connect(f"/ws/{tid}?token={toks['0']}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={toks['1']}") as w1:
        w0.receive_json(), w1.receive_json()
        for text, code in [("   \t ", "chat_empty"), ("x" * 301, "chat_too_long"), (7, "malformed")]:
            w0.send_text(json.dumps({"type": "chat", "text": text, "ref": 9}))
            err = w0.receive_json()
            assert err["type"] == "chat_error" and err["code"] == code and err["message"] and err["ref"] == 9
        w1.send_text('{"type": "ping"}')  # seat 1 got nothing of those: its next frame is its pong
        assert w1.receive_json()["type"] == "pong"
        # the socket still plays: a refused chat message changes nothing
        w0.send_text(json.dumps({"type": "action", "action": "bid 2"}))
        assert w0.receive_json()["ply"] == 1
    assert client.get(f"/api/tables/{tid}/chat").json()["messages"] == []


def test_length_limit_counts_the_kept_text(client):
    t = new_table(client, 2)
    tid, tok = t["id"], t["tokens"]["0"]
    assert say(client, tid, "é" * 300, tok).status_code == 201
    r = say(client, tid, "x" * 301, tok)
    assert r.status_code == 400 and r.json()["error"] == "chat_too_long" and "300" in r.json()["message"]
    # what is removed does not count: 300 letters with control characters around them
    assert say(client, tid, "\x00" + "y" * 300 + "\u202e", tok).status_code == 201
    for blank in ["", "   ", "\n\t", "\x00\x01"]:
        r = say(client, tid, blank, tok)
        assert r.status_code == 400 and r.json()["error"] == "chat_empty"
    assert say(client, tid, None, tok).json()["error"] == "malformed"
    assert len(client.get(f"/api/tables/{tid}/chat").json()["messages"]) == 2


def test_rate_per_sender(db_url):
    limits = Limits(chat_messages=3, chat_window=60)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2)
        tid, toks = t["id"], t["tokens"]
        for i in range(3):
            assert say(c, tid, f"m{i}", toks["0"]).status_code == 201
        r = say(c, tid, "one more", toks["0"])
        assert r.status_code == 429 and r.json()["error"] == "chat_rate"
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        # another sender has its own count: the other seat, a spectator
        assert say(c, tid, "me too", toks["1"]).status_code == 201
        assert say(c, tid, "watching", name="Zoe").status_code == 201
        texts = [m["text"] for m in c.get(f"/api/tables/{tid}/chat").json()["messages"]]
        assert texts == ["m0", "m1", "m2", "me too", "watching"]  # the refused one is not kept


def test_a_cap_on_the_messages_kept(db_url):
    limits = Limits(chat_stored=3, chat_messages=0)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2)
        tid, tok = t["id"], t["tokens"]["0"]
        for i in range(3):
            assert say(c, tid, f"m{i}", tok).status_code == 201
        r = say(c, tid, "too many", tok)
        assert r.status_code == 409 and r.json()["error"] == "chat_full"
        other = new_table(c, 2)  # the cap is per table
        assert say(c, other["id"], "fresh", other["tokens"]["0"]).status_code == 201
        assert c.get(f"/api/tables/{tid}/chat").json()["limits"]["stored"] == 3


@pytest.mark.parametrize("typed, kept", [
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),
    ("<b>x</b> & \"q\"", "<b>x</b> & \"q\""),
    ("line\nbreak\ttab", "line break tab"),
    ("a\x00b\x07c\x1b[31md\x7f", "abc[31md"),
    ("\u202eevil\u202c \u2066iso\u2069", "evil iso"),
    ("  spaced  ", "spaced"),
    ("e\u0301", "\u00e9"),
])
def test_text_is_kept_as_typed_less_control_characters(client, typed, kept):
    assert clean_text(typed) == kept
    t = new_table(client, 2)
    r = say(client, t["id"], typed, t["tokens"]["0"])
    assert r.status_code == 201 and r.json()["text"] == kept
    # markup travels as text in JSON: the page shows it with textContent (browser test)
    assert client.get(f"/api/tables/{t['id']}/chat").json()["messages"][0]["text"] == kept


def test_spectator_names_are_cleaned_and_marked(client):
    t = new_table(client, 2)
    tid = t["id"]
    r = say(client, tid, "hello", name="<script>Eve</script>" + "x" * 60)
    m = r.json()
    assert m["spectator"] is True and m["seat"] is None
    assert "<" not in m["name"] and len(m["name"]) <= 32
    # a bad seat link is refused, not taken for a spectator
    r = say(client, tid, "hello", token="forged")
    assert r.status_code == 403 and r.json()["error"] == "bad_token"


def test_chat_survives_a_restart(db_url):
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}])
        tid, tok = t["id"], t["tokens"]["0"]
        assert say(c, tid, "before the restart", tok).status_code == 201
        assert say(c, tid, "me too", name="Zoe").status_code == 201
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        msgs = c.get(f"/api/tables/{tid}/chat").json()["messages"]
        assert [(m["seat"], m["name"], m["text"]) for m in msgs] == [
            (0, "Ann", "before the restart"), (None, "Zoe", "me too")]
        assert say(c, tid, "after", tok).json()["id"] > msgs[-1]["id"]


def test_the_chat_table_is_added_to_an_older_database(db_url):
    """A database made before the chat existed gets its table at start."""
    import sqlalchemy as sa

    from thieves.server.storage import Storage

    st = Storage(db_url)
    st.chat.drop(st.engine)
    assert not sa.inspect(st.engine).has_table(st.chat.name)
    st.close()
    st = Storage(db_url)
    assert sa.inspect(st.engine).has_table(st.chat.name)
    st.close()


def test_the_replay_has_the_messages_at_their_moves(client):
    t = new_table(client, 2, options={"rounds": 1})
    tid, toks = t["id"], t["tokens"]
    say(client, tid, "before any move", toks["0"])
    client.post(f"/api/tables/{tid}/actions", json={"token": toks["0"], "action": "bid 3"})
    say(client, tid, "after one", name="Zoe")
    client.post(f"/api/tables/{tid}/actions", json={"token": toks["1"], "action": "bid 1"})
    say(client, tid, "gg", toks["1"])
    r = client.get(f"/api/tables/{tid}/replay.json")
    assert r.status_code == 200
    data = json.loads(r.text)
    assert [(m["ply"], m["seat"], m["spectator"], m["text"]) for m in data["chat"]] == [
        (0, 0, False, "before any move"), (1, None, True, "after one"), (2, 1, False, "gg")]
    assert Replay.from_json(r.text).actions == [[0, "bid 3"], [1, "bid 1"]]  # readers skip the chat
    # the replay page has the chat card, read-only
    page = client.get(f"/t/{tid}/replay").text
    assert 'id="chat"' in page and 'data-mode="replay"' in page and "chat-form" not in page


def test_the_table_page_has_the_chat_card(client):
    t = new_table(client, 2)
    seat_page = client.get(t["urls"]["0"]).text
    assert 'id="chat"' in seat_page and 'id="chat-text"' in seat_page and "/static/chat.js" in seat_page
    assert 'id="chat-name"' not in seat_page  # a seat writes under its seat's name
    watch_page = client.get(f"/t/{t['id']}").text
    assert 'id="chat-name"' in watch_page
    assert client.get("/static/chat.js").status_code == 200 and client.get("/static/chat.css").status_code == 200


def test_messages_carry_nothing_of_the_game(client):
    """While a seat's bid is secret, its chat message says only what it typed:
    the same frame reaches every viewer, with the public move number only."""
    t = new_table(client, 3)
    tid, toks = t["id"], t["tokens"]
    client.post(f"/api/tables/{tid}/actions", json={"token": toks["1"], "action": "bid 3"})
    with client.websocket_connect(f"/ws/{tid}?token={toks['1']}") as w1, \
            client.websocket_connect(f"/ws/{tid}?token={toks['2']}") as w2, \
            client.websocket_connect(f"/ws/{tid}") as ws:
        for s in (w1, w2, ws):
            s.receive_json()
        w1.send_text(json.dumps({"type": "chat", "text": "hmm"}))
        frames = [s.receive_text() for s in (w1, w2, ws)]
    assert frames[0] == frames[1] == frames[2]
    msg = json.loads(frames[0])
    assert set(msg) == KEYS and msg["ply"] == 1 and msg["text"] == "hmm"
    assert "bid" not in frames[0] and toks["1"] not in frames[0]


def test_messages_from_another_process_reach_this_ones_sockets(client):
    """With several processes a message goes through the shared channel like a
    table change: the others send it to their own sockets as it came."""
    t = new_table(client, 2)
    tid = t["id"]
    platform = client.app.state.platform
    sent: list[tuple[str, dict]] = []

    class Shared:  # stands for shared.Fanout: what this process tells the others
        def say(self, table_id, message):
            sent.append((table_id, message))

        def announce(self, *args, **kw):
            pass

    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.receive_json()
        platform.shared = Shared()
        try:
            r = say(client, tid, "from here", t["tokens"]["0"])
        finally:
            platform.shared = None
        assert sent == [(tid, {k: v for k, v in r.json().items()})]
        assert ws.receive_json()["text"] == "from here"
        other = {"id": 999, "at": 1.0, "ply": 0, "seat": 1, "spectator": False, "name": "Bea", "text": "<i>hi</i>"}
        client.portal.call(_on_message, platform, tid, {"table": tid, "chat": other})
        assert ws.receive_json() == {"type": "chat", **other}
        # anything else on the channel under "chat" is dropped, not sent on
        client.portal.call(_on_message, platform, tid, {"table": tid, "chat": {"id": "x", "text": 3}})
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json()["type"] == "pong"


async def _on_message(platform, tid, change):
    platform.on_message(tid, change, "another-process")
    await asyncio.sleep(0.05)


def test_the_shared_channel_carries_chat_as_a_change():
    from thieves.server.shared import Fanout

    f = Fanout.__new__(Fanout)
    queued = []
    f._queue = lambda change, letters=None: queued.append(change)  # type: ignore[method-assign]
    f.say("t1", {"id": 1, "text": "x"})
    assert queued == [{"table": "t1", "chat": {"id": 1, "text": "x"}}]
    seen = []
    f.me = "me"
    f._mine = b'{"from": "me"'
    f._letters = {}
    f._read(json.dumps({"from": "other", "changes": queued}).encode(), lambda t, c, s: seen.append((t, c, s)))
    assert seen == [("t1", {"table": "t1", "chat": {"id": 1, "text": "x"}}, "other")]


def test_chat_texts_exist_in_every_language():
    keys = {k for k in UI["en"] if k.startswith(("chat", "err_chat"))}
    assert len(keys) >= 20
    for lang in LANGS:
        assert keys <= set(UI[lang]), lang
        assert all(UI[lang][k] for k in keys)


def test_chat_limits_come_from_the_environment():
    lim = Limits.from_env({"THIEVES_CHAT_CHARS": "120", "THIEVES_CHAT_MESSAGES": "2",
                           "THIEVES_CHAT_WINDOW": "30", "THIEVES_CHAT_STORED": "0"})
    assert (lim.chat_chars, lim.chat_messages, lim.chat_window, lim.chat_stored) == (120, 2, 30.0, 0)
    assert (Limits().chat_chars, Limits().chat_messages, Limits().chat_window, Limits().chat_stored) == (300, 5, 10.0, 500)


@pytest.mark.slow  # a real server process
def test_two_processes_share_the_chat_through_redis(tmp_path):
    """Two ``thieves serve`` processes on one database with Redis: a message
    written to one reaches a socket of the other (skipped without Redis)."""
    import secrets
    import subprocess
    import sys
    import time

    import httpx

    from .test_several_processes import ROOT, _free_port, _redis_answers

    websockets = pytest.importorskip("websockets.sync.client")
    if not _redis_answers():
        pytest.skip("no Redis server answers at 127.0.0.1:6379")
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    prefix = f"c{secrets.token_hex(4)}_"
    procs, ports = [], []
    try:
        for _ in range(2):
            port = _free_port()
            code = ("import sys; import tests.core.toy_game; from thieves.cli.main import main; "
                    f"sys.exit(main(['serve', '--host', '127.0.0.1', '--port', '{port}', '--database-url', {url!r},"
                    " '--redis-url', 'redis://127.0.0.1:6379/0']))")
            env = dict(os.environ, THIEVES_BOT_DELAY="0", THIEVES_TABLE_PREFIX=prefix,
                       PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "src")]))
            procs.append(subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            ports.append(port)
            deadline = time.time() + 40
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.time() < deadline, "server did not start"
                time.sleep(0.2)
        a, b = (f"http://127.0.0.1:{p}" for p in ports)
        t = httpx.post(a + "/api/tables", json={"game": "toy-bids", "players": 2,
                                                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]}).json()
        with websockets.connect(f"ws://127.0.0.1:{ports[1]}/ws/{t['id']}") as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            time.sleep(0.3)  # both listeners subscribed
            r = httpx.post(a + f"/api/tables/{t['id']}/chat", json={"token": t["tokens"]["0"], "text": "across"})
            assert r.status_code == 201
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg["type"] == "chat":
                    break
            assert msg == {"type": "chat", **r.json()}
        assert [m["text"] for m in httpx.get(b + f"/api/tables/{t['id']}/chat").json()["messages"]] == ["across"]
    finally:
        for p in procs:
            p.kill()
            p.wait(10)


def test_a_seat_that_kept_its_default_name_is_named_by_each_reader(client):
    # "Player 2" is the server's English default: the message carries no name, and
    # each page names the seat in its own language (chat.js: T.player_n)
    t = new_table(client, 2, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    r = say(client, t["id"], "hello", token=t["tokens"]["1"])
    assert r.status_code == 201, r.text
    assert (r.json()["seat"], r.json()["name"]) == (1, "")
    assert say(client, t["id"], "hi", token=t["tokens"]["0"]).json()["name"] == "Ann"
