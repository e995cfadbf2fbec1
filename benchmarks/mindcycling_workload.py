"""Fixed Mind Cycling workloads for counting instructions, which stay stable on a
loaded machine where times do not: the same games every run, on `standard` with 6
teams of 6 (the public API only, so the script also runs on older commits).

    python benchmarks/mindcycling_workload.py random N SEED   # N random games
    python benchmarks/mindcycling_workload.py greedy N SEED   # N greedy-bot games
    python benchmarks/mindcycling_workload.py mcts N SEED     # one MCTS move, N playouts
    python benchmarks/mindcycling_workload.py none            # imports and course only

Run under ``PYTHONHASHSEED=0 valgrind --tool=callgrind``; an instruction count per
move is (count - count of ``none``) / moves, the moves being printed on stderr (for
``mcts``, the playouts; the greedy position it starts from is counted too).
"""

from __future__ import annotations

import random
import sys

from peloton.games import mindcycling as mc


def random_games(n: int, seed: int) -> int:
    """Play ``n`` games of uniformly random legal moves; the moves played."""
    course = mc.Course.load("standard")
    rnd = random.Random(seed)
    moves = 0
    for _ in range(n):
        state = mc.new_game(course, mc.default_teams(6, 6))
        while not state.is_over:
            legal = state.legal_moves()
            state.play(legal[int(rnd.random() * len(legal))])
            moves += 1
    return moves


def greedy_games(n: int, seed: int) -> int:
    """Play ``n`` games of the greedy bot against itself (MCTS playouts are greedy)."""
    from peloton.bots.greedy import GreedyBot

    course = mc.Course.load("standard")
    moves = 0
    for g in range(n):
        bot = GreedyBot(seed + g)
        state = mc.new_game(course, mc.default_teams(6, 6))
        while not state.is_over:
            state.play(bot.choose(state))
            moves += 1
    return moves


def mcts_move(n: int, seed: int) -> int:
    """One MCTS move of ``n`` playouts (greedy, to the end; every playout run) from a
    greedy-played position of 6 teams of 6 at the start of round 5."""
    from peloton.bots.greedy import GreedyBot
    from peloton.bots.mcts import MCTSBot

    state = mc.new_game("standard", mc.default_teams(6, 6))
    bot = GreedyBot(1)
    while state.round < 5:
        state.play(bot.choose(state))
    MCTSBot(seed, iterations=n, horizon=None, settle=False).choose(state)
    return n


def main() -> None:
    kind = sys.argv[1]
    if kind == "none":
        mc.Course.load("standard")
        moves = 0
    else:
        work = {"random": random_games, "greedy": greedy_games, "mcts": mcts_move}[kind]
        moves = work(int(sys.argv[2]), int(sys.argv[3]))
    print("moves", moves, file=sys.stderr)


if __name__ == "__main__":
    main()
