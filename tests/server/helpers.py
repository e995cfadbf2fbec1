"""Helpers for the server tests: a real ``peloton serve`` process, HTTP and WebSocket
clients with bounded timeouts, and a random player that reads snapshots."""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

PELOTON = str(Path(sys.executable).parent / "peloton")
TIMEOUT = 15.0  # seconds any single wait may take before a test fails


class Server:
    """``peloton serve --port 0 --limits relaxed`` as a subprocess; ``url`` once it is
    serving. Every test client connects from 127.0.0.1 and creates many tables a
    minute: the per-client limits are off here (the hostile tests run servers with
    the default limits, ``hostile_support.ArgServer``)."""

    def __init__(self, db_url: str, bot_delay: float = 0.0) -> None:
        self.db_url = db_url
        self.bot_delay = bot_delay
        #: The ``peloton serve`` arguments after the database and the bots' delay.
        self.args = ["--limits", "relaxed"]
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []

    def start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("PELOTON_DB_URL", None)
        args = ["--port", "0", "--db", self.db_url, "--bot-delay", str(self.bot_delay), *self.args]
        self.proc = subprocess.Popen(
            [PELOTON, "serve", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert self.proc is not None and self.proc.stdout is not None
            for line in self.proc.stdout:
                self.output.append(line)
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + 180  # start-up on a loaded 2-core machine
        while True:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise RuntimeError(
                    "the server did not start in time:\n" + "".join(self.output)
                ) from None
            if line is None:
                raise RuntimeError("the server exited:\n" + "".join(self.output))
            if "serving on " in line:
                self.url = line.split("serving on ", 1)[1].strip()
                return self

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown at all."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=TIMEOUT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill()

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=TIMEOUT)


def create(http: httpx.Client, **options: Any) -> str:
    """Create a table; its id."""
    answer = http.post("/api/tables", json=options)
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    return table_id


def join(http: httpx.Client, table_id: str, seat: str, name: str | None = None) -> str:
    """Join a seat; its token."""
    answer = http.post(
        f"/api/tables/{table_id}/join", json={"seat": seat, "name": name or f"Player {seat}"}
    )
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


class WS:
    """A WebSocket client of one table with bounded waits."""

    def __init__(self, server: Server, table_id: str) -> None:
        conn = connect(f"{server.ws_url}/ws/tables/{table_id}", open_timeout=TIMEOUT)
        # Entered as a context manager (what websockets asks of connect()); close() exits.
        self.conn: ClientConnection = conn.__enter__()
        #: Every frame received, as raw text (what the hidden-information tests read).
        self.frames: list[str] = []
        #: The snapshot and summary as this client has them (a welcome's, then each
        #: update's changes applied): what the tests read as an update's
        #: ``snapshot`` and ``table``.
        self.snapshot: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        #: The snapshot's lists of the moves at hand (the welcome's ``move_lists``).
        self.move_lists: list[str] = ["legal"]

    def send(self, message: Any) -> None:
        self.conn.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        raw = self.conn.recv(timeout=timeout)
        text = raw if isinstance(raw, str) else raw.decode()
        self.frames.append(text)
        data: dict[str, Any] = json.loads(text)
        if data["type"] == "welcome":
            self.snapshot, self.table = data["snapshot"], data["table"]
            self.move_lists = data.get("move_lists", ["legal"])
        elif data["type"] == "update":
            self.follow(data)
        return data

    def follow(self, update: dict[str, Any]) -> None:
        """Apply an ``update`` to the snapshot and summary this client has, as the
        protocol says (docs/protocol.md, "Deltas"), and give the update the results as
        ``snapshot`` and ``table``: the moves at hand (``legal`` and the welcome's other
        ``move_lists``) are the update's own (none when it has none)."""
        assert self.snapshot is not None and self.table is not None, "an update before welcome"
        assert "snapshot" not in update and "table" not in update, "an update is changes only"
        had = {key for key in self.move_lists if key in self.snapshot}
        snap = apply_changes(self.snapshot, update["changes"])
        for key in self.move_lists:
            if key in had or key in update:
                snap[key] = update.get(key, [])
        self.snapshot = update["snapshot"] = snap
        self.table = update["table"] = apply_changes(self.table, update["table_changes"])

    def expect(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message, which must be of type ``kind``."""
        message = self.recv(timeout)
        assert message["type"] == kind, message
        return message

    def hello(self, token: str | None = None) -> dict[str, Any]:
        self.send({"type": "hello", "token": token})
        return self.expect("welcome")

    def error(self, message: Any) -> dict[str, Any]:
        """Send ``message``; the ``error`` it must get."""
        self.send(message)
        return self.expect("error")

    def quiet(self) -> None:
        """Assert that nothing else is pending: messages arrive in order, so the answer
        to a ``ping`` must be the very next message."""
        self.send({"type": "ping"})
        assert self.recv()["type"] == "pong"

    def drain(self) -> list[dict[str, Any]]:
        """Every message pending (read up to the answer of a ``ping``)."""
        self.send({"type": "ping"})
        out = []
        while (message := self.recv())["type"] != "pong":
            out.append(message)
        return out

    def close(self) -> None:
        self.conn.close()


def random_move(snapshot: dict[str, Any], rng: random.Random) -> str:
    """A random legal move of a snapshot (setup: any listed rider on any listed square)."""
    placement = snapshot.get("placement")
    if placement:
        return f"{rng.choice(placement['riders'])}@{rng.choice(placement['squares'])}"
    text: str = rng.choice(snapshot["legal"])["text"]
    return text


def pg_database(admin_url: str) -> tuple[str, str]:
    """Create a fresh PostgreSQL database; its URL and name."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"peloton_t_{uuid.uuid4().hex[:12]}"
    url = make_url(admin_url)
    with psycopg.connect(_dsn(url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.set(database=name).render_as_string(hide_password=False), name


def drop_pg_database(admin_url: str, name: str) -> None:
    """Drop a test database, closing the connections still open to it."""
    import psycopg
    from sqlalchemy.engine import make_url

    with psycopg.connect(_dsn(make_url(admin_url)), autocommit=True) as conn:
        for attempt in range(50):
            try:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                return
            except psycopg.errors.InsufficientPrivilege:
                # An autovacuum worker on the database: the test role may not end it
                # (only a superuser may), but it soon ends by itself. Try again.
                if attempt == 49:
                    raise
                time.sleep(0.1)


def _dsn(url: Any) -> str:
    return (
        f"host={url.host or '127.0.0.1'} port={url.port or 5432} user={url.username} "
        f"password={url.password or ''} dbname={url.database}"
    )


def stored_moves(db_url: str, table_id: str) -> list[str]:
    """A table's moves as the database holds them (the full moves, hidden dials
    included: only tests may look there)."""
    from sqlalchemy import create_engine, text

    from peloton.server.storage.database import normalise_url

    engine = create_engine(normalise_url(db_url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT text FROM moves WHERE table_id = :t ORDER BY idx"), {"t": table_id}
            )
            return [r[0] for r in rows]
    finally:
        engine.dispose()


def replay_snapshots(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Every snapshot of a replay answer (docs/protocol.md, "Replays"), the first before
    any move: each move's changes applied to the snapshot before it."""
    snaps = [answer["snapshot"]]
    for changes in answer["changes"]:
        snaps.append(apply_changes(snaps[-1], changes))
    return snaps


def apply_changes(value: Any, changes: list[Any]) -> Any:
    """``value`` after ``changes`` (docs/protocol.md, "Deltas"), written here from the
    protocol's words (not the server's code); ``value`` is unchanged."""
    import copy

    value = copy.deepcopy(value)
    for change in changes:
        path = change[0]
        if not path:
            value = change[1]
            continue
        node = value
        for key in path[:-1]:
            node = node[key]
        if len(change) == 1:
            del node[path[-1]]
        elif isinstance(node, list) and path[-1] == len(node):
            node.append(change[1])
        else:
            node[path[-1]] = change[1]
    return value


def in_replay(snapshot: dict[str, Any], move_lists: Iterable[str] = ("legal",)) -> dict[str, Any]:
    """A snapshot as a replay shows it: without the moves at hand (``legal`` and the
    game's other ``move_lists``; nobody plays in a replay)."""
    return {**snapshot, **{key: [] for key in move_lists if key in snapshot}}
