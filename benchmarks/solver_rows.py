"""Row game figures: what the solo solver's row game (lanes relaxed away) settles on its
own from the start of a course, and the CPU time and row nodes it takes.

    nice .venv/bin/python benchmarks/solver_rows.py --random 10          # random courses 0 to 9
    nice .venv/bin/python benchmarks/solver_rows.py short random-1 --limit 60

For each course (team DDSSC, relay limit 3), from the riders side by side on the start
zone's last row (MC-9.2): every round count from the round bound up that the row game
refutes, the first it has a line in, and then, with ``--remaining``, every
``remaining`` it refutes for that round count and the first it reaches. Times are CPU
seconds (``time.process_time``) counted from the course's start; a course stops at
``--limit`` CPU seconds.
"""

from __future__ import annotations

import argparse
import time

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver.driver import static_lower_bound
from peloton.games.mindcycling.solver.examples import random_course
from peloton.games.mindcycling.solver.rows import RowGame, RowSearch, RowState, TimeUp
from peloton.games.mindcycling.solver.search import Solver


def course_named(name: str) -> mc.Course:
    """A bundled course, or ``random-N`` (:func:`.examples.random_course`)."""
    if name.startswith("random-"):
        return random_course(int(name.removeprefix("random-")))
    return mc.Course.load(name)


def run(name: str, team: str, limit: float, remaining: bool) -> str:
    """The row game's figures on one course, as one line."""
    course = course_named(name)
    root = mc.new_solo(course, team)
    row = course.start_rows
    start: RowState = (tuple(sorted((row, t, t == "D") for t in team)), 0)
    search = RowSearch(RowGame(course), team, clock=time.process_time)
    began = time.process_time()
    search.deadline = began + limit
    said: list[str] = []

    def figures() -> str:
        return f"{time.process_time() - began:.1f} s, {search.nodes:,} nodes"

    rounds = static_lower_bound(Solver(root, None), root)
    try:
        while not search.feasible(start, rounds):
            said.append(f"no {rounds} rounds ({figures()})")
            rounds += 1
        said.append(f"a line of {rounds} rounds ({figures()})")
        if remaining:
            rem = 0
            while not search.feasible(start, rounds, course.finish - rem):
                rem += 1
            refuted = f"remaining below {rem} refuted, " if rem else ""
            said.append(f"{refuted}remaining {rem} reached ({figures()})")
    except TimeUp:
        said.append(f"time up ({figures()})")
    return f"{name:<11} finish {course.finish:>2}: " + "; ".join(said)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("courses", nargs="*", help="bundled course names or random-N")
    parser.add_argument("--random", type=int, default=0, help="random courses 0 to N - 1")
    parser.add_argument("--team", default="DDSSC")
    parser.add_argument("--limit", type=float, default=30.0, help="CPU seconds per course")
    parser.add_argument(
        "--remaining", action="store_true", help="also settle the fifth rider's remaining"
    )
    args = parser.parse_args()
    names = [*args.courses, *(f"random-{i}" for i in range(args.random))] or ["short"]
    print(f"row game, team {args.team}, at most {args.limit:g} s of CPU a course", flush=True)
    for name in names:
        print(run(name, args.team, args.limit, args.remaining), flush=True)


if __name__ == "__main__":
    main()
