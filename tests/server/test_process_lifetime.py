"""Every process a server starts ends with it, however it ends (issue 32, point 16).

A real ``peloton serve`` runs a solo table's solve and a Mind Twist table whose
``optimal`` bots solve their board; once one of its worker processes is busy with a
job, the server is killed (SIGKILL: it can do nothing) or stopped (SIGTERM: it stops
cleanly, exits 0 and says so last). Every process below it must be gone within a
bounded poll. The same for ``--workers 2``, whose supervisor is killed or stopped.

Before the fix a killed server's solver worker went on solving for its whole limit,
and SIGTERM made ``peloton serve`` exit -15 with no last line.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cluster_support import Node

from .helpers import Server, create

#: A failure bound on every wait (not a figure).
WAIT = 120.0
#: The solve's own limit: it would outlive the test by far.
SOLVER_SECONDS = "900"
#: CPU seconds past which a worker is doing a job, not starting (its imports take
#: about 2 s of CPU).
BUSY_CPU = 4.0


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (Linux ``/proc/*/task/*/children``)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*/children"):
            try:
                children = [int(c) for c in task.read_text().split()]
            except OSError:
                continue
            todo += [c for c in children if c not in found]
            found.update(children)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def cpu(pid: int) -> float:
    """User and system CPU seconds of ``pid`` so far (0 once gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def busy_below(root: int) -> None:
    """Wait until a process below ``root`` is busy with a job: past its start-up's CPU
    and still using more."""

    def busy() -> bool:
        before = {p: cpu(p) for p in descendants(root)}
        time.sleep(0.5)
        return any(used >= BUSY_CPU and cpu(p) > used for p, used in before.items())

    wait_until(busy, "no worker process got busy with a job")


def give_work(server: Server) -> None:
    """A solo solve (far longer than the test) and a table of solving bots."""
    with server.http() as http:
        solo = create(http, solo=True, course="solo", seats=["human"])
        answer = http.get(f"/api/tables/{solo}/solver")
        assert answer.status_code == 200 and answer.json()["status"] == "running", answer.text
        create(
            http,
            game="mind-twist",
            options={"length": 60, "milestones": [13, 29, 47]},
            seats=["optimal", "optimal"],
        )


def assert_all_end(children: set[int], how: str) -> None:
    assert children, "the server had no worker processes to watch"
    wait_until(
        lambda: not any(alive(p) for p in children),
        f"processes {sorted(p for p in children if alive(p))} outlived their server ({how})",
    )


def serving(db_url: str) -> Server:
    server = Server(db_url)
    server.args += ["--solver-seconds", SOLVER_SECONDS]
    return server.start()


def test_a_killed_servers_processes_end_with_it(db_url: str) -> None:
    """Issue 32, point 16: SIGKILL mid-solve leaves no solver or bot worker running."""
    server = serving(db_url)
    try:
        assert server.proc is not None
        give_work(server)
        busy_below(server.proc.pid)
        children = descendants(server.proc.pid)
        server.kill()
        assert_all_end(children, "SIGKILL")
    finally:
        server.stop()


def test_sigterm_stops_the_server_cleanly(db_url: str) -> None:
    """Issue 32, point 16: SIGTERM mid-solve is a clean stop: exit code 0, a last line
    saying so, and no process left behind."""
    server = serving(db_url)
    try:
        assert server.proc is not None
        give_work(server)
        busy_below(server.proc.pid)
        children = descendants(server.proc.pid)
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=WAIT) == 0, "".join(server.output)
        assert_all_end(children, "SIGTERM")
        time.sleep(0.2)  # the reader thread takes the last lines
        last = server.output[-1].strip()
        assert last.startswith("Peloton stopped (SIGTERM): "), "".join(server.output)
    finally:
        server.stop()


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_every_process_of_serve_workers_2_ends_with_its_supervisor(
    how: str, start_node: Callable[..., Node]
) -> None:
    """Issue 32, point 16, with ``--workers 2``: the supervisor killed, each node
    notices and stops, and its own worker processes end with it; stopped, it exits 0
    and its last line says so, after the nodes' own."""
    node = start_node(extra=("--workers", "2", "--solver-seconds", SOLVER_SECONDS))
    assert node.proc is not None
    wait_until(
        lambda: "Peloton's 2 workers are serving.\n" in node.output, "the workers did not serve"
    )
    give_work(node)
    busy_below(node.proc.pid)
    children = descendants(node.proc.pid)
    if how == "SIGKILL":
        node.kill()
    else:
        node.proc.send_signal(signal.SIGTERM)
        assert node.proc.wait(timeout=WAIT) == 0, "".join(node.output)
        time.sleep(0.2)
        assert node.output[-1].strip() == "Peloton stopped (SIGTERM): its 2 workers ended."
        assert sum("Peloton stopped (SIGTERM): " in line for line in node.output) == 3
    assert_all_end(children, how)
