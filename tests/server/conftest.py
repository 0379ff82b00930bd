"""Fixtures for the server tests: a fresh app on a temporary SQLite file."""
from __future__ import annotations

import os
import warnings

import pytest

from tests.core import toy_game  # noqa: F401  (registers "toy-bids")
from tests.server import svg_game  # noqa: F401  (registers "toy-svg")

warnings.filterwarnings("ignore", message=".*httpx2.*")

# The test clients send Host "127.0.0.1" (their base_url) and, for websockets,
# Starlette's fixed "testserver": every app these tests make answers to both
# (a server answers only to the hosts it is told; tests of that pass their own)
os.environ["THIEVES_ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
# reviews wait for the replay page to ask (a review at every game's end costs CPU)
os.environ.setdefault("THIEVES_REVIEW_AT_END", "0")

from fastapi.testclient import TestClient  # noqa: E402

from thieves.server.app import create_app  # noqa: E402


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'thieves.db'}"


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url, bot_delay=0), base_url="http://127.0.0.1") as c:
        yield c


def new_table(client, players=2, seats=None, options=None, lang="en"):
    seats = seats or [{"kind": "human"} for _ in range(players)]
    r = client.post("/api/tables", json={"game": "toy-bids", "players": players, "seats": seats,
                                          "options": options or {}, "lang": lang})
    assert r.status_code == 201, r.text
    return r.json()
