"""The live-table protocol over a websocket.

Connect to ``/ws/{table_id}?token=SEAT_TOKEN&lang=fr`` (no token: spectator).
The server sends JSON messages:

* ``{"type": "state", ...}`` — the whole view (see :func:`views.build_view`),
  on connecting and after every accepted action;
* ``{"type": "error", "code": ..., "message": ...}`` — to the one client
  whose message was refused; nothing changed.

The client sends ``{"type": "action", "action": "<notation>"}``,
``{"type": "lang", "lang": "de"}`` or ``{"type": "ping"}``.
A wrong table or token gets an error message, then the socket closes
(code 4404 or 4403).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .i18n import pick_lang
from .tables import LiveTable, ServerError
from .views import build_view

if TYPE_CHECKING:
    from .app import Platform

log = logging.getLogger("thieves.server")


@dataclass(eq=False)
class Conn:
    ws: WebSocket
    viewer: int | None
    lang: str


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
        cache: dict[tuple[int | None, str], str] = {}
        for conn in list(self.conns.get(table.id, [])):
            key = (conn.viewer, conn.lang)
            if key not in cache:
                cache[key] = json.dumps(build_view(table, table.state, conn.viewer, conn.lang))
            try:
                await conn.ws.send_text(cache[key])
            except Exception:
                self.remove(table.id, conn)


async def send_error(ws: WebSocket, exc: ServerError) -> None:
    await ws.send_text(json.dumps({"type": "error", "code": exc.code, "message": str(exc)}))


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
        await ws.send_text(json.dumps(build_view(table, table.state, viewer, lang)))
        while True:
            text = await ws.receive_text()
            try:
                msg = _parse(text)
                kind = msg["type"]
                if kind == "action":
                    platform.manager.act(table, viewer, msg.get("action"))
                    await platform.changed(table)
                elif kind == "lang":
                    conn.lang = pick_lang(msg.get("lang"))
                    await ws.send_text(json.dumps(build_view(table, table.state, viewer, conn.lang)))
                elif kind == "ping":
                    await ws.send_text(json.dumps({"type": "pong", "ply": table.state.ply}))
                else:
                    raise ServerError("malformed", f"unknown message type {kind!r}")
            except ServerError as exc:
                await send_error(ws, exc)
    except WebSocketDisconnect:
        pass
    finally:
        platform.hub.remove(table.id, conn)


def _parse(text: str) -> dict[str, Any]:
    try:
        msg = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        raise ServerError("malformed", "messages must be JSON objects") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ServerError("malformed", 'messages must be JSON objects with a "type"')
    return msg
