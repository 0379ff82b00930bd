"""Gestures on the server (docs/engine.md "Gestures"): an action sent with
``then`` (a route's further steps) is applied step by step, each an ordinary
decision, while the same seat acts and each step is legal; the first that is
not ends it quietly, and a malformed ``then`` is refused before anything
changes. Whether a step was taken tells nothing hidden."""
from __future__ import annotations

import asyncio
import json

import pytest

from thieves.core.svg import MAX_THEN
from thieves.server.storage import Storage
from thieves.server.tables import LiveTable, ServerError, TableManager
from thieves.server.views import build_view

from .test_forced_answers import _cadwallon, _play_to_injury_window, _public, _set_injury


def _to_deploy(manager: TableManager, table: LiveTable) -> None:
    """Cadwallon up to the first deployment: each seat chooses its gang first."""
    while table.state.phase == "gang":
        p = table.state.players_to_act()[0]
        manager.act(table, p, table.state.legal_actions(p)[0])
    assert table.state.phase == "deploy"


def _route(table: LiveTable) -> tuple[int, str, str]:
    """The seat to act, a thief it may deploy and a place it may deploy it at
    (Cadwallon's deployment is two decisions of one seat: the thief, then the place)."""
    p = table.state.players_to_act()[0]
    deploy = table.state.legal_actions(p)[0]
    trial = table.state.clone()
    trial.apply_action(p, deploy)
    assert trial.players_to_act() == [p]
    return p, deploy, trial.legal_actions(p)[0]


@pytest.fixture
def manager(tmp_path):
    return TableManager(Storage(f"sqlite:///{tmp_path / 'g.db'}"))


def test_the_further_steps_are_ordinary_decisions(manager):
    table = _cadwallon(manager, 3)
    _to_deploy(manager, table)
    seat, deploy, place = _route(table)
    n, rows = len(table.state.history), table.rows
    assert manager.act(table, seat, deploy, then=[place]) == 1
    assert table.state.history[n:] == [[seat, deploy], [seat, place]]
    assert table.rows == rows + 2  # each step stored as its own decision
    assert table.may_undo(seat) is not None  # and can be taken back like one


def test_the_steps_stop_where_another_seat_must_act(manager):
    table = _cadwallon(manager, 3)
    _to_deploy(manager, table)
    seat, deploy, place = _route(table)
    n = len(table.state.history)
    # after the place, the other seat deploys: the seat's next deployment waits
    assert manager.act(table, seat, deploy, then=[place, deploy]) == 1
    assert table.state.players_to_act() == [1 - seat]
    assert len(table.state.history) == n + 2


def test_the_steps_stop_quietly_at_the_first_illegal_one(manager):
    table = _cadwallon(manager, 3)
    _to_deploy(manager, table)
    seat, deploy, place = _route(table)
    n = len(table.state.history)
    assert manager.act(table, seat, deploy, then=["at nowhere", place]) == 0
    assert table.state.history[n:] == [[seat, deploy]]
    assert table.state.players_to_act() == [seat]


@pytest.mark.parametrize("then", ["at b1", [3], [""], ["x" * 201], ["at b1"] * (MAX_THEN + 1), {"a": 1}])
def test_a_malformed_then_is_refused_and_changes_nothing(manager, then):
    table = _cadwallon(manager, 3)
    _to_deploy(manager, table)
    seat, deploy, _place = _route(table)
    version, n = table.version, len(table.state.history)
    with pytest.raises(ServerError) as err:
        manager.act(table, seat, deploy, then=then)
    assert err.value.code == "malformed" and "then" in str(err.value)
    with pytest.raises(ServerError):
        asyncio.run(manager.act_async(table, seat, deploy, then=then))
    assert table.version == version and len(table.state.history) == n


