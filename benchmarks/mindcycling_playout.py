"""Mind Cycling playout throughput: complete random games, moves and legal-move
generations per second on `standard` with 6 teams of 6 (random setups), one core.

    python benchmarks/mindcycling_playout.py [--games N] [--seed S]

Prints figures only; docs/figures.md quotes them. Nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

from _rates import per_second
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import rules


def random_game(course: mc.Course, rnd: random.Random) -> tuple[mc.State, int]:
    """Play one game of uniformly random legal moves, setup included."""
    state = mc.new_game(course, mc.default_teams(6, 6))
    moves = 0
    while not state.is_over:
        legal = state.legal_moves()
        state.play(legal[int(rnd.random() * len(legal))])
        moves += 1
    return state, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    course = mc.Course.load("standard")
    rnd = random.Random(args.seed)
    random_game(course, rnd)  # warm the caches

    start = time.perf_counter()
    cpu = time.process_time()
    total_moves = 0
    rounds = 0
    positions: list[mc.State] = []
    for i in range(args.games):
        state, moves = random_game(course, rnd)
        total_moves += moves
        rounds += state.round
        if i < 20:
            positions.append(state)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(f"random games (standard, 6 teams x 6, random setup): {args.games} in {elapsed:.2f} s")
    # Process time too: on a shared machine it is the figure that other work disturbs least.
    print(
        f"  games per second : {args.games / elapsed:8.1f}  ({args.games / cpu:.1f} per second of CPU)"
    )
    print(
        f"  moves per second : {total_moves / elapsed:8.0f}  ({total_moves / cpu:.0f} per second of CPU)"
    )
    print(
        f"  moves per game   : {total_moves / args.games:8.1f}  rounds per game: {rounds / args.games:.1f}"
    )

    # Legal-move generation alone, on positions sampled from real games.
    samples: list[mc.State] = []
    state = mc.new_game(course, mc.default_teams(6, 6))
    while not state.is_over:
        if state.round > 0:
            samples.append(state.copy())
        legal = state.legal_moves()
        state.play(legal[int(rnd.random() * len(legal))])
    # The rules' generator itself, not the state's per-position cache of its answer.
    rate = per_second(samples, lambda s: rules.legal_moves(s.race), 2.0)
    print(f"legal-move generations per second (race positions): {rate:8.0f}")
    print(f"state copies per second: {per_second(samples, mc.State.copy, 1.0):8.0f}")

    tracemalloc.start()
    random_game(course, rnd)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak memory of one game: {peak / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
