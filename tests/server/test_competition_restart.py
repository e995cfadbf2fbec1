"""A competition survives its server like a table does: ``peloton serve`` killed with
SIGKILL mid-leg and started again on the same database goes on with the competition
and its current table to the end, and a finished one is listed from its stored final
standings, its file rebuilt on demand; a server stopped between a leg's end and the next
table opens that table when it starts; a stored game that does not belong stops the
competition with a clear problem and loses nothing. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from sqlalchemy import delete, select, update

from peloton.games import cyclo as cy
from peloton.server.storage import database, store

from .helpers import Server
from .test_competitions import LEGS, create, until_finished


def wait_for(http: httpx.Client, comp_id: str, ready: Any, seconds: float = 240) -> dict[str, Any]:
    """The competition's detail once ``ready(detail)`` (a poll with a generous bound)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        detail: dict[str, Any] = http.get(f"/api/competitions/{comp_id}").json()
        if ready(detail):
            return detail
        time.sleep(0.05)
    raise AssertionError(f"competition {comp_id} never got there: {detail}")


def moves_of(http: httpx.Client, table_id: str) -> int:
    moves: int = http.get(f"/api/tables/{table_id}").json()["moves"]
    return moves


def test_a_killed_server_goes_on_with_the_competition_to_the_end(db_url: str) -> None:
    first = Server(db_url, bot_delay=0.05).start()
    try:
        with first.http() as http:
            created = create(
                http,
                kind="stage",
                settings={"legs": LEGS, "level": "starter"},
                seats=["greedy", "random"],
            )
            comp_id = created["id"]
            # Killed in the middle of the second leg: the first is taken back already.
            during = wait_for(
                http,
                comp_id,
                lambda d: (
                    d["played"] == 1
                    and d["current"] != created["table"]
                    and moves_of(http, d["current"]) >= 3
                ),
            )
            first_leg = http.get(f"/api/competitions/{comp_id}/file").json()["games"][0]
    finally:
        first.kill()
    second = Server(db_url, bot_delay=0.05).start()
    try:
        with second.http() as http:
            # The bots may have ridden on since the start: the same second leg, further.
            resumed = http.get(f"/api/competitions/{comp_id}").json()
            assert [t["table"] for t in resumed["tables"]] == [created["table"], during["current"]]
            assert moves_of(http, during["current"]) >= 3  # the leg goes on where it was
            assert resumed["history"][0] == during["history"][0]
            done = until_finished(http, comp_id)
            assert done["status"] == "finished"
            assert [t["table"] for t in done["tables"]] == [created["table"], during["current"]]
            data = http.get(f"/api/competitions/{comp_id}/file").json()
            assert data["games"][0] == first_leg
            assert cy.load_competition(data).standings == done["standings"]
    finally:
        second.stop()
    # Finished, it is listed from its stored final standings; its file is rebuilt on demand.
    third = Server(db_url).start()
    try:
        with third.http() as http:
            again = http.get(f"/api/competitions/{comp_id}").json()
            for key in ("status", "standings", "history", "winner", "leader", "played", "tables"):
                assert again[key] == done[key], key
            assert http.get(f"/api/competitions/{comp_id}/file").json() == data
    finally:
        third.stop()


def test_a_server_stopped_before_the_next_leg_opens_it_when_it_starts(db_url: str) -> None:
    first = Server(db_url).start()
    try:
        with first.http() as http:
            created = create(
                http,
                kind="stage",
                settings={"legs": LEGS, "level": "starter"},
                seats=["greedy", "greedy"],
            )
            comp_id = created["id"]
            done = until_finished(http, comp_id)
    finally:
        first.stop()
    # As if the server had died between the first leg's end and the second's table.
    second_leg = done["tables"][1]["table"]
    engine = database.create_db_engine(db_url)
    try:
        with engine.begin() as conn:
            for table in (store.moves, store.seats):
                conn.execute(delete(table).where(table.c.table_id == second_leg))
            conn.execute(delete(store.tables).where(store.tables.c.id == second_leg))
            conn.execute(
                update(store.competitions)
                .where(store.competitions.c.id == comp_id)
                .values(tables=json.dumps([created["table"]]), final=None)
            )
    finally:
        engine.dispose()
    again = Server(db_url).start()
    try:
        with again.http() as http:
            finished = until_finished(http, comp_id)
            assert finished["status"] == "finished" and finished["played"] == 2
            tables = [t["table"] for t in finished["tables"]]
            assert tables[0] == created["table"] and tables[1] != second_leg
            assert finished["history"][0] == done["history"][0]
            data = http.get(f"/api/competitions/{comp_id}/file").json()
            assert cy.load_competition(data).is_over
    finally:
        again.stop()


def test_a_stored_game_that_does_not_belong_stops_the_competition_and_loses_nothing(
    db_url: str,
) -> None:
    first = Server(db_url).start()
    try:
        with first.http() as http:
            created = create(
                http,
                kind="stage",
                settings={"legs": LEGS, "level": "starter"},
                seats=["greedy", "greedy"],
            )
            comp_id = created["id"]
            until_finished(http, comp_id)
            # A Pro classic, finished: not a leg of this Starter stage race.
            stray = http.post(
                "/api/tables",
                json={
                    "game": "cyclo",
                    "options": {"mode": "itt", "course": "prologue"},
                    "seats": ["greedy", "greedy"],
                },
            ).json()["id"]
            deadline = time.monotonic() + 240
            while http.get(f"/api/tables/{stray}").json()["status"] != "finished":
                assert time.monotonic() < deadline
                time.sleep(0.05)
            stray_moves = moves_of(http, stray)
    finally:
        first.stop()
    engine = database.create_db_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                update(store.competitions)
                .where(store.competitions.c.id == comp_id)
                .values(tables=json.dumps([stray]), final=None)
            )
    finally:
        engine.dispose()
    again = Server(db_url).start()
    try:
        with again.http() as http:
            detail = http.get(f"/api/competitions/{comp_id}").json()
            assert detail["status"] == "stopped"
            assert detail["problem"] == (
                f"its game 1, table {stray}: game 1 is not the one the stage race asked for: "
                "level 'pro' (expected 'starter')"
            )
            assert detail["played"] == 0 and detail["current"] is None
            file = http.get(f"/api/competitions/{comp_id}/file")
            assert file.status_code == 409 and file.json()["error"]["code"] == "stopped"
            # Nothing lost: every table keeps its moves, the stray one plays on as before.
            assert moves_of(http, stray) == stray_moves
            assert http.get(f"/api/tables/{created['table']}").json()["status"] == "finished"
    finally:
        again.stop()
    engine = database.create_db_engine(db_url)
    try:
        with engine.connect() as conn:
            kept = conn.execute(select(store.competitions.c.kind)).all()
            assert ("stage",) in [tuple(r) for r in kept]
    finally:
        engine.dispose()
