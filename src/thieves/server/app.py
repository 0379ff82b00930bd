"""The web application: lobby, table pages, JSON API, websocket, bots.

``serve(host, port, database_url)`` is what ``thieves serve`` runs.
Environment knobs: ``THIEVES_BOT_DELAY`` (seconds between bot moves,
default 0.8; 0 plays bots at once) and ``THIEVES_DATABASE_URL``.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import urllib.parse
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ..bots import bot_names
from ..core.game import Option
from ..core.registry import load_game
from .i18n import LANG_NAMES, bot_label, error_text, game_text, game_texts, pick_lang, ui
from .storage import Storage
from .tables import LiveTable, ServerError, TableManager, playable_games
from .views import build_view, game_name, replay_file, replay_view
from .websocket import Hub, table_socket

log = logging.getLogger("thieves.server")
HERE = Path(__file__).parent
DEFAULT_BOT_DELAY = 0.8
#: the largest request body the server reads (JSON or form)
MAX_BODY = 64 * 1024


class Platform:
    """The server's state: storage, live tables, connections, running bots."""

    def __init__(self, storage: Storage, bot_delay: float) -> None:
        self.storage = storage
        self.manager = TableManager(storage)
        self.hub = Hub()
        self.bot_delay = bot_delay
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}

    async def changed(self, table: LiveTable) -> None:
        """After an accepted action: tell every viewer, then let bots move."""
        if self.bot_delay <= 0:
            self.manager.play_bots_now(table)
            await self.hub.broadcast(table)
            return
        await self.hub.broadcast(table)
        self.ensure_bots(table)

    def ensure_bots(self, table: LiveTable) -> None:
        if table.bot_to_act() is None:
            return
        if self.bot_delay <= 0:
            self.manager.play_bots_now(table)
            return
        task = self._bot_tasks.get(table.id)
        if task is None or task.done():
            self._bot_tasks[table.id] = asyncio.create_task(self._run_bots(table))

    async def _run_bots(self, table: LiveTable) -> None:
        while True:
            seat = table.bot_to_act()
            if seat is None:
                return
            await asyncio.sleep(self.bot_delay)
            try:
                ply, action = await asyncio.to_thread(self.manager.bot_choice, table, seat)
                if self.manager.bot_commit(table, seat, ply, action):
                    await self.hub.broadcast(table)
            except ServerError as exc:
                if exc.code != "storage":  # the bot chose wrongly: trying again would loop
                    log.error("bot at table %s stopped: %s", table.id, exc)
                    return
                # the database is away: try again later
                log.warning("bot move at table %s failed: %s", table.id, exc)
                await asyncio.sleep(max(self.bot_delay, 1.0))
            except Exception:
                log.exception("bot at table %s crashed", table.id)
                return

    async def stop(self) -> None:
        for task in self._bot_tasks.values():
            task.cancel()
        self._bot_tasks.clear()


# -- helpers ----------------------------------------------------------------------
def _lang(request: Request) -> str:
    return pick_lang(request.query_params.get("lang"), request.cookies.get("lang"),
                     request.headers.get("accept-language"))


def _error(exc: ServerError) -> JSONResponse:
    return JSONResponse({"error": exc.code, "message": str(exc)}, status_code=exc.status)


def web_options(slug: str) -> list[Option]:
    """Options a web user may set (never data_dir: a path on the server)."""
    return [o for o in load_game(slug).all_options() if o.name != "data_dir"]


def games_catalog(lang: str) -> list[dict[str, Any]]:
    out = []
    for slug in playable_games():
        g = load_game(slug)
        opts = []
        for o in web_options(slug):
            d = o.describe()
            d["label"] = game_text(slug, lang, f"option.{o.name}", o.name.replace("_", " "))
            d["help"] = game_text(slug, lang, f"option.{o.name}.help", o.help)
            d["choice_labels"] = [game_text(slug, lang, f"option.{o.name}.{c}", str(c)) for c in o.choices or []]
            opts.append(d)
        out.append({"slug": slug, "name": game_name(slug, lang), "min_players": g.min_players,
                    "max_players": g.max_players,
                    "summary": game_text(slug, lang, "summary", g.summary),
                    "options": opts, "bots": bot_names(slug),
                    "bot_labels": {b: bot_label(b, lang) for b in bot_names(slug)}})
    return out


