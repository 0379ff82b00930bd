"""Review of the browser platform: hostile input, double sends, unknown commit
outcomes, failing storage and bots, frame order, names on the board, texts."""
from __future__ import annotations

import asyncio
import json
import time
import re
from pathlib import Path

import pytest

from thieves.server.i18n import ERRORS, LANGS, UI
from thieves.server.storage import Storage
from thieves.server.tables import TableManager
from thieves.server.websocket import Conn, Hub

from .conftest import new_table

SERVER = Path(__file__).resolve().parents[2] / "src" / "thieves" / "server"


def view(client, tid, tok=None):
    return client.get(f"/api/tables/{tid}/view", params={"token": tok} if tok else {}).json()


# -- bad input -------------------------------------------------------------------------
def test_deeply_nested_json_is_malformed_not_a_crash(client):
    t = new_table(client, 2)
    tid, tok = t["id"], t["tokens"]["0"]
    deep = b'{"a":' * 5_000 + b"1" + b"}" * 5_000  # under the size limit, far over the nesting one
    assert len(deep) < 64 * 1024
    for url in ("/api/tables", f"/api/tables/{tid}/actions", f"/api/tables/{tid}/seats/0/claim"):
        r = client.post(url, content=deep, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"] == "malformed", url
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as w:
        w.receive_json()
        w.send_text("[" * 5000 + "]" * 5000)
        assert w.receive_json()["code"] == "malformed"
        w.send_text('{"type": "ping"}')  # the connection is still alive
        assert w.receive_json()["type"] == "pong"
    assert view(client, tid, tok)["ply"] == 0 and len(client.get("/api/tables").json()) == 1


def test_huge_bodies_and_messages_are_refused(client):
    t = new_table(client, 2)
    tid, tok = t["id"], t["tokens"]["0"]
    big = json.dumps({"token": tok, "action": "bid 1", "pad": "x" * 200_000})
    r = client.post(f"/api/tables/{tid}/actions", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    r = client.post("/tables", content=b"game=" + b"x" * 100_000,
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as w:
        w.receive_json()
        w.send_text(json.dumps({"type": "action", "action": "bid 1", "pad": "x" * 50_000}))
        assert w.receive_json()["code"] == "too_large"
        w.send_bytes(b'{"type": "action", "action": "bid 1"}')
        assert w.receive_json()["code"] == "malformed"
        w.send_text('{"type": "lang", "lang": ["de"]}')  # a wrong type: English, no crash
        assert w.receive_json()["lang"] == "en"
    assert view(client, tid, tok)["ply"] == 0


def test_wrong_types_in_the_address_get_our_error_shape(client):
    t = new_table(client, 2, [{"kind": "human"}, {"kind": "open"}])
    tid = t["id"]
    r = client.post(f"/api/tables/{tid}/seats/abc/claim", json={})
    assert r.status_code == 400 and r.json()["error"] == "bad_request" and r.json()["message"]
    r = client.get(f"/api/tables/{tid}/replay/last")
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = client.post(f"/api/tables/{tid}/actions", json={"token": t["tokens"]["0"], "action": "bid 1",
                                                       "ply": "zero"})
    assert r.json()["error"] == "malformed"
    assert view(client, tid)["ply"] == 0 and not view(client, tid)["seats"][1]["claimed"]


@pytest.mark.parametrize("target", ["/\\evil.example", "//evil.example", "https://evil.example",
                                    "/\t/evil.example"])
def test_language_links_never_redirect_off_site(client, target):
    r = client.get("/lang/fr", params={"next": target}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    r = client.get("/lang/fr", params={"next": "/t/abc"}, follow_redirects=False)
    assert r.headers["location"] == "/t/abc"


def test_form_errors_are_in_the_page_language(client):
    r = client.post("/tables?lang=de", data={"game": "chess", "players": "2"})
    assert r.status_code == 404 and ERRORS["de"]["unknown_game"] in r.text


# -- double sends -------------------------------------------------------------------------
def test_an_action_resent_for_an_old_move_is_not_applied_twice(client):
    t = new_table(client, 2, options={"rounds": 3})
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    with client.websocket_connect(f"/ws/{tid}?token={tok0}") as w0:
        assert w0.receive_json()["ply"] == 0
        r = client.post(f"/api/tables/{tid}/actions", json={"token": tok1, "action": "bid 2", "ply": 0})
        assert r.status_code == 200 and r.json()["ply"] == 1
        assert w0.receive_json()["ply"] == 1
        # seat 1 resends the same request (e.g. its answer was lost): refused
        r = client.post(f"/api/tables/{tid}/actions", json={"token": tok1, "action": "bid 2", "ply": 0})
        assert r.status_code == 409 and r.json()["error"] == "stale"
        # seat 0 chose at move 0 too: seat 1's choice meanwhile does not make it stale
        w0.send_text(json.dumps({"type": "action", "action": "bid 1", "ply": 0}))
        assert w0.receive_json()["ply"] == 2
        w0.send_text(json.dumps({"type": "action", "action": "bid 1", "ply": 0}))  # a double click
        assert w0.receive_json()["code"] == "stale"
        w0.send_text(json.dumps({"type": "action", "action": "bid 1", "ply": 7}))  # from the future
        assert w0.receive_json()["code"] == "stale"
        w0.send_text(json.dumps({"type": "action", "action": "bid 3", "ply": 2}))
        assert w0.receive_json()["ply"] == 3
    v = view(client, tid, tok0)
    assert v["ply"] == 3 and v["observation"]["round"] == 2 and v["observation"]["my_bid"] == 3


def test_concurrent_clients_never_corrupt_a_table(client, db_url):
    """Two seats and a bot all acting at once through many threads: every
    accepted action is stored exactly once, in order, and a restart agrees."""
    from concurrent.futures import ThreadPoolExecutor

    from thieves.server.app import create_app

    from .conftest import TestClient

    t = new_table(client, 3, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
                  options={"rounds": 5})
    tid, toks = t["id"], t["tokens"]

    def hammer(seat_action):
        seat, action = seat_action
        r = client.post(f"/api/tables/{tid}/actions", json={"token": toks[seat], "action": action})
        return r.status_code, r.json().get("error")

    jobs = [(s, f"bid {b}") for _ in range(8) for s in ("0", "1") for b in (1, 2, 3)]
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(hammer, jobs))
    assert {code for code, _ in results} <= {200, 409}
    assert {err for _, err in results} <= {None, "not_your_turn", "game_over"}
    platform = client.app.state.platform
    state = platform.manager.get(tid).state
    assert platform.storage.load_actions(tid) == state.history
    assert state.is_terminal() and state.ply == 15
    before = view(client, tid, toks["0"])
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c2:
        assert view(c2, tid, toks["0"]) == before


# -- storage ------------------------------------------------------------------------------
def test_a_commit_whose_answer_was_lost_still_counts(client):
    t = new_table(client, 2)
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    storage = client.app.state.platform.storage
    real = storage.add_action

    def commits_then_fails(*args):
        real(*args)
        raise ConnectionError("server closed the connection while acknowledging the commit")

    storage.add_action = commits_then_fails
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tok0, "action": "bid 2"})
    assert r.status_code == 200 and r.json()["ply"] == 1  # it is stored, so it counts
    storage.add_action = real
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tok1, "action": "bid 1"})
    assert r.status_code == 200 and r.json()["ply"] == 2  # and the table goes on
    assert storage.load_actions(tid) == [[0, "bid 2"], [1, "bid 1"]]


