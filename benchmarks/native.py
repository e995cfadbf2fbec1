"""The native Mind Cycling engine against the pure-Python one, in the same run, one core.

Prints, in CPU time (``time.process_time``: the machine may be shared), the best of
``--repeat`` runs of each figure (as ``timeit`` advises: a run is only ever slowed by
what else the machine does, never sped up):

* complete random races, 6 teams of 6 on `standard` (setup included), per second:
  the native batch API (``NativeGame.batch_random``) and the Python engine;
* the same races through the public per-move API (``State.legal_moves()``/``play()``,
  Move objects) on each engine, and the bridge's own per-move calls
  (``NativeGame.legal_at``/``play_legal``, what the public API adds its checks to);
* MCTS iterations per second with whole greedy playouts (the default policy), 2×6 on
  `standard` from round 5, with native and with Python playouts.

    python benchmarks/native.py [--games N] [--iterations N] [--repeat K]

Prints figures only; nothing here is asserted by tests (tests/native checks that the
two engines play the same moves).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from peloton import native
from peloton.bots import make_bot
from peloton.bots.mcts import MCTSBot
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import native as bridge


def cpu_rate(count: int, work: Callable[[int], object], repeat: int = 1) -> float:
    """``count`` / CPU seconds that ``work(run)`` takes, the best of ``repeat`` runs.

    Each run gets its own number to seed its games with: the same games again would
    find the Python engine's move memo already full of their positions."""
    best = 0.0
    for run in range(1, max(1, repeat) + 1):
        start = time.process_time()
        work(run)
        best = max(best, count / max(time.process_time() - start, 1e-9))
    return best


def python_races(course: mc.Course, games: int, seed: int) -> None:
    """Random 6×6 races through the public API (the Python engine)."""
    rnd = random.Random(seed)
    for _ in range(games):
        state = mc.new_game(course, mc.default_teams(6, 6))
        while not state.is_over:
            legal = state.legal_moves()
            state.play(legal[int(rnd.random() * len(legal))])


def native_per_move(course: mc.Course, games: int, seed: int) -> None:
    """The same races, through the bridge's per-move calls the public API makes
    (``NativeGame.legal_at``/``play_legal``), Moves built, without its checks."""
    rnd = random.Random(seed)
    state = mc.new_game(course, mc.default_teams(6, 6))
    game = bridge.game_for(state.race)
    for _ in range(games):
        r = game.load(state.race)
        at = game.address(r)
        legal = game.legal_at(r, at)
        while not r.over:
            legal = game.play_legal(r, at, legal[int(rnd.random() * len(legal))])


def position(teams: int, rounds: int = 5) -> mc.State:
    """A greedy-played position at the start of round ``rounds`` (as benchmarks/mcts.py)."""
    state = mc.new_game("standard", mc.default_teams(teams, 6))
    bot = make_bot("greedy", 1)
    while state.round < rounds:
        state.play(bot.choose(state))
    return state


def mcts_rate(state: mc.State, iterations: int, repeat: int) -> float:
    """MCTS iterations per CPU second on ``state``, a fresh bot (no tree kept) each run."""
    return cpu_rate(
        iterations,
        lambda run: MCTSBot(run, iterations=iterations, settle=False).choose(state),
        repeat,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="native batch races")
    parser.add_argument("--python-games", type=int, default=60)
    parser.add_argument("--public-games", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--python-iterations", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure")
    args = parser.parse_args()
    print(f"engine: {native.engine()} ({native.reason()})")
    if not bridge.available():
        print("the native engine is not active: nothing to compare")
        return
    course = mc.Course.load("standard")
    start = mc.new_game(course, mc.default_teams(6, 6))
    game = bridge.game_for(start.race)
    r = game.load(start.race)
    game.batch_random(r, 20, 0)  # warm up

    k = args.repeat
    batch = cpu_rate(args.games, lambda run: game.batch_random(r, args.games, run), k)
    python_races(course, 2, 0)  # warm up: the native game's moves are interned once
    public = cpu_rate(
        args.public_games, lambda run: python_races(course, args.public_games, run), k
    )
    python = _python_engine(
        lambda: cpu_rate(
            args.python_games, lambda run: python_races(course, args.python_games, run), k
        )
    )
    per_move = cpu_rate(
        args.public_games, lambda run: native_per_move(course, args.public_games, run), k
    )
    print("complete random races, standard, 6 teams x 6 (setup included), per CPU second:")
    print(f"  native batch API          : {batch:10,.0f}   ({batch / python:,.0f}x Python)")
    print(f"  public API, native engine : {public:10,.0f}   ({public / python:,.1f}x Python)")
    print(f"  native per-move calls     : {per_move:10,.0f}   ({per_move / python:,.1f}x Python)")
    print(f"  public API, Python engine : {python:10,.0f}")

    state = position(2)
    fast = mcts_rate(state, args.iterations, k)
    with_python = _python_engine(lambda: mcts_rate(state, args.python_iterations, k))
    print("MCTS, standard 2x6 from round 5, whole greedy playouts, iterations per CPU second:")
    print(f"  native engine             : {fast:10,.0f}   ({fast / with_python:,.1f}x Python)")
    print(f"  Python engine             : {with_python:10,.0f}")


def _python_engine(work: Callable[[], float]) -> float:
    """``work`` on the Python engine alone (as with ``PELOTON_ENGINE=python``)."""
    available = bridge.available
    bridge.available = lambda: False  # type: ignore[assignment]
    try:
        return work()
    finally:
        bridge.available = available  # type: ignore[assignment]


if __name__ == "__main__":
    main()
