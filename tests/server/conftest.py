"""Fixtures: each test module gets a real server per database (SQLite, PostgreSQL),
each on a fresh database."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .helpers import Server, drop_pg_database, pg_database

PG_ENV = "PELOTON_TEST_PG_URL"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        path: Path = tmp_path_factory.mktemp("db") / "peloton.db"
        yield f"sqlite:///{path}"
        return
    admin = os.environ.get(PG_ENV)
    if not admin:
        pytest.fail(
            f"{PG_ENV} is not set: the server tests also run on PostgreSQL. Run "
            f"'export {PG_ENV}=$(scripts/test-postgres.sh)' (or 'make test', which does it)."
        )
    url, name = pg_database(admin)
    yield url
    drop_pg_database(admin, name)


@pytest.fixture(scope="module")
def server(db_url: str) -> Iterator[Server]:
    """A running ``peloton serve`` whose bots move without delay."""
    srv = Server(db_url).start()
    yield srv
    srv.stop()


@pytest.fixture()
def http(server: Server) -> Iterator[httpx.Client]:
    with server.http() as client:
        yield client
