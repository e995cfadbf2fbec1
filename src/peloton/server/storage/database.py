"""Opening the database: its URL (SQLite by default, PostgreSQL by URL), the engine,
and bringing a database made by an older server up to today's schema
(:func:`migrate`), keeping every table, seat and move. What is stored, and how it is
written, is :mod:`.store`'s."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import (
    Engine,
    MetaData,
    Table,
    create_engine,
    event,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

from ...core.registry import FIRST_GAME
from .store import log, metadata, new_secret, tables


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
    """An engine for ``url`` with the schema created (or an older one migrated).
    SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed transaction
    survives the process being killed (only a power cut may lose the last commits),
    and a commit costs no fsync."""
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
            # Checkpoints (which fsync) run in the Writer's own checkpoint thread, so
            # that no commit waits for one.
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

    else:
        engine = create_engine(parsed, pool_pre_ping=True)
    migrate(engine)
    metadata.create_all(engine)
    return engine


#: The columns of the schemas before the one ``options`` column: the first game's own
#: settings (:func:`options_from_first_columns`).
FIRST_COLUMNS = ("course_name", "course", "teams", "riders", "wind", "relay_limit", "solo")
_REBUILT = "tables_rebuilt"


def unreachable(url: str) -> str | None:
    """Why the database at ``url`` cannot be opened (its driver's first line), else
    ``None``: checked before serving, so that a bad ``--db`` is one line, not a
    traceback from the server's start-up."""
    try:
        engine = create_db_engine(url)
    except (SQLAlchemyError, ValueError, OSError) as exc:
        return _first_line(exc)
    try:
        with engine.connect():
            return None
    except (SQLAlchemyError, OSError) as exc:
        return _first_line(getattr(exc, "orig", None) or exc)
    finally:
        engine.dispose()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def options_from_first_columns(
    course: dict[str, Any],
    teams: dict[str, str],
    riders: int,
    wind: str,
    relay_limit: int,
    solo: bool,
) -> dict[str, Any]:
    """The ``options`` of a table stored by the first schema, from its own columns (each
    named as the option it held; the teams and the solo flag say the seats)."""
    return {
        "players": 1 if solo else len(teams),
        "course": course,
        "riders": riders,
        "wind": wind,
        "relay_limit": relay_limit,
    }


def migrate(engine: Engine) -> None:
    """Bring a database made by an older server up to the current schema, keeping every
    table, seat and move.

    * Schemas whose ``tables`` kept the first game's settings in columns of their own
      (with or without the later ``game``, ``options`` and ``seed``): the table is
      rebuilt with one ``options`` column; a row without a game is the first game's.
      The rows are copied into a new table that then replaces the old one, so an
      interrupted migration is found and finished (or started again) at the next start.
    * PostgreSQL's move texts are widened to 200 characters (64 were enough for the
      first game only).
    * Tables without a ``secret`` (the column is added if missing) are given one.
    * The ``rematch`` column (the table a rematch opened) is added if missing.
    * The ``rated`` column of tables and the ``profile`` column of seats are added if
      missing (an older table is rated; its seats were taken anonymously).
    * The ``clock`` column (time control, stand-in, absent seats) is added if missing.
    * The ``competitions`` table (stage races, omniums...) is created if missing, by
      :func:`create_db_engine`'s ``create_all``: an older database simply has none.
    * The chat's tables (``chat_messages``, ``chat_settings``) are created if missing
      the same way: an older database's tables simply have no chat yet.
    * The cluster's ``leases`` and ``nodes`` tables (:mod:`..cluster.leases`) are created if
      missing the same way: a database used by one process simply has none yet.
    """
    names = set(inspect(engine).get_table_names())
    if _REBUILT in names:
        with engine.begin() as conn:
            if "tables" in names:  # the copy was not finished: start it again
                conn.exec_driver_sql(f"DROP TABLE {_REBUILT}")
            else:  # the copy was finished, the old table dropped: finish the swap
                conn.exec_driver_sql(f"ALTER TABLE {_REBUILT} RENAME TO tables")
        names = set(inspect(engine).get_table_names())
    if "tables" in names:
        present = {c["name"] for c in inspect(engine).get_columns("tables")}
        if "course_name" in present:
            _rebuild_tables(engine)
    if "moves" in names and engine.dialect.name == "postgresql":
        column = next(
            (c["type"] for c in inspect(engine).get_columns("moves") if c["name"] == "text"), None
        )
        length = getattr(column, "length", None)
        if length is not None and length < 200:
            with engine.begin() as conn:
                conn.exec_driver_sql("ALTER TABLE moves ALTER COLUMN text TYPE VARCHAR(200)")
    if "tables" in set(inspect(engine).get_table_names()):
        present = {c["name"] for c in inspect(engine).get_columns("tables")}
        with engine.begin() as conn:
            if "secret" not in present:
                conn.exec_driver_sql("ALTER TABLE tables ADD COLUMN secret VARCHAR(64)")
            if "rematch" not in present:
                conn.exec_driver_sql("ALTER TABLE tables ADD COLUMN rematch VARCHAR(32)")
            if "rated" not in present:
                conn.exec_driver_sql("ALTER TABLE tables ADD COLUMN rated BOOLEAN")
            if "seats" in names and "profile" not in {
                c["name"] for c in inspect(conn).get_columns("seats")
            }:
                conn.exec_driver_sql("ALTER TABLE seats ADD COLUMN profile VARCHAR(40)")
            if "clock" not in present:
                conn.exec_driver_sql("ALTER TABLE tables ADD COLUMN clock TEXT")
            missing = [
                r.id for r in conn.execute(select(tables.c.id).where(tables.c.secret.is_(None)))
            ]
            for table_id in missing:
                conn.execute(
                    update(tables).where(tables.c.id == table_id).values(secret=new_secret())
                )


def _rebuild_tables(engine: Engine) -> None:
    """Copy ``tables`` into the current schema (one ``options`` column), then swap."""
    old = Table("tables", MetaData(), autoload_with=engine)  # read with its column types
    rebuilt = tables.to_metadata(MetaData(), name=_REBUILT)
    with engine.connect() as conn:
        rows = [r._mapping for r in conn.execute(select(old))]
    copied = []
    for r in rows:
        game = r.get("game") or FIRST_GAME
        if r.get("options"):
            options = json.loads(r["options"])
        else:
            options = options_from_first_columns(
                json.loads(r["course"]),
                json.loads(r["teams"]),
                r["riders"],
                r["wind"],
                r["relay_limit"],
                bool(r["solo"]),
            )
        copied.append({
            "id": r["id"], "created": r["created"], "game": game, "options": json.dumps(options),
            "seed": r.get("seed"), "secret": r.get("secret"), "status": r["status"], "final": r["final"],
        })  # fmt: skip
    log.info("moving %d tables to one options column", len(copied))
    rebuilt.create(engine)
    with engine.begin() as conn:
        if copied:
            conn.execute(insert(rebuilt), copied)
        conn.exec_driver_sql("DROP TABLE tables")
        conn.exec_driver_sql(f"ALTER TABLE {_REBUILT} RENAME TO tables")
