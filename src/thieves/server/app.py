"""The web application: ``create_app`` puts the pieces together.

* server/platform.py: the server's state (tables, sockets, bots, clocks);
* server/routes/: the endpoints, one router per concern (pages, lobby forms,
  games, tables, seats, play, chat, replays, profiles, review, websocket);
* server/web.py: what the routes share about HTTP (language, bodies, errors,
  pages, origin checks); server/lobby.py: what the lobby shows and reads.

``serve(host, port, database_url)`` is what ``thieves serve`` runs.
Environment knobs: ``THIEVES_BOT_DELAY`` (seconds between bot moves,
default 0.8; 0 plays bots at once) and ``THIEVES_DATABASE_URL``.
"""
from __future__ import annotations

import gc
import logging
import os
import urllib.parse
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from .errors import ServerError
from .i18n import pick_lang
from .limits import Limits
from .platform import Platform
from .review import Reviewer
from .routes import ROUTERS
from .shared import Fanout
from .storage import Storage
from .web import HERE, CachedStatic, content_type_refusal, error_response, origin_refusal
from .websocket import MAX_MESSAGE

log = logging.getLogger("thieves.server")
DEFAULT_BOT_DELAY = 0.8
#: the largest websocket frame uvicorn reads (MAX_MESSAGE characters of UTF-8)
WS_MAX_BYTES = 4 * MAX_MESSAGE


def create_app(database_url: str | None = None, bot_delay: float | None = None,
               table_prefix: str | None = None, limits: Limits | None = None,
               public_url: str | None = None, redis_url: str | None = None,
               allowed_hosts: Sequence[str] | None = None, trusted_proxies: Sequence[str] | None = None,
               bind_host: str | None = None) -> FastAPI:
    """The application; ``bot_delay`` 0 lets bots answer at once (tests).

    ``allowed_hosts`` (or ``$THIEVES_ALLOWED_HOSTS``, comma-separated): the
    names a request's ``Host`` may give besides the public URL's (see
    :func:`host_allow_list`; against DNS rebinding). ``trusted_proxies`` (or
    ``$THIEVES_TRUSTED_PROXIES``): the addresses of the proxies in front,
    whose ``X-Forwarded-For`` says who is asking; default none (the peer's
    own address counts).

    ``public_url`` (or ``$THIEVES_PUBLIC_URL``), e.g. ``https://thieves.example``:
    the address people use; links shown to them are built from it, and
    state-changing requests and websockets must come from its origin.
    """
    public_url = (public_url or os.environ.get("THIEVES_PUBLIC_URL") or "").rstrip("/") or None
    app = FastAPI(title="thieves", lifespan=_lifespan, docs_url=None, redoc_url=None)
    app.state.platform = make_platform(database_url, bot_delay, table_prefix, limits, redis_url)
    app.state.public_url = public_url
    for router in ROUTERS:
        app.include_router(router)
    # static files: compressed, and kept by browsers for an hour (then revalidated by ETag)
    app.mount("/static", GZipMiddleware(CachedStatic(directory=str(HERE / "static")), minimum_size=512,
                                        compresslevel=6), name="static")
    app.add_exception_handler(ServerError, _server_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _bad_path)  # type: ignore[arg-type]
    app.middleware("http")(_security_headers)
    # outermost: a request naming another host (DNS rebinding) is refused before
    # anything else, HTTP and websockets alike; then who is asking, from the
    # trusted proxies' X-Forwarded-For only
    if trusted_proxies is None:
        trusted_proxies = _env_list("THIEVES_TRUSTED_PROXIES")
    if trusted_proxies:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(trusted_proxies))
    if allowed_hosts is None:
        allowed_hosts = _env_list("THIEVES_ALLOWED_HOSTS")
    app.state.allowed_hosts = host_allow_list(public_url, allowed_hosts, bind_host)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=app.state.allowed_hosts, www_redirect=False)
    return app


def make_platform(database_url: str | None = None, bot_delay: float | None = None,
                  table_prefix: str | None = None, limits: Limits | None = None,
                  redis_url: str | None = None) -> Platform:
    """The server's state, its tables read from storage (arguments, else the
    ``THIEVES_*`` environment: see :func:`create_app` and docs/server.md)."""
    table_prefix = table_prefix or os.environ.get("THIEVES_TABLE_PREFIX") or "thieves_"
    redis_url = redis_url or os.environ.get("THIEVES_REDIS_URL") or None
    if bot_delay is None:
        bot_delay = float(os.environ.get("THIEVES_BOT_DELAY", DEFAULT_BOT_DELAY))
    storage = Storage(database_url, prefix=table_prefix)
    shared = Fanout(redis_url, table_prefix) if redis_url else None
    forward = os.environ.get("THIEVES_FORWARD_VIEWS", "0").strip() in ("1", "true", "yes")
    platform = Platform(storage, bot_delay, limits, shared, forward_views=forward)
    platform.reviewer = Reviewer(storage)  # hints and post-game reviews
    # one process alone: it was down, so nobody's clock ran meanwhile; with
    # several, the others kept the clocks (a table's time is its stored moves')
    platform.manager.load_all(restart_clocks=shared is None)
    return platform


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    platform: Platform = app.state.platform
    platform.start()
    yield
    await platform.stop()


