"""Solo solver figures: nodes per second, the time to solve a few small courses, the
row game's lower bound on the bundled ``solo`` course, that course solved from the line
shipped with it, and an attempt at it from scratch within a time limit.

    nice .venv/bin/python benchmarks/solver.py [--solo-limit SECONDS]
"""

from __future__ import annotations

import argparse
import time

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import Solution, solve
from peloton.games.mindcycling.solver.examples import SMALL_PROBLEMS
from peloton.games.mindcycling.solver.rows import RowGame, RowSearch


def report(label: str, sol: Solution) -> None:
    status = "proven optimal" if sol.proven else f"NOT proven (lower bound {sol.lower_bound})"
    print(
        f"{label:<34} score {sol.score} {status}; {sol.nodes:>10,} nodes, "
        f"{sol.nodes_per_second:>8,.0f} nodes/s, {sol.row_nodes:>10,} row nodes, {sol.seconds:8.2f} s",
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
    solo = mc.Course.load("solo")
    started = time.monotonic()
    search = RowSearch(RowGame(solo), mc.SOLO_COMPOSITION)
    # MC-9.2: whatever the order, the five riders stand side by side on row 2.
    start = ((tuple(sorted((2, t, t == "D") for t in mc.SOLO_COMPOSITION))), 0)
    ruled_out = 0  # the most rounds shown too few (the row game up to 10 rounds, seconds)
    for rounds in range(1, 11):
        if search.feasible(start, rounds):
            break
        ruled_out = rounds
    print(
        f"{'solo row game':<34} no line in {ruled_out} rounds: the optimum takes at least "
        f"{ruled_out + 1}; {search.nodes:,} row nodes, {time.monotonic() - started:.2f} s",
        flush=True,
    )
    # From the line shipped with the course: improved on and proven, if it can be.
    sol = solve(solo, time_limit=args.solo_limit)
    report(f"solo (DDSSC, shipped line, limit {args.solo_limit:.0f} s)", sol)
    # From scratch: greedy lines, polished for half the time, then the proof.
    started = time.monotonic()
    sol = solve(solo, time_limit=args.solo_limit, from_scratch=True)
    report(f"solo from scratch (limit {args.solo_limit:.0f} s)", sol)
    for line in sol.log:
        print("  ", line)
    for label, moves in sol.labelled_rounds():
        print(f"   {label + ':':<10}{' '.join(moves)}")
    print(f"   total {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
