"""Leases (issue 19, server/cluster/leases.py) on SQLite and on a real PostgreSQL: one owner
per table, epochs that grow with every change of holder, expired leases taken over,
renewals that report what was lost, nodes that beat; and on PostgreSQL, nodes racing
for the same lease from many connections at once: exactly one wins."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Engine, inspect

from peloton.server.cluster.leases import Leases
from peloton.server.storage import database


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    """A fresh database of each kind, its schema made by the project's migrations."""
    if request.param == "sqlite":
        path: Path = tmp_path_factory.mktemp("leases") / "peloton.db"
        eng = database.create_db_engine(f"sqlite:///{path}")
        yield eng
        eng.dispose()
        return
    url = request.getfixturevalue("pg_module_url")
    eng = database.create_db_engine(url)
    yield eng
    eng.dispose()


@pytest.fixture(scope="module")
def pg_module_url() -> Iterator[str]:
    from cluster_support import fresh_pg_database

    yield from fresh_pg_database()


_keys = iter(range(10**9))


def key() -> str:
    """A key no other test uses (the database is shared by the module's tests)."""
    return f"table-{next(_keys)}"


def test_the_migrations_make_the_lease_tables(engine: Engine) -> None:
    names = set(inspect(engine).get_table_names())
    assert {"leases", "nodes"} <= names
    columns = {c["name"] for c in inspect(engine).get_columns("leases")}
    assert columns == {"key", "owner", "expires", "epoch"}


def test_one_owner_at_a_time_and_the_epoch_grows(engine: Engine) -> None:
    clock = Clock()
    one = Leases(engine, "node-1", ttl=5, clock=clock)
    two = Leases(engine, "node-2", ttl=5, clock=clock)
    k = key()
    assert one.owner(k) is None
    assert one.acquire(k) == 1
    assert two.acquire(k) is None  # held and live
    assert one.acquire(k) == 1  # already its own: the same epoch
    assert two.owner(k) == one.owner(k) == "node-1"
    clock.advance(4)
    assert one.renew() == []
    clock.advance(4)  # 8 s after the take, 4 s after the renewal: still live
    assert two.acquire(k) is None
    clock.advance(1.5)  # expired
    assert two.owner(k) is None
    assert two.acquire(k) == 2  # taken over: a new epoch
    assert one.owner(k) == "node-2"
    assert one.renew() == [k]  # node-1 learns it lost the table
    assert one.held == set()
    assert one.acquire(k) is None
    # Released: free at once for anyone, and the next holder's epoch is new.
    two.release(k)
    assert one.owner(k) is None
    assert one.acquire(k) == 3
    assert two.renew() == []  # a released key is not reported lost
    assert one.epoch(k) == 3


def test_renew_keeps_every_held_lease_and_reports_only_the_lost(engine: Engine) -> None:
    clock = Clock()
    one = Leases(engine, "node-a", ttl=5, clock=clock)
    two = Leases(engine, "node-b", ttl=5, clock=clock)
    keys = [key() for _ in range(6)]
    for k in keys:
        assert one.acquire(k) == 1
    for _ in range(10):  # 30 s of renewals every 3 s: nothing is lost
        clock.advance(3)
        assert one.renew() == []
    assert one.owners(keys) == dict.fromkeys(keys, "node-a")
    clock.advance(6)  # one missed renewal too many: every lease expired
    assert two.owners(keys) == {}
    assert two.acquire(keys[0]) == 2
    assert sorted(one.renew()) == sorted(keys)  # lost, taken or not
    assert one.held == set()
    # An expired lease of its own that nobody took is taken back with a new epoch.
    assert one.acquire(keys[1]) == 2


def test_an_expired_own_lease_is_not_renewed_silently(engine: Engine) -> None:
    clock = Clock()
    one = Leases(engine, "node-x", ttl=2, clock=clock)
    k = key()
    assert one.acquire(k) == 1
    clock.advance(2)  # expired exactly now
    assert one.renew() == [k]
    assert one.owner(k) is None


def test_owners_of_many_keys(engine: Engine) -> None:
    clock = Clock()
    one = Leases(engine, "n1", clock=clock)
    two = Leases(engine, "n2", clock=clock)
    a, b, c = key(), key(), key()
    one.acquire(a)
    two.acquire(b)
    assert one.owners([a, b, c]) == {a: "n1", b: "n2"}
    assert one.owners([]) == {}


