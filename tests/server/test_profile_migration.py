"""A database of the server before profiles (no ``seats.profile``, no ``tables.rated``)
is upgraded at start-up: every table and seat kept, its tables rated, its seats
anonymous, and a seat taken signed in remembers its profile from then on."""

from __future__ import annotations

import asyncio

from sqlalchemy import MetaData, create_engine, insert

from peloton.server.storage import database, store


def before_profiles() -> MetaData:
    """The schema just before profiles: today's, less the two new columns."""
    old = MetaData()
    for name in ("tables", "seats", "moves"):
        table = store.metadata.tables[name].to_metadata(old)
        for column in ("rated", "profile"):
            if column in table.c:
                table._columns.remove(table.c[column])
    return old


def test_a_database_before_profiles_is_upgraded(db_url: str) -> None:
    engine = create_engine(database.normalise_url(db_url))
    old = before_profiles()
    old.drop_all(engine)
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(insert(old.tables["tables"]), {
            "id": "old1", "created": store.now(), "game": "mind-twist", "options": "{}",
            "seed": 1, "secret": "0" * 64, "status": "open", "final": None, "rematch": None,
        })  # fmt: skip
        conn.execute(insert(old.tables["seats"]), [
            {"table_id": "old1", "seat": "R", "kind": "human", "name": "Eddy", "token_hash": "h"},
            {"table_id": "old1", "seat": "B", "kind": "human", "name": None, "token_hash": None},
        ])  # fmt: skip
    engine.dispose()

    engine = database.create_db_engine(db_url)  # migrates
    try:
        [row] = store.load_tables(engine)
        assert row.rated is True
        assert [(s.seat, s.name, s.profile) for s in row.seats] == [
            ("B", None, None),
            ("R", "Eddy", None),
        ]
        writer = store.Writer(engine, inline=True)

        async def take() -> None:
            await writer.write(store.take_seat("old1", "B", "Felice", "h2", "running", "Felice"))

        asyncio.run(take())
        writer.close()
        [row] = store.load_tables(engine)
        assert [(s.seat, s.name, s.profile) for s in row.seats] == [
            ("B", "Felice", "Felice"),
            ("R", "Eddy", None),
        ]
        database.create_db_engine(db_url).dispose()  # a second start changes nothing
        assert store.load_tables(engine)[0].seats == row.seats
    finally:
        engine.dispose()
