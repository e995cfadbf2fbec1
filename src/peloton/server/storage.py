"""Storage of tables, seats and moves (SQLAlchemy 2; SQLite by default, PostgreSQL by URL).

The database holds only what cannot be recomputed: a table's options, its seats
(with a hash of each seat token, never the token) and its accepted moves in order.
A live table's state is rebuilt at start-up by replaying its moves through the rules.
A finished table also keeps its final summary (round, move count, result), so that
the lobby can list it without replaying it.

Writes go through one :class:`Writer` thread. It commits whatever is queued in one
transaction ("group commit"): under load, many tables' moves share one commit, and
the event loop never blocks on the database. Each caller awaits its own write, so a
move is committed before it is broadcast.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

log = logging.getLogger("peloton.server")

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("course_name", String(200), nullable=False),
    Column("course", Text, nullable=False),  # JSON, MC-1.5 keys
    Column("teams", Text, nullable=False),  # JSON: team letter -> composition
    Column("riders", Integer, nullable=False),
    Column("wind", String(16), nullable=False),
    Column("relay_limit", Integer, nullable=False),
    Column("solo", Boolean, nullable=False),
    Column("status", String(16), nullable=False),  # open / running / finished
    Column("final", Text, nullable=True),  # JSON {round, moves, result} once finished
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", String(1), primary_key=True),
    Column("kind", String(32), nullable=False),  # human or a bot name
    Column("name", String(200), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("text", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


def default_db_url() -> str:
    """A SQLite file in the user's data directory (created on demand)."""
    return f"sqlite:///{Path(user_data_dir('peloton')) / 'peloton.db'}"


def normalise_url(url: str) -> URL:
    """The SQLAlchemy URL; plain ``postgresql://`` URLs use the psycopg 3 driver."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def safe_url(url: str) -> str:
    """The URL with its password hidden, for printing."""
    return normalise_url(url).render_as_string(hide_password=True)


def create_db_engine(url: str) -> Engine:
    """An engine for ``url`` with the schema created. SQLite runs in WAL mode with
    ``synchronous=NORMAL``: a committed transaction survives the process being killed
    (only a power cut may lose the last commits), and a commit costs no fsync."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(parsed, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

    else:
        engine = create_engine(parsed, pool_pre_ping=True)
    metadata.create_all(engine)
    return engine


def now() -> datetime:
    """The current UTC time (what ``created`` columns hold)."""
    return datetime.now(UTC)


# ---------------------------------------------------------------- rows read at start-up


@dataclass
class SeatRow:
    """A seat as stored."""

    seat: str
    kind: str
    name: str | None
    token_hash: str | None


@dataclass
class TableRow:
    """A table as stored, with its seats and (unless finished) its moves."""

    id: str
    created: datetime
    course_name: str
    course: dict[str, Any]
    teams: dict[str, str]
    riders: int
    wind: str
    relay_limit: int
    solo: bool
    status: str
    final: dict[str, Any] | None
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)


def _table_row(r: Any) -> TableRow:
    created = r.created if r.created.tzinfo else r.created.replace(tzinfo=UTC)
    return TableRow(
        id=r.id,
        created=created,
        course_name=r.course_name,
        course=json.loads(r.course),
        teams=json.loads(r.teams),
        riders=r.riders,
        wind=r.wind,
        relay_limit=r.relay_limit,
        solo=bool(r.solo),
        status=r.status,
        final=json.loads(r.final) if r.final else None,
    )


def load_tables(engine: Engine) -> list[TableRow]:
    """Every stored table with its seats; moves are loaded for unfinished tables only
    (finished ones are loaded on demand by :func:`load_moves`)."""
    with engine.connect() as conn:
        rows = {r.id: _table_row(r) for r in conn.execute(select(tables))}
        for s in conn.execute(select(seats).order_by(seats.c.table_id, seats.c.seat)):
            if s.table_id in rows:
                rows[s.table_id].seats.append(SeatRow(s.seat, s.kind, s.name, s.token_hash))
        live = [t for t in rows.values() if t.status != "finished"]
        if live:
            query = select(moves.c.table_id, moves.c.text).order_by(moves.c.table_id, moves.c.idx)
            ids = {t.id for t in live}
            for m in conn.execute(query):
                if m.table_id in ids:
                    rows[m.table_id].moves.append(m.text)
    return list(rows.values())


