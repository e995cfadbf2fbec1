"""WebSocket clients of a table held by another node of the cluster (issue 19).

A client may connect to any node. When the node holding the table (its *owner*) is
another, the client's node (its *relay*) passes each frame on through the broker, and
the owner answers it exactly as a frame of its own socket, on a
:class:`RemoteConnection`: a :class:`~..live.table.Connection` whose messages go back to the
relay node. The relay writes them to the client's socket through the client's own
:class:`~..live.table.Connection`, whose queue limits drop a client that does not read, as
on one process.

Every node listens on one channel (:func:`channel`). Its messages are JSON objects:

* relay → owner: a request ``{"conn", "table", "relay", "address"}`` on the owner's
  :func:`open_channel` (answered ``ok``, or an error when the owner does not hold the
  table), then ``{"op": "frame", "conn", "text"}`` (or ``"bytes"``, base64) per client frame, and
  ``{"op": "close", "conn"}`` when the client went away;
* owner → relay: ``{"op": "out", "items": [[conn, text | null], ...]}``: the messages
  of every connection of that relay node, in order, gathered per event loop turn
  (``null``: the owner closed that connection; the relay closes the client's socket
  with code 1012 so that it connects again and finds the table where it is now).

Messages published while the broker is down are lost: both sides then close their
connections (the clients reconnect and get a fresh ``welcome``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import orjson
from starlette.websockets import WebSocket

from ..limits import QuietLog
from ..live.table import Connection, LiveTable
from ..transport import ABORT
from .broker import Broker, BrokerDown, BrokerError

log = logging.getLogger("peloton.server")
quiet = QuietLog(log)

#: The close code of a client whose table moved to another node (or whose node lost
#: the broker): "service restart", the client connects again (docs/protocol.md).
MOVED = 1012
#: The most frames of one relayed client the owner keeps waiting to be handled.
MAX_PENDING_FRAMES = 200
#: Seconds a relay waits for the owner to accept a client.
OPEN_SECONDS = 5.0


def channel(node: str) -> str:
    """The channel on which ``node`` hears relayed clients' frames and their answers."""
    return f"peloton:ws:{node}"


def open_channel(node: str) -> str:
    """The channel on which ``node`` answers the requests to open a relayed client."""
    return f"peloton:open:{node}"


# ---------------------------------------------------------------- the owner's side


@dataclass(frozen=True)
class _Address:
    host: str
    port: int = 0


class _Outlet:
    """What a :class:`RemoteConnection` writes to: the outbox of its relay node."""

    def __init__(self, relays: Relays, relay: str, conn_id: str, client: str) -> None:
        self.relays, self.relay, self.conn_id = relays, relay, conn_id
        self.client = _Address(client)

    async def send_text(self, text: str) -> None:
        self.relays.post(self.relay, self.conn_id, text)


class RemoteConnection(Connection):
    """A client whose socket is on another node: its messages are published to that
    node, gathered with the other messages for it in the same event loop turn."""

    def __init__(self, relays: Relays, relay: str, conn_id: str, table: LiveTable, client: str):
        super().__init__(cast(WebSocket, _Outlet(relays, relay, conn_id, client)))
        self.relay, self.conn_id, self.table = relay, conn_id, table
        #: The client's frames not yet handled, in order (one task handles them).
        self.frames: asyncio.Queue[str | bytes] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None


