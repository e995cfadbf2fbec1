"""Fixtures of the cluster tests: three real ``peloton serve`` nodes sharing a fresh
PostgreSQL database and a real Redis (``start_node``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from cluster_support import Node, RedisServer


@pytest.fixture()
def nodes(start_node: Callable[..., Node]) -> list[Node]:
    """Three nodes of one cluster; their bots move after 0.05 s."""
    return [start_node(bot_delay=0.05) for _ in range(3)]


@pytest.fixture()
def pair(pg_url: str, own_redis: RedisServer) -> Iterator[tuple[Node, Node]]:
    """Two nodes on this test's own Redis (which the test may stop and start)."""
    started: list[Node] = []
    try:
        for _ in range(2):
            node = Node(pg_url, own_redis.url, bot_delay=0.05)
            started.append(node)
            node.start()
        yield started[0], started[1]
    finally:
        for node in started:
            node.stop()
