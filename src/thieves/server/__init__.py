"""The browser platform: lobby, live tables with bots, persistence, replays.

``thieves serve`` runs :func:`thieves.server.app.serve`. The pieces:

* :mod:`.storage` — one SQLAlchemy layer for SQLite (default) and PostgreSQL;
* :mod:`.tables` — live tables in memory, rebuilt from stored actions;
* :mod:`.views` — what one viewer may see, drawn from ``observation(viewer)`` only;
* :mod:`.websocket` — the live-table protocol;
* :mod:`.i18n` — interface texts in English, French and German;
* :mod:`.errors` — the errors told to a client, as kinds with their HTTP status;
* :mod:`.platform` — the server's state: tables, sockets, bots, clocks;
* :mod:`.routes` — the endpoints, one ``APIRouter`` per concern;
* :mod:`.app` — ``create_app``, which puts the platform and the routers together.
"""
