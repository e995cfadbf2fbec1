"""Does riding for the mode's goal pay? The greedy bot against the same bot scoring
every mode as a classic (spaces gained, tokens at once, no seconds, points or
elimination risk: what the greedy bot did before it knew the modes' goals), in
seat-swapped games of one mode; the share of the goal-aware bot's wins with its
Wilson 95% interval, and in a leg each side's green and red points.

    python benchmarks/cyclo_goals.py leg --games 200 [--course flat-stage]
    python benchmarks/cyclo_goals.py ttt --games 400
    python benchmarks/cyclo_goals.py elimination --games 300 --teams 3 --entries 2

Game ``i`` draws its dice from ``Rng(1000 + i)``; the goal-aware bot sits in seat
``i mod teams`` (the classic scorer fills the other seats). Prints figures only;
nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Sequence
from typing import Any

from peloton.analysis.stats import wilson
from peloton.bots import make_bot, play_out
from peloton.bots.base import SeededBot
from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.games.cyclo.bots import heuristics as h
from peloton.games.cyclo.notation import Move, Wheel
from peloton.games.cyclo.position import RIDE, WHEEL

#: The classic's scores: no points, no elimination risk.
CLASSIC = dataclasses.replace(h.DEFAULT_WEIGHTS, point=0.0, track_point=0.0, eliminated=0.0)


class ClassicScorer(SeededBot):
    """The greedy bot with every mode scored as a classic (its rides and wheels)."""

    name = "classic-greedy"

    def choose(self, state: Any) -> Any:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        scores = self.scores(state, moves)
        top = max(scores)
        return self.rng.choice([m for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9])

    @staticmethod
    def scores(state: cy.State, moves: Sequence[Move]) -> list[float]:
        if state.phase == RIDE:
            return h._score_rides(state, moves, CLASSIC)
        if state.phase == WHEEL:
            return [
                h._score_wheel(state, m, CLASSIC) if isinstance(m, Wheel) else 0.0 for m in moves
            ]
        return list(h.score_moves(state, moves, weights=CLASSIC))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("mode", choices=cy.AVAILABLE)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--teams", type=int, default=2)
    parser.add_argument("--entries", type=int, default=1)
    parser.add_argument("--course", default=None)
    args = parser.parse_args()
    options: dict[str, Any] = {"players": args.teams}
    if cy.MODES[args.mode].riders is None:
        options["entries"] = args.entries
    if args.course:
        options["course"] = args.course
    wins = 0
    points = {"goal": [0, 0], "classic": [0, 0]}
    cpu = time.process_time()
    for i in range(args.games):
        state = cy.new_game(args.mode, **options)
        aware = state.players[i % len(state.players)]
        bots = {
            t: make_bot("greedy", i, game="cyclo") if t == aware else ClassicScorer(i)
            for t in state.players
        }
        play_out(state, bots, chance=Rng(1000 + i), max_moves=100_000)
        result = state.result
        wins += result.winner_team == aware
        for rider, n in result.points.items():
            points["goal" if rider[0] == aware else "classic"][0] += n
        for rider, n in result.mountain.items():
            points["goal" if rider[0] == aware else "classic"][1] += n
    n = args.games
    low, high = wilson(wins, n)
    print(
        f"{args.mode} ({args.teams} teams, {options.get('course', 'its course')}): the "
        f"goal-aware greedy won {wins} of {n} ({wins / n:.1%}, 95% {low:.1%}-{high:.1%}); "
        f"{time.process_time() - cpu:.1f} s CPU"
    )
    if cy.MODES[args.mode].course_lines:
        others = args.teams - 1
        g, c = points["goal"], points["classic"]
        print(
            f"  green and red points a game: goal-aware team {g[0] / n:.1f} and {g[1] / n:.1f}, "
            f"each classic-scoring team {c[0] / n / others:.1f} and {c[1] / n / others:.1f}"
        )


if __name__ == "__main__":
    main()
