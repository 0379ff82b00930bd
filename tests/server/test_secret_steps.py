"""Secret simultaneous phases on the server: a seat's secret steps (Age of
Thieves' planning behind the screen) reach nobody else, on no channel."""
from __future__ import annotations

import json
import time

from thieves.core.rng import Rng
from thieves.server import websocket as ws_module

from .conftest import new_table


def _aot_table(client):
    r = client.post("/api/tables", json={"game": "age-of-thieves", "players": 2,
                                         "seats": [{"kind": "human"}, {"kind": "human"}],
                                         "options": {}, "lang": "en"})
    assert r.status_code == 201, r.text
    return r.json()


def _to_planning(platform, tid):
    """Play the setup decisions (the first legal one each time) until both thieves plan."""
    table = platform.manager.get(tid)
    while not (table.state.phase == "plan" and len(table.state.players_to_act()) == 2):
        p = table.state.players_to_act()[0]
        platform.manager.act(table, p, table.state.legal_actions(p)[0])
    return table


def _twin(platform, tid, source):
    """Table ``tid`` put at ``source``'s position (the same seed and decisions)."""
    table = platform.manager.get(tid)
    while table.rows < source.rows:
        p, action = source.state.history[table.rows]
        if table.rows == 0:
            table.rec.seed = source.rec.seed
            table.state = source.game.new_game(2, source.rec.seed, source.rec.options, rng=source.rec.rng)
        platform.manager.act(table, p, action)
    assert table.state.to_json() == source.state.to_json()
    return table


def _play(client, platform, tid, toks, steps, seed, sent):
    """Seat 0 takes ``steps`` random secret steps over its socket, then "done"; the
    frames every socket was sent meanwhile, by viewer (from ``sent``)."""
    table = platform.manager.get(tid)
    rng = Rng.from_seed(seed)
    sent.clear()
    with client.websocket_connect(f"/ws/{tid}?token={toks['0']}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={toks['1']}") as w1, \
            client.websocket_connect(f"/ws/{tid}") as spectator:
        view = json.loads(w0.receive_text())
        w1.receive_text()
        spectator.receive_text()

        def act(action: str) -> dict:
            # seat 0 acts by request (its answer is the new view; a refusal shows as one,
            # never as a frame that does not come); its socket's frames are recorded in ``sent``
            r = client.post(f"/api/tables/{tid}/actions",
                            json={"token": toks["0"], "action": action, "ply": view["ply"]})
            assert r.status_code == 200, r.text   # never refused as stale: the seat's own count grows
            return r.json()

        for _ in range(steps):
            secret = [a["action"] for a in view["legal"] if table.state._secret_step(0, a["action"])]
            if not secret:
                break
            view = act(secret[rng.below(len(secret))])
        if any(a["action"] == "done" for a in view["legal"]):
            act("done")
        # else a decision with one answer is left: the table gives it after its pause
        # (a lone "done" once nothing is left to plan), as it would for anyone
        deadline = time.monotonic() + 15
        while not table.state.thieves[0]["done"]:
            assert time.monotonic() < deadline, "the table never finished seat 0's plan"
            time.sleep(0.05)
        rival, watcher = json.loads(w1.receive_text()), json.loads(spectator.receive_text())
        assert rival["observation"]["thieves"][0]["planning_done"]
        assert watcher["observation"]["thieves"][0]["planning_done"]
        w1.send_text(json.dumps({"type": "ping"}))
        pong = json.loads(w1.receive_text())
        assert pong["type"] == "pong"
    return {viewer: [text.replace(tid, "TABLE") for text in texts] for viewer, texts in sent.items()}


def test_two_secret_plans_give_a_rival_and_a_spectator_the_same_frames(client, monkeypatch):
    platform = client.app.state.platform
    sent: dict = {}
    real_send = ws_module.Conn._send

    async def recording_send(self, text):
        body = text.text if hasattr(text, "text") else text
        sent.setdefault(self.viewer, []).append(body)
        return await real_send(self, text)

    monkeypatch.setattr(ws_module.Conn, "_send", recording_send)
    one, two = _aot_table(client), _aot_table(client)
    first = _to_planning(platform, one["id"])
    second = _twin(platform, two["id"], first)
    a = _play(client, platform, one["id"], one["tokens"], 2, 1, sent)
    b = _play(client, platform, two["id"], two["tokens"], 7, 2, sent)
    assert len(first.state.secret_steps) != len(second.state.secret_steps)
    assert first.state.history != second.state.history
    # seat 1 and the spectator: the same frames, in number and content (the pong included)
    assert a[1] == b[1] and a[None] == b[None]
    assert len(a[None]) == 2   # the view on connecting, and the one after "done"
    assert a[0] != b[0]        # the planning seat saw its own steps
    # the lobby and the replay steps show the public move number only
    for t in (one, two):
        row = next(r for r in client.get("/api/tables").json() if r["id"] == t["id"])
        assert row["ply"] == first.state.public_ply == second.state.public_ply
    steps = {}
    for t, table in ((one, first), (two, second)):
        tid = t["id"]
        last = client.get(f"/api/tables/{tid}/replay/0").json()
        total = last["total"]
        assert total == table.state.public_ply < table.state.ply
        views = [client.get(f"/api/tables/{tid}/replay/{k}").json() for k in range(total + 1)]
        assert client.get(f"/api/tables/{tid}/replay/{total + 1}").status_code == 400
        # every step is a public decision: seat 0's last one is its "done", its secret steps none
        assert views[-1]["last_action"]["seat"] == 0 and views[-1]["last_action"]["action"] is None
        # the table's id (also in the address of the board's unchanging layer) left out
        steps[tid] = [json.dumps({k: v for k, v in view.items() if k != "table"}).replace(tid, "<table>")
                      for view in views]
    assert steps[one["id"]] == steps[two["id"]]