def test_a_step_after_a_hidden_reaction_window_is_never_taken(tmp_path):
    """A move that opens a reaction window for the other seat (Cadwallon's
    Niggling injury) stops the gesture whether or not that seat holds the
    card: the table asks it in both cases, so the mover learns nothing."""
    seen = []
    for held in (True, False):
        manager = TableManager(Storage(f"sqlite:///{tmp_path / f'h{held}.db'}"))
        table = _cadwallon(manager, 3)
        mover, move, asked = _play_to_injury_window(manager, table, 3)
        _set_injury(table, asked, held=held)
        further = [a for a in table.state.legal_actions(mover) if a != move][:3]
        assert manager.act(table, mover, move, then=further) == 0
        assert table.state.players_to_act() == [asked]
        seen.append(_public(build_view(table, table.state, mover, "en")))
    assert seen[0] == seen[1]


def _cadwallon_table(client) -> tuple[str, str]:
    r = client.post("/api/tables", json={"game": "cadwallon", "players": 2,
                                          "seats": [{"kind": "human"}, {"kind": "human"}], "options": {}})
    assert r.status_code == 201, r.text
    t = r.json()
    return t["id"], t["tokens"]


def _http_to_deploy(client, tid: str, tokens: dict[str, str]) -> tuple[str, str, str]:
    """Both seats choose their gangs over HTTP; the token of the seat to
    deploy, a thief and a place it may deploy it at."""
    table = client.app.state.platform.manager.tables[tid]
    while table.state.phase == "gang":
        p = table.state.players_to_act()[0]
        client.post(f"/api/tables/{tid}/actions",
                    json={"token": tokens[str(p)], "action": table.state.legal_actions(p)[0]})
    seat, deploy, place = _route(table)
    return tokens[str(seat)], deploy, place


def test_http_then_says_how_many_steps_were_taken(client):
    tid, tokens = _cadwallon_table(client)
    tok, deploy, place = _http_to_deploy(client, tid, tokens)
    ply = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()["ply"]
    bad = client.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": deploy, "then": "oops"})
    assert bad.status_code == 400 and bad.json()["error"] == "malformed"
    r = client.post(f"/api/tables/{tid}/actions",
                    json={"token": tok, "action": deploy, "then": [place, deploy], "ply": ply})
    assert r.status_code == 200, r.text
    assert r.headers["x-then-applied"] == "1"
    assert r.json()["ply"] == ply + 2
    plain = client.post(f"/api/tables/{tid}/actions", json={"token": tok, "action": deploy})
    assert "x-then-applied" not in plain.headers


def test_websocket_then_is_answered_with_the_steps_taken(client):
    tid, tokens = _cadwallon_table(client)
    tok, deploy, place = _http_to_deploy(client, tid, tokens)
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as w:
        ply = w.receive_json()["ply"]
        w.send_text(json.dumps({"type": "action", "action": deploy, "then": [place], "ply": ply}))
        got = [w.receive_json(), w.receive_json()]
        assert {"type": "then", "applied": 1} in got
        state = next(m for m in got if m["type"] == "state")
        assert state["ply"] == ply + 2


def test_secret_planning_steps_in_one_gesture_show_nothing_to_the_others(manager):
    """Age of Thieves' planning (secret, everyone at once): a card and its AP
    in one gesture are two secret steps of the seat; the others' view of the
    table does not change."""
    table, _ = manager.create("age-of-thieves", 3, [{"kind": "human", "name": n} for n in ("A", "B", "C")],
                              seed=3)
    for _ in range(20):
        if table.state.phase == "plan":
            break
        p = table.state.players_to_act()[0]
        manager.act(table, p, table.state.legal_actions(p)[0])
    assert table.state.phase == "plan" and table.state.players_to_act() == [0, 1, 2]
    card = next(a for a in table.state.legal_actions(0) if a.startswith("plan "))
    others = [_public(build_view(table, table.state, s, "en")) for s in (1, 2, None)]
    assert manager.act(table, 0, card, then=["ap 1"]) == 1
    assert [_public(build_view(table, table.state, s, "en")) for s in (1, 2, None)] == others
    assert table.state.history[-2:] == [[0, card], [0, "ap 1"]]
