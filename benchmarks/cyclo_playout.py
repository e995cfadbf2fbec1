"""Cyclo The Game playout throughput: complete random Pro classics per second (4 teams
of 4 on flemish-4, event cards on), moves per second, legal-move generations per
second, greedy games per second, and peak memory; one core.

    python benchmarks/cyclo_playout.py [--games N] [--seed S]

Wall-clock figures move with the machine's load, so CPU-time rates are printed too.
Prints figures only; docs/cyclo.md quotes them. Nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
import tracemalloc

from _rates import generate_legal_moves, per_second, random_playout
from peloton.bots import make_bot, play_out
from peloton.core.rng import Rng
from peloton.games import cyclo as cy

OPTIONS = {"mode": "classic", "players": 4, "course": "flemish-4", "level": "pro", "events": True}


def random_game(seed: int) -> cy.State:
    """One game of uniformly random legal moves, chance from ``Rng(seed)``."""
    return random_playout(cy.from_options(OPTIONS), seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random_game(args.seed)  # warm up: the shared ride values are built once

    moves = rounds = draws = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for g in range(args.games):
        state = random_game(args.seed + g)
        moves += len(state.history)
        rounds += state.round
        draws += sum(1 for m in state.history if isinstance(m, cy.Draw))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"random Pro classics, 4 teams of 4 on flemish-4, events on: {args.games} in {wall:.2f} s "
        f"({cpu:.2f} s CPU)"
    )
    print(
        f"  games per second : {args.games / wall:8.1f}   ({args.games / cpu:.1f} per CPU second)"
    )
    print(
        f"  moves per second : {moves / wall:8.0f}   ({moves / cpu:.0f} per CPU second; rolls and draws included)"
    )
    print(
        f"  moves per game   : {moves / args.games:8.1f}   rounds per game: {rounds / args.games:.1f}, "
        f"cards drawn: {draws / args.games:.1f}"
    )

    samples = []
    state = cy.from_options(OPTIONS)
    rng, rnd = Rng(args.seed), random.Random(args.seed)
    while not state.is_over:
        if not state.is_chance:
            samples.append(state.copy())
        legal = state.legal_moves()
        state.play(
            state.chance_move(rng) if state.is_chance else legal[int(rnd.random() * len(legal))]
        )
    print(
        f"  legal-move generations per second (decision positions): "
        f"{per_second(samples, generate_legal_moves, 1.5):8.0f}"
    )
    print(f"  copies per second: {per_second(samples, lambda s: s.copy(), 1.0):8.0f}")

    games = max(10, args.games // 10)
    start = time.perf_counter()
    for g in range(games):
        play_out(cy.from_options(OPTIONS), make_bot("greedy", g), chance=Rng(args.seed + g))
    print(f"  greedy games per second: {games / (time.perf_counter() - start):8.1f}")

    tracemalloc.start()
    random_game(args.seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"  peak memory of one game (Python allocations): {peak / 1024:8.0f} KiB; "
        f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
    )


if __name__ == "__main__":
    main()
