"""Pistard playout throughput: random games, moves and legal-move generations per
second, greedy games per second (default options, 2 and 4 players), one core.

    python benchmarks/pistard_playout.py [--games N] [--seed S] [--strength N] [--bonus B]

``--strength N`` also plays games of one greedy bot against random bots (its seat
rotating): N with 2 players, N/2 with 3 and with 4, and prints its win rate with a 95%
Wilson interval. ``--bonus`` plays another value of the option than the default
(``colour`` plays what the default was before both bonuses became the standard game,
to compare the engine's speed like with like).
Prints figures only; docs/pistard.md quotes them. Nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import random
import time

from _rates import generate_legal_moves, per_second, random_playout
from peloton.analysis.stats import wilson
from peloton.bots import make_bot, play_out
from peloton.core.rng import Rng
from peloton.games import pistard as pi


def random_game(players: int, seed: int, bonus: str) -> pi.State:
    """One game of uniformly random legal moves, dice from ``Rng(seed)``."""
    return random_playout(pi.from_options({"players": players, "bonus": bonus}), seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strength", type=int, default=0)
    parser.add_argument("--bonus", default=pi.OPTIONS["bonus"].default, choices=pi.BONUSES)
    args = parser.parse_args()
    bonus = args.bonus
    random_game(2, args.seed, bonus)  # warm up

    for players in (2, 4):
        start = time.perf_counter()
        moves = rounds = 0
        samples: list[pi.State] = []
        for g in range(args.games):
            state = random_game(players, args.seed + g, bonus)
            moves += len(state.history)
            rounds += state.round
        elapsed = time.perf_counter() - start
        print(
            f"random games, {players} players (default track, bonus {bonus}): {args.games} in {elapsed:.2f} s"
        )
        print(f"  games per second : {args.games / elapsed:8.1f}")
        print(f"  moves per second : {moves / elapsed:8.0f}  (rolls included)")
        print(
            f"  moves per game   : {moves / args.games:8.1f}  rounds per game: {rounds / args.games:.1f}"
        )

        # Legal-move generation alone, on the positions of one random game.
        state = pi.from_options({"players": players, "bonus": bonus})
        rng, rnd = Rng(args.seed), random.Random(args.seed)
        while not state.is_over:
            if not state.is_chance and state.round > 1:
                samples.append(state.copy())
            legal = state.legal_moves()
            state.play(
                state.chance_move(rng) if state.is_chance else legal[int(rnd.random() * len(legal))]
            )
        rate = per_second(samples, generate_legal_moves, 1.5)
        print(f"  legal-move generations per second (race positions): {rate:8.0f}")

        games = max(10, args.games // 4)
        start = time.perf_counter()
        for g in range(games):
            state = pi.from_options({"players": players, "bonus": bonus})
            play_out(state, make_bot("greedy", g), chance=Rng(args.seed + g))
        elapsed = time.perf_counter() - start
        print(f"  greedy games per second: {games / elapsed:8.1f}")

    if args.strength:
        for players in (2, 3, 4):
            n = args.strength if players == 2 else args.strength // 2
            wins = 0
            for g in range(n):
                state = pi.from_options({"players": players, "bonus": bonus})
                seat = state.players[g % players]
                bots = {
                    t: make_bot("greedy" if t == seat else "random", 1_000 * g + i)
                    for i, t in enumerate(state.players)
                }
                play_out(state, bots, chance=Rng(90_000 + g))
                wins += state.result.winner == seat
            low, high = wilson(wins, n)
            print(
                f"greedy vs random, {players} players: {wins}/{n} = {wins / n:.1%} "
                f"(95% Wilson [{low:.1%}, {high:.1%}]; chance alone: {1 / players:.0%})"
            )


if __name__ == "__main__":
    main()
