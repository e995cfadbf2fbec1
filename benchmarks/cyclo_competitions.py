"""Cyclo competitions between greedy bots: the CPU time of a whole simulated
competition of each kind (a tour, an omnium, a sprint tournament, a pursuit series),
its games and moves, as ``peloton simulate --game cyclo`` rides them (one core).

    python benchmarks/cyclo_competitions.py [--runs N] [--teams T] [--entries E]

CPU times are printed (wall-clock ones move with the machine's load). Prints figures
only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from peloton.analysis.competitions import Competitions, play_competition
from peloton.analysis.stage_races import StageRaces, play_stage_race


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--teams", type=int, default=4)
    parser.add_argument("--entries", type=int, default=2, help="omnium riders a team")
    parser.add_argument("--bot", default="greedy")
    args = parser.parse_args()
    bots = (args.bot,) * args.teams
    kinds: list[tuple[str, Any, Any]] = [
        ("tour (prologue, flat, mountain, ttt)", StageRaces(bots, games=args.runs),
         play_stage_race),
        (f"omnium ({args.entries} riders a team)",
         Competitions(bots, "omnium", {"entries": args.entries}, games=args.runs),
         play_competition),
        ("sprint tournament (sprint)", Competitions(bots, "sprint-tournament", games=args.runs),
         play_competition),
        ("pursuit series (team pursuit)",
         Competitions(bots, "pursuit-series", {"mode": "team-pursuit"}, games=args.runs),
         play_competition),
    ]  # fmt: skip
    print(f"{args.bot} bots, {args.teams} teams, {args.runs} runs of each kind (one core)")
    for title, runs, play in kinds:
        runs.check()
        cpu = time.process_time()
        games = 0
        for i in range(args.runs):
            outcome = play(runs, i)
            games += outcome.get("games", 4)
        spent = (time.process_time() - cpu) / args.runs
        print(f"  {title:40s} {spent:6.2f} s CPU a competition, {games / args.runs:.1f} games")


if __name__ == "__main__":
    main()
