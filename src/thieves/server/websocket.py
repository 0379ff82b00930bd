"""The live-table protocol over a websocket.

Connect to ``/ws/{table_id}?token=SEAT_TOKEN&lang=fr`` (no token: spectator).
The server sends JSON messages:

* ``{"type": "state", ...}`` — the whole view (see :func:`views.build_view`),
  on connecting and after every accepted action;
* ``{"type": "error", "code": ..., "message": ...}`` — to the one client
  whose message was refused; nothing changed.

The client sends ``{"type": "action", "action": "<notation>", "ply": N}``
(``ply``, optional: the move number the action was chosen at; a message for
an older move is refused as ``stale``, so a resent action is never applied
twice), ``{"type": "lang", "lang": "de"}`` or ``{"type": "ping"}``.
Messages are text frames of at most 16 KiB.
A wrong table or token gets an error message, then the socket closes
(code 4404 or 4403).

Frames to one connection are sent one at a time, each built from the
table as it is when it is sent, so a client never gets an older position
after a newer one.
"""
from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .i18n import pick_lang
from .tables import LiveTable, ServerError
from .views import build_view

if TYPE_CHECKING:
    from .app import Platform

log = logging.getLogger("thieves.server")


#: the largest message a client may send (an action is at most 200 characters)
MAX_MESSAGE = 16 * 1024
#: seconds a broadcast waits for one connection: a client that does not read
#: (stalled network, or on purpose) is dropped instead of holding up the others
SEND_TIMEOUT = 10.0


@dataclass(eq=False)
class Conn:
    ws: WebSocket
    viewer: int | None
    lang: str
    #: one frame at a time per connection, in the order the table changed
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, text: str) -> None:
        async with self.lock:
            await self.ws.send_text(text)

    async def send_view(self, table: LiveTable, cache: dict[tuple[int | None, str, int], str] | None = None) -> None:
        async with self.lock:
            # built now, under the lock: the newest position is always the last sent
            key = (self.viewer, self.lang, table.version)
            text = cache.get(key) if cache is not None else None
            if text is None:
                text = json.dumps(build_view(table, table.state, self.viewer, self.lang))
                if cache is not None:
                    cache[key] = text
            await self.ws.send_text(text)


class Hub:
    """Open connections per table, and broadcasting views to them."""

    def __init__(self) -> None:
        self.conns: dict[str, list[Conn]] = {}

    def add(self, table_id: str, conn: Conn) -> None:
        self.conns.setdefault(table_id, []).append(conn)

    def remove(self, table_id: str, conn: Conn) -> None:
        lst = self.conns.get(table_id, [])
        if conn in lst:
            lst.remove(conn)

    async def broadcast(self, table: LiveTable) -> None:
        cache: dict[tuple[int | None, str, int], str] = {}

        async def one(conn: Conn) -> None:
            try:
                await asyncio.wait_for(conn.send_view(table, cache), SEND_TIMEOUT)
            except Exception:  # noqa: BLE001 - a closed, broken or stalled socket
                self.remove(table.id, conn)
                try:
                    await asyncio.wait_for(conn.ws.close(code=1011), 1.0)
                except Exception:  # noqa: BLE001 - already gone
                    pass

        # every connection at once: a slow client never holds up the others
        await asyncio.gather(*(one(c) for c in list(self.conns.get(table.id, []))))


def _error_text(exc: ServerError) -> str:
    return json.dumps({"type": "error", "code": exc.code, "message": str(exc)})


async def send_error(ws: WebSocket, exc: ServerError) -> None:
    await ws.send_text(_error_text(exc))


async def table_socket(ws: WebSocket, platform: "Platform", table_id: str) -> None:
    await ws.accept()
    lang = pick_lang(ws.query_params.get("lang"), ws.cookies.get("lang"))
    try:
        table = platform.manager.get(table_id)
        viewer = table.seat_of(ws.query_params.get("token"))
    except ServerError as exc:
        await send_error(ws, exc)
        await ws.close(code=4404 if exc.code == "unknown_table" else 4403)
        return
    conn = Conn(ws, viewer, lang)
    platform.hub.add(table.id, conn)
    try:
        await conn.send_view(table)
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                text = message.get("text")
                if text is None:
                    raise ServerError("malformed", "messages must be JSON text, not binary frames")
                if len(text) > MAX_MESSAGE:
                    raise ServerError("too_large", f"messages are at most {MAX_MESSAGE} characters", 413)
                msg = _parse(text)
                kind = msg["type"]
                if kind == "action":
                    platform.manager.act(table, viewer, msg.get("action"), msg.get("ply"))
                    await platform.changed(table)
                elif kind == "lang":
                    conn.lang = pick_lang(msg.get("lang") if isinstance(msg.get("lang"), str) else None)
                    await conn.send_view(table)
                elif kind == "ping":
                    await conn.send(json.dumps({"type": "pong", "ply": table.state.ply}))
                else:
                    raise ServerError("malformed", f"unknown message type {kind!r}")
            except ServerError as exc:
                await conn.send(_error_text(exc))
    except WebSocketDisconnect:
        pass
    finally:
        platform.hub.remove(table.id, conn)


def _parse(text: str) -> dict[str, Any]:
    try:
        msg = json.loads(text)
    except (ValueError, TypeError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        raise ServerError("malformed", "messages must be JSON objects") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ServerError("malformed", 'messages must be JSON objects with a "type"')
    return msg
