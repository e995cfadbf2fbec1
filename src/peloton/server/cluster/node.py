"""Cluster mode (issue 19): several ``peloton serve`` processes (nodes) share one
PostgreSQL database and one broker (Redis), and serve one table space.

Every table has one owner node at a time, which holds the table's **lease** in the
database (:class:`~.leases.Leases`: renewed every :data:`RENEW_SECONDS`, lost
:data:`LEASE_SECONDS` after the last renewal). Only the owner keeps the table in
memory and does what :class:`~..live.tables.Tables` does on one process: it checks, commits,
applies and broadcasts every move, runs the bots and the clocks, and keeps the chat.

Any node serves any client: a request for a table held elsewhere is forwarded to its
owner (:mod:`.forward`), and a WebSocket client of such a table is relayed to it
(:mod:`.relay`). A table nobody holds (its owner died, or no node took it yet) is
taken by the first node that needs it, or that finds it in its sweep: that node
replays it from the database, as a restarted server does (clocks from their last
checkpoint, bots and dice resume). A node that loses a lease drops the table at
once, and refuses to commit to a table whose lease it could not renew lately.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp
from starlette.websockets import WebSocket

from .. import errors as e
from ..errors import ApiError
from ..live.finished_tables import KEEP_SECONDS
from ..live.table import Connection, LiveTable
from ..live.tables import Tables
from ..storage import database, store
from . import forward, lobby
from .broker import Broker
from .leases import Leases
from .relay import MOVED, Relays, RemoteConnection

log = logging.getLogger("peloton.server")

#: Seconds a lease lasts after its last renewal: a node that died loses its tables
#: this long after its last renewal at most.
LEASE_SECONDS = 5.0
#: Seconds between two renewals of this node's leases (and its heartbeat).
RENEW_SECONDS = 1.0
#: Seconds between two checks of the owners of the tables this node relays clients to.
WATCH_SECONDS = 1.0
#: Seconds between two sweeps for unfinished tables nobody holds (their bots and
#: clocks must go on even when no client asks for them).
SWEEP_SECONDS = 3.0
#: A commit needs a renewal at most this long ago (the lease outlives it by a margin).
SAFE_SECONDS = LEASE_SECONDS - 1.5


#: The prefix of a competition's lease key.
COMPETITION = "competition:"


def key(table_id: str) -> str:
    """The lease key of a table."""
    return f"table:{table_id}"


#: The PostgreSQL advisory lock the nodes of a cluster take in turn while they start.
STARTUP_LOCK = 0x7065_6C6F  # "pelo"


@contextlib.contextmanager
def starting(url: str) -> Iterator[None]:
    """Hold the cluster's start-up lock (blocking): nodes starting at once (``serve
    --workers N`` on a fresh database) create and migrate the schema one at a time,
    and take the free tables one at a time, instead of racing."""
    engine = create_engine(database.normalise_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": STARTUP_LOCK})
            try:
                yield
            finally:
                if engine.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": STARTUP_LOCK})
    finally:
        engine.dispose()


class Cluster:
    """This node's part of the cluster: the leases it holds, the tables it took, its
    relayed clients, and the requests it answers for other nodes."""

    def __init__(
        self,
        app: ASGIApp,
        tables: Tables,
        broker: Broker,
        leases: Leases,
        handle: Callable[[LiveTable, Connection, Any], Awaitable[None]],
    ) -> None:
        """``handle`` answers one client frame (``app.handle_frame`` bound to ``app``)."""
        self.app, self.tables, self.broker, self.leases = app, tables, broker, leases
        self.node = broker.node
        self.address = f"{socket.gethostname()}:{os.getpid()}"
        #: The tables this node holds: id → lease epoch.
        self.held: dict[str, int] = {}
        #: When the last renewal that succeeded started (monotonic seconds).
        self.renewed = 0.0
        self.relays = Relays(broker, self._table_of, handle, tables.disconnect)
        #: One table taken at a time (takes are rare: a start, a failover).
        self._taking = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing: set[asyncio.Future[None]] = set()
        #: One lease call at a time: a renewal must not count as lost a lease taken
        #: while it ran (the calls run in threads).
        self._leasing = threading.Lock()

    # ------------------------------------------------------------ start and stop

    async def start(self) -> None:
        """Connect to the broker and take the unfinished tables nobody holds (before
        serving; their bots and clocks start with the others')."""
        await self.broker.start()
        await self.relays.start()
        await self.broker.serve(forward.channel(self.node), self._answer)
        await self.broker.serve(lobby.channel(self.node), self._lines)
        self.broker.on_reconnect(self._drop_relayed)
        self.broker.on_lost(self._drop_relayed)
        await run_in_threadpool(self.leases.beat, self.address)
        ids = await run_in_threadpool(store.unfinished_ids, self.tables.engine)
        await run_in_threadpool(self._take_free, ids)
        started = time.monotonic()
        for lost in await run_in_threadpool(self._renew):  # the rest is its own now
            self.drop(lost)
        self.renewed = started
        self.tables.holds = self.holds
        self.tables.claim = self.claim
        self._tasks = [
            asyncio.create_task(self._renewing(), name="cluster-renew"),
            asyncio.create_task(self._watching(), name="cluster-watch"),
        ]

    def _take_free(self, ids: list[str]) -> None:
        """Take and load the tables of ``ids`` nobody holds (blocking; the leases taken
        are renewed as it goes: replaying many tables may outlast a lease)."""
        renewed = time.monotonic()
        for table_id in ids:
            if time.monotonic() - renewed > RENEW_SECONDS:
                renewed = time.monotonic()
                for lost in self._renew():
                    self.held.pop(lost, None)
                    self.tables.release(lost)
            epoch = self._acquire(key(table_id))
            if epoch is None:
                continue
            if self.tables.load_one(table_id) is None:
                self._give_back(key(table_id))
                continue
            self.held[table_id] = epoch

    async def stop(self) -> None:
        """Let go of every table (after :meth:`Tables.stop` saved their clocks): another
        node takes them at once instead of after the lease's end."""
        for task in self._tasks:
            task.cancel()
        await self.relays.stop()
        held, self.held = list(self.held), {}
        try:
            await run_in_threadpool(self._release, held)
        except Exception:
            log.exception("cluster: the leases could not be released (they expire)")
        await self.broker.close()

    def _release(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            self._give_back(key(table_id))

    # ------------------------------------------------------------ who holds a table

    def holds(self, table_id: str) -> bool:
        """Whether this node may commit to the table now: it holds its lease, renewed
        lately enough that no other node can have taken it."""
        return table_id in self.held and time.monotonic() - self.renewed < SAFE_SECONDS

    async def claim(self, table_id: str) -> None:
        """Take the lease of a table this node is creating (before it is stored)."""
        epoch = await run_in_threadpool(self._acquire, key(table_id))
        if epoch is None:
            raise ApiError(503, e.BUSY, "the new table could not be opened: try again")
        self.held[table_id] = epoch

    async def owners(self, table_ids: list[str]) -> dict[str, str]:
        """The node holding each of ``table_ids`` that a live node holds."""
        found = await run_in_threadpool(self.leases.owners, [key(t) for t in table_ids])
        prefix = key("")
        return {k[len(prefix) :]: node for k, node in found.items()}

    async def lobby(
        self, status: str | None, after: tuple[datetime, str] | None, limit: int
    ) -> list[tuple[store.TableRow, dict[str, Any]]]:
        """A page of the lobby of the whole cluster (:mod:`.lobby`)."""
        return await lobby.page(self, status, after, limit)

    async def claim_competition(self, comp_id: str) -> None:
        """Hold a competition this node created: its requests come here (it opens each
        next table of it, so it runs them)."""
        if await run_in_threadpool(self._acquire, COMPETITION + comp_id) is None:
            log.warning("cluster: competition %s is held by another node", comp_id)

    async def route_competition(self, comp_id: str) -> str | None:
        """The node running a competition, ``None`` for this node (or when no live node
        runs it: this node answers from what it has)."""
        owner = await run_in_threadpool(self.leases.owner, COMPETITION + comp_id)
        return None if owner == self.node else owner

    async def route(self, table_id: str) -> str | None:
        """Where table ``table_id`` is served: ``None`` for this node (which holds it,
        takes it now because nobody does, or knows no such table), else the node
        holding it."""
        if table_id in self.held:
            return None
        for _ in range(3):
            owner = await run_in_threadpool(self.leases.owner, key(table_id))
            if owner is not None and owner != self.node:
                return owner
            if await self.take(table_id):
                return None
        return None

    async def take(self, table_id: str) -> bool:
        """Take a table nobody holds: its lease, then its state replayed from the
        database, its clocks and bots started. ``False`` when another node took it
        first; ``True`` also when there is no such table (this node answers 404)."""
        async with self._taking:
            if table_id in self.held:
                return True
            epoch = await run_in_threadpool(self._acquire, key(table_id))
            if epoch is None:
                return False
            table = await run_in_threadpool(self.tables.load_one, table_id)
            if table is None:
                await run_in_threadpool(self._give_back, key(table_id))
                return True
            self.held[table_id] = epoch
            log.info("cluster: node %s took table %s (epoch %d)", self.node, table_id, epoch)
            self.tables.start_table(table)
            return True

    def drop(self, table_id: str) -> None:
        """Let go of a table whose lease this node lost: stop its bots and clocks, drop
        its state and close its clients (code 1012: they connect again and find the
        table's new owner)."""
        self.held.pop(table_id, None)
        table = self.tables.release(table_id)
        log.warning("cluster: node %s lost table %s", self.node, table_id)
        if table is None:
            return
        for conn in list(table.connections):
            self._close(table, conn)
        for remote in [c for c in self.relays.remote.values() if c.table is table]:
            self._close(table, remote)

    def _close(self, table: LiveTable, conn: Connection) -> None:
        self.tables.disconnect(table, conn)  # a relayed client: its relay closes it
        if not isinstance(conn, RemoteConnection):
            task = asyncio.ensure_future(_close_socket(conn.websocket))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    # ------------------------------------------------------------ the loops

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            started = time.monotonic()
            try:
                lost = await run_in_threadpool(self._renew)
            except Exception as exc:  # the database is away: commits stop at SAFE_SECONDS
                log.warning("cluster: leases not renewed (%s)", exc)
                continue
            self.renewed = started
            for table_id in lost:
                self.drop(table_id)

    def _acquire(self, lease: str) -> int | None:
        with self._leasing:
            return self.leases.acquire(lease)

    def _give_back(self, lease: str) -> None:
        with self._leasing:
            self.leases.release(lease)

    def _renew(self) -> list[str]:
        self.leases.beat(self.address)
        with self._leasing:
            lost = self.leases.renew()
        prefix = key("")
        return [k[len(prefix) :] for k in lost if k.startswith(prefix)]

    async def _watching(self) -> None:
        """Close the relayed clients whose table's owner changed or died; forget the
        clients of relay nodes that died; take the tables nobody holds."""
        turn = 0
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            turn += 1
            try:
                await self._watch(sweep=turn % round(SWEEP_SECONDS / WATCH_SECONDS) == 0)
            except Exception as exc:
                log.warning("cluster: the watch failed (%s)", exc)

    async def _watch(self, *, sweep: bool) -> None:
        relayed = sorted({c.table_id for c in self.relays.clients.values()})
        if relayed:
            owners = await run_in_threadpool(self.leases.owners, [key(t) for t in relayed])
            for table_id in relayed:
                self.relays.shut_table(table_id, owners.get(key(table_id)))
        if not sweep:
            return
        relays = {c.relay for c in self.relays.remote.values()}
        if relays:
            live = set(await run_in_threadpool(self.leases.live_nodes))
            for relay in relays - live - {self.node}:
                self.relays.drop_relay(relay)
        await self._let_go_of_finished()
        ids = await run_in_threadpool(store.unfinished_ids, self.tables.engine)
        ids = [t for t in ids if t not in self.held]
        if ids:
            owners = await run_in_threadpool(self.leases.owners, [key(t) for t in ids])
            for table_id in ids:
                if key(table_id) not in owners:
                    await self.take(table_id)

    async def _let_go_of_finished(self) -> None:
        """Give back the finished tables nobody watched or asked for a while: the
        leases a node renews stay few (a finished table is taken again on demand)."""
        now = time.monotonic()
        idle = [
            t.id
            for t in self.tables.tables.values()
            if t.id in self.held
            and t.final is not None
            and t.competition is None  # its competition's pages read it here
            and not t.connections
            and not t.lock.locked()
            and now - t.used > KEEP_SECONDS
            and not any(c.table is t for c in self.relays.remote.values())
        ]
        for table_id in idle:
            self.held.pop(table_id, None)
            self.tables.release(table_id)
        if idle:
            await run_in_threadpool(self._release, idle)

    async def _drop_relayed(self) -> None:
        """The broker was lost, or came back: messages are (or may have been) lost both
        ways, so every relayed client connects again and gets a fresh ``welcome``: at
        once when the broker is lost, not when it is back, so that no client waits on
        a move that cannot be answered (issue 32)."""
        self.relays.shut_all()
        self.relays.close_remote()

    # ------------------------------------------------------------ serving others

    def _table_of(self, table_id: str) -> LiveTable | None:
        return self.tables.tables.get(table_id) if table_id in self.held else None

    async def _lines(self, data: bytes) -> bytes:
        return await lobby.lines(self, data)

    async def _answer(self, data: bytes) -> bytes:
        return await forward.answer(self.app, self.node, data)

    async def relay(self, websocket: WebSocket, table_id: str, owner: str, frames: Any) -> None:
        """Serve a WebSocket client of a table held by ``owner`` (:mod:`.relay`)."""
        await self.relays.relay(websocket, table_id, owner, frames)


async def _close_socket(websocket: WebSocket) -> None:
    try:
        await websocket.close(code=MOVED)
    except Exception:  # already closed
        return
