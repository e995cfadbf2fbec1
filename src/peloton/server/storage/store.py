"""Storage of tables, seats and moves (SQLAlchemy 2; SQLite by default, PostgreSQL by URL).

The database holds only what cannot be recomputed: a table's options, its seats
(with a hash of each seat token, never the token) and its accepted moves in order.
A live table's state is rebuilt at start-up by replaying its moves through the rules.
A finished table also keeps its final summary (round, move count, result), so that
the lobby can list it without replaying it.

A table plays one game (``game``) made from its ``options``: every option of the
game's ``from_options``, as JSON, objects included (a course is stored whole, so a
table replays on the course it was created with). A game with dice also stores
``seed``: its rolls are drawn from it, so a restarted server rolls exactly what it
would have rolled. Databases of older servers are brought to this schema at start-up
(the revisions of :mod:`.migrations`), keeping every table, seat and move. Each table also has a ``secret`` (256 random bits): every
decision of its bots draws from it and the move's index, so no bot's choice can be
worked out from what the players see, nor replayed by restarting the server.

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
import secrets
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Engine,
    Executable,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    insert,
    select,
    update,
)

log = logging.getLogger("peloton.server")

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),  # JSON: every option of from_options
    Column("seed", BigInteger, nullable=True),  # the chance seed (games with dice)
    Column("secret", String(64), nullable=True),  # 256 random bits, hex: the bots' randomness
    Column("status", String(16), nullable=False),  # open / running / finished / abandoned
    Column("final", Text, nullable=True),  # JSON {moves, result[, round]} once finished
    # The table of the rematch its players were invited to (the same options and seats).
    Column("rematch", String(32), nullable=True),
    # False: an unrated table (no profile's rating changes); NULL (older rows): rated.
    Column("rated", Boolean, nullable=True),
    # JSON: time control, seconds left, stand-in level, seats it plays (server/live/presence.py)
    Column("clock", Text, nullable=True),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", String(1), primary_key=True),
    Column("kind", String(32), nullable=False),  # human or a bot name
    Column("name", String(200), nullable=True),
    Column("token_hash", String(64), nullable=True),
    # The profile (its name) of the player who took the seat signed in; NULL: anonymous.
    Column("profile", String(40), nullable=True),
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("text", String(200), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


#: A competition (a stage race, an omnium...): its kind and settings, the seat
#: its games share, and the ids of its tables in order (``tables``, JSON). Its
#: standings are its finished tables' results, replayed; only a finished one keeps
#: its final standings (``final``), so that a start need not replay it.
competitions = Table(
    "competitions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("settings", Text, nullable=False),  # JSON: the kind's constructor arguments
    Column("seats", Text, nullable=False),  # JSON: one seat kind per seat, in seat order
    Column("tables", Text, nullable=False),  # JSON: its tables' ids, game by game
    Column("final", Text, nullable=True),  # JSON {standings, history, winner} once over
)


#: A table's chat (:mod:`..live.chat`): its messages in order (``idx`` counts from 0 and is
#: never reused; the oldest beyond the kept cap are deleted), each with who wrote it
#: (a seat letter, or ``NULL`` for a spectator, and the name shown), when, and how many
#: moves had been played then (where a replay shows it).
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("seat", String(1), nullable=True),
    Column("name", String(200), nullable=False),
    Column("text", Text, nullable=False),
    Column("move", Integer, nullable=False),
)

#: A table's chat settings: whether its players muted the spectators, and who did.
chat_settings = Table(
    "chat_settings",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("muted", Integer, nullable=False),  # 1: spectators may not write
    Column("seat", String(1), nullable=True),
    Column("changed", DateTime(timezone=True), nullable=False),
)


#: Cluster mode (issue 19, :mod:`..cluster.leases`): who owns what. A lease gives one node the
#: right to run one table (``key``) until ``expires``, renewed every second or so;
#: ``epoch`` counts its tenures: it grows each time the lease passes to a new holder.
leases = Table(
    "leases",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("owner", String(32), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Column("epoch", BigInteger, nullable=False),
)

#: The nodes alive in a cluster: each one beats (pushes ``expires`` on) every second
#: or so, with the address it serves on.
nodes = Table(
    "nodes",
    metadata,
    Column("node", String(32), primary_key=True),
    Column("address", String(200), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
)


def new_secret() -> str:
    """A table's secret: 256 random bits, as 64 hex digits."""
    return secrets.token_hex(32)


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
    #: The profile the seat was taken with (``None``: anonymous, or a bot).
    profile: str | None = None


