"""Server memory per table: open tables, then tables played to the end and let go.

Runs the server's table authority (:class:`peloton.server.live.tables.Tables`) in this
process on a SQLite database in a temporary directory, and reads this process's
resident memory (``VmRSS``) and Python's count of allocated blocks:

1. ``--tables`` Mind Cycling tables opened on the default course (4 human seats, none
   taken): what an open table costs (its state, its seats, its course);
2. as many all-bot tables (random bots, the short course, no delay between moves)
   played to the end: what a finished table costs while it is kept, then once the
   finished tables were let go (``Tables.sweep``, with ``KEEP_SECONDS`` set to nothing).

Also prints the time one new Mind Cycling game takes (``from_options`` with a course
as a table stores it: its keys). Run it against another checkout's code to compare:

    python benchmarks/table_memory.py [--tables 200]
    PYTHONPATH=/other/checkout/src python benchmarks/table_memory.py

Prints figures only; nothing here is asserted by tests. Resident memory seldom goes
back to the system once freed (Python keeps its arenas): the blocks say what is held.
What a let-go table still holds is mostly its row (seats, options with the course's
keys) and the shared course's memo of moves, which stops growing once the course's
moves have all been seen.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from pathlib import Path

from peloton.games import mindcycling as mc
from peloton.server.live import tables as tables_module
from peloton.server.live.tables import Tables
from peloton.server.storage import database, store


def rss_kib() -> int:
    """This process's resident memory (Linux ``/proc``), KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def held() -> tuple[int, int]:
    """Resident KiB and Python's allocated blocks, after a full collection."""
    gc.collect()
    return rss_kib(), sys.getallocatedblocks()


def new_game_time(repeat: int = 200) -> float:
    """Seconds one new Mind Cycling game takes from a table's stored options."""
    options = {"course": mc.Course.load("standard").to_dict(), "players": 4}
    mc.from_options(options)
    began = time.perf_counter()
    for _ in range(repeat):
        mc.from_options(options)
    return (time.perf_counter() - began) / repeat


async def measure(db: str, n: int) -> None:
    engine = database.create_db_engine(db)
    writer = store.Writer(engine)
    tables = Tables(writer, engine, bot_delay=0)
    await tables.create({"seats": ["human"] * 4})  # warm up: imports, caches, the course
    before = held()
    for _ in range(n):
        await tables.create({"seats": ["human"] * 4})
    opened = held()
    report("open table (default course, 4 seats)", before, opened, n)

    bots = {"course": "short", "riders": 3, "seats": ["random", "random"]}
    made = [await tables.create(dict(bots)) for _ in range(n)]
    began = time.perf_counter()
    while not all(t.final is not None for t in made):
        await asyncio.sleep(0.05)
        if time.perf_counter() - began > 600:
            raise SystemExit("the bot games did not end in 10 minutes")
    moves = sum(t.moves_played for t in made)
    finished = held()
    report(f"finished table, kept ({moves / n:.0f} moves)", opened, finished, n)
    tables_module.KEEP_SECONDS = 0.0
    sweep = getattr(tables, "sweep", None)  # a checkout without it keeps them
    if sweep is not None:
        gone = sweep()
        report(f"finished table, let go ({gone} let go)", opened, held(), n)
    else:
        print("  finished tables are not let go by this version (no Tables.sweep)")
    await tables.stop()
    writer.close()
    engine.dispose()


def report(what: str, before: tuple[int, int], after: tuple[int, int], n: int) -> None:
    kib = (after[0] - before[0]) / n
    blocks = (after[1] - before[1]) / n
    print(f"  {what:<44} {kib:7.1f} KiB resident, {blocks:7.0f} blocks per table")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables of each kind (200)")
    args = parser.parse_args()
    print(f"table_memory: {args.tables} tables of each kind, SQLite, in one process")
    print(f"  new Mind Cycling game from stored options {new_game_time() * 1e6:7.0f} µs")
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(measure(f"sqlite:///{tmp}/memory.db", args.tables))


if __name__ == "__main__":
    main()
