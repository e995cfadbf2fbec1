"""What the versioned migrations cost (issue 33, point 5, server/storage/migrations):

* the upgrade of a database of the first released schema (revision 0001: the first
  game's settings in columns, 64-character moves) holding ``--tables`` tables, each
  with two seats and ``--moves`` moves, to the head (every revision, the rebuild of
  ``tables`` into one options column included), in milliseconds;
* what a start adds on an up-to-date database: :func:`migrations.upgrade` finding the
  head, the first time in a process (its scripts read) and after (median of
  ``--rounds``), beside opening a connection;
* making a fresh database (every revision on an empty one).

On a fresh SQLite file, and with ``--db postgresql://…`` (an empty database: the
benchmark creates and drops its tables) on PostgreSQL:

    python benchmarks/db_upgrade.py [--tables 1000] [--moves 30] [--rounds 20] [--db URL]

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine, MetaData, insert, inspect

from peloton.games import mindcycling as mc
from peloton.server.storage import database, migrations

# The released schemas as their servers declared them: the tests' own (one place).
sys.path[:0] = [str(Path(__file__).resolve().parent.parent / "tests")]
from server.old_schemas import schema  # noqa: E402

#: The first released schema (revision 0001).
FIRST = schema("0001")
TABLES, SEATS, MOVES = (FIRST.tables[name] for name in ("tables", "seats", "moves"))


def write_first_schema(engine: Engine, tables: int, moves: int) -> None:
    """A database of revision 0001 with ``tables`` running two-player tables."""
    course = mc.Course.load("short")
    teams = json.dumps(dict(mc.default_teams(2, 3)))
    now = datetime.now(UTC)
    FIRST.create_all(engine)
    ids = [f"t{i:05d}" for i in range(tables)]
    with engine.begin() as conn:
        conn.execute(insert(TABLES), [
            {"id": t, "created": now, "course_name": course.name, "course": json.dumps(course.to_dict()),
             "teams": teams, "riders": 3, "wind": "front", "relay_limit": 3, "solo": False,
             "status": "running", "final": None}
            for t in ids
        ])  # fmt: skip
        conn.execute(insert(SEATS), [
            {"table_id": t, "seat": s, "kind": "human", "name": f"Player {s}",
             "token_hash": hashlib.sha256(f"{t}{s}".encode()).hexdigest()}
            for t in ids for s in "AB"
        ])  # fmt: skip
        conn.execute(insert(MOVES), [
            {"table_id": t, "idx": i, "text": f"move {i}", "created": now}
            for t in ids for i in range(moves)
        ])  # fmt: skip


def drop_everything(engine: Engine) -> None:
    found = MetaData()
    found.reflect(engine)
    found.drop_all(engine)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds < 1e-2 else f"{seconds * 1e3:.1f} ms"


def measure(url: str, tables: int, moves: int, rounds: int) -> None:
    engine = database.open_engine(url)
    kind = engine.dialect.name
    drop_everything(engine)
    write_first_schema(engine, tables, moves)
    start = time.perf_counter()
    done = migrations.upgrade(engine)  # the first call also reads the scripts
    upgraded = time.perf_counter() - start
    assert done.before == "0001" and done.after == migrations.head()
    assert len(inspect(engine).get_table_names()) > 3

    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        migrations.upgrade(engine)
        times.append(time.perf_counter() - start)
    at_head = statistics.median(times)
    connects = []
    for _ in range(rounds):
        start = time.perf_counter()
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
        connects.append(time.perf_counter() - start)
    drop_everything(engine)
    start = time.perf_counter()
    migrations.upgrade(engine)
    fresh = time.perf_counter() - start
    drop_everything(engine)
    engine.dispose()
    print(
        f"{kind:>10}  revision 0001 -> {done.after}, {tables} tables x {moves} moves: "
        f"{ms(upgraded)}; at the head: {ms(at_head)} a start (a query: {ms(statistics.median(connects))}); "
        f"a fresh database: {ms(fresh)}"
    )


def scripts_read() -> float:
    """Seconds to read the revision scripts (once per process)."""
    migrations.script_directory.cache_clear()
    migrations._revisions.cache_clear()
    start = time.perf_counter()
    migrations.head()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db", help="an empty PostgreSQL database's URL (also measured)")
    args = parser.parse_args()
    print(f"reading the revision scripts, once per process: {ms(scripts_read())}")
    with tempfile.TemporaryDirectory() as tmp:
        measure(f"sqlite:///{Path(tmp) / 'bench.db'}", args.tables, args.moves, args.rounds)
    if args.db:
        measure(args.db, args.tables, args.moves, args.rounds)


if __name__ == "__main__":
    main()
