"""MCTS and tournament throughput on Mind Cycling `standard`, one core.

Prints MCTS playouts (iterations) per second from a mid-race position of 2 teams of 6
and of 6 teams of 6, for the default playouts (greedy, to the end of the race), greedy
playouts cut after 12 moves and the fast policy cut after 12 moves, and
`peloton simulate` games per second (greedy vs random, 2×6) with 1 and 2 processes.

    python benchmarks/mcts.py [--iterations N] [--games N]

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import time

from peloton.analysis import Tournament, run
from peloton.bots import make_bot
from peloton.bots.mcts import MCTSBot
from peloton.games import mindcycling as mc


def position(teams: int, rounds: int = 5) -> mc.State:
    """A greedy-played position at the start of round ``rounds``."""
    state = mc.new_game("standard", mc.default_teams(teams, 6))
    bot = make_bot("greedy", 1)
    while state.round < rounds:
        state.play(bot.choose(state))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    for teams in (2, 6):
        state = position(teams)
        for rollout, horizon in (
            ("rollout_move", None),
            ("rollout_move", 12),
            ("fast_rollout_move", 12),
        ):
            # settle=False: every playout is run, so the rate is the playouts' own.
            bot = MCTSBot(
                1, iterations=args.iterations, rollout=rollout, horizon=horizon, settle=False
            )
            start = time.perf_counter()
            bot.choose(state)
            elapsed = time.perf_counter() - start
            reach = "to the end" if horizon is None else f"{horizon} moves"
            print(
                f"MCTS {teams}x6 standard, round 5, {rollout:17} {reach:>10}: {args.iterations} playouts in "
                f"{elapsed:.2f} s = {args.iterations / elapsed:,.0f} iterations/s"
            )
    for jobs in (1, 2):
        t = Tournament(("greedy", "random"), games=args.games, swap=True)
        start = time.perf_counter()
        run(t, jobs)
        elapsed = time.perf_counter() - start
        print(
            f"simulate greedy,random 2x6 standard, --jobs {jobs}: {args.games} games in {elapsed:.2f} s = "
            f"{args.games / elapsed:.1f} games/s"
        )


if __name__ == "__main__":
    main()
