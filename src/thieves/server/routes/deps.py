"""What a route is given besides its request: the server's :class:`Platform`.

A route names it as a parameter, ``platform: PlatformDep``; FastAPI hands it
the one ``create_app`` made (``app.state.platform``), for HTTP and websockets alike.
"""
from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..platform import Platform


def platform_of(conn: HTTPConnection) -> Platform:
    """The platform of the application that serves this request or socket."""
    platform: Platform = conn.app.state.platform
    return platform


PlatformDep = Annotated[Platform, Depends(platform_of)]
