"""The database's schema, versioned by Alembic: one revision script per change in
``versions/``, from the first released schema (``0001``) to today's (the head).

:func:`upgrade` brings any database up to the head, keeping every row: from the
revision its ``alembic_version`` records; a database made before Alembic is first
stamped with the released schema it has (:mod:`.legacy`); an empty one runs every
revision, so that a new database and an upgraded one are made by the same steps. A
database whose revision is not among this peloton's scripts was made by a newer
peloton: :class:`NewerDatabaseError`, and nothing is touched.

The whole upgrade is one transaction, taken exclusively: PostgreSQL's DDL is
transactional, and an advisory lock makes nodes of a cluster starting together
upgrade one after the other (the second finds the head and does nothing); SQLite's
is too once the transaction is opened by hand (``BEGIN IMMEDIATE``, which also takes
the database's write lock). An interrupted upgrade leaves the database as it was.

Alembic is configured here, not by an ``alembic.ini``: the scripts ship in the
package and are found beside this module, installed or not.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

from ....core.errors import PelotonError
from . import legacy

#: Where the scripts are: this package (``env.py``, ``versions/``).
HERE = Path(__file__).resolve().parent
#: The PostgreSQL advisory lock held (for its transaction) by the process upgrading.
UPGRADE_LOCK = 0x7065_6C6D  # "pelm"


class NewerDatabaseError(PelotonError):
    """The database was made or upgraded by a newer peloton: its revision is not one
    this peloton knows, so it neither reads nor upgrades it."""

    def __init__(self, revision: str) -> None:
        self.revision = revision
        super().__init__(
            f"the database's schema is revision {revision}, newer than this peloton knows "
            f"(its newest is {head()}): this peloton is older than the one that wrote it; "
            "upgrade peloton"
        )


@dataclass(frozen=True)
class Upgrade:
    """What :func:`upgrade` did: the revision before (``None``: an empty database) and
    after, and whether the database was made before Alembic (and stamped)."""

    before: str | None
    after: str
    unversioned: bool = False

    @property
    def changed(self) -> bool:
        """Whether any revision ran."""
        return self.before != self.after


@dataclass(frozen=True)
class Current:
    """A database's revision (``None``: none recorded) as this peloton sees it."""

    revision: str | None
    #: Made before Alembic: the released schema it has (``None``: an empty database).
    unversioned: bool = False

    @property
    def known(self) -> bool:
        """Whether this peloton has the revision's script (``False``: a newer peloton's)."""
        return self.revision is None or self.revision in _revisions()

    @property
    def newest(self) -> bool:
        """Whether the database is at this peloton's head (nothing to upgrade)."""
        return self.revision == head() and not self.unversioned


@functools.cache
def script_directory() -> ScriptDirectory:
    """The revision scripts, read once per process."""
    return ScriptDirectory.from_config(config())


def config() -> Config:
    """Alembic's configuration, made in code: the scripts' location is this package."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE).replace("%", "%%"))
    return cfg


@functools.cache
def _revisions() -> frozenset[str]:
    return frozenset(s.revision for s in script_directory().walk_revisions())


def head() -> str:
    """The newest revision this peloton knows."""
    found = script_directory().get_current_head()
    assert found is not None, "the revision scripts have one head"
    return found


def describe(revision: str | None) -> str:
    """A revision in words: its id and what it changed (from its script's name)."""
    if revision is None:
        return "an empty database"
    if revision not in _revisions():
        return f"{revision} (unknown to this peloton)"
    script = script_directory().get_revision(revision)
    assert script is not None and script.path is not None
    what = Path(script.path).stem.split("_", 1)[-1].replace("_", " ")
    return f"{revision} ({what})"


def _stored(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def current(engine: Engine) -> Current:
    """The database's revision; for a database made before Alembic, the released schema
    it has (read, not stamped: nothing is written)."""
    with engine.connect() as conn:
        stored = _stored(conn)
        if stored is not None:
            return Current(stored)
        found = legacy.revision_of(conn)
    return Current(found, unversioned=found is not None)


def upgrade(engine: Engine) -> Upgrade:
    """Bring the database to the head revision, keeping every row (blocking). One
    query when it is there already; :class:`NewerDatabaseError` when a newer peloton
    wrote it."""
    top = head()
    with engine.connect() as conn:
        stored = _stored(conn)
    if stored == top:
        return Upgrade(top, top)
    with _exclusive(engine) as conn:
        # Read again under the lock: another process may have upgraded meanwhile.
        legacy.finish_interrupted_rebuild(conn)
        stored = _stored(conn)
        unversioned = False
        if stored is not None and stored not in _revisions():
            raise NewerDatabaseError(stored)
        if stored is None:
            stored = legacy.revision_of(conn)
            unversioned = stored is not None
            if stored is not None:
                MigrationContext.configure(conn).stamp(script_directory(), stored)
        if stored != top:
            _run_upgrade(conn)
    return Upgrade(stored, top, unversioned)


def _run_upgrade(conn: Connection) -> None:
    """Run the revisions after the one stamped through ``env.py``, on ``conn`` (Alembic's
    documented way of sharing a connection with its commands)."""
    cfg = config()
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, "head")


@contextlib.contextmanager
def _exclusive(engine: Engine) -> Iterator[Connection]:
    """A connection in one transaction that no other upgrader shares: committed at the
    end, rolled back (every change of the upgrade undone) on an error."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            # pysqlite opens no transaction before DDL; this one holds the write lock.
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        elif engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": UPGRADE_LOCK})
        try:
            yield conn
        except BaseException:
            conn.rollback()
            raise
        conn.commit()
