"""A table's chat over HTTP: read it, write in it (server/chat.py checks a message)."""
from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..errors import stored
from ..web import client_address, read_json
from .deps import PlatformDep

router = APIRouter(prefix="/api/tables/{table_id}")
#: chat messages one request reads at most (``since`` reads on)
CHAT_PAGE = 1000


@router.get("/chat")
async def api_chat(platform: PlatformDep, table_id: str, since: int = 0) -> JSONResponse:
    """The table's chat, oldest first (``since``: only the messages after that id)."""
    table = await platform.get(table_id)
    messages = await asyncio.to_thread(stored, "the chat could not be read",
                                       platform.storage.chat_messages, table.id, max(since, 0), CHAT_PAGE)
    state = table.state
    if state.is_terminal() and state.secret_steps:
        # a finished game's replay steps through every decision: each message's
        # ``step`` is where its public move number stands there
        for m in messages:
            m["step"] = state.ply_of_public(m["ply"])
    lim = platform.limits
    return JSONResponse({"messages": messages, "limits": {
        "chars": lim.chat_chars, "messages": lim.chat_messages, "window": lim.chat_window,
        "stored": lim.chat_stored}})


@router.post("/chat")
async def api_say(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """Write in the table's chat: ``{"token", "text"}`` for a seat, ``{"name", "text"}``
    for a spectator; every socket of the table gets it too."""
    body = await read_json(request)
    table = await platform.get(table_id)
    seat = table.seat_of(body.get("token"))
    message = await platform.say(table, seat, body.get("text"), body.get("name"), client_address(request))
    return JSONResponse(message, status_code=201)
