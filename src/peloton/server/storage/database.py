"""Opening the database: its URL (SQLite by default, PostgreSQL by URL) and the engine,
with the schema brought up to today's by the versioned migrations (:mod:`.migrations`),
keeping every table, seat and move. What is stored, and how it is written, is
:mod:`.store`'s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

from . import migrations
from .store import log


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


def open_engine(url: str) -> Engine:
    """An engine for ``url``, its schema as it is (:func:`create_db_engine` upgrades it).
    SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed transaction
    survives the process being killed (only a power cut may lose the last commits),
    and a commit costs no fsync."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)
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

    return engine


def create_db_engine(url: str) -> Engine:
    """An engine for ``url`` with the schema at this peloton's newest revision: created,
    or upgraded from an older one (:func:`.migrations.upgrade`). A database written by a
    newer peloton raises :class:`.migrations.NewerDatabaseError` (the engine is closed)."""
    engine = open_engine(url)
    try:
        done = migrations.upgrade(engine)
    except BaseException:
        engine.dispose()
        raise
    if done.changed:
        log.info(
            "database upgraded from %s to %s",
            migrations.describe(done.before),
            migrations.describe(done.after),
        )
    return engine


def missing_file(url: str) -> Path | None:
    """The SQLite file ``url`` names when there is none yet (``None`` otherwise): what a
    command that only reads the database does not create."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database)
    return None if path.exists() else path


def unreachable(url: str) -> str | None:
    """Why the database at ``url`` cannot be opened (its driver's first line), else
    ``None``: checked before serving, so that a bad ``--db`` is one line, not a
    traceback from the server's start-up."""
    try:
        engine = create_db_engine(url)
    except (SQLAlchemyError, ValueError, OSError) as exc:
        return first_line(exc)
    try:
        with engine.connect():
            return None
    except (SQLAlchemyError, OSError) as exc:
        return first_line(getattr(exc, "orig", None) or exc)
    finally:
        engine.dispose()


def first_line(exc: BaseException) -> str:
    """The first line of an error's text (its type's name when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