@dataclass
class TableRow:
    """A table as stored, with its seats and (unless finished) its moves."""

    id: str
    created: datetime
    game: str
    options: dict[str, Any]
    seed: int | None
    status: str
    final: dict[str, Any] | None
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    secret: str = ""
    #: The id of the rematch table, once one was opened.
    rematch: str | None = None
    #: Whether the table's result changes its players' ratings.
    rated: bool = True
    #: JSON: the table's time control, clocks and stand-ins (server/live/presence.py).
    clock: str | None = None


def _table_row(r: Any) -> TableRow:
    created = r.created if r.created.tzinfo else r.created.replace(tzinfo=UTC)
    return TableRow(
        id=r.id,
        created=created,
        game=r.game,
        options=json.loads(r.options),
        seed=r.seed,
        status=r.status,
        final=json.loads(r.final) if r.final else None,
        secret=r.secret or "",
        rematch=r.rematch,
        rated=r.rated is not False,
        clock=r.clock,
    )


def load_tables(engine: Engine) -> list[TableRow]:
    """Every stored table with its seats; moves are loaded for unfinished tables only
    (finished ones are loaded on demand by :func:`load_moves`)."""
    with engine.connect() as conn:
        rows = {r.id: _table_row(r) for r in conn.execute(select(tables))}
        for s in conn.execute(select(seats).order_by(seats.c.table_id, seats.c.seat)):
            if s.table_id in rows:
                seat = SeatRow(s.seat, s.kind, s.name, s.token_hash, s.profile)
                rows[s.table_id].seats.append(seat)
        live = [t for t in rows.values() if t.status not in ("finished", "abandoned")]
        if live:
            query = select(moves.c.table_id, moves.c.text).order_by(moves.c.table_id, moves.c.idx)
            ids = {t.id for t in live}
            for m in conn.execute(query):
                if m.table_id in ids:
                    rows[m.table_id].moves.append(m.text)
    return list(rows.values())


def load_table(engine: Engine, table_id: str) -> TableRow | None:
    """One stored table with its seats and (unless finished) its moves; ``None`` when
    there is no such table (a node of a cluster loads the tables it holds one by one)."""
    with engine.connect() as conn:
        found = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        if found is None:
            return None
        row = _table_row(found)
        query = select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)
        for s in conn.execute(query):
            row.seats.append(SeatRow(s.seat, s.kind, s.name, s.token_hash, s.profile))
    if row.status not in ("finished", "abandoned"):
        row.moves = load_moves(engine, table_id)
    return row


def lobby_rows(
    engine: Engine,
    status: str | None,
    after: tuple[datetime, str] | None,
    limit: int,
    profile: str | None = None,
) -> list[TableRow]:
    """A page of the lobby as stored: at most ``limit`` tables, newest first (then by
    id), only those of ``status`` if given, only those after ``after`` (a table's
    ``(created, id)``, the lobby's cursor), only those with a seat taken by
    ``profile`` if given (a player's page); with their seats, without their moves."""
    query = select(tables).order_by(tables.c.created.desc(), tables.c.id.desc()).limit(limit)
    if status is not None:
        query = query.where(tables.c.status == status)
    if profile is not None:
        query = query.where(
            tables.c.id.in_(select(seats.c.table_id).where(seats.c.profile == profile))
        )
    if after is not None:
        created, table_id = after
        query = query.where(
            (tables.c.created < created)
            | ((tables.c.created == created) & (tables.c.id < table_id))
        )
    with engine.connect() as conn:
        rows = {r.id: _table_row(r) for r in conn.execute(query)}
        if rows:
            found = select(seats).where(seats.c.table_id.in_(list(rows)))
            for s in conn.execute(found.order_by(seats.c.table_id, seats.c.seat)):
                seat = SeatRow(s.seat, s.kind, s.name, s.token_hash, s.profile)
                rows[s.table_id].seats.append(seat)
    return list(rows.values())


