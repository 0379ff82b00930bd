"""The websocket protocol: live views, hidden information, bad input."""
from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect

from .conftest import new_table


def test_frames_hold_only_the_viewers_observation(client):
    t = new_table(client, 3)
    tid, toks = t["id"], t["tokens"]
    frames: dict[str, list[str]] = {"0": [], "1": [], "2": [], "spectator": []}
    with client.websocket_connect(f"/ws/{tid}?token={toks['0']}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={toks['1']}") as w1, \
            client.websocket_connect(f"/ws/{tid}?token={toks['2']}") as w2, \
            client.websocket_connect(f"/ws/{tid}") as ws:
        socks = {"0": w0, "1": w1, "2": w2, "spectator": ws}
        for k, s in socks.items():
            frames[k].append(s.receive_text())
        w1.send_text(json.dumps({"type": "action", "action": "bid 3"}))
        for k, s in socks.items():
            frames[k].append(s.receive_text())
        w0.send_text(json.dumps({"type": "action", "action": "bid 3"}))
        for k, s in socks.items():
            frames[k].append(s.receive_text())
    # seat 1's secret bid reaches seat 1 only, until the round resolves
    last = {k: json.loads(v[-1]) for k, v in frames.items()}
    assert last["1"]["observation"]["my_bid"] == 3 and "You bid 3." in last["1"]["log"]
    for k in ("2", "spectator"):
        text = "".join(frames[k])
        assert "You bid 3" not in text and '"my_bid": 3' not in text
        assert last[k]["legal"] == [] or k == "2"
    assert last["2"]["chosen"] == [0, 1] and last["spectator"]["chosen"] == [0, 1]
    assert last["spectator"]["viewer"] is None and last["spectator"]["legal"] == []
    for k in ("0", "1", "2"):
        assert all(toks[o] not in "".join(frames[k]) for o in toks)


def test_websocket_bad_input_gets_errors_and_changes_nothing(client):
    t = new_table(client, 2)
    tid, tok0 = t["id"], t["tokens"]["0"]
    with client.websocket_connect(f"/ws/{tid}?token={tok0}") as w:
        first = w.receive_json()
        for msg, code in [("{oops", "malformed"), ("[]", "malformed"), ('{"type": "dance"}', "malformed"),
                          ('{"type": "action", "action": "bid 9"}', "illegal"),
                          ('{"type": "action", "action": 3}', "malformed")]:
            w.send_text(msg)
            err = w.receive_json()
            assert err["type"] == "error" and err["code"] == code and err["message"], msg
        w.send_text('{"type": "ping"}')
        assert w.receive_json() == {"type": "pong", "ply": 0}
        w.send_text('{"type": "action", "action": "bid 1"}')
        assert w.receive_json()["ply"] == 1
        w.send_text('{"type": "action", "action": "bid 1"}')
        assert w.receive_json()["code"] == "not_your_turn"
    with client.websocket_connect(f"/ws/{tid}") as spectator:
        spectator.receive_json()
        spectator.send_text('{"type": "action", "action": "bid 1"}')
        assert spectator.receive_json()["code"] == "not_a_player"
    assert client.get(f"/api/tables/{tid}/view").json()["ply"] == 1
    assert first["ply"] == 0


@pytest.mark.parametrize("path, code", [("/ws/nope", 4404), ("/ws/{tid}?token=forged", 4403)])
def test_websocket_unknown_table_or_token(client, path, code):
    t = new_table(client, 2)
    with client.websocket_connect(path.format(tid=t["id"])) as w:
        err = w.receive_json()
        assert err["type"] == "error" and err["code"] in ("unknown_table", "bad_token")
        with pytest.raises(WebSocketDisconnect) as info:
            w.receive_json()
        assert info.value.code == code


def test_language_switch_over_the_socket(client):
    t = new_table(client, 2)
    with client.websocket_connect(f"/ws/{t['id']}?lang=fr") as w:
        assert w.receive_json()["lang"] == "fr"
        w.send_text('{"type": "lang", "lang": "de"}')
        assert w.receive_json()["lang"] == "de"


def test_layout_over_the_socket_and_the_view_api(client):
    t = new_table(client, 2)
    with client.websocket_connect(f"/ws/{t['id']}?layout=narrow") as w:
        assert w.receive_json()["layout"] == "narrow"
        w.send_text('{"type": "layout", "layout": "wide"}')
        assert w.receive_json()["layout"] == "wide"
        w.send_text('{"type": "layout", "layout": "huge"}')  # unknown: the desktop drawing
        assert w.receive_json()["layout"] == "wide"
    assert client.get(f"/api/tables/{t['id']}/view?layout=narrow").json()["layout"] == "narrow"
    assert client.get(f"/api/tables/{t['id']}/view").json()["layout"] == "wide"
    assert client.get(f"/api/tables/{t['id']}/replay/0?layout=narrow").json()["layout"] == "narrow"


def test_reconnecting_gets_the_current_state(client):
    t = new_table(client, 2)
    tid, tok0 = t["id"], t["tokens"]["0"]
    with client.websocket_connect(f"/ws/{tid}?token={tok0}") as w:
        w.receive_json()
        w.send_text('{"type": "action", "action": "bid 2"}')
        w.receive_json()
    with client.websocket_connect(f"/ws/{tid}?token={tok0}") as w:
        v = w.receive_json()
        assert v["ply"] == 1 and v["observation"]["my_bid"] == 2
