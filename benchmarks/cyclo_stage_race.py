"""Cyclo stage races: how long a whole tour (prologue, flat stage, mountain stage, team
time trial) takes between greedy bots, how big its competition file is, and how long
loading that file takes (every leg replayed through the rules); one core.

    python benchmarks/cyclo_stage_race.py [--races N] [--teams T] [--seed S]

Wall-clock figures move with the machine's load, so CPU times are printed too. Prints
figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import json
import time

from peloton.bots import make_bot, play_out
from peloton.core.rng import Rng
from peloton.games import cyclo as cy


def tour(teams: int, seed: int) -> cy.StageRace:
    """A whole tour between greedy bots, each leg's dice from its own seed."""
    race = cy.StageRace(teams)
    bot = make_bot("greedy", seed, game="cyclo")
    k = 0
    while (leg := race.next_game(seed=seed * 10 + k)) is not None:
        play_out(leg, bot, chance=Rng(seed * 10 + k))
        race.add(leg)
        k += 1
    return race


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--races", type=int, default=5)
    parser.add_argument("--teams", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ride_wall = ride_cpu = load_wall = load_cpu = 0.0
    size = moves = 0
    for r in range(args.races):
        wall, cpu = time.perf_counter(), time.process_time()
        race = tour(args.teams, args.seed + r)
        ride_wall += time.perf_counter() - wall
        ride_cpu += time.process_time() - cpu
        text = json.dumps(race.to_dict())
        size += len(text)
        moves += sum(len(record.moves) for record in race.records)
        wall, cpu = time.perf_counter(), time.process_time()
        again = cy.load_competition(text)
        load_wall += time.perf_counter() - wall
        load_cpu += time.process_time() - cpu
        assert again.standings == race.standings
    n = args.races
    print(f"greedy tours of {args.teams} teams (4 legs): {n} races")
    print(f"  ride a tour      : {ride_wall / n:6.2f} s   ({ride_cpu / n:.2f} s CPU)")
    print(
        f"  load its file    : {load_wall / n:6.2f} s   ({load_cpu / n:.2f} s CPU; every leg replayed)"
    )
    print(f"  file size        : {size / n / 1024:6.1f} KiB ({moves / n:.0f} moves)")


if __name__ == "__main__":
    main()
