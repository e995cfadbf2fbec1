"""Real components of a cluster for the tests (issue 19): a private ``redis-server``
(stopped and started again on the same port for the broker-restart tests), fresh
PostgreSQL databases, and ``peloton serve`` node processes in cluster mode.

The fixtures that hand these out are in ``tests/conftest.py``, so that
``tests/server/`` and ``tests/cluster/`` share them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.helpers import Server

#: Where Debian's ``redis-server`` package puts the server.
REDIS_SERVER = "redis-server"
PG_ENV = "PELOTON_TEST_PG_URL"
START_SECONDS = 30.0


def free_port() -> int:
    """A free TCP port on the loopback address (the kernel's pick)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def redis_server_path() -> str:
    """The ``redis-server`` program, or a failure saying how to install it."""
    path = shutil.which(REDIS_SERVER) or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if path is None:
        raise RuntimeError(
            "redis-server is missing: the cluster tests run a real Redis. Install it with "
            "'apt-get install redis-server' (.ci/run does)."
        )
    return path


class RedisServer:
    """A private ``redis-server`` on a loopback port: no persistence, no password,
    its own directory. :meth:`stop` and :meth:`start` again keep the port, so that the
    clients of the first run find the second."""

    def __init__(self, port: int | None = None) -> None:
        self.program = redis_server_path()
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="peloton-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        """Start the server and wait until it answers PING."""
        if self.running:
            return self
        # No persistence (nothing to save between runs), loopback only.
        options = {"port": str(self.port), "bind": "127.0.0.1", "save": "", "appendonly": "no"}
        args = [a for k, v in options.items() for a in (f"--{k}", v)]
        with (self.dir / "redis.log").open("ab") as log:  # the child keeps its own copy
            self.proc = subprocess.Popen(
                [self.program, *args, "--dir", str(self.dir), "--protected-mode", "no"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited: {self.log()}")
            if self.ping():
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port}: {self.log()}")

    def stop(self) -> None:
        """Stop the server at once (SIGKILL: every client connection drops)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=START_SECONDS)
        self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def ping(self) -> bool:
        """Whether the server answers ``PING`` now (a raw RESP exchange)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def log(self) -> str:
        path = self.dir / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""


def fresh_pg_database() -> Iterator[str]:
    """A new database on the test PostgreSQL (``PELOTON_TEST_PG_URL``), dropped after:
    ``yield from`` it in a fixture. The test fails, saying why, without PostgreSQL."""
    from server.helpers import drop_pg_database, pg_database

    try:
        admin = pg_admin_url()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    url, name = pg_database(admin)
    yield url
    drop_pg_database(admin, name)


def pg_admin_url() -> str:
    """The suite's PostgreSQL (``PELOTON_TEST_PG_URL``), or a failure saying how to set it."""
    admin = os.environ.get(PG_ENV)
    if not admin:
        raise RuntimeError(
            f"{PG_ENV} is not set: cluster mode runs on PostgreSQL. Run "
            f"'export {PG_ENV}=$(scripts/test-postgres.sh)' (or 'make test', which does it)."
        )
    return admin


class Node(Server):
    """``peloton serve --db <PostgreSQL> --broker <Redis>``: one node of a cluster, a
    real process on a free loopback port (``kill()`` is SIGKILL, ``stop()`` SIGTERM).
    ``extra`` are more ``peloton serve`` arguments."""

    def __init__(
        self, db_url: str, broker_url: str, bot_delay: float = 0.0, extra: tuple[str, ...] = ()
    ) -> None:
        super().__init__(db_url, bot_delay)
        self.broker_url = broker_url
        self.args = [*self.args, "--broker", broker_url, *extra]
