"""Environment steps per second of each game's PettingZoo environment (``peloton.rl``):
whole episodes of uniformly random masked actions, one core.

    python benchmarks/rl_steps.py [--seconds 10] [--game GAME ...]

A step is one agent's action (``env.step``) with the observation and action mask read
before it (``env.last()``) and a uniform draw from the mask, which is what a learner
pays for less its own policy; chance steps rolled by
the environment and the dead agents' closing steps are not counted. Mind Cycling is
measured on the engine this process runs (the native core when it is compiled) and
again in a child process with ``PELOTON_ENGINE=python``, for comparison. Prints
figures only; docs/research.md quotes them. Nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

from peloton import native, rl

#: The games and the options measured: each game's defaults (Mind Cycling's 2 teams of
#: 6 on the standard course), and the solo challenge.
CASES = {
    "mind-cycling": {},
    "mind-cycling solo": {"players": 1},
    "mind-twist": {},
    "pistard": {},
    "cyclo": {},
}


def measure(game: str, options: dict[str, object], seconds: float) -> tuple[float, float, int]:
    """(steps per second of wall time, per second of CPU, episodes played)."""
    env = rl.env(game.split()[0], **options)
    rng = np.random.default_rng(1)
    steps = episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episodes)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        episodes += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return steps / wall, steps / cpu, episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per game")
    parser.add_argument("--game", action="append", choices=sorted(CASES), help="default: all")
    parser.add_argument("--no-compare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    engine = native.engine()
    print(f"Mind Cycling engine: {engine}  ({native.reason()})")
    print(f"{'game':<20} {'steps/s':>9} {'per CPU s':>10} {'episodes':>9}")
    for game in args.game or CASES:
        wall, cpu, episodes = measure(game, CASES[game], args.seconds)
        print(f"{game:<20} {wall:>9.0f} {cpu:>10.0f} {episodes:>9}", flush=True)
    if engine != "python" and not args.no_compare:
        print("\nMind Cycling again with PELOTON_ENGINE=python:", flush=True)
        games = [g for g in (args.game or CASES) if g.startswith("mind-cycling")]
        command = [sys.executable, __file__, "--seconds", str(args.seconds), "--no-compare"]
        for game in games:
            command += ["--game", game]
        if games:
            subprocess.run(command, env={**os.environ, "PELOTON_ENGINE": "python"}, check=True)


if __name__ == "__main__":
    main()