async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
    """A JSON route raised an error kind: ``{"error": code, "message"}`` with its status."""
    return error_response(exc)


async def _bad_path(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A value in the address of the wrong type (e.g. /api/tables/x/seats/abc/claim):
    our error shape, not FastAPI's."""
    where = ", ".join(str(e.get("loc", ["?"])[-1]) for e in exc.errors()) or "?"
    return JSONResponse({"error": "bad_request", "message": f"bad value in the address: {where}"},
                        status_code=400)


async def _security_headers(request: Request, call_next: Any) -> Response:
    """Refuse a change from another site's page (or a non-JSON body to the API),
    remember ``?lang=``, and send every answer with the security headers."""
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        refused = origin_refusal(request.headers, request.app.state.public_url)
        if refused is None and request.url.path.startswith("/api/"):
            refused = content_type_refusal(request.headers)
        if refused is not None:
            return error_response(refused)
    response: Response = await call_next(request)
    asked = request.query_params.get("lang")
    if asked and pick_lang(asked) == asked.strip().lower()[:2] and "set-cookie" not in response.headers:
        # ?lang=fr is remembered, so the pages reached from here (a new
        # table, a seat link) stay in that language
        response.set_cookie("lang", pick_lang(asked), max_age=3600 * 24 * 365, samesite="lax")
    response.headers["Referrer-Policy"] = "no-referrer"  # seat links never leak
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'")
    return response


#: the hosts a server started without ``--public-url`` nor ``--allowed-host`` answers to
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def host_allow_list(public_url: str | None, allowed: Sequence[str], bind_host: str | None = None) -> list[str]:
    """The names a request's ``Host`` header may give: the public URL's host and
    the allowed hosts (``*.example.org`` allows its subdomains, ``*`` any host);
    when neither is given, this machine's own names and the address it is bound
    to (not 0.0.0.0 nor ::, which are no one's name)."""
    hosts = []
    for raw in allowed:
        host = raw.strip().lower()
        if host:
            hosts.append(host)
    if public_url:
        name = urllib.parse.urlsplit(public_url).hostname
        if name:
            hosts.append(f"[{name}]" if ":" in name else name)
    if not hosts:
        hosts = list(LOCAL_HOSTS)
        if bind_host and bind_host not in ("0.0.0.0", "::", ""):
            hosts.append(f"[{bind_host}]" if ":" in bind_host and not bind_host.startswith("[") else bind_host)
    return list(dict.fromkeys(hosts))


def _env_list(name: str) -> list[str]:
    """A comma-separated environment variable as a list (empty when unset)."""
    return [x.strip() for x in os.environ.get(name, "").split(",") if x.strip()]




#: the cyclic garbage collector's first threshold in a server: allocations past
#: frees between two young collections (Python's default is 700)
GC_YOUNG = 20_000


def _settle_memory() -> None:
    """Once the app is built: what was loaded at start (modules, games' data and
    texts) is kept out of the garbage collector's later passes (``gc.freeze``),
    and its young collections come less often. A decision allocates thousands
    of short-lived objects (views, drawings), nearly none in cycles, and the
    caches keep many; with Python's defaults (a young collection every 700
    objects kept) the collector took about 3.5% of a loaded server's CPU, and
    a full pass walked everything loaded at start (docs/server.md, Capacity)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None,
          public_url: str | None = None, redis_url: str | None = None,
          allowed_hosts: Sequence[str] | None = None, trusted_proxies: Sequence[str] | None = None) -> None:
    """Run the server (what ``thieves serve`` calls)."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(database_url, public_url=public_url, redis_url=redis_url,
                     allowed_hosts=allowed_hosts or None, trusted_proxies=trusted_proxies or None,
                     bind_host=host)
    _settle_memory()
    print(f"thieves: serving on http://{host}:{port}/  (database: {app.state.platform.storage.engine.url.render_as_string(hide_password=True)})",
          flush=True)
    # ws_max_size: a frame over the limit is refused (1009) before it is read whole
    # permessage-deflate shrinks frames (boards are SVG) but costs CPU: each
    # text is compressed once for every socket that sends it (server/wsdeflate.py);
    # THIEVES_WS_DEFLATE=0 turns it off
    deflate = os.environ.get("THIEVES_WS_DEFLATE", "1").strip() not in ("0", "false", "no")
    from .wsdeflate import protocol_class

    print(f"thieves: answering to the hosts {', '.join(app.state.allowed_hosts)} "
          "(--public-url, --allowed-host)", flush=True)
    # proxy_headers off: uvicorn would trust X-Forwarded-For from 127.0.0.1 by
    # default; the app trusts only the proxies it was given (--trusted-proxy)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_BYTES, proxy_headers=False,
                ws_per_message_deflate=deflate, ws=protocol_class() or "auto")
