"""Bot throughput on Mind Cycling `standard`, 6 teams of 6, one core: greedy moves
per second (choice only, and choice + play), full greedy-vs-greedy games per second,
and the same for the random bot for comparison.

    python benchmarks/bots.py [--games N] [--seed S]

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import time

from peloton.bots import make_bot, play_out
from peloton.games import mindcycling as mc


def games(name: str, course: mc.Course, count: int, seed: int) -> tuple[float, int, int]:
    """Play ``count`` games with bot ``name`` in every seat: (seconds, moves, rounds)."""
    moves = rounds = 0
    start = time.perf_counter()
    for g in range(count):
        state = mc.new_game(course, mc.default_teams(6, 6))
        play_out(state, make_bot(name, seed + g))
        moves += len(state.history)
        rounds += state.round
    return time.perf_counter() - start, moves, rounds


def choice_rate(name: str, course: mc.Course, count: int, seed: int) -> tuple[float, int, float]:
    """Time ``choose`` alone over the positions of ``count`` games of that bot:
    (choices per second, choices, mean legal moves per choice)."""
    bot = make_bot(name, seed)
    positions: list[mc.State] = []
    for g in range(count):
        state = mc.new_game(course, mc.default_teams(6, 6))
        player = make_bot(name, seed + 1000 + g)
        while not state.is_over:
            positions.append(state.copy())
            state.play(player.choose(state))
    for p in positions:
        p.legal_moves()  # generation is the engine's cost, timed in its own benchmark
    start = time.perf_counter()
    for p in positions:
        bot.choose(p)
    elapsed = time.perf_counter() - start
    width = sum(len(p.legal_moves()) for p in positions) / len(positions)
    return len(positions) / elapsed, len(positions), width


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    course = mc.Course.load("standard")
    games("greedy", course, 2, args.seed)  # warm the caches

    for name in ("greedy", "random"):
        seconds, moves, rounds = games(name, course, args.games, args.seed)
        print(
            f"{name:6} vs {name:6} (standard, 6 teams x 6): {args.games} games in {seconds:.2f} s = "
            f"{args.games / seconds:.1f} games/s, {moves / seconds:,.0f} moves/s (choose + play), "
            f"{moves / args.games:.0f} moves and {rounds / args.games:.1f} rounds per game"
        )
    for name in ("greedy", "random"):
        rate, count, width = choice_rate(name, course, max(1, args.games // 10), args.seed)
        print(
            f"{name:6} choose() alone: {rate:,.0f} moves/s over {count} positions "
            f"({width:.1f} legal moves each on average)"
        )


if __name__ == "__main__":
    main()
