"""A bundled Mind Cycling course is parsed once per server process and shared by every
table on it (with its move memo), when tables are made and when they are resumed; a
stored table keeps its own course, so a bundled file edited on disk changes no game.

The web table runs in this process (Starlette's test client drives its real app and
its lifespan: storage, worker processes, table loading), so the tables' states can be
looked at directly."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    # Starlette's test client warns that it will want another HTTP client package one day.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from peloton.games import mindcycling as mc
from peloton.games.mindcycling import course as course_module
from peloton.server.app import create_app

HUMANS = ["human", "human"]


@contextmanager
def web_table(db: Path) -> Iterator[tuple[TestClient, Any]]:
    """The web table on the SQLite file ``db``: a client and the server's tables."""
    app = create_app(f"sqlite:///{db}", bot_delay=0)
    with TestClient(app) as client:
        yield client, app.state.tables


def create(client: TestClient, **options: Any) -> str:
    answer = client.post("/api/tables", json={"seats": HUMANS, **options})
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    return table_id


def course_of(tables: Any, table_id: str) -> mc.Course:
    course: mc.Course = tables.tables[table_id].state.course
    return course


def test_two_tables_on_standard_share_one_course_made_and_resumed(tmp_path: Path) -> None:
    db = tmp_path / "peloton.db"
    with web_table(db) as (client, tables):
        first, second = create(client, course="standard"), create(client)  # standard: the default
        short = create(client, course="short", riders=3)
        shared = course_of(tables, first)
        assert shared is course_of(tables, second) is mc.Course.load("standard")
        assert course_of(tables, short) is mc.Course.load("short") is not shared
        # The table stores the course whole, not its name (MC-10.3: a record holds its course).
        assert tables.tables[first].options["course"] == shared.to_dict()
        # An uploaded course is its own, even one named after a bundled course.
        edited = {**shared.to_dict(), "finish": 66}
        own = course_of(tables, create(client, course=edited))
        assert own is not shared and own.finish == 66
    with web_table(db) as (_, tables):  # a restart: the tables come back from the database
        assert course_of(tables, first) is course_of(tables, second) is shared


def test_a_bundled_file_edited_on_disk_changes_no_stored_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "peloton.db"
    shipped = mc.Course.load("standard")
    with web_table(db) as (client, tables):
        table = create(client, course="standard")
        record = mc.Record.from_state(tables.tables[table].state)
    # The file now says another finish, and a new process reads it afresh.
    text = course_module._bundled_text("standard").replace("finish = 67", "finish = 60")
    assert "finish = 60" in text
    monkeypatch.setattr(course_module, "_bundled_text", lambda name: text)
    monkeypatch.setattr(course_module, "_BUNDLED", {})
    assert mc.Course.load("standard").finish == 60
    with web_table(db) as (client, tables):
        resumed = course_of(tables, table)
        assert resumed == shipped and resumed.finish == 67  # the table's own course
        assert resumed is not mc.Course.load("standard")
        # New tables take the course as the file now has it.
        assert course_of(tables, create(client, course="standard")).finish == 60
    # A record likewise replays on the course it holds.
    assert mc.Record.from_json(record.to_json()).course.finish == 67