def test_a_seat_may_not_undo_while_a_rival_may_still_plan_secretly(client):
    platform = client.app.state.platform
    t = _aot_table(client)
    table = _to_planning(platform, t["id"])
    platform.manager.act(table, 0, "plan move")
    assert table.may_undo(0) is None   # seat 1 is still planning: no undo for anyone
    platform.manager.act(table, 1, "done")
    platform.manager.act(table, 0, "ap 3")
    assert table.may_undo(0) is not None   # the last to plan may take its own steps back


def test_a_secret_step_is_no_stale_move_for_the_others(client):
    """Seat 1 chose at the public move number it sees; seat 0's secret steps since do
    not make its choice stale (nor does anything tell it they happened)."""
    platform = client.app.state.platform
    t = _aot_table(client)
    table = _to_planning(platform, t["id"])
    shown = table.state.shown_ply(1)
    platform.manager.act(table, 0, "plan move", table.state.shown_ply(0))
    platform.manager.act(table, 0, "ap 2", table.state.shown_ply(0))
    assert table.state.shown_ply(1) == shown
    platform.manager.act(table, 1, "done", shown)
    r = client.post(f"/api/tables/{t['id']}/actions",
                    json={"token": t["tokens"]["0"], "action": "done", "ply": shown})
    assert r.status_code == 409 and r.json()["error"] == "stale"


def test_toy_tables_have_no_secret_steps(client):
    t = new_table(client, 2)
    table = client.app.state.platform.manager.get(t["id"])
    assert not table.state.has_secret_steps and table.version_for(None) == table.version


def test_a_table_read_again_after_a_secret_step_shows_its_next_change_to_everybody(client):
    platform = client.app.state.platform
    t = _aot_table(client)
    table = _to_planning(platform, t["id"])
    platform.manager.act(table, 0, "plan move")
    assert table.public_version < table.version == table.own_versions[0]
    again = platform.manager.read(t["id"])
    assert again.state.to_json() == table.state.to_json()
    again.version += 1   # e.g. a seat taken: not a secret step's change
    assert again.version_for(None) == again.version_for(1) == again.version


def test_a_bots_public_step_after_secret_steps_waits_for_the_pad(db_url):
    """A greedy bot plans in milliseconds: its "done" would come sooner the fewer
    secret steps it took. It waits until ``secret_run_pad`` after the bot entered the
    phase, so its time tells nothing of the plan."""
    from fastapi.testclient import TestClient

    from thieves.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0.05), base_url="http://127.0.0.1") as c:
        platform = c.app.state.platform
        pad = platform.secret_run_pad
        r = c.post("/api/tables", json={"game": "age-of-thieves", "players": 2, "options": {}, "lang": "en",
                                        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
        assert r.status_code == 201, r.text
        tid, tok = r.json()["id"], r.json()["tokens"]["0"]
        deadline = time.monotonic() + 60

        def bot_run() -> tuple[int, int] | None:
            """The bot's first run of secret steps and the public step that ends it."""
            state = platform.manager.get(tid).state
            first = None
            for i, (p, _a) in enumerate(state.history):
                if p == 1 and state.is_secret_step(i):
                    first = i if first is None else first
                elif p == 1 and first is not None:
                    return first, i
            return None

        while (run := bot_run()) is None:
            assert time.monotonic() < deadline, "the bot never finished planning"
            v = c.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
            if v["legal"]:
                c.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": v["legal"][0]["action"],
                                                           "ply": v["ply"]})
            else:
                time.sleep(0.02)
        times = platform.storage.action_times(tid)
        first, public = run
        state = platform.manager.get(tid).state
        # the public decision that opened the phase was stored before the bot entered it
        opened = max(i for i in range(first) if not state.is_secret_step(i))
        assert times[public] - times[opened] >= 0.95 * pad, (times[opened], times[public], pad)
