"""Settings every test shares.

Hypothesis's per-example deadline is a wall-clock assertion: on a machine shared with
other work, a first example that waits for a core (or imports a module) fails it while
the same example passes at once on a retry (``FlakyFailure``). Speed is shown by the
scripts in ``benchmarks/``, never asserted by tests, so the deadline is off everywhere,
and so is the health check that fails a test whose examples are slow to draw.

Examples are derandomized: every run of a test draws the same examples, so a property
that fails in CI fails the same way on a developer's machine (``PELOTON_HYPOTHESIS=explore``
draws fresh examples each run, to hunt for new counterexamples).
"""

import os
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, settings

from cluster_support import Node, RedisServer, fresh_pg_database

_UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "print_blob": True}
settings.register_profile("peloton", derandomize=True, **_UNTIMED)
settings.register_profile("explore", **_UNTIMED)
settings.load_profile("explore" if os.environ.get("PELOTON_HYPOTHESIS") == "explore" else "peloton")


# ------------------------------------------------ real components of a cluster (issue 19)
# Shared by tests/server and tests/cluster (tests/cluster_support.py says what each is).


def _private_redis() -> Iterator[RedisServer]:
    """A started ``redis-server`` of its own, closed after (the test fails, saying why,
    when Redis cannot be started)."""
    try:
        server = RedisServer().start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield server
    server.close()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A private ``redis-server`` for the session (started again by ``ensure_redis``
    if a test stopped it)."""
    yield from _private_redis()


@pytest.fixture()
def redis_url(redis_server: RedisServer) -> str:
    """The URL of the session's Redis, running (``redis://127.0.0.1:PORT/0``)."""
    redis_server.start()
    return redis_server.url


@pytest.fixture()
def own_redis() -> Iterator[RedisServer]:
    """A ``redis-server`` of this test alone: it may stop and restart it (same port)."""
    yield from _private_redis()


@pytest.fixture()
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database of this test alone (dropped after it)."""
    yield from fresh_pg_database()


@pytest.fixture()
def start_node(pg_url: str, redis_url: str) -> Iterator[Callable[..., Node]]:
    """Start ``peloton serve`` nodes in cluster mode on this test's database and the
    session's Redis: ``start_node()`` → a running :class:`~cluster_support.Node`
    (``start_node(bot_delay=0.2, extra=("--solver-seconds", "2"))`` for more;
    ``broker_url=own_redis.url`` for a Redis the test stops and starts). Every node
    still running at the end is stopped."""
    nodes: list[Node] = []

    def start(
        bot_delay: float = 0.0, extra: tuple[str, ...] = (), broker_url: str | None = None
    ) -> Node:
        node = Node(pg_url, broker_url or redis_url, bot_delay=bot_delay, extra=extra)
        nodes.append(node)
        node.start()
        return node

    yield start
    for node in nodes:
        node.stop()
