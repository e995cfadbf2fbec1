"""Does a new table's bot move at once while one client's heavy tables load the server?
(issue 32, point 2)

One client (127.0.0.1) creates ``--heavy`` Mind Twist tables of ``optimal`` v
``optimal`` (length 60, each with its own milestones: the optimal bot solves each
board on first use, about 4-6 s of CPU), within the default per-client limits. Then
another client (127.0.0.2, the loopback network's second address) creates, every
``--every`` seconds, ``--probes`` tables of ``pass3`` v ``pass3`` (a bot that decides
in microseconds) and the benchmark times each one from its creation to its first bot
move (its ``moves`` count read every 20 ms). It prints each time, how many heavy
tables had not moved yet at that moment, and the worst time.

    .venv/bin/python benchmarks/bot_starvation.py [--heavy 20] [--probes 5] [--every 5]

The server runs with ``--bot-delay 0`` and the default limits. Measure the old code
the same way by putting its source first (``PYTHONPATH=/tmp/before/src``): the
script prints which ``peloton`` package the server imports.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

PELOTON = [sys.executable, "-m", "peloton"]
#: The client that loads the server, and the one whose new tables are timed.
HEAVY_CLIENT = "127.0.0.1"
PROBE_CLIENT = "127.0.0.2"
#: Give up on a probe's first move after this many seconds.
PATIENCE = 240.0


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    """``peloton serve`` on a free port, bots without delay, default limits."""
    proc = subprocess.Popen(
        [*PELOTON, "serve", "--port", "0", "--db", f"sqlite:///{db}", "--bot-delay", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "serving on " in line:
            return proc, line.split("serving on ", 1)[1].strip()
    raise SystemExit("the server did not start")


def client(url: str, address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (a loopback address)."""
    return httpx.Client(
        base_url=url, timeout=30.0, transport=httpx.HTTPTransport(local_address=address)
    )


def create(http: httpx.Client, request: dict[str, object]) -> str:
    answer = http.post("/api/tables", json=request)
    if answer.status_code != 201:
        raise SystemExit(f"table refused: {answer.status_code} {answer.text}")
    return str(answer.json()["id"])


def moves(http: httpx.Client, table: str) -> int:
    return int(http.get(f"/api/tables/{table}").json()["moves"])


def heavy_request(n: int) -> dict[str, object]:
    """The ``n``-th heavy table: its own milestones, so its own board to solve."""
    milestones = [10 + n % 7, 25 + n % 11, 40 + n % 13]
    return {
        "game": "mind-twist",
        "options": {"length": 60, "milestones": milestones},
        "seats": ["optimal", "optimal"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heavy", type=int, default=20, help="heavy tables (default 20)")
    parser.add_argument("--probes", type=int, default=5, help="timed new tables (default 5)")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between them (default 5)")
    args = parser.parse_args()
    imported = subprocess.run(
        [sys.executable, "-c", "import peloton; print(peloton.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"server code: {imported}")
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp) / "peloton.db")
        try:
            with client(url, HEAVY_CLIENT) as heavy, client(url, PROBE_CLIENT) as probe:
                heavy_tables = [create(heavy, heavy_request(n)) for n in range(args.heavy)]
                print(f"{args.heavy} optimal v optimal tables created by {HEAVY_CLIENT}")
                time.sleep(1.0)  # their first jobs are queued and running
                worst = 0.0
                for number in range(1, args.probes + 1):
                    if number > 1:
                        time.sleep(args.every)
                    table = create(probe, {"game": "mind-twist", "seats": ["pass3", "pass3"]})
                    began = time.monotonic()
                    while moves(probe, table) == 0:
                        if time.monotonic() - began > PATIENCE:
                            print(f"probe {number}: no bot move within {PATIENCE:g} s")
                            worst = PATIENCE
                            break
                        time.sleep(0.02)
                    else:
                        took = time.monotonic() - began
                        worst = max(worst, took)
                        waiting = sum(moves(heavy, t) == 0 for t in heavy_tables)
                        print(
                            f"probe {number}: first bot move after {took:.2f} s "
                            f"({waiting} of {args.heavy} heavy tables had not moved yet)"
                        )
                print(f"worst time to a new table's first bot move: {worst:.2f} s")
        finally:
            proc.terminate()
            proc.wait(timeout=60)


if __name__ == "__main__":
    main()