def test_storage_failures_when_creating_or_joining_change_nothing(client):
    platform = client.app.state.platform

    def broken(*args, **kwargs):
        raise OSError("disk full")

    real_claim = platform.storage.claim_seat
    t = new_table(client, 2, [{"kind": "human"}, {"kind": "open"}])
    platform.storage.claim_seat = broken
    r = client.post(f"/api/tables/{t['id']}/seats/1/claim", json={"name": "Bea"})
    assert r.status_code == 503 and r.json()["error"] == "storage"
    seat = view(client, t["id"])["seats"][1]
    assert not seat["claimed"] and seat["name"] == "Player 2"
    platform.storage.claim_seat = real_claim
    assert client.post(f"/api/tables/{t['id']}/seats/1/claim", json={"name": "Bea"}).status_code == 201

    platform.storage.add_table = broken
    r = client.post("/api/tables", json={"game": "toy-bids", "players": 2,
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 503 and r.json()["error"] == "storage"
    assert [x["id"] for x in client.get("/api/tables").json()] == [t["id"]]


def test_a_failing_bot_never_turns_a_persons_accepted_move_into_an_error(client, monkeypatch):
    t = new_table(client, 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], options={"rounds": 2})
    tid, tok = t["id"], t["tokens"]["0"]
    manager = client.app.state.platform.manager
    monkeypatch.setattr(manager, "bot_choice", lambda table, seat: (table.state.ply, "bid 99"))
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": "bid 1"})
    assert r.status_code == 200
    assert manager.storage.load_actions(tid)[-1] == [0, "bid 1"]


def test_a_bot_that_chooses_wrongly_stops_instead_of_looping(tmp_path):
    from thieves.server.platform import Platform

    platform = Platform(Storage(f"sqlite:///{tmp_path / 'b.db'}"), bot_delay=0.001)
    table, _ = platform.manager.create("toy-bids", 2, [{"kind": "bot"}, {"kind": "bot"}])
    calls = []

    def wrong(tbl, seat):
        calls.append(seat)
        return tbl.state.ply, "bid 99"

    platform.manager.bot_choice = wrong

    async def main():
        await asyncio.wait_for(platform._run_bots(table), timeout=5)

    asyncio.run(main())
    assert calls == [0] and table.state.ply == 0


# -- frame order --------------------------------------------------------------------------
def test_frames_to_one_connection_never_go_back_in_time(tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'f.db'}"))
    table, _ = manager.create("toy-bids", 2, [{"kind": "human"}, {"kind": "human"}])
    hub = Hub()

    class SlowSocket:
        def __init__(self, delays):
            self.delays, self.plies = list(delays), []

        async def send_text(self, text):
            await asyncio.sleep(self.delays.pop(0) if self.delays else 0)
            self.plies.append(json.loads(text)["ply"])

    async def main():
        fast, slow_first = SlowSocket([0.01, 0.01]), SlowSocket([0.08, 0.0])
        for s in (fast, slow_first):  # same viewer and language: they share one cached frame
            hub.add(table.id, Conn(s, None, "en", table))
        await asyncio.sleep(0.002)
        manager.act(table, 0, "bid 1")
        hub.notify(table)
        await asyncio.sleep(0.002)
        manager.act(table, 1, "bid 2")
        await hub.broadcast(table)
        return fast.plies, slow_first.plies

    for plies in asyncio.run(main()):
        # in order, ending on the newest; a slow reader may skip a position in between
        assert plies == sorted(set(plies)) and plies[-1] == 2


# -- what the board shows ---------------------------------------------------------------------
def test_every_interface_text_exists_in_every_language():
    used = set()
    for f in (SERVER / "static").glob("*.js"):
        used |= set(re.findall(r"\bT\.([a-z_]+)", f.read_text()))
    for f in (SERVER / "templates").glob("*.html"):
        used |= set(re.findall(r"\bt\.([a-z_]+)", f.read_text()))
    assert used
    for lang in LANGS:
        missing = {k for k in used if not UI[lang].get(k)}
        assert not missing, (lang, missing)
        assert set(UI[lang]) == set(UI["en"]), lang
    # every error code the documentation lists has words in every language
    doc = (SERVER.parents[2] / "docs" / "server.md").read_text()
    codes = set(re.findall(r"`([a-z_]+)`", doc.split("**Errors**")[1].split("\n\n")[0]))
    assert codes and codes <= set(ERRORS["en"])
    for lang in LANGS:
        assert set(ERRORS[lang]) == set(ERRORS["en"])
    # French and German are translations, not copies of the English
    for lang in ("fr", "de"):
        same = [k for k in UI["en"] if UI[lang][k] == UI["en"][k]]
        assert len(same) < 10, (lang, same)


def test_a_table_that_no_longer_replays_never_shows_the_stored_moves(db_url):
    from thieves.server.app import create_app

    from .conftest import TestClient

    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        t = new_table(c, 2)
        storage = c.app.state.platform.storage
    # a secret bid, then a stored move this version of the rules refuses
    storage.add_action(t["id"], 0, 0, "bid 3")
    storage.add_action(t["id"], 1, 0, "bid 2")
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        public = json.dumps(view(c, t["id"])) + c.get("/api/tables").text + c.get("/").text
        r = c.post(f"/api/tables/{t['id']}/actions", json={"token": t["tokens"]["1"], "action": "bid 1"})
        assert r.json()["error"] == "broken"
        public += r.text + json.dumps(view(c, t["id"], t["tokens"]["1"]))
        assert view(c, t["id"])["broken"]
    assert "bid 3" not in public and "bid 2" not in public and "You bid" not in public


# -- every installed game: a frame depends only on what its viewer may know ------------------------
def _installed_games():
    from thieves.server.tables import playable_games  # games that load; a broken one is left out

    return [slug for slug in playable_games() if not slug.startswith("toy-")]


@pytest.mark.parametrize("slug", _installed_games())
def test_a_frame_depends_only_on_what_its_viewer_may_know(slug):
    """For every game that exists now: re-deal what a viewer cannot see
    (``determinize``) and the frame sent to that viewer (board SVG, buttons
    and their texts, prompt, log, scores) and the reasons its refused
    actions get must not change. Steps where the
    viewer's observation itself changes are skipped (that is the game's own
    ``observation``/``determinize`` pair, tested with each game)."""
    import random

    from thieves.core.registry import load_game
    from thieves.server.storage import TableRecord
    from thieves.server.tables import LiveTable
    from thieves.server.views import build_view

    def engine(fn, *args):  # a crash in a game being written is its own tests' business
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001
            pytest.skip(f"{slug}'s engine failed ({type(exc).__name__}: {exc}); see its own tests")

    game = load_game(slug)
    n = min(max(game.min_players, 3), game.max_players)
    state = engine(game.new_game, n, 11)
    rec = TableRecord("t", slug, n, 11, {}, [{"kind": "human", "bot": None, "name": f"Seat{i}"}
                                              for i in range(n)])
    def reason(st, seat, action):  # the error text a refused action gets
        table = LiveTable(rec, game, st.clone())
        try:
            TableManager.act(manager, table, seat, action)
        except Exception as exc:  # noqa: BLE001
            return f"{type(exc).__name__}: {exc}"
        return "accepted"

    class NoStorage:
        def add_action(self, *args):
            pass

    manager = TableManager(NoStorage())
    rng = random.Random(5)
    compared = 0
    seen: list[str] = []
    for step in range(25):
        if state.is_terminal():
            break
        for viewer in [None, *range(n)]:
            other = engine(state.determinize, viewer if viewer is not None else step % n, step * 7 + 1)
            if other.observation(viewer) != state.observation(viewer):
                continue
            for lang in (("en", "de")[step % 2],):
                a = build_view(LiveTable(rec, game, state), state, viewer, lang)
                b = build_view(LiveTable(rec, game, other), other, viewer, lang)
                assert a == b, (slug, step, viewer, lang, [k for k in a if a[k] != b[k]])
            # the reasons given for refused actions tell nothing hidden either
            if viewer is not None and viewer in state.players_to_act():
                for action in seen[-20:] + ["junk", "take 99"]:
                    assert reason(state, viewer, action) == reason(other, viewer, action), (slug, action)
            compared += 1
        for p in state.players_to_act():
            seen += [a for a in state.legal_actions(p) if a not in seen]
        p = state.players_to_act()[0]
        engine(state.apply_action, p, rng.choice(state.legal_actions(p)))
    assert compared


def test_scores_are_shown_only_from_the_observation_until_the_end(client, monkeypatch):
    from tests.core.toy_game import BidState

    # the engine's scores may hold hidden points: never sent during play
    monkeypatch.setattr(BidState, "_scores", lambda self: [p + 1000 for p in self.points])
    t = new_table(client, 2, options={"rounds": 1})
    tid, toks = t["id"], t["tokens"]
    with client.websocket_connect(f"/ws/{tid}") as w:
        assert "100" not in json.dumps(w.receive_json()["scores"])
        r = client.post(f"/api/tables/{tid}/actions", json={"token": toks["0"], "action": "bid 1"})
        assert r.json()["scores"] is None and w.receive_json()["scores"] is None
        client.post(f"/api/tables/{tid}/actions", json={"token": toks["1"], "action": "bid 2"})
        final = w.receive_json()
    assert final["terminal"] and min(final["scores"]) >= 1000


def test_made_up_seat_names_are_said_in_the_viewers_language(client):
    # the drawn toy game: its presentation names the seats in its log
    r = client.post("/api/tables", json={"game": "toy-svg", "players": 3, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human", "name": "Ann"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    names = {lang: [s["name"] for s in client.get(f"/api/tables/{tid}/view", params={"lang": lang}).json()["seats"]]
             for lang in ("en", "fr", "de")}
    assert names == {"en": ["Player 1", "Random bot 2", "Ann"], "fr": ["Joueur 1", "Robot hasard 2", "Ann"],
                     "de": ["Spieler 1", "Bot Zufall 2", "Ann"]}
    log = client.get(f"/api/tables/{tid}/view", params={"lang": "de"}).json()["log"]
    assert any(line.startswith("Bot Zufall 2") for line in log)
    lobby = client.get("/?lang=fr").text
    assert "Robot hasard 2" in lobby and "Robot: greedy" not in lobby and "Robot: hasard" in lobby


def test_a_table_page_invites_to_its_open_seats(client):
    t = new_table(client, 2, [{"kind": "human"}, {"kind": "open"}])
    tid, tok = t["id"], t["tokens"]["0"]
    mine = client.get(f"/t/{tid}/s/{tok}").text
    assert f"http://127.0.0.1/t/{tid}" in mine and f'action="/t/{tid}/join/' not in mine
    watch = client.get(f"/t/{tid}?lang=fr").text
    assert f'action="/t/{tid}/join/1"' in watch and "Prendre cette place" in watch and tok not in watch
    r = client.post(f"/t/{tid}/join/1", data={"name": "Bea"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith(f"/t/{tid}/s/")
    assert f'action="/t/{tid}/join/' not in client.get(f"/t/{tid}").text


def test_a_crashing_or_cheating_bot_never_freezes_a_table(client, monkeypatch):
    import thieves.server.tables as tables

    real = tables.make_bot

    class Broken:
        def __init__(self, how):
            self.how = how

        def choose(self, state, seat):
            if self.how == "crash":
                raise ZeroDivisionError("bug in the bot")
            return "bid 99"

    for how in ("crash", "illegal"):
        monkeypatch.setattr(tables, "make_bot", lambda name, slug, seed=0, how=how:
                            Broken(how) if name != "random" else real(name, slug, seed))
        t = new_table(client, 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], options={"rounds": 2})
        client.app.state.platform.manager.get(t["id"]).rec.seats[1]["bot"] = "clever"  # its own bot
        tid, tok = t["id"], t["tokens"]["0"]
        r = client.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": "bid 1"})
        assert r.status_code == 200 and r.json()["observation"]["round"] == 2
        assert r.json()["chosen"] == [1]  # the broken bot's move was made (by the random bot)
        r = client.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": "bid 1"})
        assert r.status_code == 200 and r.json()["terminal"], how


def test_two_websockets_acting_at_once(client):
    """Two seats choose at the same moment, each with a double click, for
    four rounds: each seat's choice counts once, both are accepted whatever
    order they arrive in, and storage matches the table."""
    t = new_table(client, 3, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
                  options={"rounds": 4})
    tid, toks = t["id"], t["tokens"]
    with client.websocket_connect(f"/ws/{tid}?token={toks['0']}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={toks['1']}") as w1:
        ply = w0.receive_json()["ply"]
        assert w1.receive_json()["ply"] == ply
        for rnd in range(4):
            for w, b in ((w0, 1), (w1, 2), (w0, 1), (w1, 2)):
                w.send_text(json.dumps({"type": "action", "action": f"bid {b}", "ply": ply}))
            seen = []
            for w in (w0, w1):  # each: the new positions (merged when they come fast)
                msgs = []       # and its own double click refused
                while not (any(m["type"] == "error" for m in msgs)
                           and any(m["type"] == "state" and (m["ply"] >= ply + 3 or m["terminal"])
                                   for m in msgs)):
                    msgs.append(w.receive_json())
                assert [m["code"] for m in msgs if m["type"] == "error"] == ["stale"]
                states = [m for m in msgs if m["type"] == "state"]
                assert [m["ply"] for m in states] == sorted(set(m["ply"] for m in states))
                assert states[-1]["ply"] == ply + (2 if states[-1]["terminal"] else 3)
                seen.append(states[-1])
            assert seen[0]["ply"] == seen[1]["ply"]
            ply = seen[0]["ply"]
            assert seen[0]["terminal"] or seen[0]["observation"]["round"] == rnd + 2
    platform = client.app.state.platform
    state = platform.manager.get(tid).state
    assert state.is_terminal() and platform.storage.load_actions(tid) == state.history
    assert sorted(p for p, _ in state.history) == [0] * 4 + [1] * 4 + [2] * 4


def test_a_client_that_stops_reading_never_holds_up_the_table(tmp_path, monkeypatch):
    import thieves.server.websocket as websocket

    monkeypatch.setattr(websocket, "SEND_TIMEOUT", 0.2)
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 's.db'}"))
    table, _ = manager.create("toy-bids", 2, [{"kind": "human"}, {"kind": "human"}])
    hub = Hub()

    class Stuck:
        closed = False

        async def send_text(self, text):
            await asyncio.sleep(3600)

        async def close(self, code=1000):
            self.closed = code

    class Reader:
        def __init__(self):
            self.frames = []

        async def send_text(self, text):
            self.frames.append(text)

    stuck, reader = Stuck(), Reader()

    async def main():
        hub.add(table.id, Conn(stuck, None, "en", table))
        hub.add(table.id, Conn(reader, 1, "en", table))
        loop = asyncio.get_running_loop()
        started = loop.time()
        manager.act(table, 0, "bid 1")
        hub.notify(table)  # what an accepted action does: it never waits for a socket
        assert loop.time() - started < 0.1
        await asyncio.sleep(0.5)

    asyncio.run(main())
    plies = [json.loads(f)["ply"] for f in reader.frames]
    assert plies[-1] == 1 and plies == sorted(plies) and stuck.closed == 1011
    assert [c.ws for c in hub.conns[table.id]] == [reader]


def test_stalled_sockets_never_delay_the_acting_request(client, monkeypatch):
    """Three spectators that never read: each action is answered at once
    (stored, then returned); the stalled sockets are dropped on their own."""
    import thieves.server.websocket as websocket

    monkeypatch.setattr(websocket, "SEND_TIMEOUT", 1.0)
    t = new_table(client, 2, options={"rounds": 3})
    tid, toks = t["id"], t["tokens"]
    platform = client.app.state.platform
    table = platform.manager.get(tid)

    class Stuck:
        closed = None

        async def send_text(self, text):
            await asyncio.sleep(3600)

        async def close(self, code=1000):
            self.closed = code

    stuck = [Stuck() for _ in range(3)]

    async def attach():
        for s in stuck:
            platform.hub.add(tid, Conn(s, None, "en", table))

    client.portal.call(attach)
    times = []
    for rnd in range(3):
        for seat, bid in (("0", 1), ("1", 2)):
            started = time.monotonic()
            r = client.post(f"/api/tables/{tid}/actions", json={"token": toks[seat], "action": f"bid {bid}"})
            times.append(time.monotonic() - started)
            assert r.status_code == 200
    assert max(times) < 0.5, times
    assert r.json()["terminal"] and platform.storage.load_actions(tid) == table.state.history
    time.sleep(1.3)
    assert all(s.closed == 1011 for s in stuck) and platform.hub.count(tid) == 0


def test_an_absurd_number_of_players_from_the_form_is_refused_at_once(client):
    import time

    start = time.perf_counter()
    r = client.post("/tables", data={"game": "toy-bids", "players": "1000000000", "seat_0": "you"})
    assert r.status_code == 400 and time.perf_counter() - start < 5
    assert client.get("/api/tables").json() == []


def test_a_bot_choice_made_before_a_person_acted_is_dropped(tmp_path):
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'r.db'}"))
    table, toks = manager.create("toy-bids", 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    ply, action = manager.bot_choice(table, 1)  # the bot thinks (in its thread)...
    manager.act(table, 0, "bid 1")  # ...while the person acts
    assert table.state.ply == 1
    assert manager.bot_commit(table, 1, ply, action) is False  # chosen on an older position: dropped
    assert table.state.ply == 1 and manager.storage.load_actions(table.id) == [[0, "bid 1"]]
    ply, action = manager.bot_choice(table, 1)
    assert manager.bot_commit(table, 1, ply, action) is True
    assert manager.storage.load_actions(table.id) == table.state.history and table.state.ply == 2


def test_a_game_that_names_its_players_keeps_those_names(client, monkeypatch):
    from tests.core.toy_game import BidState

    monkeypatch.setattr(BidState, "player_name", lambda self, p: ["Purple (P1)", "White (P2)"][p])
    t = new_table(client, 2, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}])
    client.post(f"/api/tables/{t['id']}/actions", json={"token": t["tokens"]["1"], "action": "bid 1"})
    v = view(client, t["id"])
    assert "Bea bids." in v["log"]  # the log says the table's names; the game's own is the alias
    assert [(s["name"], s["alias"]) for s in v["seats"]] == [("Ann", "Purple (P1)"), ("Bea", "White (P2)")]
    monkeypatch.undo()
    plain = view(client, new_table(client, 2)["id"])
    assert [s["alias"] for s in plain["seats"]] == [None, None]


