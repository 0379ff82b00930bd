"""What the routes share about HTTP: the asker's language and address, reading
a request's body, error answers, pages from templates, and the checks on
where a request comes from (origin, content type).
"""
from __future__ import annotations

import json
import urllib.parse
from pathlib import Path
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from .errors import BadRequest, Forbidden, ServerError, TooLarge, UnsupportedMediaType
from .i18n import LANG_NAMES, error_text, pick_lang, ui

HERE = Path(__file__).parent
#: the largest request body the server reads (JSON or form)
MAX_BODY = 64 * 1024
#: headers of an answer that holds a secret (a seat link): never kept by a cache
NO_STORE = {"Cache-Control": "no-store"}
templates = Jinja2Templates(directory=str(HERE / "templates"))


def request_lang(request: Request) -> str:
    """The language to answer in: ``?lang=``, then the cookie, then the browser's."""
    return pick_lang(request.query_params.get("lang"), request.cookies.get("lang"),
                     request.headers.get("accept-language"))


def error_response(exc: ServerError) -> JSONResponse:
    """An error as the JSON API answers it: ``{"error": code, "message"}``, its
    kind's status, and Retry-After when it has one."""
    resp = JSONResponse({"error": exc.code, "message": str(exc)}, status_code=exc.status)
    if exc.retry_after:
        resp.headers["Retry-After"] = str(exc.retry_after)
    return resp


def client_address(conn: Request | WebSocket) -> str:
    """Who is asking, for the limits (the peer's address as uvicorn gives it)."""
    return conn.client.host if conn.client else "?"


def site(request: Request) -> str:
    """The address for links shown to people: the configured public URL, else this request's."""
    public_url: str | None = request.app.state.public_url
    return public_url or f"{request.url.scheme}://{request.url.netloc}"


def page(request: Request, name: str, lang: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
    """A page from server/templates in ``lang`` (its texts, the language menu)."""
    ctx.update(t=ui(lang), lang=lang, langs=LANG_NAMES, path=request.url.path)
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)


def error_page(request: Request, exc: ServerError, lang: str, message: str | None = None) -> HTMLResponse:
    """An error as a page (for a browser without script), with its kind's status."""
    resp = page(request, "error.html", lang, message=error_text(exc.code, lang, str(exc)) if message is None
                else message, status_code=exc.status)
    if exc.retry_after:
        resp.headers["Retry-After"] = str(exc.retry_after)
    return resp


async def read_body(request: Request) -> bytes:
    """The request body, refused beyond MAX_BODY bytes (never read whole into memory)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise TooLarge("too_large", f"requests are at most {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge("too_large", f"requests are at most {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_form(request: Request) -> dict[str, str]:
    """An urlencoded form (parsed here: python-multipart is not a dependency)."""
    raw = await read_body(request)
    try:
        pairs = urllib.parse.parse_qsl(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=200)
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("malformed", "the form could not be read") from None
    return dict(pairs)


async def read_json(request: Request, allow_empty: bool = False) -> dict[str, Any]:
    raw = await read_body(request)
    if not raw and allow_empty:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        raise BadRequest("malformed", "the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise BadRequest("malformed", "the request body must be a JSON object")
    return body


def origin_refusal(headers: Any, public_url: str | None) -> ServerError | None:
    """A request that changes something (or a websocket) from another site's page.

    Browsers send ``Sec-Fetch-Site`` (it must be ``same-origin``) and ``Origin``
    with every such request; the origin must be this site: the configured
    public URL's origin, else the host the request was sent to (``null``, what
    a form sends under ``Referrer-Policy: no-referrer``, counts only with
    ``Sec-Fetch-Site: same-origin``). Programs that send neither (curl, bots)
    are not browsers and are let in.
    """
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return Forbidden("forbidden_origin", "requests from other sites are refused")
    origin = headers.get("origin")
    if origin is None:
        return None
    if origin == "null":
        # our pages' forms send "null" (Referrer-Policy: no-referrer); the browser
        # still says where the request came from in Sec-Fetch-Site
        if fetch_site is not None:
            return None
        return Forbidden("forbidden_origin", "requests from an unknown origin are refused")
    if public_url:
        parts = urllib.parse.urlsplit(public_url)
        ok = origin.lower() == f"{parts.scheme}://{parts.netloc}".lower()
    else:
        ok = urllib.parse.urlsplit(origin).netloc.lower() == (headers.get("host") or "").lower()
    if not ok:
        return Forbidden("forbidden_origin", f"requests from {origin[:80]!r} are refused")
    return None


def content_type_refusal(headers: Any) -> ServerError | None:
    """The JSON API reads JSON only (a form or text/plain body is what another
    site's page can send without asking first)."""
    kind = (headers.get("content-type") or "").split(";")[0].strip().lower()
    length = headers.get("content-length")
    if kind == "application/json" or (not kind and length in (None, "0")):
        return None
    return UnsupportedMediaType("unsupported_media_type", "the JSON API accepts only application/json")


class CachedStatic(StaticFiles):
    """Static files with a cache lifetime (ETag and Last-Modified come with them)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        resp = super().file_response(*args, **kwargs)
        resp.headers.setdefault("Cache-Control", "public, max-age=3600")
        return resp
