"""Mind Twist's analyst for ``peloton analyse``: exact, from the solver (MT-5).

Every position is valued as the *public* position: the two spaces and who dials. A
guesser never knows the dial it faces, so its position is not one state but a belief
over the three dials; the analysis takes as that belief the dialer's optimal mixed
strategy at that position (the solver's). That is the only belief under which the
guesser's values do not depend on what the dialer happened to do, and the one the
solved game's value assumes: against it every response in the guesser's optimal
support is worth exactly the position's value, so a move of optimal play costs 0 and
the cost of any other is what it gives away against optimal play. The dial itself is
never read, so the analysis of a guess is the same whatever the record's dial.

A dial is valued under the guesser's optimal response (its mixed strategy): again,
every dial in the dialer's optimal support is worth the position's value."""

from __future__ import annotations

from typing import Any

from ....analysis.review.assessment import Assessment, Budget
from ....core.rng import Rng
from ..notation import DIALS, PLAYERS, RESPONSES
from ..state import State
from .solution import solution_for

#: Values this close are equal (the solver's values are exact to about 1e-12).
TIE = 1e-9


class SolverAnalyst:
    """Exact values of Mind Twist positions (the budget is not needed)."""

    engine = "mind-twist solver"

    def assess(self, state: Any, played: Any, budget: Budget, rng: Rng) -> Assessment:
        """The public position's chances, the best move and ``played``'s exact cost."""
        values = move_values(state)
        # Mixed strategies make several moves equally best: the played one, if it is.
        best = max(values, key=lambda m: values[m] + (TIE if m == str(played) else 0.0))
        return Assessment(self.chances(state, budget, rng), best, values[best], values[str(played)])

    def chances(self, state: Any, budget: Budget, rng: Rng) -> dict[str, float]:
        """Each player's chance to win under optimal play from the public position."""
        solution = solution_for(state)
        return {p: solution.win_chance(state, p) for p in PLAYERS}


def move_values(state: State) -> dict[str, float]:
    """The mover's chance to win after each of its moves, by notation: dials against
    the guesser's optimal response, responses against the dialer's optimal dials."""
    solution = solution_for(state)
    a, o = solution.locate(state)
    table = solution.stage(a, o)  # the dialer's chance, per dial and response
    if state.phase == "dial":
        y = solution.responses[a][o]
        return {
            str(dial): sum(y[r] * table[d][r] for r in range(len(RESPONSES)))
            for d, dial in enumerate(DIALS)
        }
    x = solution.dials[a][o]
    return {
        str(response): 1.0 - sum(x[d] * table[d][r] for d in range(len(DIALS)))
        for r, response in enumerate(RESPONSES)
    }


def make() -> SolverAnalyst:
    """The analyst ``GameInfo.analyst`` names."""
    return SolverAnalyst()
