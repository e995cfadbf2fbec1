"""``peloton solve --time-limit`` on a busy machine says what its time went to, and
keeps its limit by its own clock (issue 32, point 13).

The test makes the machine busy itself (a few bounded busy-loop processes, one more
than the cores), runs the real command as a subprocess, and reads the command's own
account, its last line: its parts (starting and loading, solving, printing) add up to
its total, and the total is within the limit and the documented margin
(:data:`peloton.cli.solve.LIMIT_MARGIN`). A search that never began says why its
``nodes`` are 0. No wall clock of the test's is read.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from peloton.cli.solve import LIMIT_MARGIN

PELOTON = str(Path(sys.executable).parent / "peloton")
#: Seconds each busy loop runs at most (it is ended at the end of the test anyway).
BUSY_SECONDS = 120
BUSY_LOOP = (
    "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"
)
ACCOUNT = re.compile(
    r"time: (?P<total>[\d.]+) s \(limit (?P<limit>[\d.]+) s\): (?P<starting>[\d.]+) s starting "
    r"and loading, (?P<solving>[\d.]+) s solving \((?P<cpu>[\d.]+) s of CPU[^)]*\), "
    r"(?P<printing>[\d.]+) s printing"
)


@pytest.fixture()
def busy_machine() -> Iterator[None]:
    """One busy-loop process more than the machine has cores, each bounded in time."""
    loops = [
        subprocess.Popen([sys.executable, "-c", BUSY_LOOP.format(seconds=BUSY_SECONDS)])
        for _ in range((os.cpu_count() or 2) + 1)
    ]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


@pytest.mark.parametrize("limit", ["3", "8"])
def test_solve_under_load_accounts_for_its_time(limit: str, busy_machine: None) -> None:
    """Issue 32, point 13: the limit is the command's wall time from its start, and the
    command says plainly where it went."""
    done = subprocess.run(
        [PELOTON, "solve", "--course", "short", "--from-scratch", "--time-limit", limit],
        capture_output=True,
        text=True,
        timeout=BUSY_SECONDS,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    found = ACCOUNT.fullmatch(lines[-1])
    assert found is not None, done.stdout
    parts = {name: float(value) for name, value in found.groupdict().items()}
    assert parts["limit"] == float(limit)
    # Its parts add up to its total (each printed to the hundredth).
    assert abs(parts["starting"] + parts["solving"] + parts["printing"] - parts["total"]) <= 0.02
    assert parts["total"] <= parts["limit"] + LIMIT_MARGIN, done.stdout
    assert parts["cpu"] <= parts["solving"] + 0.01
    # A "nodes: 0" never stands alone: the next line says why.
    for number, line in enumerate(lines):
        if line.startswith("nodes: 0 ("):
            assert lines[number + 1].startswith("nodes: 0, since "), done.stdout
