"""Databases made before Alembic: they have no ``alembic_version``, so which released
schema each one is is read from its tables and columns, as the hand-written migration
of those servers did, and the database is stamped with that revision before it is
upgraded.

A schema is the last revision of the chain all of whose changes it has. Released
servers did not always add their columns in the chain's order (two lines of work
merged: a database may have a table's clock but no chat yet); the revisions after the
stamp make only the changes still missing (:mod:`.steps`).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, Inspector, inspect

#: The name under which the hand-written migration built the one-``options`` table.
REBUILT = "tables_rebuilt"


def _column(table: str, column: str) -> Callable[[Inspector], bool]:
    def present(found: Inspector) -> bool:
        return found.has_table(table) and column in {c["name"] for c in found.get_columns(table)}

    return present


def _table(table: str) -> Callable[[Inspector], bool]:
    return lambda found: found.has_table(table)


#: After the one ``options`` column (revision 0003), in the chain's order: each
#: revision and the mark of its change. Every change of 0010, 0011 and 0012 came in one
#: release, so one mark each says it.
MARKS: tuple[tuple[str, Callable[[Inspector], bool]], ...] = (
    ("0004", _column("tables", "secret")),
    ("0005", _column("tables", "rematch")),
    ("0006", _table("competitions")),
    ("0007", _column("competitions", "final")),
    ("0008", _table("chat_messages")),
    ("0009", _column("tables", "clock")),
    ("0010", _column("tables", "rated")),
    ("0011", _table("leases")),
    ("0012", _table("server_keys")),
)


def finish_interrupted_rebuild(conn: Connection) -> None:
    """Finish what a hand-written migration killed halfway left: its copy of ``tables``
    made but not yet renamed. With the old table still there, the copy may be
    incomplete and is dropped (the upgrade makes it again); without it, the copy was
    complete and takes its name."""
    names = set(inspect(conn).get_table_names())
    if REBUILT not in names:
        return
    if "tables" in names:
        conn.exec_driver_sql(f"DROP TABLE {REBUILT}")
    else:
        conn.exec_driver_sql(f"ALTER TABLE {REBUILT} RENAME TO tables")


def revision_of(conn: Connection) -> str | None:
    """The revision of a database made before Alembic, read from its tables and columns;
    ``None`` for an empty database (no ``tables``: every revision is to run)."""
    found = inspect(conn)
    if not found.has_table("tables"):
        return None
    present = {c["name"] for c in found.get_columns("tables")}
    if "course_name" in present:
        return "0002" if "options" in present else "0001"
    revision = "0003"
    for later, mark in MARKS:
        if not mark(found):
            break
        revision = later
    return revision
