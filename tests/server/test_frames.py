"""Views leave as frames made once: every socket that gets the same view gets
the same bytes, and no socket ever gets a frame made for another viewer."""
from __future__ import annotations

import json
import threading
import time
import zlib

import pytest

from thieves.server import wsdeflate
from thieves.server.wsdeflate import Frames, frame_bytes

from .test_durability import _free_port


def _read_frame(data: bytes) -> tuple[int, bytes]:
    """(first byte, payload) of one unmasked frame that fills ``data``."""
    first, n = data[0], data[1] & 0x7F
    assert not data[1] & 0x80  # a server's frames are not masked
    at = 2
    if n == 126:
        n, at = int.from_bytes(data[2:4], "big"), 4
    elif n == 127:
        n, at = int.from_bytes(data[2:10], "big"), 10
    assert len(data) == at + n
    return first, data[at:]


@pytest.mark.parametrize("size", [0, 5, 125, 126, 65535, 65536, 70000])
def test_a_frame_carries_its_text_plain_and_compressed(size):
    text = json.dumps({"type": "state", "svg": ("<g>é\"</g>" * size)[:size]})
    frames = Frames(text)
    first, payload = _read_frame(frames.frame(None))
    assert first == 0x81 and payload == text.encode()
    for bits in (9, 12, 15):
        first, payload = _read_frame(frames.frame(bits))
        assert first == 0xC1  # final, compressed, text
        dec = zlib.decompressobj(wbits=-bits)
        assert dec.decompress(payload + b"\x00\x00\xff\xff") == text.encode()
        assert frames.frame(bits) is frames.frame(bits)  # made once, for every socket
    assert frame_bytes(b"x" * 126, False)[:4] == b"\x81\x7e\x00\x7e"


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 70000])
def test_a_compressed_view_from_another_process_is_the_same_message(size):
    """What one process sends another (:meth:`Frames.deflated`) becomes there
    the same text and the same frames, the compressed one sent as it came."""
    text = json.dumps({"type": "state", "svg": ("<g>é\"</g>" * size)[:size]})
    mine = Frames(text)
    payload = mine.deflated(15)
    assert _read_frame(mine.frame(15))[1] == payload
    theirs = Frames.from_deflated(payload, 15)
    assert theirs.text == text
    assert theirs.frame(15) == mine.frame(15) and theirs.frame(None) == mine.frame(None)
    assert theirs.frame(12) == mine.frame(12)  # another window: compressed again from the text
    with pytest.raises(zlib.error):
        Frames.from_deflated(b"\xff\xfe not deflate", 15)
    with pytest.raises(UnicodeDecodeError):
        Frames.from_deflated(wsdeflate.deflate(b"\xff", 15), 15)  # not UTF-8


def _serve(app, port):
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            ws_per_message_deflate=True, ws=wsdeflate.protocol_class())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    return server, thread


def test_sockets_that_share_a_view_get_one_frame_and_never_another_viewers(tmp_path, monkeypatch):
    """A real uvicorn with the shortcut: spectators with and without
    compression, and two seats; the frames written are the ones made for
    each socket's own view, the same bytes for every spectator."""
    import httpx
    from websockets.sync.client import connect

    from tests.server import svg_game  # noqa: F401  (registers "toy-svg")
    from thieves.server.app import create_app

    assert wsdeflate.protocol_class() is not None
    made: list[tuple[str, int | None, bytes]] = []  # (text, mode, bytes) of every frame written
    frame = Frames.frame

    def counted(self, mode):
        out = frame(self, mode)
        made.append((self.text, mode, out))
        return out

    monkeypatch.setattr(Frames, "frame", counted)
    from thieves.server import websocket as ws_module
    written_now: list[bool] = []  # per view frame: written at once (True) or sent the usual way
    write_now_of = ws_module._write_now_of

    def spied(ws):
        write = write_now_of(ws)
        if write is None:
            return None

        def spy(frames):
            done = write(frames)
            written_now.append(done)
            return done
        return spy

    monkeypatch.setattr(ws_module, "_write_now_of", spied)
    app = create_app(f"sqlite:///{tmp_path / 'f.db'}", bot_delay=0)
    port = _free_port()
    server, thread = _serve(app, port)
    try:
        base = f"http://127.0.0.1:{port}"
        t = httpx.post(base + "/api/tables", json={
            "game": "toy-bids", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        tid, toks = t["id"], t["tokens"]
        url = f"ws://127.0.0.1:{port}/ws/{tid}"
        with connect(url, max_size=None) as s1, connect(url, max_size=None) as s2, \
                connect(url, max_size=None, compression=None) as plain, \
                connect(f"{url}?token={toks['0']}", max_size=None) as w0, \
                connect(f"{url}?token={toks['1']}", max_size=None) as w1:
            socks = {"s1": s1, "s2": s2, "plain": plain, "0": w0, "1": w1}
            got = {k: [json.loads(s.recv(timeout=10))] for k, s in socks.items()}
            w1.send(json.dumps({"type": "action", "action": "bid 3"}))
            for k, s in socks.items():
                got[k].append(json.loads(s.recv(timeout=10)))
        views = app.state.platform.hub.views
        table = app.state.platform.manager.tables[tid]
    finally:
        server.should_exit = True
        thread.join(10)
    for k in got:
        assert [v["ply"] for v in got[k]] == [0, 1]
        assert all(v["viewer"] == (None if k in ("s1", "s2", "plain") else int(k)) for v in got[k])
    # the secret bid reaches its own seat only
    assert got["1"][-1]["observation"]["my_bid"] == 3
    for k in ("0", "s1", "s2", "plain"):
        assert "my_bid\": 3" not in json.dumps(got[k])
    assert got["s1"] == got["s2"] == got["plain"]
    # every frame written came through the shortcut, and it is the socket's own
    # view: the spectators' frames carry the spectators' text, each seat's its own
    # each view went straight to its socket, none waited (a socket that is not
    # full takes a frame at once): ten frames, five sockets, two positions
    assert written_now == [True] * 10
    texts = {json.loads(text)["viewer"] for text, _mode, _data in made}
    assert texts == {None, 0, 1}
    spectators = [(mode, data) for text, mode, data in made if json.loads(text)["viewer"] is None]
    assert {mode for mode, _ in spectators} == {None, 15}
    compressed = [data for mode, data in spectators if mode == 15]
    assert len(compressed) == 4  # two spectators, two positions
    assert compressed[0] == compressed[1] and compressed[2] == compressed[3]  # the same bytes
    assert compressed[0] is compressed[1]  # made once
    last = [text for text, _mode, _data in made if json.loads(text)["viewer"] is None][-1]
    assert views.text_now(table, None, "en")[1] == last
    for text, _mode, _data in made:
        viewer = json.loads(text)["viewer"]
        if viewer is not None:
            assert all(toks[o] not in text for o in toks)
            assert text == views.text_now(table, viewer, "en")[1] or json.loads(text)["ply"] == 0
