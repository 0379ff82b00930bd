"""The lobby's forms, which work without script too: make a table (or "Play
now"), take an open seat. The lobby's script asks for JSON instead of pages."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from ..errors import BadRequest, NotFound, ServerError
from ..i18n import error_text, pick_lang
from ..lobby import form_clock, form_setup, quick_setup
from ..platform import Platform
from ..tables import LiveTable, playable_games
from ..views import game_name
from ..web import NO_STORE, client_address, error_page, page, read_form, request_lang, site
from .deps import PlatformDep

router = APIRouter()


@router.post("/tables")
async def create_from_form(request: Request, platform: PlatformDep) -> Response:
    """The lobby's form (or its one-click "Play now": ``quick=1``). A browser
    without script gets the seat's page (303); the lobby's script asks for
    JSON (``Accept: application/json``) and shows the seat link first."""
    lang = request_lang(request)
    wants_json = "application/json" in request.headers.get("accept", "")
    try:
        form = await read_form(request)
        lang = pick_lang(form.get("lang"), lang)  # the lobby's language
        table, tokens = _create(request, platform, form, lang)
    except ServerError as exc:
        if wants_json:
            return JSONResponse({"error": exc.code, "message": error_text(exc.code, lang, str(exc))},
                                status_code=exc.status,
                                headers={"Retry-After": str(exc.retry_after)} if exc.retry_after else None)
        return error_page(request, exc, lang)
    await platform.changed(table)
    if wants_json:
        # the lobby's script: it shows the seat link before it goes there
        names = table.display_names(lang)
        links = [{"seat": i, "name": names[i], "url": f"/t/{table.id}/s/{tok}"}
                 for i, tok in sorted(tokens.items())]
        return JSONResponse({"id": table.id, "links": links, "watch": f"/t/{table.id}",
                             "url": links[0]["url"] if len(links) == 1 else None},
                            status_code=201, headers=NO_STORE)
    if len(tokens) > 1:
        return _seat_links(request, table, tokens, lang)
    if tokens:
        return RedirectResponse(f"/t/{table.id}/s/{tokens[min(tokens)]}", status_code=303)
    return RedirectResponse(f"/t/{table.id}", status_code=303)


def _create(request: Request, platform: Platform, form: dict[str, str],
            lang: str) -> tuple[LiveTable, dict[int, str]]:
    """The table the form asks for, and the tokens of the creator's seats."""
    platform.creations.check(client_address(request), "you have created many tables just now")
    slug = str(form.get("game", ""))
    if slug not in playable_games():
        raise NotFound("unknown_game", f"there is no game {slug!r}")
    if form.get("quick"):
        players = quick_setup(slug)[0]
    else:
        try:
            players = int(str(form.get("players", "")))
        except ValueError:
            raise BadRequest("bad_request", "choose a number of players") from None
    seats, options = form_setup(slug, players, form)
    return platform.manager.create(slug, players, seats, options, pick_lang(str(form.get("lang", lang))),
                                   clock=form_clock(str(form.get("clock", "none"))))


def _seat_links(request: Request, table: LiveTable, tokens: dict[int, str], lang: str) -> HTMLResponse:
    """Several seats are the creator's (people sharing one screen, or friends to
    send links to): each link is shown once, here, and never again (only their
    digests are stored)."""
    origin = site(request)
    names = table.display_names(lang)
    links: list[dict[str, Any]] = [{"seat": i, "name": names[i], "url": f"/t/{table.id}/s/{tok}",
                                    "full": f"{origin}/t/{table.id}/s/{tok}"} for i, tok in sorted(tokens.items())]
    resp = page(request, "seat_links.html", lang, links=links, table_id=table.id,
                game_name=game_name(table.rec.game, lang), watch=f"/t/{table.id}",
                watch_full=f"{origin}/t/{table.id}", status_code=201)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@router.post("/t/{table_id}/join/{seat}")
async def join_from_form(request: Request, platform: PlatformDep, table_id: str, seat: int) -> Response:
    lang = request_lang(request)
    try:
        form = await read_form(request)
        await platform.get(table_id)  # caught up with the other processes first
        table, token = platform.manager.claim(table_id, seat, form.get("name"))
    except ServerError as exc:
        return error_page(request, exc, lang)
    await platform.changed(table)  # the last seat taken starts the game
    return RedirectResponse(f"/t/{table.id}/s/{token}", status_code=303)
