"""A table's view, and a seat's decisions, over HTTP (the websocket,
routes/socket.py, does the same for the table's page)."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..views import pick_layout
from ..web import read_json, request_lang
from .deps import PlatformDep

router = APIRouter(prefix="/api/tables/{table_id}")
#: the answer's header to an action sent with ``then`` (a gesture): how many
#: of its further steps the table applied
THEN_HEADER = "X-Then-Applied"


@router.get("/view")
async def api_view(request: Request, platform: PlatformDep, table_id: str, token: str | None = None) -> Response:
    table = await platform.get(table_id)
    seat = table.seat_of(token)
    return await platform.view_response(table, seat, request_lang(request),
                                        pick_layout(request.query_params.get("layout")))


@router.post("/actions")
async def api_act(request: Request, platform: PlatformDep, table_id: str) -> Response:
    """A seat's decision (``{"token", "action", "ply", "then"}``); the answer is its view after it."""
    table = await platform.get(table_id)
    body = await read_json(request)
    seat = table.seat_of(body.get("token"))
    done = await platform.act(table, seat, body.get("action"), body.get("ply"), body.get("then"))
    response = await platform.view_response(table, seat, request_lang(request),
                                            pick_layout(request.query_params.get("layout")))
    if body.get("then") is not None:  # a gesture: how many of its further steps were taken
        response.headers[THEN_HEADER] = str(done)
    return response
