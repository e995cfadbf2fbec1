"""A database written by the server before tables had a game (no ``game``, ``options``
or ``seed`` column, 64-character moves) still loads, plays on, and takes tables of
the new games."""

from __future__ import annotations

import hashlib
import json
import random
from datetime import UTC, datetime

from sqlalchemy import (
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
)

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.snapshot import snapshot
from peloton.server.storage.database import normalise_url

from .helpers import WS, Server, create, join

# The schema as the first server created it (src/peloton/server/storage/store.py before games).
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
    Column("text", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


def test_an_old_database_loads_and_plays_on(db_url: str) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    rng = random.Random(1)
    moves = []
    for _ in range(4):
        move = rng.choice(state.legal_moves())
        state.play(move)
        moves.append(str(move))
    tokens = {"A": "old-token-a", "B": "old-token-b"}
    now = datetime.now(UTC).replace(microsecond=0)
    engine = create_engine(normalise_url(db_url))
    OLD.create_all(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(OLD_TABLES),
            {
                "id": "oldtable",
                "created": now,
                "course_name": "short",
                "course": json.dumps(mc.Course.load("short").to_dict()),
                "teams": json.dumps(dict(state.teams)),
                "riders": 3,
                "wind": "front",
                "relay_limit": 3,
                "solo": False,
                "status": "running",
                "final": None,
            },
        )
        for seat, token in tokens.items():
            conn.execute(
                insert(OLD_SEATS),
                {
                    "table_id": "oldtable",
                    "seat": seat,
                    "kind": "human",
                    "name": f"Old {seat}",
                    "token_hash": hashlib.sha256(token.encode()).hexdigest(),
                },
            )
        for i, text in enumerate(moves):
            conn.execute(
                insert(OLD_MOVES), {"table_id": "oldtable", "idx": i, "text": text, "created": now}
            )
    engine.dispose()

    server = Server(db_url).start()
    try:
        with server.http() as http:
            detail = http.get("/api/tables/oldtable").json()
            assert detail["game"] == "mind-cycling" and detail["status"] == "running"
            assert detail["moves"] == 4 and detail["snapshot"] == snapshot(state)
            seat = state.current_player
            assert seat is not None
            ws = WS(server, "oldtable")
            assert ws.hello(tokens[seat])["seat"] == seat
            move = str(rng.choice(state.legal_moves()))
            ws.send({"type": "move", "move": move, "index": 4})
            assert ws.expect("update")["index"] == 4
            ws.close()
            # The migrated database takes the new games too (long Pistard moves included).
            table = create(
                http, game="pistard", options={"length": 20, "target": 1}, seats=["human", "greedy"]
            )
            watcher = WS(server, table)
            watcher.hello(None)
            join(http, table, "A")
            assert watcher.expect("welcome")["table"]["status"] == "running"
            assert watcher.expect("update")["move"].startswith("roll:")
            watcher.close()
    finally:
        server.stop()
    # And it still loads after that.
    again = Server(db_url).start()
    try:
        with again.http() as http:
            assert http.get("/api/tables/oldtable").json()["moves"] == 5
            assert http.get(f"/api/tables/{table}").json()["game"] == "pistard"
    finally:
        again.stop()
