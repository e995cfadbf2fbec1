"""Ratings survive the server (issue 18, item 4): a restart keeps every rating and
rates no table twice; a server that died after a game ended but before its ratings
were stored rates that game at its next start, to the same figures; and the ratings
rebuilt from the finished tables alone are the ones kept."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import delete, func, select

from peloton.server.live.ratings import Ratings, rated_games
from peloton.server.live.table import LiveTable
from peloton.server.live.tables import Tables
from peloton.server.storage import database, store

from .helpers import Server
from .profile_support import Signer, play_to_end, register


def ratings_of(http: Any, name: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = http.get(f"/api/players/{name}").json()["ratings"]
    return found


def test_ratings_survive_restarts_and_a_crash_before_they_were_stored(db_url: str) -> None:
    first = Server(db_url).start()
    try:
        with first.http() as http:
            session = register(http, "Indurain", Signer())
            finished = []
            for seed in range(2):
                answer = http.post(
                    "/api/tables",
                    json={
                        "game": "mind-twist",
                        "seats": ["human", "greedy"],
                        "creator": {"seat": "R", "name": "Indurain", "profile": session},
                    },
                ).json()
                play_to_end(first, answer["id"], {"R": answer["token"]}, random.Random(seed))
                finished.append(answer["id"])
            before = ratings_of(http, "Indurain")
            assert before[0]["games"] == 2
    finally:
        first.stop()

    second = Server(db_url).start()  # a plain restart: nothing rated twice
    try:
        with second.http() as http:
            assert ratings_of(http, "Indurain") == before
            tables = http.get("/api/players/Indurain").json()["tables"]
            assert all(t["rating"] is not None for t in tables)
    finally:
        second.stop()

    # The server died after the last game ended but before its ratings were stored.
    engine = database.create_db_engine(db_url)
    with engine.begin() as conn:
        conn.execute(delete(rated_games).where(rated_games.c.table_id == finished[-1]))
        assert conn.execute(select(func.count()).select_from(rated_games)).scalar() == 1
    engine.dispose()

    third = Server(db_url).start()
    try:
        with third.http() as http:
            assert ratings_of(http, "Indurain") == before
    finally:
        third.stop()

    # Every rating computed again from the finished tables alone: the same figures.
    engine = database.create_db_engine(db_url)
    try:
        with engine.connect() as conn:
            kept = [tuple(r) for r in conn.execute(select(rated_games).order_by("seq"))]
        tables = Tables(store.Writer(engine, inline=True), engine)
        tables.load()
        ratings = Ratings(tables.writer, engine)
        ratings.load()
        found: list[LiveTable] = list(tables.tables.values())
        assert ratings.rebuild(found) == 2
        with engine.connect() as conn:
            rebuilt = [tuple(r) for r in conn.execute(select(rated_games).order_by("seq"))]
        assert [r[:9] for r in rebuilt] == [r[:9] for r in kept]
        tables.writer.close()
    finally:
        engine.dispose()
