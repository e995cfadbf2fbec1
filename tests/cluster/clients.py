"""Test clients of a cluster: a WebSocket client that connects again when its socket
closes, as the browser does (docs/protocol.md: close code 1012, then a fresh
``welcome``), and the few HTTP calls the cluster tests make."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from server.helpers import TIMEOUT, Server

#: Seconds a client keeps trying to connect again (a failover takes a lease's life,
#: 5 s, plus the replay of the table: on a loaded machine, allow much more).
RECONNECT_SECONDS = 60.0


class Player:
    """A client of one table on one node (a seat's player with ``token``, or a
    spectator). When its socket closes it connects again to the first node of
    ``nodes`` that answers, says hello again, and records the ``welcome``; every
    message received is kept (``messages``), and so are the close codes seen."""

    def __init__(
        self, nodes: list[Server], table_id: str, token: str | None = None, name: str = "?"
    ) -> None:
        self.nodes, self.table_id, self.token, self.name = list(nodes), table_id, token, name
        self.messages: list[dict[str, Any]] = []
        self.closes: list[int | None] = []
        self.welcomes = 0
        self.conn: ClientConnection | None = None
        self.connect()

    @property
    def node(self) -> Server:
        """The node this client is connected to (the first of ``nodes`` alive)."""
        return self.nodes[0]

    def connect(self) -> dict[str, Any]:
        """Connect (again) and say hello; the ``welcome``."""
        deadline = time.monotonic() + RECONNECT_SECONDS
        while True:
            node = self.nodes[0]
            try:
                conn = connect(f"{node.ws_url}/ws/tables/{self.table_id}", open_timeout=TIMEOUT)
                self.conn = conn.__enter__()
                self.conn.send(json.dumps({"type": "hello", "token": self.token}))
                while True:
                    message = self._recv(TIMEOUT)
                    if message["type"] == "welcome":
                        self.welcomes += 1
                        return message
            except (
                OSError,
                InvalidHandshake,
                InvalidStatus,
                ConnectionClosed,
                TimeoutError,
            ) as exc:
                if isinstance(exc, ConnectionClosed):
                    self.closes.append(exc.rcvd.code if exc.rcvd else None)
                if time.monotonic() > deadline:
                    raise AssertionError(f"{self.name}: could not connect again ({exc})") from exc
                if node.proc is None or node.proc.poll() is not None:
                    self.nodes.append(self.nodes.pop(0))  # that node is dead: the next one
                time.sleep(0.2)

    def _recv(self, timeout: float) -> dict[str, Any]:
        assert self.conn is not None
        raw = self.conn.recv(timeout=timeout)
        message: dict[str, Any] = json.loads(raw if isinstance(raw, str) else raw.decode())
        self.messages.append(message)
        return message

    def send(self, message: dict[str, Any]) -> None:
        """Send a message; a closed socket is connected again first (the message is
        then sent on the new one)."""
        assert self.conn is not None
        try:
            self.conn.send(json.dumps(message))
        except ConnectionClosed as exc:
            self.closes.append(exc.rcvd.code if exc.rcvd else None)
            self.connect()
            self.conn.send(json.dumps(message))

    def wait_for(
        self, found: Callable[[dict[str, Any]], bool], timeout: float = RECONNECT_SECONDS
    ) -> dict[str, Any]:
        """The next message for which ``found`` is true, connecting again whenever the
        socket closes (the ``welcome`` after a reconnection is offered to ``found``)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no such message in {timeout:g} s")
            try:
                message = self._recv(min(left, TIMEOUT))
            except TimeoutError:
                continue
            except ConnectionClosed as exc:
                self.closes.append(exc.rcvd.code if exc.rcvd else None)
                message = self.connect()
            if found(message):
                return message

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def detail(node: Server, table_id: str, token: str | None = None) -> dict[str, Any]:
    """``GET /api/tables/{id}`` on ``node`` as the seat of ``token``."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{node.url}/api/tables/{table_id}", headers=headers, timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def wait_until(what: str, check: Callable[[], Any], timeout: float = RECONNECT_SECONDS) -> Any:
    """Poll ``check`` until it returns something true; that value (a failure naming
    ``what`` past ``timeout``)."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except (httpx.HTTPError, AssertionError) as exc:
            last = exc
        else:
            if last:
                return last
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {timeout:g} s (last: {last!r})")
