"""Simulated games per second on this machine with ``--jobs 1``, ``--jobs 2`` and
``--ray`` (a local Ray of ``--ray-cpus`` CPUs, or the cluster at ``--ray-address``),
the same runs as ``peloton simulate`` plays, each run checked to give the same
outcomes as ``--jobs 1``.

    python benchmarks/simulate_scale.py [--games N] [--game GAME] [--bots B1,B2]
        [--ray-cpus N] [--ray-address ADDRESS]

Wall-clock rates: they move with the machine's load. Ray's start (or joining the
cluster) is timed apart from the games: ``peloton simulate --ray`` pays it once a
run. Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from typing import Any

from peloton.analysis.match import Match, run_match
from peloton.analysis.pool import Workers
from peloton.analysis.ray_pool import RayCluster, import_ray
from peloton.analysis.tournament import Tournament, run


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--game", default="mind-cycling")
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ray-cpus", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--ray-address", default=None, help="a running cluster instead")
    args = parser.parse_args()
    bots = tuple(args.bots.split(","))
    if args.game == "mind-cycling":
        setup: Any = Tournament(bots, games=args.games, seed=args.seed, swap=True)
        play: Any = run
    else:
        setup, play = Match(args.game, bots, games=args.games, seed=args.seed, swap=True), run_match
    print(f"{args.games} games of {args.game}, {args.bots}, {os.cpu_count()} cores")
    print(f"{'workers':<28}{'seconds':>10}{'games/s':>10}")

    def measure(label: str, workers: Workers) -> list[Any]:
        start = time.perf_counter()
        outcomes = play(setup, workers)
        seconds = time.perf_counter() - start
        print(f"{label:<28}{seconds:>10.2f}{args.games / seconds:>10.2f}", flush=True)
        return [o if isinstance(o, dict) else o.to_dict() for o in outcomes]

    alone = measure("--jobs 1", 1)
    assert measure("--jobs 2", 2) == alone, "--jobs 2 played other games"
    ray = import_ray()
    start = time.perf_counter()
    if args.ray_address is None:
        ray.init(num_cpus=args.ray_cpus, include_dashboard=False, logging_level=logging.ERROR)
        where = f"--ray (local, {args.ray_cpus} CPUs)"
    else:
        ray.init(address=args.ray_address, logging_level=logging.ERROR)
        where = f"--ray ({args.ray_address})"
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(f"{'Ray start or join':<28}{time.perf_counter() - start:>10.2f}  ({cpus} CPUs)")
    try:
        assert measure(where, RayCluster()) == alone, "--ray played other games"
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
