"""Learn and review at the table (server/review.py): a hint for a seated
player, a finished game's review."""
from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..web import NO_STORE, read_json, request_lang
from .deps import PlatformDep

router = APIRouter(prefix="/api/tables/{table_id}")


@router.post("/hint")
async def api_hint(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """The search's best moves for the asking seat (see server/review.py)."""
    body = await read_json(request)
    table = await platform.get(table_id)
    seat = table.seat_of(body.get("token"))
    answer = await platform.reviewer.hint(table, seat, request_lang(request))
    assert seat is not None
    if not table.rec.seats[seat].get("hinted"):
        # a table where a seat was helped never counts in the ratings, even if
        # profiles are linked later (ratings.unrated_reason: "hints")
        async with table.lock:
            await asyncio.to_thread(platform.manager.note_hint, table, seat)
    return JSONResponse(answer, headers=NO_STORE)


@router.get("/review")
async def api_review(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """A finished game's review, or how far it has got."""
    table = await platform.get(table_id)
    return JSONResponse(await platform.reviewer.review(table, request_lang(request)))
