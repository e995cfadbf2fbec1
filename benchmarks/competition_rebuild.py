"""What a restarted table server pays to rebuild a competition: a stage race's file
replayed through the rules (``cy.load_competition``, what the server does with an
unfinished competition's finished tables at start-up, and with a finished one's the
first time its file is asked for).

    python benchmarks/competition_rebuild.py [--teams 4] [--legs tour] [--runs 3]

The legs are ridden with seeded random legal moves (the fastest way to a realistic
number of moves); the figure is the replay alone: seconds per competition and moves
per second. Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import time

from peloton.core.rng import Rng
from peloton.games import cyclo as cy


def ridden(teams: int, legs: str, seed: int) -> dict[str, object]:
    """The file of a stage race ridden to the end with random legal moves."""
    race = cy.StageRace(teams, legs=legs)
    rng = Rng(seed)
    index = 0
    while not race.is_over:
        state = race.next_game(seed=seed + index)
        assert state is not None
        chance = Rng(seed + index)
        while not state.is_over:
            moves = state.legal_moves()
            state.play(state.chance_move(chance) if state.is_chance else rng.choice(moves))
        race.add(state)
        index += 1
    return race.to_dict()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=4)
    parser.add_argument("--legs", default="tour")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    data = ridden(args.teams, args.legs, seed=1)
    games = data["games"]
    assert isinstance(games, list)
    moves = sum(len(game["moves"]) for game in games)
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        cy.load_competition(data)
        times.append(time.perf_counter() - start)
    best = min(times)
    print(f"stage race, {args.teams} teams, legs {args.legs}: {len(games)} games, {moves} moves")
    print(
        f"rebuild (replay every game): best {best:.3f} s of {args.runs}, {moves / best:,.0f} moves/s"
    )


if __name__ == "__main__":
    main()
