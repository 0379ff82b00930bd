"""Boards drawn in layers, once for every viewer (docs/engine.md, "Layers").

A layered game's board (``Presentation.layered``) is put together for each
viewer from three layers:

* the unchanging layer (a printed board, the city's streets): drawn once per
  table, layout and language from the spectator's observation, and sent as
  an image the browser fetches once and keeps: its address names its content
  (``/api/tables/{id}/board/{layout}/{lang}/{hash}.svg``), so any process can
  draw it again and check it is the one asked for;
* the public layer: drawn once per position, layout and language from the
  spectator's observation and the spectator's presentation, kept on the
  table (:class:`~.tables.SharedDrawings`), and written for each viewer with
  their own legal actions and recent refs (``Layer.render``);
* the viewer's layer (``board_seat``), drawn from their own observation.

Nothing shared is ever drawn from a seat's observation: what one seat may
not see cannot reach another through a shared drawing.
"""
from __future__ import annotations

import hashlib
from typing import Any

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..core.game import State, engine_observes
from ..core.presentation import LAYOUTS, Presentation
from ..core.svg import Layer, compose, static_image
from .i18n import LANGS
from .tables import LiveTable, ServerError

router = APIRouter()

#: a year: the address of an unchanging layer names its content
IMMUTABLE = "public, max-age=31536000, immutable"


class Static:
    """A table's unchanging layer in one layout and language: its text, size and hash."""

    __slots__ = ("text", "width", "height", "digest")

    def __init__(self, text: str, width: float, height: float) -> None:
        self.text = text
        self.width = width
        self.height = height
        self.digest = hashlib.sha256(f"{width:g} {height:g} {text}".encode()).hexdigest()[:20]

    def href(self, table_id: str, layout: str, lang: str) -> str:
        return f"/api/tables/{table_id}/board/{layout}/{lang}/{self.digest}.svg"

    def document(self, title: str | None) -> str:
        """The layer as an SVG file of its own."""
        return compose([self.text], self.width, self.height, title)


def spectator_obs(state: State) -> dict[str, Any]:
    """The spectator's observation without its log: what every viewer may see."""
    obs = state.observation_without_log(None) if engine_observes(state) else state.observation(None)
    obs.pop("log", None)
    return obs


def public_obs(table: LiveTable, state: State) -> dict[str, Any]:
    """:func:`spectator_obs`, made once per change of the table's own position
    (the public layer and the spectators' view read the same): shared, never
    change it. Another position (a replay step) gets its own."""
    if state is not table.state or not engine_observes(state):
        return spectator_obs(state)
    key = (table.public_version, state.shown_ply(None), len(state.history))
    kept = table.public_obs
    if kept is not None and kept[0] is state and kept[1] == key:
        return kept[2]
    obs = spectator_obs(state)
    table.public_obs = (state, key, obs)
    return obs


def _spectator(table: LiveTable, state: State, lang: str, layout: str,
               names: list[str]) -> Presentation:
    pres: Presentation = state.game.presentation(None, names, lang, state.options.get("data_dir"),
                                                 layout=layout)
    return pres


def static_layer(table: LiveTable, state: State, lang: str, layout: str, names: list[str],
                 obs: dict[str, Any] | None = None) -> Static | None:
    """The table's unchanging layer (None: its board has none), drawn once per
    layout, language and seat names from the spectator's observation."""
    key = ("static", layout, lang, tuple(names))
    kept = table.shared.get(key)
    if kept is None:
        pres = _spectator(table, state, lang, layout, names)
        layer = pres.board_static(obs if obs is not None else public_obs(table, state))
        kept = (Static(layer.render(), layer.width, layer.height),) if layer is not None else (None,)
        table.shared.put(key, kept, len(kept[0].text) + 200 if kept[0] is not None else 64)
    static: Static | None = kept[0]
    return static


def public_layer(table: LiveTable, state: State, lang: str, layout: str, names: list[str]) -> Layer:
    """The public layer of this position, drawn once per position (the
    spectator's version of the table), layout, language and seat names; a
    position other than the table's own (a replay step) is drawn afresh."""
    live = state is table.state
    key = ("public", layout, lang, tuple(names), table.public_version, state.shown_ply(None))
    if live:
        kept: Layer | None = table.shared.get(key)
        if kept is not None:
            return kept
    layer = _spectator(table, state, lang, layout, names).board_public(public_obs(table, state))
    if live:
        table.shared.put(key, layer, layer.size_in_bytes() + 200)
    return layer


def board_svg(table: LiveTable, state: State, pres: Presentation, obs: dict[str, Any], lang: str,
              layout: str, names: list[str]) -> str | None:
    """The viewer's board: the layers put together (``Presentation.board``) for a
    layered game, the unchanging one as an image; else the game's own drawing."""
    if not pres.layered:
        return pres.svg(obs)
    public = public_layer(table, state, lang, layout, names)
    static = static_layer(table, state, lang, layout, names)
    image = "" if static is None else static_image(static.href(table.id, layout, lang),
                                                   static.width, static.height)
    return pres.board(obs, public, image)


@router.get("/api/tables/{table_id}/board/{layout}/{lang}/{name}")
async def api_board(request: Request, table_id: str, layout: str, lang: str, name: str) -> Response:
    """A table's unchanging board layer as an SVG image, kept by the browser for
    good: the address names its content (a hash that is not what this table's
    layer is now answers 404)."""
    platform = request.app.state.platform
    try:
        table = await platform.get(table_id)
    except ServerError as exc:
        return JSONResponse({"error": exc.code, "message": str(exc)}, status_code=exc.status)
    digest = name.removesuffix(".svg")
    if layout not in LAYOUTS or lang not in LANGS or not name.endswith(".svg"):
        return _not_found()
    state = table.state
    pres = state.game.presentation(None, table.display_names(lang), lang, state.options.get("data_dir"),
                                   layout=layout)
    if pres is None or not pres.layered:
        return _not_found()
    static = static_layer(table, state, lang, layout, table.display_names(lang))
    if static is None or static.digest != digest:
        return _not_found()
    return Response(static.document(pres.texts.get(lang, "name")), media_type="image/svg+xml",
                    headers={"Cache-Control": IMMUTABLE})


def _not_found() -> JSONResponse:
    return JSONResponse({"error": "not_found", "message": "this table has no such board layer"},
                        status_code=404)


def table_bytes(table: LiveTable, views: Any = None) -> dict[str, int]:
    """What one live table holds in drawings, in bytes: the views kept for its
    viewers (``views``: the process's :class:`~.websocket.ViewCache`) and the
    layers drawn for all of them."""
    kept = views.bytes_of(table.id) if views is not None else 0
    return {"views": kept, "layers": table.shared.nbytes, "total": kept + table.shared.nbytes}
