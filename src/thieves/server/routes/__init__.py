"""The server's HTTP and websocket endpoints, one router per concern.

``create_app`` (server/app.py) includes every router of :data:`ROUTERS`; a new
concern is a module here with its own ``router`` added to that list. Each
route is handed the :class:`~thieves.server.platform.Platform` as a parameter
(``platform: PlatformDep``, routes/deps.py). A JSON route simply raises a
:class:`~thieves.server.errors.ServerError` kind: the application answers it
as ``{"error": code, "message"}`` with the kind's status; the pages answer
errors with a page.
"""
from __future__ import annotations

from fastapi import APIRouter

from .. import boards
from . import chat, forms, games, pages, play, profiles, replays, review, seats, socket, tables

#: every router, in the order they are included
ROUTERS: list[APIRouter] = [
    pages.router,        # the lobby, a table's page, its replay, the language
    forms.router,        # the lobby's forms (make a table, take a seat) without script
    games.router,        # /api/games: the games, their texts, glossary and rules
    tables.router,       # /api/tables: the lobby's list, make a table, claim a seat
    seats.router,        # a seat's requests: fill, leave, concede, back, undo, reactions, rematch
    play.router,         # a table's view and a seat's decisions over HTTP
    chat.router,         # a table's chat
    replays.router,      # replay steps and the replay file
    profiles.router,     # profiles, ratings, leaderboards, a player's page
    review.router,       # hints and post-game reviews
    socket.router,       # the table's websocket
    boards.router,       # a board's unchanging layer, kept by the browser (server/boards.py)
]
