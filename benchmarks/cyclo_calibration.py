"""How well MCTS's evaluation of a Cyclo mode predicts the winner: the log loss of the
chance it gives the first team (``A``) over positions of greedy races, for several
spreads (the models' variances times a factor). A coin scores 0.693; less is better.

    python benchmarks/cyclo_calibration.py ttt --games 30
    python benchmarks/cyclo_calibration.py keirin --entries 2 --games 40 --spreads 1 2 4 8 16

Two teams, game ``i`` with the dice of ``Rng(5000 + i)``, both teams greedy; every
``--every``-th position where a rider is to ride is scored. In the team modes
(``ttt``, ``team-pursuit``, ``team-sprint``) the factor widens the team time
(:func:`peloton.games.cyclo.bots.goals.team_times`, whose default is ``TEAM_TIME_SPREAD``);
in the other modes ranked by the race model (the time trials, ``keirin``,
``scratch``) it multiplies the race model's noise (``NOISE``). Nothing here is
asserted by tests.
"""

from __future__ import annotations

import argparse
import math
import sys

from peloton.bots import make_bot
from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.games.cyclo.bots import goals
from peloton.games.cyclo.bots.race_model import race_times, rank_shares

#: The modes whose evaluation is a rank share of the race model's times.
RANKED = ("itt", "ttt", "pursuit", "team-pursuit", "team-sprint", "keirin", "scratch")


def chance_of_a(state: cy.State, spread: float) -> float:
    """The evaluation's chance that team ``A`` wins, its variances times ``spread``."""
    if state.setup.mode.team_time:
        times = goals.team_times(state, race_times(state, goals.NOISE), spread=spread)
    else:
        times = race_times(state, goals.NOISE * spread)
    return rank_shares(times)["A"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=RANKED)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--entries", type=int, default=1, choices=(1, 2))
    parser.add_argument("--every", type=int, default=3, help="score every N-th position")
    parser.add_argument("--spreads", type=float, nargs="+", default=[1, 4, 8, 16, 32])
    args = parser.parse_args(argv)
    options = {"mode": args.mode, "players": 2}
    if cy.MODES[args.mode].riders is None:
        options["entries"] = args.entries
    loss = dict.fromkeys(args.spreads, 0.0)
    positions = 0
    for i in range(args.games):
        state = cy.from_options(options)
        rng = Rng(5000 + i)
        bots = {t: make_bot("greedy", n, game="cyclo") for n, t in enumerate(state.players)}
        seen = []
        while not state.is_over:
            if state.is_chance:
                state.play(state.chance_move(rng))
                continue
            if state.phase == "ride":
                seen.append(state.copy())
            team = state.current_player
            assert team is not None
            state.play(bots[team].choose(state))
        won = state.result.teams[0] == "A"
        for position in seen[:: args.every]:
            for spread in args.spreads:
                p = min(max(chance_of_a(position, spread), 1e-4), 1 - 1e-4)
                loss[spread] += -math.log(p if won else 1 - p)
            positions += 1
    print(f"{args.mode}: {args.games} greedy races, {positions} positions")
    for spread, total in loss.items():
        print(f"  spread x{spread:g}: log loss {total / max(positions, 1):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
