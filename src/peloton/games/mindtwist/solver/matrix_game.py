"""Exact solution of a small zero-sum matrix game by linear programming (MT-5).

The row player (here: the dialer) maximises, the column player (the challenger)
minimises. With every payoff shifted to at least 1 the column player's problem

    maximise  sum(w)   subject to   B w <= 1,  w >= 0

is a linear program in standard form whose slack basis is feasible at ``w = 0``, so a
plain primal simplex solves it without a first phase. At the optimum the value of the
game is ``1 / sum(w)``, the column strategy is ``w`` scaled to sum 1, and the row
strategy is read off the reduced costs of the slack columns (the dual solution).
Bland's rule (lowest index enters, lowest basic index leaves among ties) rules out
cycling on degenerate games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

#: Below this a pivot or reduced cost counts as zero.
EPSILON = 1e-12


class MatrixSolution(NamedTuple):
    """The value and one optimal mixed strategy of each player."""

    value: float
    rows: tuple[float, ...]
    columns: tuple[float, ...]


def solve_matrix_game(payoff: Sequence[Sequence[float]]) -> MatrixSolution:
    """Solve the game whose row player receives ``payoff[i][j]`` (maximising) from the
    column player (minimising). Any finite payoffs; at least one row and one column."""
    m = len(payoff)
    n = len(payoff[0]) if m else 0
    if m == 0 or n == 0 or any(len(row) != n for row in payoff):
        raise ValueError("a matrix game needs a non-empty rectangular payoff table")
    low = min(min(row) for row in payoff)
    shift = 1.0 - low  # every shifted payoff is at least 1, so the value is positive
    # Tableau rows: [B_i | slack e_i | rhs 1]; objective row: reduced costs and -z.
    width = n + m + 1
    table = [
        [*(x + shift for x in payoff[i]), *(1.0 if k == i else 0.0 for k in range(m)), 1.0]
        for i in range(m)
    ]
    cost = [-1.0] * n + [0.0] * m + [0.0]
    basis = [n + i for i in range(m)]
    while True:
        enter = next((j for j in range(n + m) if cost[j] < -EPSILON), -1)
        if enter < 0:
            break
        leave, best = -1, 0.0
        for i in range(m):
            a = table[i][enter]
            if a > EPSILON:
                ratio = table[i][-1] / a
                if (
                    leave < 0
                    or ratio < best - EPSILON
                    or (ratio <= best + EPSILON and basis[i] < basis[leave])
                ):
                    leave, best = i, ratio
        # B > 0 keeps the problem bounded: some row always limits the entering column.
        pivot_row = table[leave]
        p = pivot_row[enter]
        for k in range(width):
            pivot_row[k] /= p
        for i in range(m):
            if i != leave:
                row = table[i]
                f = row[enter]
                if f != 0.0:
                    for k in range(width):
                        row[k] -= f * pivot_row[k]
        f = cost[enter]
        for k in range(width):
            cost[k] -= f * pivot_row[k]
        basis[leave] = enter
    total = cost[-1]  # = max sum(w) = 1 / shifted value
    w = [0.0] * n
    for i, b in enumerate(basis):
        if b < n:
            w[b] = table[i][-1]
    u = [max(cost[n + i], 0.0) for i in range(m)]
    scale = 1.0 / total
    columns = _normalised([x * scale for x in w])
    rows = _normalised([x * scale for x in u])
    return MatrixSolution(scale - shift, rows, columns)


def _normalised(p: list[float]) -> tuple[float, ...]:
    """``p`` clipped at 0 and rescaled to sum exactly 1 (removes rounding drift)."""
    clipped = [x if x > 0.0 else 0.0 for x in p]
    s = sum(clipped)
    return tuple(x / s for x in clipped)


def guaranteed(payoff: Sequence[Sequence[float]], rows: Sequence[float]) -> float:
    """The least the row player gets with mixed strategy ``rows``, over every column."""
    n = len(payoff[0])
    return min(sum(rows[i] * payoff[i][j] for i in range(len(payoff))) for j in range(n))


def conceded(payoff: Sequence[Sequence[float]], columns: Sequence[float]) -> float:
    """The most the column player gives away with mixed strategy ``columns``."""
    return max(sum(c * x for c, x in zip(columns, row, strict=True)) for row in payoff)