def table_summary(t: LiveTable, lang: str) -> dict[str, Any]:
    return {"id": t.id, "game": t.rec.game, "game_name": game_name(t.rec.game, lang),
            "num_players": t.rec.num_players, "status": t.status(), "ply": t.state.ply,
            "created": t.rec.created, "broken": t.broken,
            "seats": [{"seat": i, "name": name, "kind": s["kind"], "bot": s["bot"],
                       "claimed": s["kind"] == "bot" or i in t.digests}
                      for i, (s, name) in enumerate(zip(t.rec.seats, t.display_names(lang)))]}


def _form_option(o: Option, raw: Any) -> Any:
    """A lobby form value turned into the option's type."""
    if o.kind is bool:
        return raw in ("on", "true", "1", True)
    if raw is None or raw == "":
        return o.default
    if o.choices is not None:
        for c in o.choices:
            if str(c) == raw:
                return c
        return raw
    if o.kind is int:
        try:
            return int(raw)
        except ValueError:
            return raw
    return raw


def create_app(database_url: str | None = None, bot_delay: float | None = None,
               table_prefix: str = "thieves_") -> FastAPI:
    """The application; ``bot_delay`` 0 lets bots answer at once (tests)."""
    if bot_delay is None:
        bot_delay = float(os.environ.get("THIEVES_BOT_DELAY", DEFAULT_BOT_DELAY))
    storage = Storage(database_url, prefix=table_prefix)
    platform = Platform(storage, bot_delay)
    platform.manager.load_all()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for table in list(platform.manager.tables.values()):
            platform.ensure_bots(table)
        yield
        await platform.stop()

    app = FastAPI(title="thieves", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.platform = platform
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(RequestValidationError)
    async def bad_path(request: Request, exc: RequestValidationError) -> JSONResponse:
        # e.g. /api/tables/x/seats/abc/claim: our error shape, not FastAPI's
        where = ", ".join(str(e.get("loc", ["?"])[-1]) for e in exc.errors()) or "?"
        return JSONResponse({"error": "bad_request", "message": f"bad value in the address: {where}"},
                            status_code=400)

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
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

    def page(request: Request, name: str, lang: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
        ctx.update(t=ui(lang), lang=lang, langs=LANG_NAMES, path=request.url.path)
        return templates.TemplateResponse(request, name, ctx, status_code=status_code)

    # -- pages ------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        lang = _lang(request)
        tables = [table_summary(t, lang) for t in platform.manager.tables.values()]
        tables.sort(key=lambda t: -t["created"])
        return page(request, "lobby.html", lang, games=games_catalog(lang),
                    open_tables=[t for t in tables if t["status"] == "open"][:50],
                    running=[t for t in tables if t["status"] == "playing"][:50],
                    finished=[t for t in tables if t["status"] == "finished"][:50])

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg", status_code=301)

    @app.get("/lang/{code}")
    async def set_lang(code: str, next: str = "/") -> RedirectResponse:
        # only a path on this site: "//host" and "/\\host" would lead browsers elsewhere
        if (not next.startswith("/") or next.startswith("//") or "\\" in next
                or any(ord(ch) < 32 or ord(ch) == 127 for ch in next)):
            next = "/"
        resp = RedirectResponse(next, status_code=303)
        resp.set_cookie("lang", pick_lang(code), max_age=3600 * 24 * 365, samesite="lax")
        return resp

    @app.post("/tables")
    async def create_from_form(request: Request) -> Response:
        lang = _lang(request)
        try:
            form = await _form(request)
            lang = pick_lang(form.get("lang"), lang)  # the lobby's language
            slug = str(form.get("game", ""))
            if slug not in playable_games():
                raise ServerError("unknown_game", f"there is no game {slug!r}", 404)
            try:
                players = int(str(form.get("players", "")))
            except ValueError:
                raise ServerError("bad_request", "choose a number of players") from None
            g = load_game(slug)
            if not g.min_players <= players <= g.max_players:  # checked before any work per seat
                raise ServerError("bad_setup", f"{g.name} is played by {g.min_players} to "
                                  f"{g.max_players} players, not {players}")
            seats = []
            for i in range(players):
                choice = str(form.get(f"seat_{i}", "bot:random"))
                if choice == "you":
                    seats.append({"kind": "human", "name": form.get("name")})
                elif choice == "open":
                    seats.append({"kind": "open"})
                else:
                    seats.append({"kind": "bot", "bot": choice.removeprefix("bot:")})
            options = {o.name: _form_option(o, form.get(f"opt_{o.name}")) for o in web_options(slug)}
            table, tokens = platform.manager.create(slug, players, seats, options,
                                                    pick_lang(str(form.get("lang", lang))))
        except ServerError as exc:
            return page(request, "error.html", lang, message=error_text(exc.code, lang, str(exc)),
                        status_code=exc.status)
        await platform.changed(table)
        if len(tokens) > 1:
            # several seats are the creator's (people sharing one screen, or
            # friends to send links to): each link is shown once, here, and
            # never again (only their digests are stored)
            origin = f"{request.url.scheme}://{request.url.netloc}"
            names = table.display_names(lang)
            links = [{"seat": i, "name": names[i], "url": f"/t/{table.id}/s/{tok}",
                      "full": f"{origin}/t/{table.id}/s/{tok}"} for i, tok in sorted(tokens.items())]
            resp = page(request, "seat_links.html", lang, links=links, table_id=table.id,
                        game_name=game_name(table.rec.game, lang), watch=f"/t/{table.id}",
                        watch_full=f"{origin}/t/{table.id}", status_code=201)
            resp.headers["Cache-Control"] = "no-store"
            return resp
        if tokens:
            return RedirectResponse(f"/t/{table.id}/s/{tokens[min(tokens)]}", status_code=303)
        return RedirectResponse(f"/t/{table.id}", status_code=303)

    @app.post("/t/{table_id}/join/{seat}")
    async def join_from_form(request: Request, table_id: str, seat: int) -> Response:
        lang = _lang(request)
        try:
            form = await _form(request)
            table, token = platform.manager.claim(table_id, seat, form.get("name"))
        except ServerError as exc:
            return page(request, "error.html", lang, message=error_text(exc.code, lang, str(exc)),
                        status_code=exc.status)
        await platform.hub.broadcast(table)
        return RedirectResponse(f"/t/{table.id}/s/{token}", status_code=303)

    def table_page(request: Request, table_id: str, token: str | None, name: str) -> HTMLResponse:
        lang = _lang(request)
        try:
            table = platform.manager.get(table_id)
            seat = table.seat_of(token)
        except ServerError as exc:
            return page(request, "error.html", lang, message=ui(lang)["not_found"] + f" ({exc})",
                        status_code=exc.status)
        # the page itself carries no game data: it arrives over the websocket
        config = {"table": table.id, "game": table.rec.game, "token": token, "seat": seat, "lang": lang, "ui": ui(lang),
                  "num_players": table.rec.num_players}
        base = f"/t/{table.id}" + (f"/s/{token}" if token else "")
        watch_url = f"{request.url.scheme}://{request.url.netloc}/t/{table.id}"
        return page(request, name, lang, table_id=table.id, watch_url=watch_url, game_name=game_name(table.rec.game, lang),
                    config=json.dumps(config).replace("<", "\\u003c"), base=base, seat=seat,
                    names=table.display_names(lang), open_seats=[i for i, s in enumerate(table.rec.seats)
                                                     if s["kind"] == "human" and i not in table.digests])

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def watch(request: Request, table_id: str) -> HTMLResponse:
        return table_page(request, table_id, None, "table.html")

    @app.get("/t/{table_id}/s/{token}", response_class=HTMLResponse)
    async def play(request: Request, table_id: str, token: str) -> HTMLResponse:
        return table_page(request, table_id, token, "table.html")

    @app.get("/t/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        return table_page(request, table_id, None, "replay.html")

    @app.get("/t/{table_id}/s/{token}/replay", response_class=HTMLResponse)
    async def seat_replay_page(request: Request, table_id: str, token: str) -> HTMLResponse:
        return table_page(request, table_id, token, "replay.html")

    # -- JSON API -----------------------------------------------------------------
    @app.get("/api/games")
    async def api_games(request: Request) -> JSONResponse:
        return JSONResponse(games_catalog(_lang(request)))

    @app.get("/api/games/{slug}/texts")
    async def api_texts(request: Request, slug: str) -> JSONResponse:
        """A game's texts (data/i18n.yaml) in one language, English where missing."""
        if slug not in playable_games():
            return _error(ServerError("unknown_game", f"there is no game {slug!r}", 404))
        lang = _lang(request)
        texts = game_texts(slug)
        merged = dict(texts.get("en", {}))
        merged.update(texts.get(lang, {}))
        return JSONResponse(merged)

    @app.get("/api/tables")
    async def api_tables(request: Request) -> JSONResponse:
        lang = _lang(request)
        return JSONResponse([table_summary(t, lang) for t in platform.manager.tables.values()])

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        try:
            body = await _json_body(request)
            table, tokens = platform.manager.create(
                body.get("game"), body.get("players"), body.get("seats"), body.get("options") or {},
                pick_lang(body.get("lang")))
        except ServerError as exc:
            return _error(exc)
        await platform.changed(table)
        return JSONResponse({"id": table.id, "tokens": {str(k): v for k, v in tokens.items()},
                             "urls": {str(k): f"/t/{table.id}/s/{v}" for k, v in tokens.items()},
                             "watch": f"/t/{table.id}"}, status_code=201)

    @app.post("/api/tables/{table_id}/seats/{seat}/claim")
    async def api_claim(request: Request, table_id: str, seat: int) -> JSONResponse:
        try:
            body = await _json_body(request, allow_empty=True)
            table, token = platform.manager.claim(table_id, seat, body.get("name"))
        except ServerError as exc:
            return _error(exc)
        await platform.hub.broadcast(table)
        return JSONResponse({"token": token, "url": f"/t/{table.id}/s/{token}"}, status_code=201)

    @app.get("/api/tables/{table_id}/view")
    async def api_view(request: Request, table_id: str, token: str | None = None) -> JSONResponse:
        try:
            table = platform.manager.get(table_id)
            seat = table.seat_of(token)
        except ServerError as exc:
            return _error(exc)
        return JSONResponse(build_view(table, table.state, seat, _lang(request)))

    @app.post("/api/tables/{table_id}/actions")
    async def api_act(request: Request, table_id: str) -> JSONResponse:
        try:
            table = platform.manager.get(table_id)
            body = await _json_body(request)
            seat = table.seat_of(body.get("token"))
            platform.manager.act(table, seat, body.get("action"), body.get("ply"))
        except ServerError as exc:
            return _error(exc)
        await platform.changed(table)
        return JSONResponse(build_view(table, table.state, seat, _lang(request)))

    @app.get("/api/tables/{table_id}/replay/{ply}")
    async def api_replay_step(request: Request, table_id: str, ply: int, token: str | None = None,
                              viewer: str | None = None) -> JSONResponse:
        try:
            table = platform.manager.get(table_id)
            seat = table.seat_of(token)
            v: int | None = None
            if viewer not in (None, "", "spectator"):
                try:
                    v = int(viewer)
                except ValueError:
                    raise ServerError("bad_seat", f"there is no seat {viewer!r}") from None
            return JSONResponse(replay_view(table, ply, v, _lang(request), seat))
        except ServerError as exc:
            return _error(exc)

    @app.get("/api/tables/{table_id}/replay.json")
    async def api_replay_file(table_id: str) -> Response:
        try:
            text = replay_file(platform.manager.get(table_id))
        except ServerError as exc:
            return _error(exc)
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="thieves-{table_id}.json"'})

    @app.websocket("/ws/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        await table_socket(websocket, platform, table_id)

    return app


async def _body(request: Request) -> bytes:
    """The request body, refused beyond MAX_BODY bytes (never read whole into memory)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise ServerError("too_large", f"requests are at most {MAX_BODY} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ServerError("too_large", f"requests are at most {MAX_BODY} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def _form(request: Request) -> dict[str, str]:
    """An urlencoded form (parsed here: python-multipart is not a dependency)."""
    raw = await _body(request)
    try:
        pairs = urllib.parse.parse_qsl(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=200)
    except (UnicodeDecodeError, ValueError):
        raise ServerError("malformed", "the form could not be read") from None
    return dict(pairs)


async def _json_body(request: Request, allow_empty: bool = False) -> dict[str, Any]:
    raw = await _body(request)
    if not raw and allow_empty:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        raise ServerError("malformed", "the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise ServerError("malformed", "the request body must be a JSON object")
    return body


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    """Run the server (what ``thieves serve`` calls)."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(database_url)
    print(f"thieves: serving on http://{host}:{port}/  (database: {app.state.platform.storage.engine.url.render_as_string(hide_password=True)})",
          flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
