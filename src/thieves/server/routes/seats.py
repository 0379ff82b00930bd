"""What a seat does besides deciding: fill the open seats with bots, leave,
concede or come back, take decisions back, switch reactions off, ask for a
rematch. Each request names its seat by its token in a JSON body."""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..platform import Platform
from ..tables import LiveTable
from ..web import NO_STORE, client_address, read_json
from .deps import PlatformDep

T = TypeVar("T")
router = APIRouter(prefix="/api/tables/{table_id}")


async def by_seat(request: Request, platform: Platform, table_id: str,
                  act: Callable[[LiveTable, int | None, dict[str, Any]], T]) -> tuple[LiveTable, int | None, T]:
    """The common start of a seat's request: its JSON body, the table, the seat its
    token names, then ``act(table, seat, body)`` under the table's lock."""
    body = await read_json(request)
    table = await platform.get(table_id)
    seat = table.seat_of(body.get("token"))
    async with table.lock:
        return table, seat, act(table, seat, body)


@router.post("/fill")
async def api_fill(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """The creator gives the open seats to bots: the game starts."""
    table, seat, filled = await by_seat(
        request, platform, table_id, lambda t, s, b: platform.manager.fill_with_bots(t, s, b.get("bot")))
    await platform.changed(table)
    return JSONResponse({"filled": filled})


async def seat_change(request: Request, platform: Platform, table_id: str, what: str) -> JSONResponse:
    """A seat leaves (a bot plays it), concedes, or comes back."""
    def change(t: LiveTable, s: int | None, b: dict[str, Any]) -> None:
        if what == "back":
            platform.manager.take_back(t, s)
        else:
            platform.manager.leave(t, s, b.get("bot"), concede=what == "concede")

    table, seat, _ = await by_seat(request, platform, table_id, change)
    await platform.changed(table)  # the substitute plays at once if it is that seat's turn
    return JSONResponse({"seat": seat, "sub": table.rec.seats[seat].get("sub") if seat is not None else None})


@router.post("/leave")
async def api_leave(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """A player leaves: a bot of the chosen level plays their seat until they come back."""
    return await seat_change(request, platform, table_id, "leave")


@router.post("/concede")
async def api_concede(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """A player gives up: a bot plays their seat to the end; there is no coming back."""
    return await seat_change(request, platform, table_id, "concede")


@router.post("/back")
async def api_back(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """A player who left takes their seat back (the game went on meanwhile)."""
    return await seat_change(request, platform, table_id, "back")


@router.post("/undo")
async def api_undo(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """Take one's own decisions back to the start of one's turn, when allowed."""
    def undo(t: LiveTable, s: int | None, _body: Any) -> int:
        if s is not None:
            platform.undos.check(f"{t.id}:{s}", "you have taken back many decisions just now")
        return platform.manager.undo(t, s)

    table, seat, target = await by_seat(request, platform, table_id, undo)
    await platform.changed(table)
    return JSONResponse({"ply": target})


@router.post("/reactions")
async def api_reactions(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """A player switches reactions to "not this round" (``{"off": true}``) or back:
    while off, the table lets that seat's reaction windows go by. Only the seat's
    own view changes."""
    table, seat, off = await by_seat(
        request, platform, table_id, lambda t, s, b: platform.manager.set_reactions(t, s, b.get("off")))
    assert seat is not None
    platform.hub.notify_seat(table, seat)
    platform.ensure_bots(table)  # a window open for that seat now is let go
    return JSONResponse({"seat": seat, "off": off})


@router.post("/rematch")
async def api_rematch(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """The same seats and options again: the first click makes the table, the
    others take their kept seats."""
    def rematch(t: LiveTable, s: int | None, _body: Any) -> tuple[LiveTable, int, str]:
        if s is not None and t.state.is_terminal() and not t.rec.rematch:
            # the click that makes the new table counts as a table made
            platform.creations.check(client_address(request), "you have created many tables just now")
        return platform.manager.rematch(t, s)

    table, seat, (new, new_seat, token) = await by_seat(request, platform, table_id, rematch)
    platform.hub.notify(table)  # its end screen now offers to join the rematch
    await platform.changed(new)
    return JSONResponse({"id": new.id, "seat": new_seat, "token": token,
                         "url": f"/t/{new.id}/s/{token}"}, status_code=201, headers=NO_STORE)
