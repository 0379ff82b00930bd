"""The pages: the lobby (and its lists alone), a table to watch or play, its
replay, and the language switch."""
from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from ..errors import ServerError
from ..i18n import pick_lang, ui
from ..lobby import CLOCK_CHOICES, clock_label, games_catalog, lobby_tables
from ..platform import Platform
from ..reference import rules_html
from ..views import game_name
from ..web import error_page, page, request_lang, site
from .deps import PlatformDep

router = APIRouter()


def _lists(platform: Platform, lang: str) -> dict[str, Any]:
    """The lobby's three lists of tables (50 of each at most)."""
    return {"open_tables": lobby_tables(platform, lang, "open", 50),
            "running": lobby_tables(platform, lang, "playing", 50),
            "finished": lobby_tables(platform, lang, "finished", 50)}


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, platform: PlatformDep) -> HTMLResponse:
    lang = request_lang(request)
    return page(request, "lobby.html", lang, games=games_catalog(lang), **_lists(platform, lang),
                clocks=[(key, clock_label(key, lang)) for key, _c in CLOCK_CHOICES])


@router.get("/lobby/lists", response_class=HTMLResponse)
async def lobby_lists(request: Request, platform: PlatformDep) -> HTMLResponse:
    """The lobby's lists of tables alone: the lobby patches them in place."""
    lang = request_lang(request)
    resp = page(request, "lobby_lists.html", lang, **_lists(platform, lang))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> RedirectResponse:
    return RedirectResponse("/static/favicon.svg", status_code=301)


@router.get("/lang/{code}")
async def set_lang(code: str, next: str = "/") -> RedirectResponse:
    # only a path on this site: "//host" and "/\\host" would lead browsers elsewhere
    if (not next.startswith("/") or next.startswith("//") or "\\" in next
            or any(ord(ch) < 32 or ord(ch) == 127 for ch in next)):
        next = "/"
    resp = RedirectResponse(next, status_code=303)
    resp.set_cookie("lang", pick_lang(code), max_age=3600 * 24 * 365, samesite="lax")
    return resp


async def table_page(request: Request, platform: Platform, table_id: str, token: str | None,
                     name: str) -> HTMLResponse:
    """A table's page (``table.html`` or ``replay.html``) for its seat or a spectator."""
    lang = request_lang(request)
    try:
        table = await platform.get(table_id)
        seat = table.seat_of(token)
    except ServerError as exc:
        return error_page(request, exc, lang, message=ui(lang)["not_found"] + f" ({exc})")
    # the page itself carries no game data: it arrives over the websocket
    config = {"table": table.id, "game": table.rec.game, "token": token, "seat": seat, "lang": lang, "ui": ui(lang),
              "num_players": table.rec.num_players}
    base = f"/t/{table.id}" + (f"/s/{token}" if token else "")
    watch_url = f"{site(request)}/t/{table.id}"
    resp = page(request, name, lang, table_id=table.id, watch_url=watch_url, game_name=game_name(table.rec.game, lang),
                config=json.dumps(config).replace("<", "\\u003c"), base=base, seat=seat,
                rules_html=rules_html(table.rec.game, lang),
                names=table.display_names(lang), open_seats=[i for i, s in enumerate(table.rec.seats)
                                                 if s["kind"] == "human" and i not in table.digests])
    if token:  # a seat's page holds its secret link: never kept by a cache
        resp.headers["Cache-Control"] = "no-store"
    return resp


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def watch(request: Request, platform: PlatformDep, table_id: str) -> HTMLResponse:
    return await table_page(request, platform, table_id, None, "table.html")


@router.get("/t/{table_id}/s/{token}", response_class=HTMLResponse)
async def play(request: Request, platform: PlatformDep, table_id: str, token: str) -> HTMLResponse:
    return await table_page(request, platform, table_id, token, "table.html")


@router.get("/t/{table_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, platform: PlatformDep, table_id: str) -> HTMLResponse:
    return await table_page(request, platform, table_id, None, "replay.html")


@router.get("/t/{table_id}/s/{token}/replay", response_class=HTMLResponse)
async def seat_replay_page(request: Request, platform: PlatformDep, table_id: str, token: str) -> HTMLResponse:
    return await table_page(request, platform, table_id, token, "replay.html")
