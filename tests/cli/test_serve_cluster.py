"""``peloton serve --broker`` and ``--workers`` (issue 19), run as real processes on a
real PostgreSQL and a real Redis: what a cluster needs is asked for in one clear line,
a node serves, and ``--workers 2`` shares one port between two supervised node
processes, starts again one that is killed, and stops them all on SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cluster_support import Node, RedisServer, free_port

BIN = Path(sys.executable).parent
PELOTON = str(BIN / "peloton")
ENV = {**os.environ, "COLUMNS": "100", "PYTHONUNBUFFERED": "1"}
ENV.pop("PELOTON_DB_URL", None)
ENV.pop("PELOTON_BROKER_URL", None)
WAIT = 180.0  # a node starting on a loaded 2-core machine (as Server allows)
NEEDS = "give --broker redis://HOST:PORT/DB and --db postgresql://USER:PASSWORD@HOST/DB"


def peloton(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PELOTON, *args], capture_output=True, text=True, timeout=WAIT, env=env or ENV
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--workers", "2"], "--workers 2 runs a cluster: cluster mode needs a Redis broker"),
        (["--workers", "3", "--db", "postgresql://u:p@h/db"], NEEDS),
        (["--workers", "2", "--broker", "redis://127.0.0.1:6379/0"], "not on the default SQLite"),
        (["--broker", "redis://127.0.0.1:6379/0", "--db", "sqlite:///x.db"], "not on sqlite"),
        (["--broker", "redis://127.0.0.1:6379/0"], NEEDS),
        (["--broker", "http://127.0.0.1:6379", "--db", "postgresql://h/d"], "must be Redis"),
        (["--broker", "redis://h:6379/zero", "--db", "postgresql://h/d"], "not a number"),
        (["--workers", "0"], "--workers must be 1 or more, not 0"),
    ],
)
def test_a_cluster_without_what_it_needs_is_refused_in_one_line(
    args: list[str], says: str, tmp_path: Path
) -> None:
    done = peloton("serve", "--port", "0", *args, env={**ENV, "XDG_DATA_HOME": str(tmp_path)})
    assert done.returncode == 2, done
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("peloton: error: ") and says in line, line
    assert not (tmp_path / "peloton").exists()  # nothing was created


def test_the_broker_url_may_come_from_the_environment(tmp_path: Path) -> None:
    env = {**ENV, "XDG_DATA_HOME": str(tmp_path), "PELOTON_BROKER_URL": "nonsense"}
    done = peloton("serve", "--port", "0", "--db", "postgresql://h/d", env=env)
    assert done.returncode == 2 and "--broker: the broker must be Redis" in done.stderr


def test_an_unreachable_broker_is_one_line(pg_url: str) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    done = peloton("serve", "--port", "0", "--db", pg_url, "--broker", dead)
    assert done.returncode == 1
    assert f"peloton: error: cannot reach the broker {dead}: " in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "serving on" not in done.stdout


def test_a_broker_password_is_not_printed(pg_url: str) -> None:
    dead = f"redis://:secret-word@127.0.0.1:{free_port()}/0"
    done = peloton("serve", "--port", "0", "--db", pg_url, "--broker", dead)
    assert done.returncode == 1
    assert "secret-word" not in done.stdout + done.stderr
    assert "redis://:***@127.0.0.1" in done.stdout


def test_one_node_in_cluster_mode_serves(start_node: Callable[..., Node]) -> None:
    node = start_node()
    assert any(line.startswith("Peloton broker: redis://") for line in node.output)
    with node.http() as http:
        assert http.get("/api/games").status_code == 200
        created = http.post(
            "/api/tables", json={"course": "short", "riders": 3, "seats": ["greedy", "greedy"]}
        )
        assert created.status_code == 201, created.text


def worker_pids(node: Node, count: int) -> dict[int, int]:
    """Each worker's latest process id (``worker N: started (process PID)``), once
    ``count`` workers have said they serve (``worker N: Peloton is serving on``)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        pids: dict[int, int] = {}
        serving: set[int] = set()
        for line in list(node.output):
            if found := re.match(r"worker (\d+): started \(process (\d+)\)", line):
                pids[int(found[1])] = int(found[2])
                serving.discard(int(found[1]))
            elif found := re.match(r"worker (\d+): Peloton is serving on http://", line):
                serving.add(int(found[1]))
        if len(serving) >= count:
            return pids
        time.sleep(0.1)
    raise AssertionError("the workers did not all say they serve:\n" + "".join(node.output))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (dead, not yet reaped) counts as gone.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ", 1)[1][0] != "Z"


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_two_workers_share_the_port_and_are_supervised(
    start_node: Callable[..., Node],
) -> None:
    node = start_node(extra=("--workers", "2"))
    pids = worker_pids(node, 2)
    wait_until(
        lambda: "Peloton's 2 workers are serving.\n" in node.output, "no word that all serve"
    )
    assert sorted(pids) == [1, 2] and len(set(pids.values())) == 2
    with node.http() as http:
        for _ in range(10):  # the one port answers, whichever worker takes it
            assert http.get("/api/games").status_code == 200
        # A worker killed outright is started again, and the port still answers.
        os.kill(pids[1], signal.SIGKILL)
        wait_until(lambda: worker_pids(node, 2)[1] != pids[1], "worker 1 was not started again")
        assert any(
            "worker 1: died (exit code -9): starting it again" in line for line in node.output
        )
        for _ in range(10):
            assert http.get("/api/games").status_code == 200
    # SIGTERM to the parent stops every worker, and the parent exits cleanly.
    latest = worker_pids(node, 2)
    assert node.proc is not None
    node.proc.send_signal(signal.SIGTERM)
    assert node.proc.wait(timeout=WAIT) == 0
    for pid in latest.values():
        wait_until(lambda pid=pid: not alive(pid), f"worker process {pid} outlived its parent")


def test_ctrl_c_stops_every_worker_without_a_word_on_stderr(
    start_node: Callable[..., Node],
) -> None:
    node = start_node(extra=("--workers", "2"))
    pids = worker_pids(node, 2)
    assert node.proc is not None
    node.proc.send_signal(signal.SIGINT)
    assert node.proc.wait(timeout=WAIT) == 130  # an interrupted command's code
    for pid in pids.values():
        wait_until(lambda pid=pid: not alive(pid), f"worker process {pid} outlived its parent")
    assert not any("Traceback" in line for line in node.output), "".join(node.output)


def test_workers_stop_when_their_parent_is_killed(start_node: Callable[..., Node]) -> None:
    """SIGKILL leaves the parent no time to stop anything: each worker notices and
    stops by itself."""
    node = start_node(extra=("--workers", "2"))
    pids = worker_pids(node, 2)
    node.kill()
    for pid in pids.values():
        wait_until(lambda pid=pid: not alive(pid), f"worker process {pid} outlived its parent")


def test_redis_server_is_there_for_the_tests(redis_server: RedisServer) -> None:
    """The fixture's Redis answers (a missing redis-server fails the fixture, never
    skips)."""
    assert redis_server.ping()
