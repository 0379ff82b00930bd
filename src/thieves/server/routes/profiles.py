"""Profiles and ratings: a profile (its key kept in the browser), a seat
linked to it, the leaderboards and a player's page."""
from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from ..errors import BadRequest, Forbidden, NotFound, PositionConflict, stored
from ..i18n import error_text, ui
from ..platform import Platform
from ..tables import clean_name, playable_games
from ..views import game_name
from ..web import NO_STORE, client_address, page, read_json, request_lang
from .deps import PlatformDep
from .games import check_game

router = APIRouter()
#: the cookie that tells browsers apart when profiles are linked (see ratings.unrated_reason)
BROWSER_COOKIE = "thieves_browser"


def profile_of(platform: Platform, body: dict[str, Any]) -> dict[str, Any]:
    """The profile the body's ``key`` opens (403 when none)."""
    key = body.get("key")
    found = platform.storage.profile_by_key(key) if isinstance(key, str) and 0 < len(key) <= 200 else None
    if found is None:
        raise Forbidden("bad_profile", "this profile key is not known here")
    return found


@router.post("/api/profiles")
async def api_new_profile(request: Request, platform: PlatformDep) -> JSONResponse:
    """A profile without password: its secret key is kept in the browser."""
    body = await read_json(request, allow_empty=True)
    platform.creations.check(client_address(request), "you have created many profiles just now")
    name = clean_name(body.get("name"), "")
    if not name:
        raise BadRequest("bad_request", "a profile needs a display name")
    key = secrets.token_urlsafe(24)  # 192 random bits; only its digest is stored
    pid = secrets.token_urlsafe(9)
    stored("the profile could not be stored", platform.storage.add_profile, pid, key, name)
    return JSONResponse({"id": pid, "key": key, "name": name}, status_code=201, headers=NO_STORE)


@router.post("/api/profiles/me")
async def api_my_profile(request: Request, platform: PlatformDep) -> JSONResponse:
    """The profile a key opens (a key moved from another device is checked here)."""
    body = await read_json(request)
    me = profile_of(platform, body)
    if body.get("name") is not None:
        name = clean_name(body["name"], me["name"])
        platform.storage.rename_profile(me["id"], name)
        me["name"] = name
    return JSONResponse(me, headers=NO_STORE)


@router.post("/api/tables/{table_id}/profile")
async def api_link_profile(request: Request, platform: PlatformDep, table_id: str) -> JSONResponse:
    """This seat is played by this profile (once; before the game ends): its result counts in the ratings."""
    body = await read_json(request)
    table = await platform.get(table_id)
    seat = table.seat_of(body.get("token"))
    if seat is None:
        raise Forbidden("not_a_player", "only a seat can be linked to a profile")
    me = profile_of(platform, body)
    if table.state.is_terminal():
        raise PositionConflict("game_over", "the game is over")
    # this browser's mark (a cookie): two profiles linked from one
    # browser (or one address) at one table do not rate each other
    browser = request.cookies.get(BROWSER_COOKIE) or ""
    if not (16 <= len(browser) <= 64 and browser.replace("-", "").replace("_", "").isalnum()):
        browser = secrets.token_urlsafe(18)
    linked = platform.storage.link_seat(table.id, seat, me["id"], table.state.ply,
                                        client_address(request), browser)
    resp = JSONResponse({"seat": seat, "profile": me["id"], "linked": linked})
    resp.set_cookie(BROWSER_COOKIE, browser, max_age=3600 * 24 * 365, httponly=True, samesite="lax")
    return resp


@router.get("/api/leaderboard/{slug}")
async def api_leaderboard(platform: PlatformDep, slug: str) -> JSONResponse:
    check_game(slug)
    return JSONResponse(platform.storage.leaderboard(slug))


@router.get("/api/players/{profile_id}")
async def api_player(platform: PlatformDep, profile_id: str) -> JSONResponse:
    found = platform.storage.profile(profile_id) if len(profile_id) <= 16 else None
    if found is None:
        raise NotFound("unknown_player", "there is no such player")
    found["seats"] = [{"table": t, "seat": s} for t, s in found["seats"]]
    return JSONResponse(found)


@router.get("/players", response_class=HTMLResponse)
async def leaderboard_page(request: Request, platform: PlatformDep) -> HTMLResponse:
    lang = request_lang(request)
    boards = [{"slug": slug, "name": game_name(slug, lang), "rows": platform.storage.leaderboard(slug, 20)}
              for slug in playable_games()]
    return page(request, "players.html", lang, boards=boards)


@router.get("/p/{profile_id}", response_class=HTMLResponse)
async def player_page(request: Request, platform: PlatformDep, profile_id: str) -> HTMLResponse:
    lang = request_lang(request)
    found = platform.storage.profile(profile_id) if len(profile_id) <= 16 else None
    if found is None:
        return page(request, "error.html", lang, message=error_text("unknown_player", lang), status_code=404)
    for r in found["ratings"]:
        r["name"] = game_name(r["game"], lang) if r["game"] in playable_games() else r["game"]
    return page(request, "player.html", lang, player=found, games=_games_of(platform, found, lang))


def _games_of(platform: Platform, player: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """A player's tables for their page, newest first, each with whether it was rated."""
    rows = {r["rec"].id: r for r in platform.storage.list_tables(500)}
    games = []
    for table_id, seat in player["seats"]:
        row = rows.get(table_id)
        if row is not None:
            games.append({"id": table_id, "seat": seat, "game": game_name(row["rec"].game, lang),
                          "status": row["status"], "created": row["rec"].created})
    judged = platform.storage.unrated([g["id"] for g in games])
    texts = ui(lang)
    for g in games:
        if g["id"] in judged:
            reason = judged[g["id"]]
            g["rating_note"] = texts["rated"] if reason is None else texts.get(f"unrated_{reason}", reason)
    games.sort(key=lambda g: -g["created"])
    return games


@router.get("/profile", response_class=HTMLResponse)
async def profile_page(request: Request) -> HTMLResponse:
    lang = request_lang(request)
    return page(request, "profile.html", lang, config=json.dumps({"ui": ui(lang), "lang": lang}))
