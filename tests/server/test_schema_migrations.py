"""Every released schema upgrades to the head, on SQLite and on PostgreSQL, from a real
old database (tests/server/old_schemas.py): the schema is then exactly today's, every
row is kept, and the old table plays on, its player greeted by the token of old. A
fresh database is made by the same revisions; a second start changes nothing."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, MetaData, inspect, select, text

from peloton.server.live import ratings
from peloton.server.storage import database, migrations, profiles, store

from .clock_support import HandClock, Player, served
from .conftest import PG_ENV
from .helpers import drop_pg_database, pg_database
from .old_schemas import REVISIONS, WRITTEN, write_old


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind for this test alone."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    admin = os.environ[PG_ENV]
    url, name = pg_database(admin)
    yield url
    drop_pg_database(admin, name)


def today() -> MetaData:
    """Today's schema: every table the server's modules declare."""
    whole = MetaData()
    for part in (store.metadata, profiles.SCHEMA, ratings.SCHEMA):
        for table in part.tables.values():
            table.to_metadata(whole)
    return whole


def differences(engine: Engine) -> list[Any]:
    """How the database's schema differs from today's (column types included). SQLite
    ignores a VARCHAR's length, so the first schema's 64-character moves are not widened
    there (nor need to be): that one difference is left out."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        found = compare_metadata(context, today())
    if engine.dialect.name == "sqlite":
        found = [d for d in found if not (isinstance(d, list) and d[0][2:4] == ("moves", "text"))]
    return found


def rows(engine: Engine, name: str) -> list[dict[str, Any]]:
    table = today().tables[name]
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(select(table))]


def naive_utc(moment: datetime) -> datetime:
    """A time as SQLite gives it back: UTC, without its zone."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def test_a_fresh_database_is_made_by_the_revisions_and_is_todays(fresh_db: str) -> None:
    engine = database.create_db_engine(fresh_db)
    try:
        assert migrations.current(engine).newest
        assert differences(engine) == []
    finally:
        engine.dispose()


@pytest.mark.parametrize("revision", REVISIONS)
def test_every_released_schema_upgrades_keeping_its_rows_and_plays_on(
    fresh_db: str, revision: str
) -> None:
    old = write_old(fresh_db, revision)
    engine = database.open_engine(fresh_db)
    try:
        before = migrations.current(engine)
        assert (before.revision, before.unversioned) == (revision, True), "found by its columns"
        done = migrations.upgrade(engine)
        assert (done.before, done.after, done.unversioned) == (revision, migrations.head(), True)
        assert migrations.current(engine).newest
        assert differences(engine) == []

        [table] = store.load_tables(engine)
        assert (table.id, table.game, table.status) == (old.table_id, "mind-cycling", "running")
        assert table.options["course"]["name"] == "short" and table.options["players"] == 2
        assert table.moves == old.moves
        assert len(table.secret) == 64 and table.rated  # an older table: a secret, rated
        kept = {s.seat: (s.name, s.token_hash, s.profile) for s in table.seats}
        for seat in old.rows["seats"]:
            assert kept[seat["seat"]] == (seat["name"], seat["token_hash"], seat.get("profile"))
        for name in ("competitions", "chat_messages", "profiles", "profile_sessions",
                     "rated_games", "profile_looks", "server_keys"):  # fmt: skip
            got = rows(engine, name)
            assert len(got) == len(old.rows.get(name, [])), name
            for was, now in zip(old.rows.get(name, []), got, strict=True):
                # every value kept (times compared apart: SQLite gives them back naive),
                # every column added since empty
                assert {k: now[k] for k in was if k != "created"} == {
                    k: v for k, v in was.items() if k != "created"
                }, name
                if "created" in was:
                    assert naive_utc(now["created"]) == naive_utc(WRITTEN), name
                assert all(now[k] is None for k in now.keys() - was.keys()), name
        assert migrations.upgrade(engine) == migrations.Upgrade(done.after, done.after)
    finally:
        engine.dispose()

    async def play_on() -> None:
        async with served(fresh_db, HandClock()) as tables:
            live = tables.get(old.table_id)
            seat = live.state.current_player
            assert live.state.history == old.state.history
            player = Player(tables, live, old.tokens[seat])
            await player.hello()
            assert player.conn.seat == seat, "the old token still holds the seat"
            await player.move()
            assert len(live.texts) == len(old.moves) + 1

    asyncio.run(play_on())
    engine = database.create_db_engine(fresh_db)
    try:
        assert len(store.load_moves(engine, old.table_id)) == len(old.moves) + 1
    finally:
        engine.dispose()


def test_the_revisions_are_one_line_one_script_each_named_for_its_change() -> None:
    scripts = sorted((migrations.HERE / "versions").glob("*.py"))
    chain = list(reversed(list(migrations.script_directory().walk_revisions())))
    assert [s.revision for s in chain] == [p.name[:4] for p in scripts] == list(REVISIONS)
    assert [s.down_revision for s in chain] == [None, *REVISIONS[:-1]], "one line, no branch"
    assert migrations.head() == REVISIONS[-1]
    assert migrations.describe("0003") == "0003 (one options column)"


def test_an_upgrade_that_fails_leaves_the_database_as_it_was(fresh_db: str) -> None:
    """The upgrade is one transaction, DDL included (on SQLite too): a first-schema
    table whose teams are not JSON fails the rebuild of revision 0003 after 0002 added
    its columns and 0003 made its copy; nothing of either is left, nor a stamp."""
    old = write_old(fresh_db, "0001")
    engine = database.open_engine(fresh_db)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE tables SET teams = 'not json'"))
        with pytest.raises(ValueError):
            migrations.upgrade(engine)
        found = inspect(engine)
        assert set(found.get_table_names()) == {"tables", "seats", "moves"}
        assert "game" not in {c["name"] for c in found.get_columns("tables")}
        assert migrations.current(engine) == migrations.Current("0001", unversioned=True)
        with engine.begin() as conn:
            conn.execute(
                text("UPDATE tables SET teams = :t"), {"t": old.rows["tables"][0]["teams"]}
            )
        assert migrations.upgrade(engine).after == migrations.head()
        assert store.load_tables(engine)[0].moves == old.moves
    finally:
        engine.dispose()
