"""The games on this server: their list with options, and each game's texts,
glossary and rules summary in one language (JSON)."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..errors import NotFound
from ..i18n import game_texts
from ..lobby import games_catalog
from ..reference import glossary, rules_html
from ..tables import playable_games
from ..web import request_lang

router = APIRouter(prefix="/api/games")


def check_game(slug: str) -> None:
    """Refuse a game this server does not offer (404)."""
    if slug not in playable_games():
        raise NotFound("unknown_game", f"there is no game {slug!r}")


@router.get("")
async def api_games(request: Request) -> JSONResponse:
    return JSONResponse(games_catalog(request_lang(request)))


@router.get("/{slug}/texts")
async def api_texts(request: Request, slug: str) -> JSONResponse:
    """A game's texts (data/i18n.yaml) in one language, English where missing."""
    check_game(slug)
    texts = game_texts(slug)
    merged = dict(texts.get("en", {}))
    merged.update(texts.get(request_lang(request), {}))
    return JSONResponse(merged)


@router.get("/{slug}/glossary")
async def api_glossary(request: Request, slug: str) -> JSONResponse:
    """Every public component of a game in one language (the same for everyone)."""
    check_game(slug)
    lang = request_lang(request)
    return JSONResponse({"game": slug, "lang": lang, "entries": glossary(slug, lang)},
                        headers={"Cache-Control": "public, max-age=3600"})


@router.get("/{slug}/rules")
async def api_rules(request: Request, slug: str) -> JSONResponse:
    """A game's rules summary in one language as HTML (headings, lists)."""
    check_game(slug)
    lang = request_lang(request)
    return JSONResponse({"game": slug, "lang": lang, "html": rules_html(slug, lang)})
