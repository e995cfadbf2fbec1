"""Solo solver figures: nodes per second, the time to solve a few small courses, and an
attempt at the bundled ``solo`` course within a time limit.

    nice .venv/bin/python benchmarks/solver.py [--solo-limit SECONDS]
"""

from __future__ import annotations

import argparse
import time

from peloton.games import mindcycling as mc
from peloton.solver import solve
from peloton.solver.examples import SMALL_PROBLEMS


def report(label: str, sol: object) -> None:
    from peloton.solver import Solution

    assert isinstance(sol, Solution)
    status = "proven optimal" if sol.proven else f"NOT proven (lower bound {sol.lower_bound})"
    print(
        f"{label:<34} score {sol.score} {status}; {sol.nodes:>10,} nodes, "
        f"{sol.nodes_per_second:>8,.0f} nodes/s, {sol.seconds:8.2f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--solo-limit", type=float, default=600.0, help="seconds for the bundled solo course"
    )
    parser.add_argument("--small-limit", type=float, default=120.0, help="seconds per small course")
    args = parser.parse_args()
    for course, start in SMALL_PROBLEMS:
        report(
            f"{course.name} from {'setup' if start is None else start}",
            solve(course, start=start, time_limit=args.small_limit),
        )
    started = time.monotonic()
    sol = solve(mc.Course.load("solo"), time_limit=args.solo_limit)
    report(f"solo (DDSSC, limit {args.solo_limit:.0f} s)", sol)
    for line in sol.log:
        print("  ", line)
    for label, moves in sol.labelled_rounds():
        print(f"   {label + ':':<10}{' '.join(moves)}")
    print(f"   total {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