def test_a_creator_who_takes_several_seats_gets_every_link(client):
    r = client.post("/tables?lang=de", data={"game": "toy-bids", "players": "3", "seat_0": "you",
                                             "seat_1": "you", "seat_2": "bot:random", "name": "Ann"},
                    follow_redirects=False)
    assert r.status_code == 201 and r.headers["cache-control"] == "no-store"
    assert "Platz-Links" in r.text
    links = re.findall(r'href="(/t/[^/"]+/s/[^"]+)"', r.text)
    assert len(links) == 2
    for seat, link in enumerate(links):
        tid, tok = link.split("/")[2], link.split("/")[4]
        assert view(client, tid, tok)["viewer"] == seat


def test_a_language_asked_in_the_address_is_remembered(client):
    assert "Spiele" in client.get("/?lang=de").text
    assert client.cookies.get("lang") == "de"
    t = new_table(client, 2)
    assert '<html lang="de">' in client.get(f"/t/{t['id']}/s/{t['tokens']['0']}").text
    client.get("/?lang=xx")  # not a language: nothing changes
    assert client.cookies.get("lang") == "de"


def test_a_table_behind_its_storage_catches_up(client):
    """A commit went through but neither its answer nor the check after it
    came back: the table refuses, then finds the stored move and catches up."""
    t = new_table(client, 2)
    tid, tok0, tok1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    storage = client.app.state.platform.storage
    real_add, real_at = storage.add_action, storage.action_at

    def commits_then_fails(*args):
        real_add(*args)
        raise ConnectionError("connection lost")

    def unreachable(*args):
        raise ConnectionError("still unreachable")

    storage.add_action, storage.action_at = commits_then_fails, unreachable
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tok0, "action": "bid 2"})
    assert r.status_code == 503  # unknown outcome, said as a refusal
    storage.add_action, storage.action_at = real_add, real_at
    # the next action finds the stored move, catches up with it, and is applied after it
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tok1, "action": "bid 1"})
    assert r.status_code == 200 and r.json()["ply"] == 2
    assert view(client, tid, tok0)["observation"]["my_bid"] is None  # the round resolved
    assert storage.load_actions(tid) == [[0, "bid 2"], [1, "bid 1"]]


def test_a_bot_never_sees_what_its_seat_may_not_know(tmp_path, monkeypatch):
    import thieves.server.tables as tables
    from tests.core.toy_game import BidState

    def determinize(self, player, seed):  # the toy game's secret: bids made this round
        new = self.clone()
        new.bids = [b if q == player or b is None else 1 for q, b in enumerate(self.bids)]
        return new

    seen = []

    class Spy:
        def choose(self, state, seat):
            seen.append(list(state.bids))
            return "bid 2"

    real = tables.make_bot
    monkeypatch.setattr(tables, "make_bot", lambda name, slug, seed=0:
                        Spy() if name == "random" else real(name, slug, seed))
    manager = TableManager(Storage(f"sqlite:///{tmp_path / 'spy.db'}"))
    for redeal in (False, True):
        if redeal:
            monkeypatch.setattr(BidState, "determinize", determinize)
        table, _ = manager.create("toy-bids", 2, [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        manager.act(table, 0, "bid 3")  # the person's secret
        ply, action = manager.bot_choice(table, 1)
        assert manager.bot_commit(table, 1, ply, action) and table.state.ply == 2
    # without a re-deal the game hides nothing from a plain copy; with one, the bot never sees the 3
    assert seen == [[3, None], [1, None]]