class Relays:
    """Both sides of the relayed clients of one node: the remote connections of the
    tables it holds, and its own clients of tables held elsewhere."""

    def __init__(
        self,
        broker: Broker,
        table_of: Callable[[str], LiveTable | None],
        handle: Callable[[LiveTable, Connection, Any], Awaitable[None]],
        disconnect: Callable[[LiveTable, Connection], None],
    ) -> None:
        self.broker = broker
        self.node = broker.node
        self._table_of, self._handle, self._disconnect = table_of, handle, disconnect
        #: Owner side: conn id → the connection of a client relayed by another node.
        self.remote: dict[str, RemoteConnection] = {}
        #: Relay side: conn id → a client of this node whose table is held elsewhere.
        self.clients: dict[str, Relayed] = {}
        self._outbox: dict[str, list[tuple[str, str | None]]] = {}
        self._senders: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}

    async def start(self) -> None:
        await self.broker.subscribe(channel(self.node), self._receive)
        await self.broker.serve(open_channel(self.node), self._open)

    async def stop(self) -> None:
        """Close every relayed client, both ways, and send what is queued (for a
        moment at most: a node that stops tells its relays to move their clients)."""
        for conn in list(self.remote.values()):
            self._forget(conn)
        for client in list(self.clients.values()):
            client.shut(MOVED)
        for _ in range(50):
            await asyncio.sleep(0.02)  # the connections' pumps end, then their news goes
            if not any(self._outbox.values()):
                break
        for task in self._senders.values():
            task.cancel()

    # ------------------------------------------------------------ messages in

    async def _receive(self, data: bytes) -> None:
        try:
            message = orjson.loads(data)
            op = message["op"]
        except (orjson.JSONDecodeError, KeyError, TypeError):
            quiet.warning("relay-bad", "relay: a message on %s is not one: dropped", self.node)
            return
        if op == "out":
            for conn_id, text in message.get("items", ()):
                client = self.clients.get(conn_id)
                if client is None:
                    continue
                if text is None:
                    client.shut(MOVED)
                else:
                    client.conn.send(text)
        elif op == "frame":
            conn = self.remote.get(str(message.get("conn")))
            if conn is None:
                # The owner no longer knows that client (it lost the table, or restarted):
                # the relay closes it, and the client connects again.
                quiet.warning("relay-unknown", "relay: a frame for an unknown connection")
                relay = message.get("relay")
                if isinstance(relay, str):
                    self.post(relay, str(message.get("conn")), None)
                return
            raw: str | bytes = (
                base64.b64decode(message["bytes"]) if "bytes" in message else message["text"]
            )
            if conn.frames.qsize() >= MAX_PENDING_FRAMES:
                conn.drop(f"{MAX_PENDING_FRAMES} of its frames waited")
                return
            conn.frames.put_nowait(raw)
        elif op == "close":
            conn = self.remote.get(str(message.get("conn")))
            if conn is not None:
                self._forget(conn)

    async def _open(self, data: bytes) -> bytes:
        """A relay's request to open a client of one of this node's tables: ``ok``, or
        an error saying why not (the relay then closes the client, which connects
        again and finds where the table is now)."""
        try:
            message = orjson.loads(data)
            conn_id, relay = str(message["conn"]), message["relay"]
            table_id = str(message["table"])
        except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"an open request is {{conn, relay, table}} ({exc})") from None
        if not isinstance(relay, str):
            raise ValueError("an open request's relay is a node id")
        table = self._table_of(table_id)
        if table is None:
            raise ValueError(f"table {table_id} is not held by node {self.node}")
        conn = RemoteConnection(self, relay, conn_id, table, str(message.get("address", "?")))
        self.remote[conn_id] = conn
        conn.worker = asyncio.create_task(self._work(conn), name=f"relayed-{conn_id}")
        # The pump stops when the table closes the connection or drops it: tell the relay.
        conn._task.add_done_callback(lambda _: self._closed(conn))
        return b"ok"

    async def _work(self, conn: RemoteConnection) -> None:
        """Handle a relayed client's frames one at a time, as a local socket's loop."""
        while not conn.dropped:
            raw = await conn.frames.get()
            if self._table_of(conn.table.id) is not conn.table:
                self._forget(conn)
                return
            await self._handle(conn.table, conn, raw)

    def _closed(self, conn: RemoteConnection) -> None:
        if self.remote.pop(conn.conn_id, None) is not None:
            self.post(conn.relay, conn.conn_id, None)
            self._disconnect(conn.table, conn)
            if conn.worker is not None:
                conn.worker.cancel()

    def _forget(self, conn: RemoteConnection) -> None:
        """Let go of a relayed client (it went away, or its table left this node)."""
        self._disconnect(conn.table, conn)  # closes it: _closed tells the relay
        if conn.worker is not None:
            conn.worker.cancel()

    def drop_relay(self, relay: str) -> None:
        """Let go of every client of a node that is gone."""
        for conn in [c for c in self.remote.values() if c.relay == relay]:
            self.remote.pop(conn.conn_id, None)
            self._forget(conn)

    def close_remote(self) -> None:
        """Close every relayed client (the broker came back: messages may be lost)."""
        for conn in list(self.remote.values()):
            self._forget(conn)

    # ------------------------------------------------------------ messages out

    def post(self, relay: str, conn_id: str, text: str | None) -> None:
        """Queue a message for a client of ``relay`` (``None``: close it); one task per
        relay node publishes them in order, all those of one loop turn together."""
        self._outbox.setdefault(relay, []).append((conn_id, text))
        wake = self._wake.get(relay)
        if wake is None:
            wake = self._wake[relay] = asyncio.Event()
            self._senders[relay] = asyncio.create_task(self._send(relay, wake))
        wake.set()

    async def _send(self, relay: str, wake: asyncio.Event) -> None:
        while True:
            await wake.wait()
            wake.clear()
            items = self._outbox.pop(relay, [])
            if not items:
                continue
            data = orjson.dumps({"op": "out", "items": items})
            try:
                await self.broker.publish(channel(relay), data)
            except BrokerDown:
                # Lost: those clients can no longer follow the game (an update is a
                # delta of the one before), so they are closed; each gets a fresh
                # welcome when it connects again (the relay learns it at its next
                # frame, its next watch, or when the broker is back).
                quiet.warning("relay-down", "relay: messages to %s lost: broker down", relay)
                for conn in [c for c in self.remote.values() if c.relay == relay]:
                    self._forget(conn)

    # ------------------------------------------------------------ the relay's side

    async def relay(
        self, websocket: WebSocket, table_id: str, owner: str, frames: AsyncIterator[Any]
    ) -> None:
        """Serve a client of this node whose table ``owner`` holds, until either side
        closes (the socket is accepted already)."""
        abort = websocket.scope.get("extensions", {}).get(ABORT, {}).get("abort")
        client = Relayed(uuid.uuid4().hex, table_id, owner, websocket, Connection(websocket, abort))
        self.clients[client.conn_id] = client
        target = channel(owner)
        try:
            host = websocket.client.host if websocket.client else "?"
            opening = {"conn": client.conn_id, "relay": self.node, "table": table_id}
            try:
                await self.broker.request(
                    open_channel(owner), orjson.dumps(opening | {"address": host}), OPEN_SECONDS
                )
            except (TimeoutError, BrokerError) as exc:  # the owner died, or let it go
                quiet.warning(
                    "relay-open", "relay: table %s not opened on %s (%s)", table_id, owner, exc
                )
                client.shut(MOVED)
                return
            async for raw in frames:
                if client.closing is not None:
                    break
                if isinstance(raw, bytes):
                    extra = {"bytes": base64.b64encode(raw).decode()}
                else:
                    extra = {"text": raw}
                await self._publish(target, client, op="frame", **extra)
                if client.conn.dropped:
                    break
        except BrokerDown:
            client.shut(MOVED)
        finally:
            self.clients.pop(client.conn_id, None)
            with contextlib.suppress(BrokerDown):  # the owner forgets the client
                await self._publish(target, client, op="close")
            if client.closing is None:
                client.conn.close()
            elif client.closer is not None:
                await client.closer

    async def _publish(self, target: str, relayed: Relayed, **message: Any) -> None:
        message |= {"conn": relayed.conn_id, "relay": self.node}
        await self.broker.publish(target, orjson.dumps(message))

    def shut_table(self, table_id: str, owner: str | None) -> None:
        """Close this node's clients of ``table_id`` relayed to another node than
        ``owner`` (the table's owner now, ``None``: nobody)."""
        for client in list(self.clients.values()):
            if client.table_id == table_id and client.owner != owner:
                client.shut(MOVED)

    def shut_all(self) -> None:
        """Close every relayed client of this node (they connect again)."""
        for client in list(self.clients.values()):
            client.shut(MOVED)


@dataclass
class Relayed:
    """A client of this node whose table is held by ``owner``."""

    conn_id: str
    table_id: str
    owner: str
    websocket: WebSocket
    #: The messages to the client, through the same queue limits as a local client's.
    conn: Connection
    #: The close code once this node closes the client.
    closing: int | None = None
    closer: asyncio.Task[None] | None = field(default=None, repr=False)

    def shut(self, code: int) -> None:
        """Send what is queued, then close the client's socket with ``code``."""
        if self.closing is not None:
            return
        self.closing = code
        self.conn.close()
        self.closer = asyncio.ensure_future(self._close(code))

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2.0):
                await asyncio.shield(self.conn._task)
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code)
