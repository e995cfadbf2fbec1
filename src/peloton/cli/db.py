"""``peloton db upgrade|current``: the server's database schema, versioned by its
migrations (the server's modules load only when a command runs)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from .base import EXIT_ERROR, EXIT_USAGE, examples, fail
from .base import console as new_console
from .help import Command, Group

if TYPE_CHECKING:
    from sqlalchemy import Engine

DbOption = Annotated[
    str | None,
    typer.Option(
        envvar="PELOTON_DB_URL",
        help="Database URL: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB "
        "(default: the SQLite file in your data directory that peloton serve uses).",
    ),
]

UPGRADE_EXAMPLES = ("peloton db upgrade --db sqlite:///peloton.db",)
CURRENT_EXAMPLES = ("peloton db current --db sqlite:///peloton.db",)


def register(app: typer.Typer) -> None:
    """Add the group ``db`` (``upgrade`` and ``current``) to ``app``."""
    db_app = typer.Typer(
        cls=Group, help="Upgrade the server's database, or show its schema's revision.",
        no_args_is_help=True,
    )  # fmt: skip
    db_app.command("upgrade", cls=Command, epilog=examples(UPGRADE_EXAMPLES))(db_upgrade)
    db_app.command("current", cls=Command, epilog=examples(CURRENT_EXAMPLES))(db_current)
    app.add_typer(db_app, name="db")


def db_upgrade(db: DbOption = None) -> None:
    """Upgrade the database to the newest schema this peloton knows.

    Every table, seat, move, profile, rating and chat message is kept. peloton serve
    upgrades at start too; this does it beforehand, and says from which revision to which."""
    from ..server.storage import migrations

    url, console = _url(db), new_console()
    with _opened(url) as engine:
        done = migrations.upgrade(engine)
    where = _safe(url)
    after = migrations.describe(done.after)
    if not done.changed:
        line = f"{where}: already at revision {after}, the newest this peloton knows."
    elif done.before is None:
        line = f"{where}: schema created, revision {after}."
    else:
        made = ", made before versioned migrations," if done.unversioned else ""
        line = (
            f"{where}: upgraded from revision {migrations.describe(done.before)}{made} to {after}."
        )
    console.print(line, markup=False, soft_wrap=True)


def db_current(db: DbOption = None) -> None:
    """Show the database's schema revision, and whether it is the newest this peloton knows.

    Nothing is changed. Exit 1 if a newer peloton wrote the database."""
    from ..server.storage import database, migrations

    url, console = _url(db), new_console()
    where, newest = _safe(url), migrations.describe(migrations.head())
    if (path := database.missing_file(url)) is not None:
        line = f"{where}: no database at {path} yet (peloton db upgrade creates it)."
        console.print(line, markup=False, soft_wrap=True)
        return
    with _opened(url) as engine:
        found = migrations.current(engine)
    if not found.known:
        raise fail(str(migrations.NewerDatabaseError(str(found.revision))), EXIT_ERROR)
    if found.revision is None:
        line = f"{where}: an empty database (peloton db upgrade creates its schema, {newest})."
    elif found.unversioned:
        line = (
            f"{where}: made before versioned migrations, with the schema of revision "
            f"{migrations.describe(found.revision)}; peloton db upgrade upgrades it to {newest}."
        )
    elif found.newest:
        line = f"{where}: revision {newest}, the newest this peloton knows."
    else:
        line = (
            f"{where}: revision {migrations.describe(found.revision)}, older than the newest "
            f"this peloton knows, {newest}; peloton db upgrade upgrades it."
        )
    console.print(line, markup=False, soft_wrap=True)


def _url(db: str | None) -> str:
    from ..server.storage.database import default_db_url

    return db if db is not None else default_db_url()


def _safe(url: str) -> str:
    from ..server.storage.database import safe_url

    try:
        return safe_url(url)
    except Exception:  # a malformed URL is reported by _opened
        return url


@contextmanager
def _opened(url: str) -> Iterator[Engine]:
    """The engine of ``url``, its schema as it is, closed at the end; a database that
    cannot be opened, or a newer peloton's, is one line and exit 1 (a malformed URL, 2)."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from ..server.storage import database

    try:
        engine = database.open_engine(url)
    except ArgumentError as exc:
        raise fail(f"--db: {database.first_line(exc)}", EXIT_USAGE) from None
    try:
        yield engine
    except (SQLAlchemyError, OSError, ValueError) as exc:
        reason = database.first_line(getattr(exc, "orig", None) or exc)
        raise fail(f"cannot open the database {_safe(url)}: {reason}") from None
    finally:
        engine.dispose()
