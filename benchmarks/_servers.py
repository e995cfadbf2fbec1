"""The servers a load benchmark drives: one ``peloton serve`` process, one with
``--workers N``, or N node processes on their own ports, with the private Redis
that cluster mode needs; and the CPU time of a process and its children.

Used by ``server_load.py``; prints nothing and asserts nothing.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

PELOTON = str(Path(sys.executable).parent / "peloton")


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def process_cpu(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``), or ``None``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu() -> float:
    """CPU seconds every core of the machine spent busy so far (``/proc/stat``)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux ``/proc/*/task/*/children``)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                todo.extend(int(child) for child in task.read_text().split())
            except OSError:
                continue
    return found


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds used so far by these processes and everything below them
    (the server nodes, their bot workers)."""
    return sum(process_cpu(p) or 0.0 for pid in pids for p in descendants(pid))


def tree_rss(pids: list[int]) -> int:
    """Resident bytes of these processes and everything below them."""
    total = 0
    for pid in pids:
        for p in descendants(pid):
            try:
                status = Path(f"/proc/{p}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


@dataclass
class Servers:
    """The running server processes and the addresses clients may use (one per node;
    a single address when the nodes share a port)."""

    procs: list[subprocess.Popen[str]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    #: What the servers write on stderr.
    errors: list[IO[str]] = field(default_factory=list)
    #: Each node's event-loop lateness line, printed when it stopped.
    lateness: list[str] = field(default_factory=list)

    @property
    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]


def _serve(
    args: list[str], expect: int, errors: IO[str]
) -> tuple[subprocess.Popen[str], list[str]]:
    """Start ``peloton serve ARGS`` (its stderr to ``errors``, its event loop's lateness
    measured) and wait for ``expect`` "serving on" lines."""
    proc = subprocess.Popen(
        [PELOTON, "serve", "--bot-delay", "0", "--limits", "relaxed", *args],
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PELOTON_LOOP_LATENESS": "1"},
    )
    assert proc.stdout is not None
    urls: list[str] = []
    for line in proc.stdout:
        if "serving on " in line:
            urls.append(line.split("serving on ", 1)[1].strip())
            if len(urls) == expect:
                return proc, urls
    raise SystemExit(f"the server did not start ({' '.join(args)})")


@dataclass
class Redis:
    """A private Redis: its URL and process id."""

    url: str
    pid: int


@contextmanager
def redis_server() -> Iterator[Redis]:
    """A private ``redis-server`` on a free loopback port, without persistence."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("cluster mode needs Redis: apt-get install redis-server")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield Redis(f"redis://127.0.0.1:{port}/0", proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def servers(
    db_url: str,
    *,
    workers: int = 1,
    nodes: int = 1,
    broker: str | None = None,
    extra: tuple[str, ...] = (),
) -> Iterator[Servers]:
    """Start what the benchmark drives: one process (``workers`` 1, ``nodes`` 1, no
    broker), ``peloton serve --workers N`` on one port, or ``nodes`` node processes
    each on its own port, each given the ``extra`` arguments too; stopped (SIGINT, as
    Ctrl-C) on exit."""
    running = Servers()
    cluster = ["--broker", broker, *extra] if broker else [*extra]

    def start(args: list[str], expect: int) -> list[str]:
        errors = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed once read, below)
        running.errors.append(errors)
        proc, urls = _serve(args, expect, errors)
        running.procs.append(proc)
        return urls

    try:
        if nodes > 1:
            for _ in range(nodes):
                running.urls += start(["--port", "0", "--db", db_url, *cluster], 1)
        elif workers > 1:
            port = free_port()
            args = ["--port", str(port), "--db", db_url, "--workers", str(workers), *cluster]
            running.urls += start(args, workers)[:1]
        else:
            running.urls += start(["--port", "0", "--db", db_url, *cluster], 1)
        yield running
    finally:
        for proc in running.procs:
            proc.send_signal(signal.SIGINT)
        for proc in running.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        for errors in running.errors:
            errors.seek(0)
            running.lateness += [
                ln.strip() for ln in errors if ln.startswith("event-loop lateness")
            ]
            errors.close()
