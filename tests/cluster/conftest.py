"""Fixtures of the cluster tests: three real ``peloton serve`` nodes sharing a fresh
PostgreSQL database and a real Redis (``start_node``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cluster_support import Node


@pytest.fixture()
def nodes(start_node: Callable[..., Node]) -> list[Node]:
    """Three nodes of one cluster; their bots move after 0.05 s."""
    return [start_node(bot_delay=0.05) for _ in range(3)]
