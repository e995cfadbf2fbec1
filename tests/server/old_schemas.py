"""Databases exactly as each released server made them, for the migration tests.

:func:`schema` is the schema of each revision of the chain as that version's code
declared it (its ``metadata``: the columns copied from ``git show <commit>:src/peloton/
server/storage.py``, ``profiles.py``, ``ratings.py`` and ``leases.py`` of the commits
named below), built with these frozen definitions, never today's. :func:`write_old`
makes one such database and fills it as that server would have: a running Mind Cycling
table whose moves replay, its seats with their tokens' hashes, and from the schemas that
had them a competition, a chat message, a profile signed in at a seat with its session and rating,
its looks and the server's challenge secret.

The commits: 0001 fc5a26a (the first schema), 0002 1b859a9 (game, options, seed;
moves of 200 characters), 0003 3c19ad2 (one options column), 0004 3bd5a76 (secret),
0005 9212a61 (rematch), 0006 1303729 (competitions), 0007 91539c8 (their final
standings), 0008 6353d90 (chat), 0009 5294cf8 (clock), 0010 c56b6b6 (profiles and
ratings), 0011 ac7f120 and 4bfd377 (leases, nodes, used challenges), 0012 5d65d94
(looks, server keys).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    insert,
)

from peloton.games import mindcycling as mc
from peloton.server.storage.database import normalise_url

#: Every released schema, oldest first (the chain's revisions).
REVISIONS = tuple(f"{n:04d}" for n in range(1, 13))

#: When the old rows were written.
WRITTEN = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
#: A P-256 public key as the profiles kept it (a JWK).
PUBLIC_KEY = {"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
              "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}  # fmt: skip


def schema(revision: str) -> MetaData:
    """The tables of ``revision`` as that server's code declared them."""
    n = int(revision)
    old = MetaData()
    if n <= 2:
        Table(
            "tables", old,
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
            *([Column("game", String(32), nullable=True), Column("options", Text, nullable=True),
               Column("seed", BigInteger, nullable=True)] if n == 2 else []),
        )  # fmt: skip
    else:
        Table(
            "tables", old,
            Column("id", String(32), primary_key=True),
            Column("created", DateTime(timezone=True), nullable=False),
            Column("game", String(32), nullable=False),
            Column("options", Text, nullable=False),
            Column("seed", BigInteger, nullable=True),
            *([Column("secret", String(64), nullable=True)] if n >= 4 else []),
            Column("status", String(16), nullable=False),
            Column("final", Text, nullable=True),
            *([Column("rematch", String(32), nullable=True)] if n >= 5 else []),
            *([Column("clock", Text, nullable=True)] if n >= 9 else []),
            *([Column("rated", Boolean, nullable=True)] if n >= 10 else []),
        )  # fmt: skip
    Table(
        "seats", old,
        Column("table_id", String(32), primary_key=True),
        Column("seat", String(1), primary_key=True),
        Column("kind", String(32), nullable=False),
        Column("name", String(200), nullable=True),
        Column("token_hash", String(64), nullable=True),
        *([Column("profile", String(40), nullable=True)] if n >= 10 else []),
    )  # fmt: skip
    Table(
        "moves", old,
        Column("table_id", String(32), primary_key=True),
        Column("idx", Integer, primary_key=True, autoincrement=False),
        Column("text", String(64 if n == 1 else 200), nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
    )  # fmt: skip
    if n >= 6:
        Table(
            "competitions", old,
            Column("id", String(32), primary_key=True),
            Column("created", DateTime(timezone=True), nullable=False),
            Column("kind", String(32), nullable=False),
            Column("settings", Text, nullable=False),
            Column("seats", Text, nullable=False),
            Column("tables", Text, nullable=False),
            *([Column("final", Text, nullable=True)] if n >= 7 else []),
        )  # fmt: skip
    if n >= 8:
        Table(
            "chat_messages", old,
            Column("table_id", String(32), primary_key=True),
            Column("idx", Integer, primary_key=True, autoincrement=False),
            Column("created", DateTime(timezone=True), nullable=False),
            Column("seat", String(1), nullable=True),
            Column("name", String(200), nullable=False),
            Column("text", Text, nullable=False),
            Column("move", Integer, nullable=False),
        )  # fmt: skip
        Table(
            "chat_settings", old,
            Column("table_id", String(32), primary_key=True),
            Column("muted", Integer, nullable=False),
            Column("seat", String(1), nullable=True),
            Column("changed", DateTime(timezone=True), nullable=False),
        )  # fmt: skip
    if n >= 10:
        _profiles(old, n)
    if n >= 11:
        Table(
            "leases", old,
            Column("key", String(64), primary_key=True),
            Column("owner", String(32), nullable=False),
            Column("expires", DateTime(timezone=True), nullable=False),
            Column("epoch", BigInteger, nullable=False),
        )  # fmt: skip
        Table(
            "nodes", old,
            Column("node", String(32), primary_key=True),
            Column("address", String(200), nullable=False),
            Column("expires", DateTime(timezone=True), nullable=False),
        )  # fmt: skip
    return old


def _profiles(old: MetaData, n: int) -> None:
    Table(
        "profiles", old,
        Column("name", String(24), primary_key=True),
        Column("name_key", String(96), nullable=False, unique=True),
        Column("public_key", Text, nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
    )  # fmt: skip
    Table(
        "profile_sessions", old,
        Column("token_hash", String(64), primary_key=True),
        Column("name", String(24), nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
    )  # fmt: skip
    Table(
        "rated_games", old,
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("table_id", String(32), nullable=False),
        Column("player", String(40), nullable=False),
        Column("game", String(32), nullable=False),
        Column("place", Integer, nullable=False),
        Column("mu_before", Float, nullable=False),
        Column("sigma_before", Float, nullable=False),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
        UniqueConstraint("table_id", "player", name="rated_once"),
    )  # fmt: skip
    if n >= 11:
        Table(
            "profile_challenges", old,
            Column("nonce", String(64), primary_key=True),
            Column("name_key", String(96), nullable=False),
            Column("expires", Float, nullable=False),
        )  # fmt: skip
    if n >= 12:
        Table(
            "profile_looks", old,
            Column("look", String(192), primary_key=True),
            Column("name", String(24), nullable=False),
        )  # fmt: skip
        Table(
            "server_keys", old,
            Column("name", String(32), primary_key=True),
            Column("secret", String(128), nullable=False),
        )  # fmt: skip


@dataclass
class Written:
    """What :func:`write_old` wrote: the running table's id, its moves and the state they
    lead to, its seats' tokens, and the rows of the other tables (by table name)."""

    table_id: str
    moves: list[str]
    state: Any
    tokens: dict[str, str]
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def write_old(db_url: str, revision: str) -> Written:
    """Make the database at ``db_url`` (empty) as the server of ``revision`` made it, with
    rows in it; what was written."""
    n = int(revision)
    old = schema(revision)
    course = mc.Course.load("short")
    state = mc.new_game(course, mc.default_teams(2, 3), wind="right", relay_limit=2)
    rng = random.Random(n)
    moves = []
    for _ in range(4):
        move = rng.choice(state.legal_moves())
        state.play(move)
        moves.append(str(move))
    tokens = {"A": f"token-{revision}-a", "B": f"token-{revision}-b"}
    table_id = f"old{revision}"
    if n <= 2:
        table: dict[str, Any] = {
            "course_name": course.name, "course": json.dumps(course.to_dict()),
            "teams": json.dumps(dict(state.teams)), "riders": 3, "wind": "right",
            "relay_limit": 2, "solo": False,
        }  # fmt: skip
    else:
        options = {"players": 2, "course": course.to_dict(), "riders": 3, "wind": "right",
                   "relay_limit": 2}  # fmt: skip
        table = {"game": "mind-cycling", "options": json.dumps(options), "seed": None}
    table |= {"id": table_id, "created": WRITTEN, "status": "running", "final": None}
    if n >= 4:
        table["secret"] = "5e" * 32
    seats = [
        {"table_id": table_id, "seat": seat, "kind": "human", "name": f"Old {seat}",
         "token_hash": hashlib.sha256(token.encode()).hexdigest()}
        for seat, token in tokens.items()
    ]  # fmt: skip
    if n >= 10:
        seats[0]["profile"] = "Eddy"
        seats[1]["profile"] = None
    rows: dict[str, list[dict[str, Any]]] = {
        "tables": [table],
        "seats": seats,
        "moves": [
            {"table_id": table_id, "idx": i, "text": text, "created": WRITTEN}
            for i, text in enumerate(moves)
        ],
    }
    if n >= 6:
        competition = {"id": "oldcomp", "created": WRITTEN, "kind": "stage",
                       "settings": json.dumps({"legs": ["classic:short"], "level": "starter"}),
                       "seats": json.dumps([{"kind": "greedy"}, {"kind": "random"}]),
                       "tables": json.dumps([table_id])}  # fmt: skip
        rows["competitions"] = [competition | ({"final": None} if n >= 7 else {})]
    if n >= 8:
        rows["chat_messages"] = [{"table_id": table_id, "idx": 0, "created": WRITTEN, "seat": "A",
                                  "name": "Old A", "text": "good luck", "move": 2}]  # fmt: skip
    if n >= 10:
        rows["profiles"] = [{"name": "Eddy", "name_key": "eddy",
                             "public_key": json.dumps(PUBLIC_KEY), "created": WRITTEN}]  # fmt: skip
        rows["profile_sessions"] = [{"token_hash": "ab" * 32, "name": "Eddy", "created": WRITTEN}]
        rows["rated_games"] = [{"seq": 1, "table_id": "older", "player": "Eddy",
                                "game": "mind-cycling", "place": 1, "mu_before": 25.0,
                                "sigma_before": 8.333, "mu": 27.1, "sigma": 7.9,
                                "created": WRITTEN}]  # fmt: skip
    if n >= 12:
        rows["profile_looks"] = [{"look": "eddy", "name": "Eddy"}]
        rows["server_keys"] = [{"name": "challenges", "secret": "c0" * 32}]
    engine = create_engine(normalise_url(db_url))
    try:
        old.create_all(engine)
        with engine.begin() as conn:
            for name, written in rows.items():
                conn.execute(insert(old.tables[name]), written)
    finally:
        engine.dispose()
    return Written(table_id, moves, state, tokens, rows)
