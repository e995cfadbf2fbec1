"""The points a tempo or points race (CY-11.2) still pays, line by line, for MCTS's
evaluation: each rider's expected points and their spread.

For every paying line (and the finish where it pays):

* places already listed are paid (they are in the riders' points);
* riders who crossed it this round are paid the places their squares give them now
  (CY-8.2: the list is ordered at the end of the round, further ahead first), so a
  ride over a line is credited the moment it is played;
* the places left go to the riders still to reach it, each by its chance to get there
  before each other one: the rides it needs, by the race model
  (:func:`.race_model.rides_to_line`, to the line at ``after`` as the rides to the
  finish from the start less those from the square beyond ``after``), normal, two
  riders compared pairwise, the number ahead of a rider a sum of those chances.

A line pays each place what its table says, so with two riders on the track the
first place at a 5, 3, 2, 1 line is worth 2 points over the second, not 5 (the
former evaluation gave the whole table to the rider most likely to win the finish).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..riders import rider_type
from ..scoring import paid
from .race_model import rides_to_line

if TYPE_CHECKING:
    from ..state import State

__all__ = ["Expected", "expected_points"]

#: The floor of the variance of a rider's rides to a line (a rider on the line's
#: square is not certain to cross it first).
MIN_VARIANCE = 0.05


@dataclass(frozen=True, slots=True)
class Expected:
    """A rider's points: ``mean`` expected at the end, ``spread`` the standard
    deviation of the points still to be won (the lines' spreads added, as a rider
    ahead at one line tends to be ahead at the next)."""

    mean: float
    spread: float


def expected_points(state: State, noise: float = 1.0) -> dict[str, Expected]:
    """Each racing or finished rider's :class:`Expected` points (see the module
    docstring); ``noise`` scales the race model's variances."""
    setup, position = state.setup, state.position
    pro = setup.pro
    mean = {r: float(position.points.get(r, 0)) for r in setup.riders if r not in position.out}
    spread = dict.fromkeys(mean, 0.0)
    racing = [r for r in position.racing(setup.riders) if r in position.pos]
    tables = [*setup.pays, setup.finish_pays]
    afters = [line.after for line in setup.scoring] + [setup.finish]
    finishers = [r for r, _, _ in position.finishers]
    for i, (table, after) in enumerate(zip(tables, afters, strict=True)):
        listed = finishers if i == len(tables) - 1 else position.lists[i]
        place = len(listed)
        if place >= len(table):
            continue
        pending = sorted(
            (r for r in position.crossed[i] if r not in listed and r in position.pos),
            key=lambda r: (-position.pos[r], position.lane[r]),
        )
        for r in pending:  # CY-8.2: ranked by their squares at the end of the round
            mean[r] += paid(table, place)
            place += 1
        if place >= len(table):
            continue
        done = set(pending)
        figures: dict[str, tuple[float, float]] = {}
        for r in racing:
            x = position.pos[r]
            if r in done or x > after or r in listed:
                continue
            k = position.own.get(r, 0) if pro else 0
            kind = rider_type(r)
            m, v = rides_to_line(setup, kind, x, k)
            if after < setup.finish:
                # Tokens spent on the way (the race model spends them at once) are
                # gone by the line: the rides from beyond it are counted without them.
                m_after, v_after = rides_to_line(setup, kind, after + 1, 0)
                m, v = m - m_after, v - v_after
            m += (r in position.turn_over) + (r in position.skip)
            figures[r] = (m, max(v * noise, MIN_VARIANCE))
        for r, (m, v) in figures.items():
            # The chance of each number of riders ahead of r (a Poisson binomial).
            ahead = [1.0]
            for o, (mo, vo) in figures.items():
                if o == r:
                    continue
                q = 0.5 * math.erfc((mo - m) / math.sqrt(2.0 * (v + vo)))  # o crosses first
                ahead = [
                    (ahead[j] if j < len(ahead) else 0.0) * (1.0 - q)
                    + (ahead[j - 1] * q if j > 0 else 0.0)
                    for j in range(len(ahead) + 1)
                ]
            pays = [paid(table, place + j) for j in range(len(ahead))]
            e = sum(c * n for c, n in zip(ahead, pays, strict=True))
            e2 = sum(c * n * n for c, n in zip(ahead, pays, strict=True))
            mean[r] += e
            spread[r] += math.sqrt(max(e2 - e * e, 0.0))
    return {r: Expected(mean[r], spread[r]) for r in mean}
