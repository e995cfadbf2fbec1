"""Cyclo track events playout throughput: complete random games of each track event
per second, with their moves and rounds per game; one core.

    python benchmarks/cyclo_track_playout.py [--games N] [--seed S] [--level pro|starter]

Each event is raced by its usual field: a sprint heat, 2 teams of a team sprint or
team pursuit, 2 pursuers, and 4 teams of 2 entries in the bunch races. Wall-clock
figures move with the machine's load, so CPU-time rates are printed too. Prints
figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import time

from _rates import random_playout
from peloton.games import cyclo as cy

#: The field of each event: its options beside the mode.
FIELDS: dict[str, dict[str, int]] = {
    "sprint": {"players": 2},
    "team-sprint": {"players": 2},
    "pursuit": {"players": 2},
    "team-pursuit": {"players": 2},
    "keirin": {"players": 4, "entries": 2},
    "scratch": {"players": 4, "entries": 2},
    "elimination": {"players": 4, "entries": 2},
    "tempo": {"players": 4, "entries": 2},
    "points": {"players": 4, "entries": 2},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", choices=("pro", "starter"), default="pro")
    args = parser.parse_args()
    print(f"random {args.level} track events, {args.games} games each:")
    print(
        f"  {'event':<13}{'games/s':>9}{'CPU games/s':>13}{'moves/s':>9}{'moves':>8}{'rounds':>8}"
    )
    for mode, field in FIELDS.items():
        options = {"mode": mode, "level": args.level, **field}
        random_playout(cy.from_options(options), args.seed)  # warm up the shared rides
        moves = rounds = 0
        wall, cpu = time.perf_counter(), time.process_time()
        for g in range(args.games):
            state = random_playout(cy.from_options(options), args.seed + g)
            moves += len(state.history)
            rounds += state.round
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"  {mode:<13}{args.games / wall:9.1f}{args.games / cpu:13.1f}{moves / wall:9.0f}"
            f"{moves / args.games:8.1f}{rounds / args.games:8.1f}"
        )


if __name__ == "__main__":
    main()
