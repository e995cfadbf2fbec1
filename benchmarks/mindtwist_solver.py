"""Mind Twist solver and playout figures, one core.

    python benchmarks/mindtwist_solver.py [--length 30] [--milestones 8,16,24] [--games N] [--seed S]

Prints: the solve (time, value-iteration sweeps, states, convergence), red's chance
from the start under optimal play, random playouts per second, and the optimal bot's
measured win rate (seats swapped, bots given views) against random and pass3 with a
95% interval, beside the rate the solver predicts. Nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence

from peloton.bots import Bot, make_bot
from peloton.games import mindtwist as mt
from peloton.games.mindtwist import solver
from peloton.games.mindtwist.bots import OptimalBot, Pass3Bot

OPPONENTS = {
    "random": (lambda a, o: (1 / 3,) * 3, lambda a, o: (0.25,) * 4),
    "pass3": (lambda a, o: (0.0, 0.0, 1.0), lambda a, o: (0.0, 0.0, 0.0, 1.0)),
}


def random_game(options: dict[str, object], rnd: random.Random) -> int:
    """One game of uniformly random legal moves; the number of moves."""
    state = mt.from_options(options)
    moves = 0
    while not state.is_over:
        legal = state.legal_moves()
        state.play(legal[int(rnd.random() * len(legal))])
        moves += 1
    return moves


def bot(name: str, seed: int) -> Bot:
    """The game's own bots (optimal, pass3) or a generic one (random)."""
    own = {"optimal": OptimalBot, "pass3": Pass3Bot}
    return own[name](seed) if name in own else make_bot(name, seed)


def match(opponent: str, options: dict[str, object], games: int, seed: int) -> float:
    """The optimal bot's share of wins against ``opponent``, seats swapped."""
    wins = 0
    for i in range(games):
        optimal, other = bot("optimal", seed + 2 * i), bot(opponent, seed + 2 * i + 1)
        seats = {"R": optimal, "B": other} if i % 2 == 0 else {"R": other, "B": optimal}
        state = mt.from_options(options)
        while not state.is_over:
            player = state.current_player
            assert player is not None
            state.play(seats[player].choose(state.view(player)))
        wins += seats[state.result] is optimal  # type: ignore[index]
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--length", type=int, default=30)
    parser.add_argument("--milestones", default="8,16,24")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    milestones: Sequence[int] = tuple(int(m) for m in args.milestones.split(",") if m)
    options: dict[str, object] = {"length": args.length, "milestones": list(milestones)}

    board = mt.Board(args.length, tuple(milestones))
    solution = solver.compute(board)  # uncached: a fresh solve
    print(f"board: length {board.length}, milestones {list(board.milestones)}")
    print(
        f"solve: {solution.seconds:.2f} s, {solution.iterations} sweeps of {solution.states} states "
        f"({2 * solution.states} with colours), tolerance {solution.tolerance:g}, "
        f"last change {solution.residual:.1e}"
    )
    print(
        f"red (active first) wins from the start under optimal play: {solution.value('R0 B0 R'):.6f}"
    )
    proof = mt.certify(solution)
    low, high = proof.bounds(0, 0)
    print(
        f"certificate: the strategies guarantee the values to within {proof.gap:.1e} at every "
        f"state ({proof.iterations} sweeps, {proof.seconds:.2f} s); red from the start in "
        f"[{low:.13f}, {high:.13f}]"
    )
    limit = board.turn_limit
    print(
        f"two optimal players are still racing after 50 turns with chance {solution.unfinished(50):.2e}, "
        f"after the turn limit of {limit} with chance {solution.unfinished(limit):.1e}"
    )
    start = mt.from_options(options)
    dial = ", ".join(f"{m} {p:.4f}" for m, p in solution.dial_strategy(start).items())
    guess = ", ".join(f"{m} {p:.4f}" for m, p in solution.guess_strategy(start).items())
    print(f"  at the start: red dials {dial}; blue answers {guess}")

    rnd = random.Random(args.seed)
    random_game(options, rnd)
    started = time.perf_counter()
    moves = 0
    playouts = 0
    while time.perf_counter() - started < 3.0:
        moves += random_game(options, rnd)
        playouts += 1
    elapsed = time.perf_counter() - started
    print(
        f"random playouts: {playouts / elapsed:,.0f} games/s, {moves / elapsed:,.0f} moves/s "
        f"({moves / playouts:.1f} moves a game)"
    )

    for opponent, (dial_policy, response_policy) in OPPONENTS.items():
        as_red, as_blue = mt.solve(args.length, milestones).against(dial_policy, response_policy)
        predicted = (as_red + as_blue) / 2
        started = time.perf_counter()
        rate = match(opponent, options, args.games, args.seed)
        elapsed = time.perf_counter() - started
        half = 1.96 * math.sqrt(rate * (1 - rate) / args.games)
        print(
            f"optimal vs {opponent}: measured {rate:.4f} ± {half:.4f} (95%, {args.games} games, "
            f"{args.games / elapsed:,.0f} games/s); predicted {predicted:.4f} "
            f"(as red {as_red:.4f}, as blue {as_blue:.4f})"
        )


if __name__ == "__main__":
    main()
