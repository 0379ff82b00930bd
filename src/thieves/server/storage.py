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
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

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
    #: the game's generator (``core/rng.py``): "keyed" for tables made since
    #: seeds became 128-bit secrets, "splitmix" for older ones
    rng: str = "splitmix"
    #: the time control (``clocks.TimeControl`` as JSON) and ``started``: when the
    #: game started (every seat taken); None: no clock
    timing: dict[str, Any] | None = None
    #: the table of the rematch started from this one (None: none yet)
    rematch: str | None = None


class RematchExists(Exception):
    """Another rematch of this table was stored first."""


class Storage:
    """Tables, seat-token digests and actions in one database."""

    def __init__(self, url: str | None = None, prefix: str = "thieves_") -> None:
        self.url = url or default_url()
        if self.url.startswith("sqlite:///") and not self.url.startswith("sqlite:////:memory"):
            path = self.url[len("sqlite:///"):]
            if path and path != ":memory:":
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.engine: Engine = sa.create_engine(self.url, future=True)
        #: how a SQLite commit reaches the disk (:func:`sqlite_sync`)
        self.sqlite_sync = sqlite_sync() if self.engine.dialect.name == "sqlite" else None
        if self.sqlite_sync is not None:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas(self.sqlite_sync))
        #: single-statement reads asked many times a second (a table's mark): on
        #: PostgreSQL its own connections in autocommit, one round trip instead
        #: of BEGIN, SELECT and ROLLBACK (SQLite: the same engine, one database)
        self.quick: Engine = (sa.create_engine(self.url, future=True, isolation_level="AUTOCOMMIT")
                              if self.engine.dialect.name == "postgresql" else self.engine)
        self.prefix = prefix
        md = sa.MetaData()
        self._game_tables(md, prefix)
        self._people_tables(md, prefix)
        self.metadata = md
        self._sql = self._statements()
        self._writes = {"postgresql": self._add_action_pg, "sqlite": self._add_action_sqlite}
        #: SQLite: the connection decisions are written through, kept out of the
        #: pool (a check-out and its reset cost a third of a decision's write);
        #: one writer at a time (SQLite has one anyway), from any thread
        self._writer: Any = None
        self._writer_lock = threading.Lock()
        self._keep_writer = isinstance(self.engine.pool, sa.pool.QueuePool)  # a file: any thread may use it
        #: a decision's write is quick enough for the event loop's own thread:
        #: SQLite without a sync to the disk at every commit takes about 20 µs of
        #: CPU, less than handing it to a worker thread and back; a commit that
        #: waits for the disk (FULL) or the network (PostgreSQL) goes to a thread
        self.writes_inline = self.sqlite_sync == "NORMAL" and self._keep_writer
        self._migrate()
        try:
            md.create_all(self.engine)
        except sa.exc.DBAPIError:
            # several processes starting at once on a new database: another one
            # made the tables between our check and our CREATE; look again
            time.sleep(0.5)
            md.create_all(self.engine)

    def _game_tables(self, md: sa.MetaData, prefix: str) -> None:
        """The tables, their seat-token digests and their actions."""
        self.tables = sa.Table(
            prefix + "tables", md,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("num_players", sa.Integer, nullable=False),
            # decimal text: a seed is 128 random bits (older rows: 31 bits)
            sa.Column("seed", sa.Text, nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("seats", sa.Text, nullable=False),
            sa.Column("lang", sa.String(8), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("rng", sa.String(16), nullable=False, server_default="splitmix"),
            # kept with every change, so the lobby and the limits need no table in memory:
            # open / playing / finished (NULL: not yet known, a row from an older version)
            sa.Column("status", sa.String(16), nullable=True),
            sa.Column("ply", sa.Integer, nullable=True),
            sa.Column("updated", sa.Float, nullable=True),
            sa.Column("timing", sa.Text, nullable=True),
            sa.Column("rematch", sa.String(32), nullable=True),
            sa.Index(prefix + "tables_by_status", "status", "updated"),
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
            # who decided when it was not the seat's own player or bot: "sub:<bot>"
            # (the substitute bot of a player who left or ran out of time)
            sa.Column("decider", sa.String(40), nullable=True),
            # when it was stored (time.time()): the clocks are replayed from these
            sa.Column("at", sa.Float, nullable=True),
        )

    def _people_tables(self, md: sa.MetaData, prefix: str) -> None:
        """Profiles and ratings, the table chat and post-game reviews."""
        # optional player profiles (no password: a secret key kept in the browser)
        self.profiles = sa.Table(
            prefix + "profiles", md,
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("digest", sa.String(64), nullable=False, unique=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
        self.seat_profiles = sa.Table(
            prefix + "seat_profiles", md,
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("profile_id", sa.String(16), nullable=False, index=True),
            # the table's move number when it was linked, and digests of the
            # address and browser it was linked from (see ratings.unrated_reason)
            sa.Column("ply", sa.Integer, nullable=True),
            sa.Column("address", sa.String(64), nullable=True),
            sa.Column("browser", sa.String(64), nullable=True),
        )
        self.ratings = sa.Table(
            prefix + "ratings", md,
            sa.Column("profile_id", sa.String(16), primary_key=True),
            sa.Column("game", sa.String(64), primary_key=True),
            sa.Column("rating", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False),
        )
        #: finished tables whose ratings were counted (once each)
        self.rated = sa.Table(
            prefix + "rated", md,
            sa.Column("table_id", sa.String(32), primary_key=True),
            # None: it counted; else why not (a code of ratings.UNRATED)
            sa.Column("reason", sa.String(32), nullable=True),
        )
        #: the table chat (server/chat.py); made on an older database by create_all
        self.chat = sa.Table(
            prefix + "chat", md,
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("table_id", sa.String(32), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            # the move number on the table when it was written (the replay shows it there)
            sa.Column("ply", sa.Integer, nullable=False),
            # the author's seat; NULL: a spectator
            sa.Column("seat", sa.Integer, nullable=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("text", sa.Text, nullable=False),
            sa.Index(prefix + "chat_by_table", "table_id", "id"),
        )
        #: a finished table's post-game review (server/review.py, bots/review.py), kept as JSON
        self.reviews = sa.Table(
            prefix + "reviews", md,
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("budget", sa.Integer, nullable=False),
            sa.Column("body", sa.Text, nullable=False),
        )

    def _statements(self) -> dict[str, str]:
        """The hot path's SQL in the driver's own parameter style, built once.

        A table's mark is (``COALESCE(ply, 0)``, ``COALESCE(updated, 0)``), as
        :meth:`mark` reads it (rows of older versions may hold NULL)."""
        q = self.engine.dialect.identifier_preparer.quote
        tables, actions = q(self.tables.name), q(self.actions.name)
        change = ("SET ply = :next, updated = :updated, status = COALESCE(:status, status) "
                  "WHERE id = :table_id")
        seen = " AND COALESCE(ply, 0) = :seen_ply AND COALESCE(updated, 0) = :seen"
        insert = (f"INSERT INTO {actions} (table_id, ply, player, action, decider, at) "
                  f"VALUES (:table_id, :ply, :player, :action, :decider, :at)")
        sql = {
            "mark": f"SELECT ply, updated FROM {tables} WHERE id = :table_id",
            "mark_row": f"UPDATE {tables} {change}",
            "mark_if_seen": f"UPDATE {tables} {change}{seen}",
            "insert": insert,
            # PostgreSQL: the table's row and the action in one statement (the
            # action is inserted only when the row matched)
            "add": (f"WITH t AS (UPDATE {tables} {change} RETURNING id) "
                    f"INSERT INTO {actions} (table_id, ply, player, action, decider, at) "
                    f"SELECT id, :ply, :player, :action, :decider, :at FROM t"),
            "add_if_seen": (f"WITH t AS (UPDATE {tables} {change}{seen} RETURNING id) "
                            f"INSERT INTO {actions} (table_id, ply, player, action, decider, at) "
                            f"SELECT id, :ply, :player, :action, :decider, :at FROM t"),
        }
        if self.engine.dialect.name == "postgresql":  # psycopg's named style
            sql = {k: re.sub(r":(\w+)", r"%(\1)s", v) for k, v in sql.items()}
        return sql

    def _migrate(self) -> None:
        """Bring a database made by an older version up to this schema.

        Older tables stored the seed as a 64-bit integer and had no ``rng``
        column (their games use SplitMix64): the seed becomes decimal text
        and ``rng`` is "splitmix" for those rows, so they replay exactly.
        """
        name = self.tables.name
        insp = sa.inspect(self.engine)
        if not insp.has_table(name):
            return
        q = self.engine.dialect.identifier_preparer.quote
        for table, cols in ((self.seat_profiles, (("ply", "INTEGER"), ("address", "VARCHAR(64)"),
                                                  ("browser", "VARCHAR(64)"))),
                            (self.rated, (("reason", "VARCHAR(32)"),))):
            if insp.has_table(table.name):  # made before unrated games said why
                have = {c["name"] for c in insp.get_columns(table.name)}
                with self.engine.begin() as c:
                    for col, kind in cols:
                        if col not in have:
                            c.execute(sa.text(f"ALTER TABLE {q(table.name)} ADD COLUMN {col} {kind}"))
        acts = self.actions.name
        if insp.has_table(acts):
            have = {c["name"] for c in insp.get_columns(acts)}
            with self.engine.begin() as c:  # made before substitutes and clocks existed
                for col, kind in (("decider", "VARCHAR(40)"), ("at", "FLOAT")):
                    if col not in have:
                        c.execute(sa.text(f"ALTER TABLE {q(acts)} ADD COLUMN {col} {kind}"))
        have_tables = {c["name"] for c in insp.get_columns(name)}
        if "rng" in have_tables:
            with self.engine.begin() as c:
                for col, kind in (("timing", "TEXT"), ("rematch", "VARCHAR(32)")):
                    if col not in have_tables:
                        c.execute(sa.text(f"ALTER TABLE {q(name)} ADD COLUMN {col} {kind}"))
        columns = {c["name"] for c in insp.get_columns(name)}
        if "rng" in columns:
            if "status" not in columns:  # made between the two changes
                with self.engine.begin() as c:
                    for col, kind in (("status", "VARCHAR(16)"), ("ply", "INTEGER"), ("updated", "FLOAT")):
                        c.execute(sa.text(f"ALTER TABLE {q(name)} ADD COLUMN {col} {kind}"))
            return
        with self.engine.begin() as c:
            if self.engine.dialect.name == "postgresql":
                c.execute(sa.text(f"ALTER TABLE {q(name)} ALTER COLUMN seed TYPE TEXT USING seed::text"))
                c.execute(sa.text(f"ALTER TABLE {q(name)} ADD COLUMN rng VARCHAR(16) NOT NULL "
                                  f"DEFAULT 'splitmix'"))
                for col, kind in (("status", "VARCHAR(16)"), ("ply", "INTEGER"), ("updated", "FLOAT")):
                    c.execute(sa.text(f"ALTER TABLE {q(name)} ADD COLUMN {col} {kind}"))
                return
            # SQLite cannot change a column's type: copy into a new table
            old = name + "_old"
            c.execute(sa.text(f"ALTER TABLE {q(name)} RENAME TO {q(old)}"))
            self.tables.create(c)
            c.execute(sa.text(
                f"INSERT INTO {q(name)} (id, game, num_players, seed, options, seats, lang, created, rng) "
                f"SELECT id, game, num_players, CAST(seed AS TEXT), options, seats, lang, created, "
                f"'splitmix' FROM {q(old)}"))
            c.execute(sa.text(f"DROP TABLE {q(old)}"))

    # -- tables ----------------------------------------------------------------
    def add_table(self, rec: TableRecord, claims: Sequence[tuple[int, str, str]] = (),
                  status: str = "open", rematch_of: str | None = None) -> None:
        """Store a table and the seats taken at once (``(seat, token, name)``) in one transaction;
        ``rematch_of``: the finished table it is the rematch of (only one per table:
        ``RematchExists`` when another was stored first, and nothing is stored)."""
        with self.engine.begin() as c:
            if rematch_of is not None:
                done = c.execute(self.tables.update().where(
                    self.tables.c.id == rematch_of, self.tables.c.rematch.is_(None)).values(rematch=rec.id))
                if done.rowcount != 1:
                    raise RematchExists(rematch_of)
            c.execute(self.tables.insert().values(
                id=rec.id, game=rec.game, num_players=rec.num_players, seed=str(rec.seed),
                options=json.dumps(rec.options), seats=json.dumps(rec.seats), lang=rec.lang,
                created=rec.created, rng=rec.rng, status=status, ply=0, updated=rec.created,
                timing=json.dumps(rec.timing) if rec.timing else None))
            for seat, token, name in claims:
                c.execute(self.seat_tokens.insert().values(
                    table_id=rec.id, seat=seat, digest=token_digest(token), name=name))

    def update_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        with self.engine.begin() as c:
            c.execute(self.tables.update().where(self.tables.c.id == table_id)
                      .values(seats=json.dumps(seats)))

    def set_seats(self, table_id: str, seats: list[dict[str, Any]], status: str, updated: float) -> None:
        """Store the seats, status and time of change of a table in one transaction."""
        with self.engine.begin() as c:
            c.execute(self.tables.update().where(self.tables.c.id == table_id)
                      .values(seats=json.dumps(seats), status=status, updated=updated))

    def rematch_of(self, table_id: str) -> str | None:
        """The rematch table started from ``table_id`` (None: none)."""
        with self.engine.connect() as c:
            r = c.execute(sa.select(self.tables.c.rematch).where(self.tables.c.id == table_id)).first()
        return None if r is None else r.rematch

    def set_timing(self, table_id: str, timing: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            c.execute(self.tables.update().where(self.tables.c.id == table_id)
                      .values(timing=json.dumps(timing)))

    def timing(self, table_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            r = c.execute(sa.select(self.tables.c.timing).where(self.tables.c.id == table_id)).first()
        return json.loads(r.timing) if r is not None and r.timing else None

    def action_times(self, table_id: str, since: int = 0) -> list[float | None]:
        """When each move from ``since`` on was stored (None for moves stored before clocks)."""
        a = self.actions.c
        with self.engine.connect() as c:
            rows = c.execute(sa.select(a.at).where(a.table_id == table_id, a.ply >= since)
                             .order_by(a.ply)).all()
        return [r.at for r in rows]

    def load_tables(self) -> list[TableRecord]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(self.tables).order_by(self.tables.c.created)).all()
        return [_record(r) for r in rows]

    def load_table(self, table_id: str) -> tuple[TableRecord, dict[int, str], list[list[Any]]] | None:
        """One table: its record, seat digests and actions (None when there is none)."""
        with self.engine.connect() as c:
            r = c.execute(sa.select(self.tables).where(self.tables.c.id == table_id)).first()
            if r is None:
                return None
            digests, actions = self._seats_and_actions(c, table_id, 0)
        return _record(r), digests, actions

    def _seats_and_actions(self, c: Any, table_id: str,
                           ply: int) -> tuple[dict[int, str], list[list[Any]]]:
        """A table's seat digests and its actions from move ``ply`` on, in order."""
        digests = {d.seat: d.digest for d in c.execute(
            sa.select(self.seat_tokens.c.seat, self.seat_tokens.c.digest)
            .where(self.seat_tokens.c.table_id == table_id)).all()}
        actions = [[a.player, a.action] for a in c.execute(
            sa.select(self.actions.c.player, self.actions.c.action)
            .where(self.actions.c.table_id == table_id, self.actions.c.ply >= ply)
            .order_by(self.actions.c.ply)).all()]
        return digests, actions

    def mark(self, table_id: str) -> tuple[int, float] | None:
        """The table's stored move number and time of its last change (one indexed read)."""
        if self.engine.dialect.name not in self._writes:
            with self.quick.connect() as c:
                r = c.execute(sa.select(self.tables.c.ply, self.tables.c.updated)
                              .where(self.tables.c.id == table_id)).first()
            return None if r is None else (r.ply or 0, r.updated or 0.0)
        raw = self.quick.raw_connection()
        try:
            cur = raw.driver_connection.cursor()  # type: ignore[union-attr]
            cur.execute(self._sql["mark"], {"table_id": table_id})
            row = cur.fetchone()
        except Exception:
            if getattr(raw.driver_connection, "broken", False):
                raw.invalidate()
            raise
        finally:
            raw.close()
        return None if row is None else (row[0] or 0, row[1] or 0.0)

    def changes_since(self, table_id: str, ply: int) -> tuple[list[dict[str, Any]], dict[int, str], list[list[Any]]] | None:
        """What another process may have stored: the seats, the seat digests and the
        actions from move ``ply`` on (None when the table is gone)."""
        with self.engine.connect() as c:
            r = c.execute(sa.select(self.tables.c.seats).where(self.tables.c.id == table_id)).first()
            if r is None:
                return None
            digests, actions = self._seats_and_actions(c, table_id, ply)
        return json.loads(r.seats), digests, actions

    def live_ids(self, since: float) -> list[str]:
        """Tables not finished that changed since ``since`` (or whose status is not known yet)."""
        t = self.tables.c
        with self.engine.connect() as c:
            rows = c.execute(sa.select(t.id).where(
                sa.or_(t.status.is_(None),
                       sa.and_(t.status.in_(("open", "playing")),
                               sa.func.coalesce(t.updated, t.created) >= since)))
                .order_by(t.created)).all()
        return [r.id for r in rows]

    def count_live(self, since: float) -> int:
        t = self.tables.c
        with self.engine.connect() as c:
            n = c.execute(sa.select(sa.func.count()).select_from(self.tables).where(
                t.status.in_(("open", "playing")), sa.func.coalesce(t.updated, t.created) >= since)).scalar()
            return int(n or 0)

    def list_tables(self, limit: int = 200, status: str | None = None,
                    since: float | None = None) -> list[dict[str, Any]]:
        """The newest tables for the lobby: record, status, ply and claimed seats."""
        t = self.tables.c
        q = sa.select(self.tables).order_by(t.created.desc()).limit(limit)
        if status is not None:
            q = q.where(t.status == status)
        if since is not None:
            q = q.where(sa.func.coalesce(t.updated, t.created) >= since)
        with self.engine.connect() as c:
            rows = c.execute(q).all()
            ids = [r.id for r in rows]
            claimed: dict[str, set[int]] = {}
            if ids:
                for d in c.execute(sa.select(self.seat_tokens.c.table_id, self.seat_tokens.c.seat)
                                   .where(self.seat_tokens.c.table_id.in_(ids))).all():
                    claimed.setdefault(d.table_id, set()).add(d.seat)
        return [{"rec": _record(r), "status": r.status, "ply": r.ply or 0,
                 "updated": r.updated or r.created, "claimed": claimed.get(r.id, set())} for r in rows]

    def set_status(self, table_id: str, status: str, ply: int, touch: bool = False) -> None:
        """The table's status at move ``ply``; never for a row already past that
        move (another process may have stored more meanwhile: its row is newer,
        and a move number going back would hide its decisions from the others)."""
        values: dict[str, Any] = {"status": status, "ply": ply}
        if touch:
            values["updated"] = time.time()
        t = self.tables.c
        with self.engine.begin() as c:
            c.execute(self.tables.update().where(t.id == table_id, sa.func.coalesce(t.ply, 0) <= ply)
                      .values(**values))

    def touched(self, table_id: str) -> float | None:
        with self.engine.connect() as c:
            r = c.execute(sa.select(self.tables.c.updated, self.tables.c.created)
                          .where(self.tables.c.id == table_id)).first()
        return None if r is None else (r.updated or r.created)

    # -- seats -----------------------------------------------------------------
    def claim_seat(self, table_id: str, seat: int, token: str, name: str,
                   seats: list[dict[str, Any]] | None = None, status: str | None = None,
                   updated: float | None = None) -> None:
        """Store a seat's token digest (and the seats' new names and the table's
        status, in the same transaction); fails (IntegrityError) if already claimed."""
        with self.engine.begin() as c:
            c.execute(self.seat_tokens.insert().values(
                table_id=table_id, seat=seat, digest=token_digest(token), name=name))
            values: dict[str, Any] = {"updated": time.time() if updated is None else updated}
            if seats is not None:
                values["seats"] = json.dumps(seats)
            if status is not None:
                values["status"] = status
            c.execute(self.tables.update().where(self.tables.c.id == table_id).values(**values))

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
    def add_action(self, table_id: str, ply: int, player: int, action: str,
                   status: str | None = None, updated: float | None = None,
                   decider: str | None = None, at: float | None = None,
                   seen: tuple[int, float] | None = None) -> bool:
        """Store one accepted action (and the table's move number, time of change
        and status after it, in the same transaction); it is committed when this
        returns True.

        ``seen``: the table's mark (:meth:`mark`) as the caller last saw it; the
        action is then stored only if the table is still exactly so, else
        nothing is stored and this returns False (another process changed the
        table since: catch up, then decide again). The check is part of the
        write, so no read comes before it. The primary key (table, ply) makes a
        second writer for the same ply fail.

        On PostgreSQL this is one statement in one round trip (a data-modifying
        ``WITH`` in autocommit); on SQLite one transaction of two statements;
        both through the driver directly (the statements are built once), as a
        decision is the server's most frequent write.
        """
        now = time.time()
        values = {"table_id": table_id, "ply": ply, "next": ply + 1, "player": player, "action": action,
                  "decider": decider, "at": now if at is None else at,
                  "updated": now if updated is None else updated, "status": status,
                  "seen_ply": None if seen is None else seen[0], "seen": None if seen is None else seen[1]}
        write = self._writes.get(self.engine.dialect.name)
        if write is None:
            return self._add_action_core(values)
        return write(values)

    def _add_action_pg(self, values: dict[str, Any]) -> bool:
        sql = self._sql["add_if_seen" if values["seen"] is not None else "add"]
        raw = self.quick.raw_connection()
        try:
            conn = raw.driver_connection
            cur = conn.cursor()  # type: ignore[union-attr]
            cur.execute(sql, values)
            stored: bool = cur.rowcount == 1
            if not conn.autocommit:  # type: ignore[union-attr]
                conn.commit()  # type: ignore[union-attr]
        except Exception:
            if getattr(raw.driver_connection, "broken", False):
                raw.invalidate()  # never handed out again
            raise
        finally:
            raw.close()
        return stored

    def _add_action_sqlite(self, values: dict[str, Any]) -> bool:
        if not self._keep_writer:
            raw = self.engine.raw_connection()
            try:
                return self._add_action_on(raw, values)
            finally:
                raw.close()
        with self._writer_lock:
            raw = self._writer
            if raw is None:
                raw = self._writer = self.engine.raw_connection()
            try:
                return self._add_action_on(raw, values)
            except BaseException:
                self._writer = None
                raw.close()  # back to the pool, which rolls back what is left
                raise

    def _add_action_on(self, raw: Any, values: dict[str, Any]) -> bool:
        """One decision's transaction (SQLite), committed when this returns True."""
        conn = raw.driver_connection
        cur = conn.cursor()
        try:
            cur.execute(self._sql["mark_if_seen" if values["seen"] is not None else "mark_row"], values)
            if cur.rowcount != 1:
                conn.rollback()
                return False
            cur.execute(self._sql["insert"], values)
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        return True

    def _add_action_core(self, values: dict[str, Any]) -> bool:
        """:meth:`add_action` through SQLAlchemy Core (any other database)."""
        t = self.tables.c
        change: dict[str, Any] = {"ply": values["next"], "updated": values["updated"]}
        if values["status"] is not None:
            change["status"] = values["status"]
        where = [t.id == values["table_id"]]
        if values["seen"] is not None:
            where += [sa.func.coalesce(t.ply, 0) == values["seen_ply"],
                      sa.func.coalesce(t.updated, 0.0) == values["seen"]]
        with self.engine.connect() as c:
            if c.execute(self.tables.update().where(*where).values(**change)).rowcount != 1:
                c.rollback()
                return False
            c.execute(self.actions.insert().values(table_id=values["table_id"], ply=values["ply"],
                                                   player=values["player"], action=values["action"],
                                                   decider=values["decider"], at=values["at"]))
            c.commit()
        return True

    def deciders(self, table_id: str, since: int = 0) -> dict[int, str]:
        """The moves from ``since`` on that a substitute decided: ply -> decider."""
        a = self.actions.c
        with self.engine.connect() as c:
            rows = c.execute(sa.select(a.ply, a.decider).where(
                a.table_id == table_id, a.ply >= since, a.decider.is_not(None))).all()
        return {r.ply: r.decider for r in rows}

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

    # -- chat --------------------------------------------------------------------
    def add_chat(self, table_id: str, message: dict[str, Any], cap: int = 0) -> int | None:
        """Store one chat message (``at``, ``ply``, ``seat``, ``name``, ``text``) and
        return its id; None when the table already keeps ``cap`` messages (0: no cap)."""
        with self.engine.begin() as c:
            if cap > 0:
                n = c.execute(sa.select(sa.func.count()).select_from(self.chat)
                              .where(self.chat.c.table_id == table_id)).scalar_one()
                if n >= cap:
                    return None
            r = c.execute(self.chat.insert().values(
                table_id=table_id, at=message["at"], ply=message["ply"], seat=message["seat"],
                name=message["name"], text=message["text"]))
            key = r.inserted_primary_key
            assert key is not None
            return int(key[0])

    def chat_messages(self, table_id: str, since: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The table's chat, oldest first: the messages after id ``since`` (at most ``limit``)."""
        m = self.chat.c
        query = sa.select(self.chat).where(m.table_id == table_id, m.id > since).order_by(m.id)
        with self.engine.connect() as c:
            rows = c.execute(query if limit is None else query.limit(limit)).all()
        return [{"id": r.id, "at": r.at, "ply": r.ply, "seat": r.seat, "spectator": r.seat is None,
                 "name": r.name, "text": r.text} for r in rows]

    # -- post-game reviews ---------------------------------------------------------
    def save_review(self, table_id: str, budget: int, body: str) -> None:
        """Keep a finished table's review (the first one kept stands)."""
        try:
            with self.engine.begin() as c:
                c.execute(self.reviews.insert().values(table_id=table_id, budget=budget, body=body))
        except sa.exc.IntegrityError:
            pass

    def review(self, table_id: str) -> str | None:
        """A finished table's review as stored (None: not made yet)."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(self.reviews.c.body).where(self.reviews.c.table_id == table_id)).first()
        return None if row is None else str(row.body)

    # -- profiles and ratings ----------------------------------------------------
    def add_profile(self, profile_id: str, key: str, name: str) -> None:
        with self.engine.begin() as c:
            c.execute(self.profiles.insert().values(id=profile_id, digest=token_digest(key), name=name,
                                                    created=time.time()))

    def profile_by_key(self, key: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            r = c.execute(sa.select(self.profiles).where(self.profiles.c.digest == token_digest(key))).first()
        return None if r is None else {"id": r.id, "name": r.name, "created": r.created}

    def profile(self, profile_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            r = c.execute(sa.select(self.profiles).where(self.profiles.c.id == profile_id)).first()
            if r is None:
                return None
            ratings = c.execute(sa.select(self.ratings).where(self.ratings.c.profile_id == profile_id)
                                .order_by(self.ratings.c.game)).all()
            seats = c.execute(sa.select(self.seat_profiles.c.table_id, self.seat_profiles.c.seat)
                              .where(self.seat_profiles.c.profile_id == profile_id)).all()
        return {"id": r.id, "name": r.name, "created": r.created,
                "ratings": [{"game": x.game, "rating": round(x.rating), "games": x.games} for x in ratings],
                "seats": [(x.table_id, x.seat) for x in seats]}

    def rename_profile(self, profile_id: str, name: str) -> None:
        with self.engine.begin() as c:
            c.execute(self.profiles.update().where(self.profiles.c.id == profile_id).values(name=name))

    def link_seat(self, table_id: str, seat: int, profile_id: str, ply: int | None = None,
                  address: str | None = None, browser: str | None = None) -> bool:
        """Link a seat to a profile, once (False: the seat already has one), at
        move ``ply``, from ``address`` and ``browser`` (only their digests are kept)."""
        try:
            with self.engine.begin() as c:
                c.execute(self.seat_profiles.insert().values(
                    table_id=table_id, seat=seat, profile_id=profile_id, ply=ply,
                    address=None if address is None else token_digest(address),
                    browser=None if browser is None else token_digest(browser)))
        except sa.exc.IntegrityError:
            return False
        return True

    def seat_profile_ids(self, table_id: str) -> dict[int, str]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(self.seat_profiles).where(
                self.seat_profiles.c.table_id == table_id)).all()
        return {r.seat: r.profile_id for r in rows}

    def rate_table(self, table_id: str, game: str, scores: list[float],
                   judge: Callable[[dict[int, dict[str, Any]]], str | None] | None = None) -> bool:
        """Count a finished table in its profiles' ratings, once (one transaction);
        False when it was counted already or does not count. ``judge(links)``
        says why it must not (``ratings.unrated_reason``; links: seat -> its
        ``profile``, ``ply``, ``address``, ``browser``); the reason is kept
        (:meth:`unrated`). A table with no profile at all leaves no trace."""
        from .ratings import START, updated

        with self.engine.begin() as c:
            links = {r.seat: {"profile": r.profile_id, "ply": r.ply, "address": r.address, "browser": r.browser}
                     for r in c.execute(sa.select(self.seat_profiles).where(
                         self.seat_profiles.c.table_id == table_id)).all()}
            if not links:
                return False
            seats = {seat: link["profile"] for seat, link in links.items()}
            players = sorted(seats)
            reason = judge(links) if judge is not None else None
            if reason is None and (len(set(seats.values())) < 2 or len(set(seats.values())) != len(players)):
                reason = "few_profiles" if len(players) < 2 else "same_profile"
            try:
                c.execute(self.rated.insert().values(table_id=table_id, reason=reason))
            except sa.exc.IntegrityError:
                return False
            if reason is not None:
                return False
            r = self.ratings.c
            old: dict[str, tuple[float, int]] = {
                x.profile_id: (x.rating, x.games) for x in c.execute(sa.select(self.ratings).where(
                    r.game == game, r.profile_id.in_(list(seats.values())))).all()}
            before = [old.get(seats[p], (START, 0))[0] for p in players]
            after = updated(before, [scores[p] for p in players])
            for p, value in zip(players, after):
                pid = seats[p]
                if pid in old:
                    c.execute(self.ratings.update().where(r.profile_id == pid, r.game == game)
                              .values(rating=value, games=old[pid][1] + 1))
                else:
                    c.execute(self.ratings.insert().values(profile_id=pid, game=game, rating=value, games=1))
        return True

    def unrated(self, table_ids: list[str]) -> dict[str, str | None]:
        """For the tables counted or judged: None when it counted, else why not."""
        if not table_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(sa.select(self.rated).where(self.rated.c.table_id.in_(table_ids))).all()
        return {r.table_id: r.reason for r in rows}

    def leaderboard(self, game: str, limit: int = 100) -> list[dict[str, Any]]:
        r, p = self.ratings.c, self.profiles.c
        with self.engine.connect() as c:
            rows = c.execute(sa.select(r.profile_id, r.rating, r.games, p.name)
                             .join(self.profiles, p.id == r.profile_id)
                             .where(r.game == game).order_by(r.rating.desc()).limit(limit)).all()
        return [{"id": x.profile_id, "name": x.name, "rating": round(x.rating), "games": x.games} for x in rows]

    def drop_all(self) -> None:
        """Remove this storage's tables (used by tests with their own prefix)."""
        self.metadata.drop_all(self.engine)

    def close(self) -> None:
        with self._writer_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self.engine.dispose()
        if self.quick is not self.engine:
            self.quick.dispose()


def _record(r: Any) -> TableRecord:
    """A stored row as a record."""
    return TableRecord(r.id, r.game, r.num_players, int(r.seed), json.loads(r.options),
                       json.loads(r.seats), r.lang, r.created, r.rng,
                       json.loads(r.timing) if getattr(r, "timing", None) else None,
                       getattr(r, "rematch", None))


#: how SQLite syncs its write-ahead log on commit (``THIEVES_SQLITE_SYNC``)
SQLITE_SYNCS = ("NORMAL", "FULL")


def sqlite_sync() -> str:
    """``THIEVES_SQLITE_SYNC``: NORMAL (the default) or FULL.

    In WAL mode both keep every committed decision when the server's process
    is killed, and neither can corrupt the database. NORMAL syncs the log to
    the disk at checkpoints, not at every commit, so a power cut or a crash of
    the machine may lose the last moments of play (SQLite's advice for WAL);
    a commit then costs about 20 µs of CPU instead of 70-150 µs and a wait of
    0.2-2 ms for the disk. FULL waits for the disk at every commit."""
    asked = os.environ.get("THIEVES_SQLITE_SYNC", "NORMAL").strip().upper()
    if asked not in SQLITE_SYNCS:
        raise ValueError(f"THIEVES_SQLITE_SYNC must be one of {', '.join(SQLITE_SYNCS)} (not {asked!r})")
    return asked


def _sqlite_pragmas(sync: str) -> Callable[[Any, Any], None]:
    """What every new SQLite connection is set to: the write-ahead log, ``sync``."""
    def connected(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={sync}")
        cur.execute("PRAGMA busy_timeout=5000")
        cur.close()
    return connected
