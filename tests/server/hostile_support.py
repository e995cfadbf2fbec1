"""Support for the hostile-client tests (issue 11): servers started with extra
``peloton serve`` arguments on a fresh database per test, clients that connect from
another loopback address (what the server sees as another client), raw HTTP over
one keep-alive socket, the server's memory, and the lines it logs.

Everything here talks to a real ``peloton serve`` through its sockets; nothing
reaches into the server's code.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import PG_ENV
from .helpers import TIMEOUT, Server, drop_pg_database, pg_database


class ArgServer(Server):
    """``peloton serve`` with extra command-line arguments (``--solver-seconds 2``)."""

    def __init__(self, db_url: str, *args: str, bot_delay: float = 0.0) -> None:
        super().__init__(db_url, bot_delay=bot_delay)
        self.args = list(args)

    def start(self) -> ArgServer:
        super().start()
        return self

    def rss_mb(self) -> float:
        """The server process's resident memory, in MB (Linux ``/proc``)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS in /proc status")

    def from_address(self, address: str, timeout: float = TIMEOUT) -> httpx.Client:
        """An HTTP client whose connections come from ``address`` (127.0.0.x): to the
        server, another client."""
        transport = httpx.HTTPTransport(local_address=address)
        return httpx.Client(base_url=self.url, timeout=timeout, transport=transport)


# ---------------------------------------------------------------- fresh databases


@contextmanager
def fresh_db(kind: str, tmp_path: Path, name: str = "peloton") -> Iterator[str]:
    """A new empty database of ``kind`` (``sqlite`` or ``postgresql``), dropped after."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / (name + '.db')}"
        return
    admin = os.environ.get(PG_ENV)
    if not admin:
        pytest.fail(f"{PG_ENV} is not set: run 'export {PG_ENV}=$(scripts/test-postgres.sh)'")
    url, db = pg_database(admin)
    try:
        yield url
    finally:
        drop_pg_database(admin, db)


def copy_db(kind: str, url: str, tmp_path: Path, name: str) -> str:
    """A copy of a database no server is using (SQLite: the file; PostgreSQL: a new
    database from it as template), as a URL; dropped with :func:`drop_copy`."""
    if kind == "sqlite":
        source = Path(url.removeprefix("sqlite:///"))
        target = tmp_path / f"{name}.db"
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{source}{suffix}").exists():
                shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
        return f"sqlite:///{target}"
    import psycopg
    from sqlalchemy.engine import make_url

    from .helpers import _dsn

    parsed = make_url(url)
    copy = f"{parsed.database}_{name}"
    with psycopg.connect(_dsn(parsed.set(database="postgres")), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{parsed.database}"')
    return parsed.set(database=copy).render_as_string(hide_password=False)


def drop_copy(kind: str, url: str) -> None:
    if kind == "sqlite":
        return
    from sqlalchemy.engine import make_url

    admin = os.environ[PG_ENV]
    drop_pg_database(admin, str(make_url(url).database))


@contextmanager
def running(db_url: str, *args: str, bot_delay: float = 0.0) -> Iterator[ArgServer]:
    """A server for the length of a ``with`` block, killed after (an attack may have
    left it too busy to stop in time; every test reads what it needs before)."""
    srv = ArgServer(db_url, *args, bot_delay=bot_delay).start()
    try:
        yield srv
    finally:
        srv.kill()


# ---------------------------------------------------------------- raw HTTP


class RawHTTP:
    """HTTP/1.1 over one socket, kept alive: what a browser's connection sees when a
    request fails (a 500 resets it, and the next request on it fails too)."""

    def __init__(self, server: Server, address: str = "127.0.0.1") -> None:
        host, port = server.url.removeprefix("http://").rsplit(":", 1)
        self.sock = socket.create_connection(
            (host, int(port)), timeout=TIMEOUT, source_address=(address, 0)
        )
        self.buffer = b""

    def request(
        self,
        method: str,
        path: str,
        body: bytes | str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """Send one request and read its answer: status, headers (lower-case), body."""
        data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else (body or b"")
        lines = [f"{method} {path} HTTP/1.1", "Host: localhost", "Connection: keep-alive"]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data)
        return self.response()

    def _read(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk

    def response(self) -> tuple[int, dict[str, str], bytes]:
        while b"\r\n\r\n" not in self.buffer:
            self._read()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        headers = {}
        for line in header_lines:
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        if headers.get("transfer-encoding") == "chunked":
            body = b""
            while True:
                while b"\r\n" not in self.buffer:
                    self._read()
                size_line, self.buffer = self.buffer.split(b"\r\n", 1)
                size = int(size_line.split(b";")[0], 16)
                while len(self.buffer) < size + 2:
                    self._read()
                body += self.buffer[:size]
                self.buffer = self.buffer[size + 2 :]
                if size == 0:
                    return status, headers, body
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._read()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, body

    def close(self) -> None:
        self.sock.close()


def error_of(status: int, body: bytes) -> dict[str, Any]:
    """The ``{"code", "message"}`` of a JSON error answer (an AssertionError saying
    what came instead)."""
    try:
        data = json.loads(body)
    except ValueError:
        raise AssertionError(
            f"status {status} with a body that is not JSON: {body[:200]!r}"
        ) from None
    assert isinstance(data, dict) and isinstance(data.get("error"), dict), (status, body[:300])
    error: dict[str, Any] = data["error"]
    assert isinstance(error.get("code"), str) and error["code"], error
    assert isinstance(error.get("message"), str) and error["message"].strip(), error
    return error


# ---------------------------------------------------------------- WebSockets


def ws_from(
    server: Server,
    table_id: str,
    address: str = "127.0.0.1",
    rcvbuf: int | None = None,
    max_queue: int | None = 16,
) -> ClientConnection:
    """A WebSocket of ``table_id`` whose TCP connection comes from ``address``;
    ``rcvbuf`` shrinks the socket's receive buffer (a client that stops reading then
    pushes back on the server at once). Raises what ``connect`` raises when the
    server refuses the handshake."""
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(TIMEOUT)
    sock.bind((address, 0))
    sock.connect((host, int(port)))
    conn = connect(
        f"{server.ws_url}/ws/tables/{table_id}",
        sock=sock,
        open_timeout=TIMEOUT,
        max_queue=max_queue,
        # No keep-alive pings of the library's own: a client that stops reading would
        # close the connection itself when their pongs do not come.
        ping_interval=None,
        compression=None,
    )
    opened: ClientConnection = conn.__enter__()
    return opened


# ---------------------------------------------------------------- the log


def new_lines(server: Server, since: int) -> list[str]:
    """The lines the server printed after the first ``since``."""
    return server.output[since:]


def tracebacks(lines: list[str]) -> list[str]:
    """The tracebacks among ``lines`` (each as its first line and the error line)."""
    return [
        line
        for line in lines
        if line.startswith("Traceback") or "Traceback (most recent call last)" in line
    ]


# ---------------------------------------------------------------- latency


def latencies(call: Callable[[], Any], count: int) -> list[float]:
    """The durations of ``count`` calls of ``call``, in seconds."""
    out = []
    for _ in range(count):
        began = time.monotonic()
        call()
        out.append(time.monotonic() - began)
    return out


def baseline(call: Callable[[], Any], count: int = 20) -> float:
    """A generous typical duration of ``call`` on this machine now: the slowest of
    ``count`` calls after one warm-up (so that a loaded machine raises it too)."""
    call()
    return max(latencies(call, count))
