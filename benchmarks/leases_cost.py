"""What the leases of a cluster node cost the database (issue 19, server/cluster/leases.py).

A node renews all its leases every second in one statement, and takes one lease for
each table it opens. For ``--tables`` keys, measured ``--rounds`` times each on a
fresh SQLite file and, with ``--db postgresql://…`` (an empty database: the
benchmark writes ``leases`` rows into it), on PostgreSQL:

* taking the lease of each table one by one (milliseconds per take);
* one renewal of every lease the node holds (milliseconds per renewal);
* the owners of every table in one query (what the lobby asks);
* one beat of the node.

    python benchmarks/leases_cost.py [--tables 1000] [--rounds 20] [--db URL]

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from peloton.server.cluster.leases import Leases
from peloton.server.storage import database


def timed(action: Callable[[], object], rounds: int) -> float:
    """The median milliseconds of ``action``."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def measure(url: str, tables: int, rounds: int) -> None:
    engine = database.create_db_engine(url)
    leases = Leases(engine, "bench-node")
    keys = [f"bench-{i}" for i in range(tables)]
    start = time.perf_counter()
    for k in keys:
        assert leases.acquire(k) is not None
    take = (time.perf_counter() - start) * 1e3 / tables
    renew = timed(leases.renew, rounds)
    owners = timed(lambda: leases.owners(keys), rounds)
    beat = timed(lambda: leases.beat("http://127.0.0.1:8000"), rounds)
    kind = engine.dialect.name
    print(
        f"{kind:>10}  {tables} tables: take {take:.2f} ms each, renew all {renew:.1f} ms, "
        f"owners of all {owners:.1f} ms, beat {beat:.2f} ms"
    )
    for k in keys:
        leases.release(k)
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db", help="a PostgreSQL URL to measure too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        measure(f"sqlite:///{Path(directory) / 'leases.db'}", args.tables, args.rounds)
    if args.db:
        measure(args.db, args.tables, args.rounds)


if __name__ == "__main__":
    main()
