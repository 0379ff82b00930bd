"""Durable storage of tables, seats and every accepted action.

One SQLAlchemy Core layer serves both the embedded SQLite file (default)
and PostgreSQL (``postgresql+psycopg://...``). A table is rebuilt after a
restart by replaying its stored actions from its game, seed and options,
so the action rows are the single source of truth.

Seat tokens are never stored: only their SHA-256 digest is, so a copy of
the database does not hand out seats.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Engine

DEFAULT_SQLITE = "var/thieves.db"


def default_url() -> str:
    """SQLite file under ./var (created if missing), or $THIEVES_DATABASE_URL."""
    env = os.environ.get("THIEVES_DATABASE_URL")
    if env:
        return env
    os.makedirs(os.path.dirname(DEFAULT_SQLITE), exist_ok=True)
    return f"sqlite:///{DEFAULT_SQLITE}"


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class TableRecord:
    """One stored table (everything but its actions)."""

    id: str
    game: str
    num_players: int
    seed: int
    options: dict[str, Any]
    #: per seat: {"kind": "human"|"bot", "bot": name|None, "name": str}
    seats: list[dict[str, Any]]
    lang: str = "en"
    created: float = field(default_factory=time.time)


class Storage:
    """Tables, seat-token digests and actions in one database."""

    def __init__(self, url: str | None = None, prefix: str = "thieves_") -> None:
        self.url = url or default_url()
        if self.url.startswith("sqlite:///") and not self.url.startswith("sqlite:////:memory"):
            path = self.url[len("sqlite:///"):]
            if path and path != ":memory:":
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.engine: Engine = sa.create_engine(self.url, future=True)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self.prefix = prefix
        md = sa.MetaData()
        self.tables = sa.Table(
            prefix + "tables", md,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("num_players", sa.Integer, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("seats", sa.Text, nullable=False),
            sa.Column("lang", sa.String(8), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
        self.seat_tokens = sa.Table(
            prefix + "seat_tokens", md,
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("digest", sa.String(64), nullable=False),
            sa.Column("name", sa.String(64), nullable=False),
        )
        self.actions = sa.Table(
            prefix + "actions", md,
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("ply", sa.Integer, primary_key=True),
            sa.Column("player", sa.Integer, nullable=False),
            sa.Column("action", sa.Text, nullable=False),
        )
        self.metadata = md
        md.create_all(self.engine)

    # -- tables ----------------------------------------------------------------
    def add_table(self, rec: TableRecord, claims: Sequence[tuple[int, str, str]] = ()) -> None:
        """Store a table and the seats taken at once (``(seat, token, name)``) in one transaction."""
        with self.engine.begin() as c:
            c.execute(self.tables.insert().values(
                id=rec.id, game=rec.game, num_players=rec.num_players, seed=rec.seed,
                options=json.dumps(rec.options), seats=json.dumps(rec.seats), lang=rec.lang,
                created=rec.created))
            for seat, token, name in claims:
                c.execute(self.seat_tokens.insert().values(
                    table_id=rec.id, seat=seat, digest=token_digest(token), name=name))

    def update_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        with self.engine.begin() as c:
            c.execute(self.tables.update().where(self.tables.c.id == table_id)
                      .values(seats=json.dumps(seats)))

    def load_tables(self) -> list[TableRecord]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(self.tables).order_by(self.tables.c.created)).all()
        return [TableRecord(r.id, r.game, r.num_players, int(r.seed), json.loads(r.options),
                            json.loads(r.seats), r.lang, r.created) for r in rows]

    # -- seats -----------------------------------------------------------------
    def claim_seat(self, table_id: str, seat: int, token: str, name: str,
                   seats: list[dict[str, Any]] | None = None) -> None:
        """Store a seat's token digest (and the seats' new names, in the same
        transaction); fails (IntegrityError) if already claimed."""
        with self.engine.begin() as c:
            c.execute(self.seat_tokens.insert().values(
                table_id=table_id, seat=seat, digest=token_digest(token), name=name))
            if seats is not None:
                c.execute(self.tables.update().where(self.tables.c.id == table_id)
                          .values(seats=json.dumps(seats)))

    def seat_digests(self, table_id: str) -> dict[int, str]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(self.seat_tokens.c.seat, self.seat_tokens.c.digest)
                             .where(self.seat_tokens.c.table_id == table_id)).all()
        return {r.seat: r.digest for r in rows}

    def all_seat_digests(self) -> dict[str, dict[int, str]]:
        out: dict[str, dict[int, str]] = {}
        with self.engine.connect() as c:
            for r in c.execute(sa.select(self.seat_tokens)).all():
                out.setdefault(r.table_id, {})[r.seat] = r.digest
        return out

    # -- actions ---------------------------------------------------------------
    def add_action(self, table_id: str, ply: int, player: int, action: str) -> None:
        """Store one accepted action; it is committed when this returns.

        The primary key (table, ply) makes a second writer for the same ply fail.
        """
        with self.engine.begin() as c:
            c.execute(self.actions.insert().values(table_id=table_id, ply=ply, player=player,
                                                   action=action))

    def action_at(self, table_id: str, ply: int) -> list[Any] | None:
        """The stored ``[player, action]`` at ``ply``, or None."""
        with self.engine.connect() as c:
            r = c.execute(sa.select(self.actions.c.player, self.actions.c.action)
                          .where(self.actions.c.table_id == table_id, self.actions.c.ply == ply)).first()
        return None if r is None else [r.player, r.action]

    def load_actions(self, table_id: str) -> list[list[Any]]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(self.actions.c.player, self.actions.c.action)
                             .where(self.actions.c.table_id == table_id)
                             .order_by(self.actions.c.ply)).all()
        return [[r.player, r.action] for r in rows]

    def all_actions(self) -> dict[str, list[list[Any]]]:
        out: dict[str, list[list[Any]]] = {}
        with self.engine.connect() as c:
            rows = c.execute(sa.select(self.actions).order_by(self.actions.c.table_id,
                                                               self.actions.c.ply)).all()
        for r in rows:
            out.setdefault(r.table_id, []).append([r.player, r.action])
        return out

    def drop_all(self) -> None:
        """Remove this storage's tables (used by tests with their own prefix)."""
        self.metadata.drop_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL + FULL sync: a committed action survives a killed process and a power cut.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()
