"""The web solver panel's time limit, as a player sees it: a real ``peloton serve
--solver-seconds S`` (SQLite in a temporary directory), a solo table per course, and
the wall time from the panel's first request to the answer, against ``S + 1``.

    nice .venv/bin/python benchmarks/solver_web.py --seconds 10
    nice .venv/bin/python benchmarks/solver_web.py --seconds 10 --random 10

The bundled courses (``solo``, ``short``, ``standard``) and, with ``--random N``, the
seeded random courses of ``benchmarks/solver.py --random N`` are solved one after the
other (a web solo table rides the default team, DDSSC). The server starts its solver
workers when the first solve is asked for; a first small solve (``C8``) is asked and
timed apart, so the rows below measure solves on workers already started, as a server
that has been up a while has them. Prints one row per course: the score the panel
shows, whether proven, the seconds the panel says the solve took, the wall time the
client waited, and whether it stayed within the limit plus one second.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _servers import servers
from peloton.games.mindcycling import Course
from peloton.games.mindcycling.solver.examples import C8, random_course

#: Seconds between two polls of the panel's answer (what the page does is similar).
POLL = 0.1


def ask(http: httpx.Client, course: Course, patience: float) -> tuple[dict[str, Any], float]:
    """Create a solo table on ``course``, poll its solver until it answers; the answer
    and the seconds waited from the first request."""
    answer = http.post(
        "/api/tables", json={"solo": True, "course": course.to_dict(), "seats": ["human"]}
    )
    answer.raise_for_status()
    table = answer.json()["id"]
    began = time.monotonic()
    while True:
        body: dict[str, Any] = http.get(f"/api/tables/{table}/solver").raise_for_status().json()
        waited = time.monotonic() - began
        if body["status"] != "running":
            return body, waited
        if waited > patience:
            raise SystemExit(f"{course.name}: no answer after {waited:.0f} s")
        time.sleep(POLL)


def row(name: str, body: dict[str, Any], waited: float, limit: float) -> bool:
    """Print one course's row; whether the wait kept the limit plus one second."""
    if body["status"] != "done":
        print(f"{name:<12} {body['status']}: {body.get('message', '')}")
        return False
    solution = body["solution"]
    score = (
        "-" if solution["score"] is None else f"({solution['score'][0]}, {solution['score'][1]})"
    )
    kept = waited <= limit + 1
    print(
        f"{name:<12} {score:<9} {'yes' if solution['proven'] else 'no':<7} "
        f"{solution['seconds']:>9.1f} {waited:>9.1f} {limit:>6.0f}  {'yes' if kept else 'NO'}",
        flush=True,
    )
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="the server's --solver-seconds")
    parser.add_argument("--random", type=int, default=0, metavar="N", help="also N random courses")
    args = parser.parse_args()
    courses = [Course.load(name) for name in ("solo", "short", "standard")]
    courses += [random_course(seed) for seed in range(args.random)]
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        with (
            servers(db, extra=("--solver-seconds", f"{args.seconds:g}")) as running,
            httpx.Client(base_url=running.urls[0], timeout=30) as http,
        ):
            print(f"solver limit {args.seconds:g} s (wall), asked through {running.urls[0]}")
            began = time.monotonic()
            ask(http, C8, patience=10 * args.seconds + 60)
            print(f"first solve, workers starting included: {time.monotonic() - began:.1f} s")
            print(
                f"{'course':<12} {'score':<9} {'proven':<7} {'panel s':>9} {'waited s':>9} {'limit':>6}  kept"
            )
            kept = [
                row(c.name, *ask(http, c, 10 * args.seconds + 60), args.seconds) for c in courses
            ]
            print(f"kept: {sum(kept)} of {len(kept)} solves within the limit + 1 s")


if __name__ == "__main__":
    main()
