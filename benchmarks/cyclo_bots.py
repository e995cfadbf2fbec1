"""Bot against bot at Cyclo The Game: seat-swapped Pro classics, the win share of each
bot with its 95% interval.

    python benchmarks/cyclo_bots.py --bots greedy,random --games 200

Game i seats the bots rotated by i (``--swap`` in ``peloton simulate``); the dice and
cards of game i come from ``Rng(seed).spawn(i)``, each bot from its own stream. A team
wins when its best rider is first across the line (CY-8.4).
"""

from __future__ import annotations

import argparse
import time

from peloton.analysis.stats import wilson
from peloton.bots import make_bot, play_out
from peloton.core.rng import Rng
from peloton.games import cyclo as cy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="greedy,random", help="one bot per seat, e.g. greedy,random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--course", default="flemish-4")
    parser.add_argument("--level", default="pro")
    args = parser.parse_args()
    names = args.bots.split(",")
    seats = len(names)
    wins = [0] * seats
    rounds = 0
    start = time.perf_counter()
    for i in range(args.games):
        stream = Rng(args.seed).spawn(i)
        state = cy.from_options({"mode": "classic", "players": seats, "course": args.course, "level": args.level})
        lineup = [(s + i) % seats for s in range(seats)]  # entry sitting at each seat
        bots = {team: make_bot(names[lineup[s]], stream.spawn(s).seed) for s, team in enumerate(state.players)}
        play_out(state, bots, chance=stream.spawn(1_000_003), max_moves=100_000)
        winner = state.result.winner_team
        wins[lineup[state.players.index(winner)]] += 1
        rounds += state.round
    elapsed = time.perf_counter() - start
    print(f"{args.games} seat-swapped {args.level} classics on {args.course}, {seats} teams "
          f"({rounds / args.games:.1f} rounds a game, {elapsed:.0f} s)")
    for entry, name in enumerate(names):
        low, high = wilson(wins[entry], args.games)
        print(f"  {name:>10} (entry {entry + 1}): {wins[entry]:.0f} wins, {wins[entry] / args.games:.1%} "
              f"[95% {low:.1%}-{high:.1%}]")


if __name__ == "__main__":
    main()
