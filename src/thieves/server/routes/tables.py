"""The lobby's JSON API: the tables, making one, taking an open seat."""
from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..i18n import pick_lang
from ..lobby import lobby_tables
from ..web import NO_STORE, client_address, read_json, request_lang
from .deps import PlatformDep

router = APIRouter(prefix="/api/tables")


@router.get("")
async def api_tables(request: Request, platform: PlatformDep) -> JSONResponse:
    return JSONResponse(lobby_tables(platform, request_lang(request)))


@router.post("")
async def api_create(request: Request, platform: PlatformDep) -> JSONResponse:
    body = await read_json(request)
    platform.creations.check(client_address(request), "you have created many tables just now")
    # in a worker thread: the write must not hold up the other tables
    table, tokens = await asyncio.to_thread(
        platform.manager.create, body.get("game"), body.get("players"), body.get("seats"),
        body.get("options") or {}, pick_lang(body.get("lang")), clock=body.get("clock"))
    await platform.changed(table)
    return JSONResponse({"id": table.id, "tokens": {str(k): v for k, v in tokens.items()},
                         "urls": {str(k): f"/t/{table.id}/s/{v}" for k, v in tokens.items()},
                         "watch": f"/t/{table.id}"}, status_code=201, headers=NO_STORE)


@router.post("/{table_id}/seats/{seat}/claim")
async def api_claim(request: Request, platform: PlatformDep, table_id: str, seat: int) -> JSONResponse:
    body = await read_json(request, allow_empty=True)
    await platform.get(table_id)  # caught up with the other processes first
    table, token = platform.manager.claim(table_id, seat, body.get("name"))
    await platform.changed(table)  # the last seat taken starts the game
    return JSONResponse({"token": token, "url": f"/t/{table.id}/s/{token}"}, status_code=201,
                        headers=NO_STORE)
