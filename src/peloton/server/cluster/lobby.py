"""The lobby of a cluster (issue 19): every node's tables, on any node.

A page of the lobby is read from the database (the same order and cursor as on one
process: newest first, then by id). Each table's line comes from where the table
lives: this node's own tables from memory, the tables of another node from that node
(one request per node and page, :func:`channel`), and a table nobody holds (a
finished one, or one whose node just died) from its stored row: exact for a finished
table (its final summary is stored), without the moves of an unfinished one until a
node takes it.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any, Protocol

import orjson
from starlette.concurrency import run_in_threadpool

from ..live import views
from ..live.tables import Tables
from ..storage import store
from .broker import Broker, BrokerDown, BrokerError

log = logging.getLogger("peloton.server")

#: Seconds a node waits for another node's lines of a lobby page.
LINES_SECONDS = 2.0


class Node(Protocol):
    """What the lobby needs of this node of the cluster (a :class:`~.node.Cluster`)."""

    node: str
    broker: Broker
    tables: Tables
    #: The tables this node holds (their ids, with the lease's epoch).
    held: dict[str, int]

    async def owners(self, table_ids: list[str]) -> dict[str, str]:
        """The node holding each of these tables (those somebody holds)."""
        ...


def channel(node: str) -> str:
    """The channel on which ``node`` gives the lobby lines of the tables it holds."""
    return f"peloton:lobby:{node}"


async def lines(cluster: Node, data: bytes) -> bytes:
    """Another node's request ``["id", ...]`` → ``{id: summary}`` of those this node
    holds (the others are left out: the asker reads their rows)."""
    try:
        ids = orjson.loads(data)
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise TypeError("not a list of ids")
    except (orjson.JSONDecodeError, TypeError) as exc:
        raise ValueError(f"a lobby request is a JSON list of table ids ({exc})") from None
    found = {}
    for table_id in ids:
        table = cluster.tables.tables.get(table_id) if table_id in cluster.held else None
        if table is not None:
            found[table_id] = views.summary(table)
    return orjson.dumps(found)


async def page(
    cluster: Node, status: str | None, after: tuple[datetime, str] | None, limit: int
) -> list[tuple[store.TableRow, dict[str, Any]]]:
    """At most ``limit`` lobby lines, newest first: each table's row and summary."""
    rows = await run_in_threadpool(store.lobby_rows, cluster.tables.engine, status, after, limit)
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        table = cluster.tables.tables.get(row.id) if row.id in cluster.held else None
        if table is not None:
            found[row.id] = views.summary(table)
    others = [r.id for r in rows if r.id not in found]
    if others:
        owners = await cluster.owners(others)
        by_node: dict[str, list[str]] = {}
        for table_id in others:
            node = owners.get(table_id)
            if node is not None and node != cluster.node:
                by_node.setdefault(node, []).append(table_id)
        answers = await asyncio.gather(*(_ask(cluster, node, ids) for node, ids in by_node.items()))
        for answer in answers:
            found.update(answer)
    out = []
    for row in rows:
        line = found.get(row.id)
        if line is None:
            line = await run_in_threadpool(_stored, cluster, row)
        if line is not None:
            out.append((row, line))
    return out


async def _ask(cluster: Node, node: str, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The lines ``node`` gives for ``ids`` (none when it does not answer in time)."""
    try:
        data = await cluster.broker.request(channel(node), orjson.dumps(ids), LINES_SECONDS)
        answer: dict[str, dict[str, Any]] = orjson.loads(data)
        return answer
    except (TimeoutError, BrokerDown, BrokerError, orjson.JSONDecodeError) as exc:
        log.warning("lobby: node %s gave no lines (%s); their rows are shown", node, exc)
        return {}


def _stored(cluster: Node, row: store.TableRow) -> dict[str, Any] | None:
    """The line of a table nobody holds, from its row (blocking: a game's options are
    read, a course parsed)."""
    table = cluster.tables.build(row)
    return None if table is None else views.summary(table)
