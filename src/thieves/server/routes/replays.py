"""Replays: one step of a table's replay (from any seat's point of view once
the game is over), and the finished game's replay file."""
from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..errors import BadRequest, stored
from ..replays import replay_async
from ..views import pick_layout, replay_file
from ..web import client_address, request_lang
from .deps import PlatformDep

router = APIRouter(prefix="/api/tables/{table_id}")


@router.get("/replay/{ply}")
async def api_replay_step(request: Request, platform: PlatformDep, table_id: str, ply: int,
                          token: str | None = None, viewer: str | None = None) -> JSONResponse:
    platform.replays.check(client_address(request), "you have asked for many replay steps just now")
    table = await platform.get(table_id)
    seat = table.seat_of(token)
    v: int | None = None
    if viewer not in (None, "", "spectator"):
        try:
            v = int(viewer)
        except ValueError:
            raise BadRequest("bad_seat", f"there is no seat {viewer!r}") from None
    # from checkpoints, in a worker thread, kept a while (see replays.py)
    return JSONResponse(await replay_async(table, ply, v, request_lang(request), seat,
                                           pick_layout(request.query_params.get("layout"))))


@router.get("/replay.json")
async def api_replay_file(platform: PlatformDep, table_id: str) -> Response:
    table = await platform.get(table_id)
    chat = await asyncio.to_thread(stored, "the chat could not be read", platform.storage.chat_messages, table.id)
    text = replay_file(table, chat)
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="thieves-{table_id}.json"'})