def unfinished_ids(engine: Engine) -> list[str]:
    """The ids of the tables not yet finished nor abandoned, oldest first (what a
    node of a cluster tries to hold at start-up)."""
    query = (
        select(tables.c.id)
        .where(tables.c.status.not_in(("finished", "abandoned")))
        .order_by(tables.c.created, tables.c.id)
    )
    with engine.connect() as conn:
        return [r.id for r in conn.execute(query)]


def load_moves(engine: Engine, table_id: str) -> list[str]:
    """The moves of one table, in order."""
    with engine.connect() as conn:
        query = select(moves.c.text).where(moves.c.table_id == table_id).order_by(moves.c.idx)
        return [r.text for r in conn.execute(query)]


# ---------------------------------------------------------------- writes

#: A write is a list of statements with their parameters, run in order in one
#: transaction. The statements are built once, so SQLAlchemy compiles each once.
Write = list[tuple[Executable, dict[str, Any]]]

_INSERT_TABLE = insert(tables)
_INSERT_SEAT = insert(seats)
_INSERT_MOVE = insert(moves)
_TAKE_SEAT = (
    update(seats)
    .where(seats.c.table_id == bindparam("t_id"), seats.c.seat == bindparam("t_seat"))
    .values(
        name=bindparam("name"), token_hash=bindparam("token_hash"), profile=bindparam("profile")
    )
)
_SET_STATUS = (
    update(tables).where(tables.c.id == bindparam("t_id")).values(status=bindparam("status"))
)
_FINISH = (
    update(tables)
    .where(tables.c.id == bindparam("t_id"))
    .values(status=bindparam("status"), final=bindparam("final"))
)


def insert_table(row: TableRow) -> Write:
    """A write creating a table and its seats."""
    table: dict[str, Any] = {
        "id": row.id,
        "created": row.created,
        "game": row.game,
        "options": json.dumps(row.options),
        "seed": row.seed,
        "secret": row.secret,
        "status": row.status,
        "final": None,
        "rematch": None,
        "rated": row.rated,
        "clock": row.clock,
    }
    ops: Write = [(_INSERT_TABLE, table)]
    for s in row.seats:
        seat = {
            "table_id": row.id,
            "seat": s.seat,
            "kind": s.kind,
            "name": s.name,
            "token_hash": s.token_hash,
            "profile": s.profile,
        }
        ops.append((_INSERT_SEAT, seat))
    return ops


_SET_REMATCH = (
    update(tables).where(tables.c.id == bindparam("t_id")).values(rematch=bindparam("rematch"))
)


def set_rematch(table_id: str, rematch: str) -> Write:
    """A write linking a finished table to the table of its rematch."""
    return [(_SET_REMATCH, {"t_id": table_id, "rematch": rematch})]


def take_seat(
    table_id: str, seat: str, name: str, token_hash: str, status: str, profile: str | None = None
) -> Write:
    """A write giving a human seat its player (signed in with ``profile``, or not) and
    the table its new status. The live table checks, under its lock, that the seat is free."""
    taken = {"name": name, "token_hash": token_hash, "profile": profile}
    return [
        (_TAKE_SEAT, {"t_id": table_id, "t_seat": seat, **taken}),
        (_SET_STATUS, {"t_id": table_id, "status": status}),
    ]


def add_move(table_id: str, idx: int, text: str) -> Write:
    """A write appending move ``idx`` of a table."""
    return [(_INSERT_MOVE, {"table_id": table_id, "idx": idx, "text": text, "created": now()})]


def finish_table(table_id: str, final: dict[str, Any]) -> Write:
    """A write marking a table finished, with its final summary (moves, result, round)."""
    return [(_FINISH, {"t_id": table_id, "status": "finished", "final": json.dumps(final)})]


#: A queued write and the future its writer awaits.
Pending = tuple[Write, "asyncio.Future[None]"]