def load_moves(engine: Engine, table_id: str) -> list[str]:
    """The moves of one table, in order."""
    with engine.connect() as conn:
        query = select(moves.c.text).where(moves.c.table_id == table_id).order_by(moves.c.idx)
        return [r.text for r in conn.execute(query)]


# ---------------------------------------------------------------- writes


def insert_table(row: TableRow) -> Callable[[Connection], None]:
    """A write creating a table and its seats."""

    def write(conn: Connection) -> None:
        conn.execute(
            insert(tables).values(
                id=row.id,
                created=row.created,
                course_name=row.course_name,
                course=json.dumps(row.course),
                teams=json.dumps(row.teams),
                riders=row.riders,
                wind=row.wind,
                relay_limit=row.relay_limit,
                solo=row.solo,
                status=row.status,
                final=None,
            )
        )
        conn.execute(
            insert(seats),
            [
                {"table_id": row.id, "seat": s.seat, "kind": s.kind, "name": s.name, "token_hash": s.token_hash}
                for s in row.seats
            ],
        )

    return write


def take_seat(table_id: str, seat: str, name: str, token_hash: str, status: str) -> Callable[[Connection], None]:
    """A write giving a free human seat a player (and the table its new status)."""

    def write(conn: Connection) -> None:
        done = conn.execute(
            update(seats)
            .where(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.token_hash.is_(None))
            .values(name=name, token_hash=token_hash)
        )
        if done.rowcount != 1:
            raise SQLAlchemyError(f"seat {seat} of table {table_id} is already taken")
        conn.execute(update(tables).where(tables.c.id == table_id).values(status=status))

    return write


def add_move(table_id: str, idx: int, text: str, final: dict[str, Any] | None) -> Callable[[Connection], None]:
    """A write appending move ``idx``; ``final`` (the summary of a game it ends)
    marks the table finished in the same transaction."""

    def write(conn: Connection) -> None:
        conn.execute(insert(moves).values(table_id=table_id, idx=idx, text=text, created=now()))
        if final is not None:
            conn.execute(
                update(tables).where(tables.c.id == table_id).values(status="finished", final=json.dumps(final))
            )

    return write


class Writer:
    """One thread committing queued writes, many per transaction.

    :meth:`write` is awaited by the event loop; it resolves once the write is
    committed, or raises its error. If a batch fails, its writes are retried one by
    one, so that one bad write cannot fail the others.
    """

    MAX_BATCH = 256

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._queue: queue.Queue[tuple[Callable[[Connection], None], asyncio.Future[None]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="peloton-db-writer", daemon=True)
        self._thread.start()

    async def write(self, fn: Callable[[Connection], None]) -> None:
        """Commit ``fn(conn)`` in a transaction; return once it is durable."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put((fn, future))
        await future

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        stop = False
        while not stop:
            item = self._queue.get()
            if item is None:
                break
            batch = [item]
            while len(batch) < self.MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._commit(batch)

    def _commit(self, batch: list[tuple[Callable[[Connection], None], asyncio.Future[None]]]) -> None:
        try:
            with self.engine.begin() as conn:
                for fn, _ in batch:
                    fn(conn)
        except Exception as exc:
            if len(batch) == 1:
                _settle(batch[0][1], exc)
                return
            for one in batch:  # find the culprit; the others still commit
                self._commit([one])
            return
        for _, future in batch:
            _settle(future, None)


def _settle(future: asyncio.Future[None], exc: BaseException | None) -> None:
    loop = future.get_loop()

    def done() -> None:
        if future.done():
            return
        if exc is None:
            future.set_result(None)
        else:
            future.set_exception(exc)

    try:
        loop.call_soon_threadsafe(done)
    except RuntimeError:  # the loop has closed (shutting down)
        log.debug("write settled after the event loop closed")
