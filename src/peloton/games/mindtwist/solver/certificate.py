"""A certificate for a solved board: what the solver's strategies guarantee.

Value iteration stops when values stop moving, which alone does not bound their error
in a game that may go on for ever. This module bounds it. Fix the solver's strategies
for one player (both roles); the opponent then faces a one-player problem, and the
least chance it can leave that player is computed by value iteration *from zero*:
every sweep is the least chance of winning within a bounded number of moves, so every
value it produces is a lower bound, a never-ending game counting as a loss. If those
guarantees meet the solver's values from both sides, the values are proven to within
the gap:

    guaranteed_active[a][o]  <=  true value  <=  1 - guaranteed_waiting[a][o]
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..board import FINISHED
from .solution import MAX_SWEEPS, Solution, stage_moves, sweep_order

#: Sweeps stop when no guarantee rises by more than this.
TOLERANCE = 1e-13


@dataclass(frozen=True)
class Certificate:
    """Proven bounds on every value of a :class:`~.solution.Solution`."""

    #: ``active[a][o]``: the least chance the solver's strategies win with, whatever
    #: the opponent does, for the active player on ``a`` (the other on ``o``).
    active: tuple[tuple[float, ...], ...]
    #: ``waiting[a][o]``: the same for the player waiting on ``o`` (the active on ``a``).
    waiting: tuple[tuple[float, ...], ...]
    #: ``max(1 - waiting - active)`` over every state: the width of the proven bounds.
    gap: float
    #: Largest distance from a solver value to its proven bounds (0 if all inside).
    outside: float
    iterations: int
    seconds: float

    def bounds(self, a: int, o: int) -> tuple[float, float]:
        """Proven lower and upper bounds on the active player's value at ``(a, o)``."""
        return self.active[a][o], 1.0 - self.waiting[a][o]


def certify(solution: Solution, tolerance: float = TOLERANCE) -> Certificate:
    """The least chances the solver's strategies guarantee, in both roles, at every
    state (see the module docstring)."""
    started = time.perf_counter()
    n = solution.board.length
    moves = stage_moves(solution.board)
    dials, responses = solution.dials, solution.responses
    active = [[0.0] * n for _ in range(n)]
    waiting = [[0.0] * n for _ in range(n)]
    order = sweep_order(n)
    sweeps, change = 0, 1.0
    while change >= tolerance and sweeps < MAX_SWEEPS:
        sweeps += 1
        change = 0.0
        for a, o in order:
            step = moves[a][o]
            # Dialling by the strategy; the opponent answers as badly for us as it can.
            x = dials[a][o]
            worst = 1.0
            for g in range(4):
                total = 0.0
                for d in range(3):
                    if x[d] == 0.0:
                        continue
                    to, other = step[d]
                    if g == d:
                        v = waiting[o][a]
                    elif to == FINISHED:
                        v = 1.0
                    elif g < 3:
                        v = active[to][other]
                    else:
                        v = waiting[other][to]
                    total += x[d] * v
                worst = min(worst, total)
            change = max(change, worst - active[a][o])
            active[a][o] = worst
            # Answering by the strategy; the opponent dials as badly for us as it can.
            y = responses[a][o]
            worst = 1.0
            for d in range(3):
                to, other = step[d]
                total = y[d] * active[o][a]
                if to != FINISHED:
                    total += (1.0 - y[d] - y[3]) * waiting[to][other] + y[3] * active[other][to]
                worst = min(worst, total)
            change = max(change, worst - waiting[a][o])
            waiting[a][o] = worst
    values = solution.values
    gap = max(1.0 - waiting[a][o] - active[a][o] for a, o in order)
    outside = max(
        max(active[a][o] - values[a][o], values[a][o] - (1.0 - waiting[a][o]), 0.0)
        for a, o in order
    )
    return Certificate(
        active=tuple(map(tuple, active)),
        waiting=tuple(map(tuple, waiting)),
        gap=gap,
        outside=outside,
        iterations=sweeps,
        seconds=time.perf_counter() - started,
    )
