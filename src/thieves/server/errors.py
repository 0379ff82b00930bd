"""The errors the server tells one client, as kinds.

Each kind carries its HTTP status as a class attribute; ``code`` (stable,
e.g. ``"not_your_turn"``) names the case within the kind and is what the
client reads (``{"error": code, "message": ...}``, server/i18n.py's error
texts). Handlers catch a kind (``except StorageConflict``), never look at
an attribute to tell kinds apart. The engine's own ``IllegalAction`` is
not one of these: the server turns it into :class:`PositionConflict`
(``illegal``).
"""
from __future__ import annotations

import logging
from typing import Any, Callable, TypeVar

from ..core.errors import ThievesError

T = TypeVar("T")
log = logging.getLogger("thieves.server")


class ServerError(ThievesError):
    """An error told to one client; ``code`` is stable, ``status`` (the kind's,
    a class attribute) the HTTP status. Raise one of the kinds below."""

    status = 400

    def __init__(self, code: str, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        #: seconds to wait before trying again (sent as Retry-After), for 429 and 503
        self.retry_after = retry_after


class BadRequest(ServerError):
    """The request itself is wrong (malformed, a bad value): 400."""

    status = 400


class Forbidden(ServerError):
    """Not this asker's to do (a spectator acting, a bad seat link, another site): 403."""

    status = 403


class NotFound(ServerError):
    """No such table, game or player: 404."""

    status = 404


class Conflict(ServerError):
    """Refused in the table's present state (a taken seat, a finished game): 409."""

    status = 409


class PositionConflict(Conflict):
    """Refused at the table's position (not your turn, stale, illegal, waiting,
    over, substituted): another process may have moved the table on, so the
    request may be tried again once it has caught up (409)."""


class Gone(ServerError):
    """The table was abandoned: 410."""

    status = 410


class TooLarge(ServerError):
    """A request or message over the size limit: 413."""

    status = 413


class UnsupportedMediaType(ServerError):
    """The JSON API was sent something other than JSON: 415."""

    status = 415


class TooMany(ServerError):
    """Over a rate or count limit (with ``retry_after``): 429."""

    status = 429


class GameFailure(ServerError):
    """The game's code failed on a decision (nothing changed): 500."""

    status = 500


class Unavailable(ServerError):
    """Busy or away for now, try again (with ``retry_after`` where known): 503."""

    status = 503


class StorageError(Unavailable):
    """The database did not store or read something: 503, code ``storage``."""

    def __init__(self, message: str, *, retry_after: int | None = None) -> None:
        super().__init__("storage", message, retry_after=retry_after)


class StorageConflict(StorageError):
    """Nothing was stored because another decision is stored at that move
    (another process's, or an earlier commit whose answer was lost): the
    table catches up with storage and the caller may decide again."""


class StorageBehind(StorageConflict):
    """Nothing was stored because the table's row in storage is no longer the
    one this process saw (another process changed it): the table is read again."""


def stored(what: str, fn: Callable[..., T], *args: Any) -> T:
    """Run a storage call; any failure is logged and becomes a :class:`StorageError`
    (503) saying ``what`` went wrong."""
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - any database failure
        log.exception("%s", what)
        raise StorageError(f"{what}, try again ({type(exc).__name__})") from None
