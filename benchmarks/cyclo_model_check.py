"""Cyclo: the engine against the independent reference model, over many random games.

    python benchmarks/cyclo_model_check.py [--games N] [--seed S] [--max-moves M]

Each game (mode, level, teams, course, events, saved tokens, maybe a random CYN start,
all drawn from its seed) is played on the engine and on
``tests/games/cyclo/model.py`` side by side, comparing legal moves before every move,
the position after it, the CYN at every round start and the result at the end
(``tests/games/cyclo/test_model.py`` runs a few of them in ``make test``). Prints the
games and moves checked and every discrepancy found, grouped by what differed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.games.cyclo.test_model import Discrepancy, check_game, random_game


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-moves", type=int, default=20_000)
    args = parser.parse_args()

    moves = 0
    modes: dict[str, int] = defaultdict(int)
    found: dict[str, list[tuple[int, str]]] = defaultdict(list)
    cpu = time.process_time()
    for seed in range(args.seed, args.seed + args.games):
        rnd = random.Random(seed)
        game = random_game(rnd)
        modes[f"{game.mode} {game.level}{' from a CYN' if game.cyn else ''}"] += 1
        try:
            moves += check_game(game, rnd.randrange(2**32), max_moves=args.max_moves)
        except Discrepancy as error:
            found[str(error).split(":")[0]].append((seed, str(error)))
    cpu = time.process_time() - cpu
    print(
        f"games checked: {args.games} (seeds {args.seed}-{args.seed + args.games - 1}), "
        f"moves checked: {moves}, {cpu:.1f} s CPU"
    )
    for name, count in sorted(modes.items()):
        print(f"  {name:28} {count}")
    print(f"discrepancies: {sum(len(v) for v in found.values())}")
    for what, cases in found.items():
        print(f"== {what}: {len(cases)} game(s), seeds {[s for s, _ in cases[:10]]}")
        print(cases[0][1])


if __name__ == "__main__":
    main()
