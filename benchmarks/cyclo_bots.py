"""Cyclo's bots: MCTS playouts per second at a mid-race position, and bot against bot.

    python benchmarks/cyclo_bots.py [--iterations N]
    python benchmarks/cyclo_bots.py --bots greedy,random --games 200

Without ``--bots``: MCTS iterations per second from a greedy-played Pro classic on
``flemish-4`` (2 teams of 4) at the start of round 6, with playouts run to the end of
the race, cut after 20 moves (about a round) and scored by the race model, and at
the game's own horizon (``HEURISTICS["horizon"]``: none, the position after the new
move is scored at once). Each rate is given per second of CPU (steady on a shared
machine) and of wall clock (what ``mcts:1s`` gets).

With ``--bots``: seat-swapped Pro classics, the win share of each bot with its 95%
interval. Game i seats the bots rotated by i (``--swap`` in ``peloton simulate``); the
dice and cards of game i come from ``Rng(seed).spawn(i)``, each bot from its own
stream. A team wins when its best rider is first across the line (CY-8.4).
``peloton simulate --game cyclo`` does the same with Cyclo's figures and more;
``benchmarks/cyclo_strength.py`` runs long measurements (CPU-time budgets, one JSON
line a game, resumable).

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import time

from peloton.analysis.stats import wilson
from peloton.bots import make_bot, play_out
from peloton.bots.mcts import GAME_HORIZON, MCTSBot
from peloton.core.rng import Rng
from peloton.games import cyclo as cy


def position(round_: int = 6, seed: int = 1) -> cy.State:
    """A greedy-played Pro classic on flemish-4, 2 teams, at the first decision of
    round ``round_``."""
    state = cy.from_options({"course": "flemish-4"})
    bot, dice = make_bot("greedy", seed), Rng(seed)
    while state.round < round_ or state.is_chance:
        state.play(state.chance_move(dice) if state.is_chance else bot.choose(state))
    return state


def playouts(iterations: int) -> None:
    """Print MCTS iterations per second at three playout lengths."""
    state = position()
    print(f"round {state.round}, {state.due} to {state.phase}:")
    print(f"  {len(state.legal_moves())} legal moves for {state.due} ({state.phase})")
    for label, horizon in (
        ("to the end", None),
        ("20 moves", 20),
        ("the game's (0)", GAME_HORIZON),
    ):
        # settle=False: every playout is run, so the rate is the playouts' own.
        bot = MCTSBot(1, iterations=iterations, horizon=horizon, settle=False)
        wall, cpu = time.perf_counter(), time.process_time()
        bot.choose(state)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"MCTS, playouts {label:>15}: {iterations} in {cpu:.2f} s CPU = {iterations / cpu:,.0f}/s CPU, "
            f"{iterations / wall:,.0f}/s wall"
        )


def duel(names: list[str], games: int, seed: int, course: str, level: str) -> None:
    """Print the win share of each bot over ``games`` seat-swapped classics."""
    seats = len(names)
    wins = [0] * seats
    rounds = 0
    start = time.perf_counter()
    for i in range(games):
        stream = Rng(seed).spawn(i)
        state = cy.from_options(
            {"mode": "classic", "players": seats, "course": course, "level": level}
        )
        lineup = [(s + i) % seats for s in range(seats)]  # entry sitting at each seat
        bots = {
            team: make_bot(names[lineup[s]], stream.spawn(s).seed)
            for s, team in enumerate(state.players)
        }
        play_out(state, bots, chance=stream.spawn(1_000_003), max_moves=100_000)
        winner = state.result.winner_team
        wins[lineup[state.players.index(winner)]] += 1
        rounds += state.round
    elapsed = time.perf_counter() - start
    print(
        f"{games} seat-swapped {level} classics on {course}, {seats} teams "
        f"({rounds / games:.1f} rounds a game, {elapsed:.0f} s)"
    )
    for entry, name in enumerate(names):
        low, high = wilson(wins[entry], games)
        print(
            f"  {name:>10} (entry {entry + 1}): {wins[entry]:.0f} wins, {wins[entry] / games:.1%} "
            f"[95% {low:.1%}-{high:.1%}]"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--iterations", type=int, default=300, help="MCTS iterations a rate is measured over"
    )
    parser.add_argument("--bots", help="one bot per seat, e.g. greedy,random: play games instead")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--course", default="flemish-4")
    parser.add_argument("--level", default="pro")
    args = parser.parse_args()
    if args.bots:
        duel(args.bots.split(","), args.games, args.seed, args.course, args.level)
    else:
        playouts(args.iterations)


if __name__ == "__main__":
    main()
