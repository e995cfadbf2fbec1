"""A database written by the server whose tables kept Mind Cycling's settings in columns
of their own (beside ``game``, ``options`` and ``seed``) moves to one ``options``
column: Mind Cycling, Mind Twist and Pistard tables, mid-game and finished, open,
resume and replay after the migration, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    inspect,
)

from peloton.core.rng import Rng
from peloton.games import mindcycling as mc
from peloton.games import mindtwist as mt
from peloton.games import pistard as pi
from peloton.games.mindcycling.snapshot import snapshot as mc_snapshot
from peloton.server.storage import migrations, store
from peloton.server.storage.database import normalise_url

from .conftest import PG_ENV
from .helpers import (
    WS,
    Server,
    drop_pg_database,
    in_replay,
    pg_database,
    replay_snapshots,
    stored_moves,
)

# The schema as the server wrote it before the one options column (store.py at 5cec0e6).
OLD = MetaData()
OLD_TABLES = Table(
    "tables",
    OLD,
    Column("id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("course_name", String(200), nullable=False),
    Column("course", Text, nullable=False),
    Column("teams", Text, nullable=False),
    Column("riders", Integer, nullable=False),
    Column("wind", String(16), nullable=False),
    Column("relay_limit", Integer, nullable=False),
    Column("solo", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("final", Text, nullable=True),
    Column("game", String(32), nullable=True),
    Column("options", Text, nullable=True),
    Column("seed", BigInteger, nullable=True),
)
OLD_SEATS = Table(
    "seats",
    OLD,
    Column("table_id", String(32), primary_key=True),
    Column("seat", String(1), primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("name", String(200), nullable=True),
    Column("token_hash", String(64), nullable=True),
)
OLD_MOVES = Table(
    "moves",
    OLD,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("text", String(200), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
#: What the old server stored in Mind Cycling's columns for the other games.
NEUTRAL = {
    "course_name": "",
    "course": "{}",
    "teams": "{}",
    "riders": 0,
    "wind": "",
    "relay_limit": 0,
    "solo": False,
}


@dataclass
class Old:
    """A table as the old server stored it, and the state its moves lead to."""

    id: str
    row: dict[str, Any]
    seats: dict[str, str]  # seat -> kind
    moves: list[str]
    state: Any
    tokens: dict[str, str] = field(default_factory=dict)


def play_randomly(
    state: Any, rng: random.Random, moves: int | None, chance: Rng | None = None
) -> list[str]:
    """Random legal moves (rolls from ``chance``) until the game is over or ``moves``."""
    played: list[str] = []
    while not state.is_over and (moves is None or len(played) < moves):
        move = state.chance_move(chance) if state.is_chance else rng.choice(state.legal_moves())
        state.play(move)
        played.append(str(move))
    return played


def mind_cycling(table_id: str, rng: random.Random, moves: int | None, solo: bool = False) -> Old:
    course = mc.Course.load("solo" if solo else "short")
    if solo:
        state = mc.new_solo(course, wind="left", relay_limit=2)
    else:
        state = mc.new_game(course, mc.default_teams(2, 3), wind="right", relay_limit=2)
    played = play_randomly(state, rng, moves)
    row = {
        "course_name": course.name, "course": json.dumps(course.to_dict()), "teams": json.dumps(dict(state.teams)),
        "riders": 5 if solo else 3, "wind": state.wind, "relay_limit": 2, "solo": solo, "game": "mind-cycling",
        "options": None, "seed": None,
    }  # fmt: skip
    if state.is_over:
        row["final"] = json.dumps(
            {"round": state.round, "moves": len(played), "result": state.result.to_dict()}
        )
    seats = (
        {"A": "human"}
        if solo
        else ({"A": "human", "B": "human"} if moves else {"A": "greedy", "B": "random"})
    )
    return Old(table_id, row, seats, played, state)


def mind_twist(table_id: str, rng: random.Random, moves: int | None) -> Old:
    options = {"players": 2, "length": 16, "milestones": [4, 8, 12]}
    state = mt.from_options(options)
    played = play_randomly(state, rng, moves)
    row = {**NEUTRAL, "game": "mind-twist", "options": json.dumps(options), "seed": 4242}
    if state.is_over:
        row["final"] = json.dumps(
            {"moves": len(played), "result": mt.snapshot(state, None)["result"]}
        )
    seats = {"R": "human", "B": "human"} if moves else {"R": "greedy", "B": "random"}
    return Old(table_id, row, seats, played, state)


def pistard(table_id: str, rng: random.Random, moves: int | None, seed: int) -> Old:
    options = {"players": 2, "length": 20, "layout": "default", "bonus": "colour", "target": 3}
    state = pi.from_options(options)
    state.seed = seed
    played = play_randomly(state, rng, moves, Rng(seed))  # the table's one chance stream
    row = {**NEUTRAL, "game": "pistard", "options": json.dumps(options), "seed": seed}
    if state.is_over:
        row["final"] = json.dumps(
            {"moves": len(played), "result": pi.snapshot(state, None)["result"]}
        )
    seats = {"A": "human", "B": "human"} if moves else {"A": "greedy", "B": "random"}
    return Old(table_id, row, seats, played, state)


def write_old_database(db_url: str, tables: list[Old]) -> None:
    engine = create_engine(normalise_url(db_url))
    OLD.create_all(engine)
    start = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
    with engine.begin() as conn:
        for i, t in enumerate(tables):
            status = "finished" if t.state.is_over else "running"
            conn.execute(insert(OLD_TABLES), {
                "id": t.id, "created": start + timedelta(minutes=i), "status": status, "final": None, **t.row,
            })  # fmt: skip
            for seat, kind in t.seats.items():
                token = f"token-{t.id}-{seat}" if kind == "human" else None
                if token:
                    t.tokens[seat] = token
                conn.execute(insert(OLD_SEATS), {
                    "table_id": t.id, "seat": seat, "kind": kind, "name": f"Old {seat}" if token else kind,
                    "token_hash": hashlib.sha256(token.encode()).hexdigest() if token else None,
                })  # fmt: skip
            for idx, text in enumerate(t.moves):
                conn.execute(
                    insert(OLD_MOVES),
                    {"table_id": t.id, "idx": idx, "text": text, "created": start},
                )
    engine.dispose()


def snapshot_of(game: str, state: Any) -> dict[str, Any]:
    return {"mind-cycling": mc_snapshot, "mind-twist": mt.snapshot, "pistard": pi.snapshot}[game](
        state, None
    )


def test_tables_of_every_game_move_to_one_options_column(db_url: str) -> None:
    rng = random.Random(13)
    old = [
        mind_cycling("mcplaying", rng, 6),
        mind_cycling("mcsolo", rng, 3, solo=True),
        mind_cycling("mcdone", rng, None),
        mind_twist("mtplaying", rng, 5),
        mind_twist("mtdone", rng, None),
        pistard("piplaying", rng, 7, seed=987654321),
        pistard("pidone", rng, None, seed=123456789),
    ]
    write_old_database(db_url, old)
    by_id = {t.id: t for t in old}

    server = Server(db_url, bot_delay=0).start()
    try:
        with server.http() as http:
            listed = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}
            assert set(listed) == set(by_id)
            for t in old:
                game = t.row["game"]
                detail = http.get(f"/api/tables/{t.id}").json()
                assert detail["game"] == game and detail["moves"] == len(t.moves), t.id
                assert detail["status"] == ("finished" if t.state.is_over else "running"), t.id
                # A spectator's snapshot: the legal moves go only to the seat to move.
                assert detail["snapshot"] == {**snapshot_of(game, t.state), "legal": []}, t.id
                assert [s["kind"] for s in detail["seats"]] == list(t.seats.values())
                if t.state.is_over:
                    assert listed[t.id]["result"] == detail["snapshot"]["result"]
                    replay = http.get(f"/api/tables/{t.id}/replay").json()
                    assert (
                        replay["moves"] == t.moves or game == "mind-twist"
                    )  # Mind Twist: the public moves
                    snaps = replay_snapshots(replay)
                    assert len(snaps) == len(t.moves) + 1
                    assert snaps[-1] == in_replay(detail["snapshot"])
                    record = http.get(f"/api/tables/{t.id}/record").json()
                    assert record["game"] == game
                    assert http.post("/api/replay", json=record).status_code == 200

            # Mind Cycling's columns are its options now; the summary reads as before.
            mcp = http.get("/api/tables/mcplaying").json()
            assert (mcp["course"], mcp["riders"], mcp["wind"], mcp["relay_limit"], mcp["solo"]) == (
                "short",
                3,
                "right",
                2,
                False,
            )
            assert mcp["course_data"] == mc.Course.load("short").to_dict()
            assert mcp["options"] == {
                "players": 2,
                "course": "short",
                "riders": 3,
                "wind": "right",
                "relay_limit": 2,
            }
            solo = http.get("/api/tables/mcsolo").json()
            assert (solo["course"], solo["riders"], solo["solo"]) == ("solo", 5, True)
            assert solo["snapshot"]["teams"] == {"A": mc.SOLO_COMPOSITION}
            assert http.get("/api/tables/mtplaying").json()["options"] == json.loads(
                by_id["mtplaying"].row["options"]
            )
            assert http.get("/api/tables/piplaying").json()["options"]["layout"] == "default"

            # Every table in play goes on from its last stored move.
            for t in (by_id["mcplaying"], by_id["mcsolo"], by_id["mtplaying"]):
                seat = t.state.current_player
                ws = WS(server, t.id)
                assert ws.hello(t.tokens[seat])["seat"] == seat
                move = str(rng.choice(t.state.legal_moves()))
                ws.send({"type": "move", "move": move, "index": len(t.moves)})
                update = ws.expect("update")
                assert update["index"] == len(t.moves) and update["by"] == seat
                ws.close()
            pi_table = by_id["piplaying"]
            watcher = WS(server, pi_table.id)
            snap = watcher.hello()["snapshot"]
            while snap["current_player"] not in ("A", "B"):  # the server rolls on
                snap = watcher.expect("update")["snapshot"]
            watcher.close()
            played = stored_moves(db_url, pi_table.id)
            assert played[: len(pi_table.moves)] == pi_table.moves
            state, stream = pi.from_options(json.loads(pi_table.row["options"])), Rng(987654321)
            for text in played:  # the rolls after the migration go on with the same stream
                if state.is_chance:
                    assert str(state.chance_move(stream)) == text
                state.play(text)
    finally:
        server.stop()

    engine = create_engine(normalise_url(db_url))
    try:
        columns = {c["name"] for c in inspect(engine).get_columns("tables")}
        with engine.connect() as conn:
            table_secrets = [r[0] for r in conn.exec_driver_sql("SELECT secret FROM tables")]
    finally:
        engine.dispose()
    assert columns == {
        *(
            "id",
            "created",
            "game",
            "options",
            "seed",
            "secret",
            "status",
            "final",
            "rematch",
            "clock",
        ),
        "rated",
    }
    # Every table is given its bots' secret: 256 random bits, its own.
    assert len(table_secrets) == len(old) == len(set(table_secrets))
    assert all(len(secret) == 64 and int(secret, 16) >= 0 for secret in table_secrets)

    # The migrated database loads again as it is.
    again = Server(db_url).start()
    try:
        with again.http() as http:
            assert (
                http.get("/api/tables/mcplaying").json()["moves"]
                == len(by_id["mcplaying"].moves) + 1
            )
            assert http.get("/api/tables/mcdone").json()["status"] == "finished"
            assert len(http.get("/api/tables").json()["tables"]) == len(old)
    finally:
        again.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of each kind for this test alone (``db_url`` is shared by a module)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    admin = os.environ[PG_ENV]
    url, name = pg_database(admin)
    yield url
    drop_pg_database(admin, name)


def test_an_interrupted_migration_is_finished_at_the_next_start(fresh_db: str) -> None:
    db_url = fresh_db
    rng = random.Random(3)
    old = [mind_cycling("mcplaying", rng, 4), pistard("piplaying", rng, 5, seed=77)]
    write_old_database(db_url, old)
    engine = create_engine(normalise_url(db_url))
    try:
        # The hand-written migration of the servers before Alembic, killed after its copy's
        # table was made, before it was filled: done again.
        store.tables.to_metadata(MetaData(), name="tables_rebuilt").create(engine)
        migrations.upgrade(engine)
        assert "tables_rebuilt" not in inspect(engine).get_table_names()
        migrated = {r.id: r for r in store.load_tables(engine)}
        assert set(migrated) == {"mcplaying", "piplaying"} and migrated["piplaying"].seed == 77
        # Killed after the old table was dropped, before the copy took its name (such a
        # database has no alembic_version yet).
        with engine.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE tables RENAME TO tables_rebuilt")
            conn.exec_driver_sql("DROP TABLE alembic_version")
        migrations.upgrade(engine)
        again = {r.id: r for r in store.load_tables(engine)}
        assert again.keys() == migrated.keys()
        assert again["mcplaying"].options == migrated["mcplaying"].options
        assert again["mcplaying"].moves == old[0].moves
    finally:
        engine.dispose()
