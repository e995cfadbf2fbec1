"""``peloton db upgrade|current`` and the refusal of a newer peloton's database (issue
33, point 5), run as real processes: the revisions said in words, a database made
before Alembic upgraded from the schema it has, two processes upgrading one database
at once (the second finds it done), and a database whose revision this peloton does
not know refused by every command in one line, exit 1, untouched."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from peloton.server.storage import database, migrations, store
from server.old_schemas import write_old

PELOTON = str(Path(sys.executable).parent / "peloton")
HEAD = migrations.describe(migrations.head())


def peloton(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PELOTON, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def stamp(url: str, revision: str) -> None:
    """Write ``revision`` into the database's ``alembic_version`` as a peloton would."""
    engine = create_engine(database.normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


def test_upgrade_and_current_say_the_revisions_in_words(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = write_old(url, "0004")
    shown = peloton("db", "current", "--db", url, cwd=tmp_path)
    assert shown.returncode == 0 and shown.stderr == ""
    assert shown.stdout == (
        f"{url}: made before versioned migrations, with the schema of revision 0004 (table "
        f"secret); peloton db upgrade upgrades it to {HEAD}.\n"
    )
    done = peloton("db", "upgrade", "--db", url, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == (
        f"{url}: upgraded from revision 0004 (table secret), made before versioned "
        f"migrations, to {HEAD}.\n"
    )
    again = peloton("db", "upgrade", "--db", url, cwd=tmp_path)
    assert again.stdout == f"{url}: already at revision {HEAD}, the newest this peloton knows.\n"
    assert peloton("db", "current", "--db", url, cwd=tmp_path).stdout == (
        f"{url}: revision {HEAD}, the newest this peloton knows.\n"
    )
    stamp(url, "0009")  # as a peloton of that revision would have left it
    assert peloton("db", "current", "--db", url, cwd=tmp_path).stdout == (
        f"{url}: revision 0009 (table clock), older than the newest this peloton knows, "
        f"{HEAD}; peloton db upgrade upgrades it.\n"
    )
    engine = database.create_db_engine(url)
    try:
        assert store.load_tables(engine)[0].moves == old.moves
    finally:
        engine.dispose()


def test_an_empty_or_missing_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    missing = peloton("db", "current", "--db", url, cwd=tmp_path)
    assert missing.stdout == (
        f"{url}: no database at {tmp_path / 'new.db'} yet (peloton db upgrade creates it).\n"
    )
    assert not (tmp_path / "new.db").exists(), "reading creates nothing"
    made = peloton("db", "upgrade", "--db", url, cwd=tmp_path)
    assert made.stdout == f"{url}: schema created, revision {HEAD}.\n"
    bad = peloton("db", "current", "--db", "nosuch://x", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert bad.stderr.startswith("peloton: error: --db: ")


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_newer_pelotons_database_is_refused_in_one_line(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = (
        f"sqlite:///{tmp_path / 'newer.db'}"
        if kind == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    database.create_db_engine(url).dispose()
    stamp(url, "0042")  # a revision of a peloton to come
    with pytest.raises(migrations.NewerDatabaseError) as refused:
        database.create_db_engine(url)
    assert refused.value.revision == "0042"
    reason = (
        f"the database's schema is revision 0042, newer than this peloton knows (its newest "
        f"is {migrations.head()}): this peloton is older than the one that wrote it; upgrade peloton"
    )
    assert str(refused.value) == reason
    safe = database.safe_url(url)
    served = peloton("serve", "--db", url, "--port", "0", cwd=tmp_path)
    assert served.returncode == 1
    assert served.stderr == f"peloton: error: cannot open the database {safe}: {reason}\n"
    for command in ("upgrade", "current"):
        said = peloton("db", command, "--db", url, cwd=tmp_path)
        assert said.returncode == 1 and said.stdout == ""
        assert said.stderr.count("\n") == 1 and reason in said.stderr, command
    engine = create_engine(database.normalise_url(url))
    with engine.connect() as conn:  # untouched
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0042"
    engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_processes_upgrading_at_once_upgrade_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = (
        f"sqlite:///{tmp_path / 'old.db'}"
        if kind == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    old = write_old(url, "0001")  # the longest upgrade: every revision, the rebuild included
    engine = database.open_engine(url)
    with engine.connect() as holder:
        # Hold what an upgrading process holds, so that both processes start while the
        # database is locked and must wait: the one that gets it next upgrades, the
        # other then finds the head.
        if kind == "sqlite":
            holder.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            holder.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": migrations.UPGRADE_LOCK})
        both = [
            subprocess.Popen(
                [PELOTON, "db", "upgrade", "--db", url],
                cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )
            for _ in range(2)
        ]  # fmt: skip
        time.sleep(4)
        assert [p.poll() for p in both] == [None, None], "both wait for the lock"
        holder.rollback()
    engine.dispose()
    outcomes = [subprocess.CompletedProcess(p.args, p.wait(120), *p.communicate()) for p in both]
    assert [o.returncode for o in outcomes] == [0, 0], [o.stderr for o in outcomes]
    said = sorted(o.stdout.split(": ", 1)[1] for o in outcomes)
    assert said == [
        f"already at revision {HEAD}, the newest this peloton knows.\n",
        f"upgraded from revision 0001 (first schema), made before versioned migrations, to {HEAD}.\n",
    ]
    engine = database.create_db_engine(url)
    try:
        [table] = store.load_tables(engine)
        assert table.moves == old.moves and len(table.seats) == 2
    finally:
        engine.dispose()