def test_nodes_beat_and_expire(engine: Engine) -> None:
    clock = Clock()
    clock.advance(10**6)  # after every lease and beat of the other tests
    one = Leases(engine, "beat-1", ttl=5, clock=clock)
    two = Leases(engine, "beat-2", ttl=5, clock=clock)
    one.beat("http://127.0.0.1:8001")
    two.beat("http://127.0.0.1:8002")
    assert one.live_nodes() == ["beat-1", "beat-2"]
    assert one.addresses()["beat-2"] == "http://127.0.0.1:8002"
    clock.advance(3)
    one.beat("http://127.0.0.1:8011")  # a new address replaces the old
    clock.advance(3)
    assert two.live_nodes() == ["beat-1"]
    assert two.addresses() == {"beat-1": "http://127.0.0.1:8011"}


def test_the_database_clock_expires_a_tiny_lease(engine: Engine) -> None:
    """No injected clock: PostgreSQL's now() (SQLite: this process's clock). Expiry
    is polled for, never timed."""
    one = Leases(engine, "real-1", ttl=0.05)
    two = Leases(engine, "real-2", ttl=0.05)
    k = key()
    assert one.acquire(k) == 1
    for _ in range(10_000):
        if two.acquire(k) is not None:
            break
        threading.Event().wait(0.01)
    assert two.owner(k) in ("real-2", None)  # taken (and perhaps expired again since)
    assert two.epoch(k) == 2
    two.beat("http://x")
    assert one.addresses().get("real-2") in ("http://x", None)


def test_a_lease_must_last() -> None:
    with pytest.raises(ValueError, match="more than 0 seconds"):
        Leases(None, "n", ttl=0)  # type: ignore[arg-type]


@given(st.lists(st.tuples(st.sampled_from(["p", "q", "r"]), st.sampled_from(["take", "renew", "release", "wait"]), st.integers(0, 7)), max_size=40))  # fmt: skip
def test_never_two_owners_and_the_epoch_counts_the_changes(
    steps: list[tuple[str, str, int]],
) -> None:
    """Whatever the nodes do, in any order: at most one live owner; the epoch grows by
    one exactly when the lease changes hands or starts again after lapsing."""
    engine = database.create_db_engine("sqlite://")
    clock = Clock()
    nodes = {n: Leases(engine, n, ttl=5, clock=clock) for n in "pqr"}
    k = "the-table"
    epoch, holder, expires = 0, None, clock.now
    for node, action, seconds in steps:
        leases = nodes[node]
        live = holder is not None and clock.now < expires
        if action == "take":
            got = leases.acquire(k)
            if live and holder != node:
                assert got is None
            else:
                if not (live and holder == node):
                    epoch += 1
                assert got == epoch
                holder, expires = node, clock.now + timedelta(seconds=5)
        elif action == "renew":
            lost = leases.renew()
            if live and holder == node:
                assert lost == []
                expires = clock.now + timedelta(seconds=5)
            elif k in lost:
                assert not (live and holder == node)
        elif action == "release":
            leases.release(k)
            if live and holder == node:
                expires = clock.now
        else:
            clock.advance(seconds)
        live = holder is not None and clock.now < expires
        assert nodes["p"].owner(k) == (holder if live else None)
    engine.dispose()


@pytest.mark.parametrize("round_", range(3))
def test_racing_nodes_on_postgresql_exactly_one_wins(pg_module_url: str, round_: int) -> None:
    """Eight nodes, each on its own connection, released at once to take the same
    free key, then (after it expired) to take it over: one winner each time."""
    engines = [database.create_db_engine(pg_module_url) for _ in range(8)]
    try:
        clock = Clock()
        racers = [Leases(e, f"racer-{i}", ttl=5, clock=clock) for i, e in enumerate(engines)]
        k = f"race-{round_}"
        for expected_epoch in (1, 2):
            barrier = threading.Barrier(len(racers))
            results: dict[str, int | None] = {}

            def race(
                leases: Leases, barrier: threading.Barrier, results: dict[str, int | None]
            ) -> None:
                barrier.wait()
                results[leases.node] = leases.acquire(k)

            threads = [threading.Thread(target=race, args=(r, barrier, results)) for r in racers]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
            winners = {n: e for n, e in results.items() if e is not None}
            assert len(results) == len(racers)
            assert list(winners.values()) == [expected_epoch], results
            (winner,) = winners
            assert racers[0].owner(k) == winner
            clock.advance(6)  # the winner dies: its lease expires
    finally:
        for e in engines:
            e.dispose()
