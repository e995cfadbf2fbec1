"""Solo solver figures: for each course and team, the score found, whether it is
proven, the proven lower bound, the CPU time and the wall time against the limit, and
the nodes searched.

    nice .venv/bin/python benchmarks/solver.py                  # bundled courses, from scratch and with the opening book
    nice .venv/bin/python benchmarks/solver.py --from-scratch   # bundled courses, from scratch only
    nice .venv/bin/python benchmarks/solver.py --random 10      # 10 seeded random solo courses, from scratch
    nice .venv/bin/python benchmarks/solver.py --small          # the small example problems

The time limit is wall time (what a user waits for) unless ``--cpu`` makes it CPU
time: on a shared machine the solver may get much less than a whole core, and the
target of a minute is a minute of one core. Both times are printed either way (CPU:
this process's ``time.process_time``); ``kept`` compares the limit with the time it
is counted in. Every line found is replayed independently (written
as a game record, read back and replayed through the rules) before it is printed.
"""

from __future__ import annotations

import argparse
import time

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import COMPOSITIONS, Solution, solve
from peloton.games.mindcycling.solver.examples import SMALL_PROBLEMS, random_course
from peloton.games.mindcycling.solver.lines import known_line

HEADER = (
    f"{'course':<12} {'team':<6} {'mode':<8} {'score':<9} {'proven':<7} {'lower':<9} "
    f"{'CPU s':>7} {'wall s':>7} {'limit':>6} {'nodes':>11} {'row nodes':>10}  kept"
)


def replayed(sol: Solution) -> bool:
    """The line through a game record and the rules, independently of the solver."""
    if sol.final is None:
        return sol.score is None
    record = mc.Record.from_json(mc.Record.from_state(sol.final).to_json())
    return record.replay().solo_score == sol.score


#: The clock the limit is counted on (``--cpu``: CPU time).
CLOCK = {"wall": time.monotonic, "cpu": time.process_time}


def run(
    course: mc.Course, team: str, mode: str, limit: float, clock: str, start: str | None = None
) -> Solution:
    """Solve and print one row (the times measured around the whole call)."""
    wall, cpu = time.monotonic(), time.process_time()
    sol = solve(
        course,
        team,
        start=start,
        time_limit=limit,
        from_scratch=mode == "scratch",
        clock=CLOCK[clock],
    )
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    if not replayed(sol):
        raise AssertionError(f"{course.name} {team}: the line does not replay to {sol.score}")
    spent = cpu if clock == "cpu" else wall
    kept = "yes" if spent <= limit + 1 else f"NO (+{spent - limit:.1f} s)"
    score = "-" if sol.score is None else f"({sol.score[0]}, {sol.score[1]})"
    lower = f"({sol.lower_bound[0]}, {sol.lower_bound[1]})"
    print(
        f"{course.name:<12} {team:<6} {mode:<8} {score:<9} {'yes' if sol.proven else 'no':<7} "
        f"{lower:<9} {cpu:>7.1f} {wall:>7.1f} {limit:>6.0f} {sol.nodes:>11,} {sol.row_nodes:>10,}  "
        f"{kept}",
        flush=True,
    )
    return sol


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve (wall)")
    parser.add_argument("--random", type=int, default=0, metavar="N", help="N random courses")
    parser.add_argument("--seed", type=int, default=0, help="first seed of the random courses")
    parser.add_argument("--small", action="store_true", help="the small example problems")
    parser.add_argument("--course", action="append", help="only these bundled courses")
    parser.add_argument("--cpu", action="store_true", help="count the limit in CPU seconds")
    parser.add_argument(
        "--from-scratch", action="store_true", help="bundled courses without the opening book"
    )
    args = parser.parse_args()
    clock = "cpu" if args.cpu else "wall"
    print(f"time limit {args.limit:g} s of {clock} time per solve")
    print(HEADER)
    if args.small:
        for course, start in SMALL_PROBLEMS:
            run(course, "DDSSC", "scratch", args.limit, clock, start)
        return
    if args.random:
        proven = 0
        for seed in range(args.seed, args.seed + args.random):
            proven += run(random_course(seed), "DDSSC", "scratch", args.limit, clock).proven
        print(f"proven: {proven} of {args.random} random courses")
        return
    cases = [("solo", team) for team in COMPOSITIONS] + [("short", "DDSSC"), ("standard", "DDSSC")]
    for name, team in cases:
        if args.course and name not in args.course:
            continue
        course = mc.Course.load(name)
        run(course, team, "scratch", args.limit, clock)
        if not args.from_scratch and known_line(course, team, "front", 3) is not None:
            run(course, team, "book", args.limit, clock)


if __name__ == "__main__":
    main()