class Writer:
    """One thread committing queued writes, many per transaction ("group commit").

    :meth:`write` is awaited by the event loop; it resolves once the write is
    committed, or raises its error. The writes of one turn of the event loop go to the
    thread together (one hand-off, not one per move), and the thread commits in one
    transaction every write queued while it committed the last ones: the event loop
    never waits for a commit (an SQLite commit fsyncs), and the more moves come, the
    more share a commit. Each batch's outcomes come back to the loop in one call.
    Consecutive statements of a batch that are the same (the moves of many tables) run
    as one ``executemany``. If a batch fails, its writes are retried one by one, so
    that one bad write cannot fail the others.

    ``inline=True`` commits in the event loop's own thread instead, once per loop turn
    (what some unit tests use without a thread).

    With SQLite, a second thread checkpoints the write-ahead log every
    ``CHECKPOINT_EVERY`` seconds. A checkpoint fsyncs; run at commit time (SQLite's
    default) it would stall every table's next move for tens of milliseconds.
    """

    MAX_BATCH = 256
    CHECKPOINT_EVERY = 1.0

    def __init__(self, engine: Engine, *, inline: bool = False) -> None:
        self.engine = engine
        self.inline = inline
        self._queue: queue.Queue[list[Pending] | None] = queue.Queue()
        self._pending: list[Pending] = []
        self._thread: threading.Thread | None = None
        if not self.inline:
            self._thread = threading.Thread(target=self._run, name="peloton-db-writer", daemon=True)
            self._thread.start()
        self._stopped = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if engine.dialect.name == "sqlite":
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="peloton-db-checkpoint", daemon=True
            )
            self._checkpointer.start()

    async def write(self, ops: Write) -> None:
        """Commit ``ops`` in a transaction; return once they are durable."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((ops, future))
        if len(self._pending) == 1:  # the writes of this loop turn go together
            loop.call_soon(self._flush)
        await future

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        if not batch:
            return
        if self.inline:
            _settle_all(self._commit(batch))
        else:
            self._queue.put(batch)

    def close(self) -> None:
        """Commit what is queued, then stop the threads."""
        self._flush()
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
        self._stopped.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=30)
            self._checkpoint("TRUNCATE")

    def _checkpoints(self) -> None:
        while not self._stopped.wait(self.CHECKPOINT_EVERY):
            self._checkpoint("PASSIVE")

    def _checkpoint(self, mode: str) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
                conn.commit()  # hold no read snapshot: the log can then restart
        except Exception:
            log.exception("SQLite checkpoint failed")

    def _run(self) -> None:
        stop = False
        while not stop:
            item = self._queue.get()
            if item is None:
                break
            batch = list(item)
            # Everything queued while the last commit ran goes in this one.
            while len(batch) < self.MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.extend(nxt)
            _settle_all(self._commit(batch))

    def _commit(self, batch: list[Pending]) -> list[tuple[asyncio.Future[None], Exception | None]]:
        """Commit ``batch`` in one transaction; each write's outcome (``None``: committed)."""
        runs: list[tuple[Executable, list[dict[str, Any]]]] = []
        for ops, _ in batch:
            for statement, params in ops:
                if runs and runs[-1][0] is statement:
                    runs[-1][1].append(params)
                else:
                    runs.append((statement, [params]))
        try:
            with self.engine.begin() as conn:
                for statement, rows in runs:
                    conn.execute(statement, rows if len(rows) > 1 else rows[0])
        except Exception as exc:
            if len(batch) == 1:
                return [(batch[0][1], exc)]
            outcomes = []
            for one in batch:  # find the culprit; the others still commit
                outcomes += self._commit([one])
            return outcomes
        return [(future, None) for _, future in batch]


def _settle_all(outcomes: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    """Resolve each future with its outcome, in its event loop: one call per loop for
    a whole batch when settled from the writer thread."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Exception | None]]]
    by_loop = {}
    for future, exc in outcomes:
        by_loop.setdefault(future.get_loop(), []).append((future, exc))
    try:
        here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:  # the writer thread
        here = None
    for loop, group in by_loop.items():
        if loop is here:  # an inline commit, in the loop's own thread
            _settle_group(group)
            continue
        try:
            loop.call_soon_threadsafe(_settle_group, group)
        except RuntimeError:  # the loop has closed (shutting down)
            log.debug("writes settled after the event loop closed")


def _settle_group(group: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    for future, exc in group:
        if future.done():
            continue
        if exc is None:
            future.set_result(None)
        else:
            future.set_exception(exc)
