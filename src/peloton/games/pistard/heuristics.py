"""Move-scoring heuristics for Pistard bots (greedy, rollouts, MCTS evaluation).

:func:`score_moves` scores every legal move of the rider due, in rows:

* **dice** (PI-3.2): a player's dice are shared by its riders still to move this
  round, so a move is worth the rows it gains times the rider's *need* (its weight),
  less the die it spends times the mean need of the teammates still to move: a die
  goes where it matters most, a blocked rider spends the smallest die, and bonus
  squares (PI-3.4/3.5, already part of the move) are rows gained for free;
* **need**: 1 for every rider, plus up to :attr:`Weights.sprint` for a rider in the
  race for its next line: scaled by the points its place in that race would earn
  (3, 2, 1 or 0 out of 3, counting the riders ahead of it not yet across and those
  already across). A term for riders in danger of being lapped exists
  (:attr:`Weights.danger`) but is off: measured, it loses to spending the dice on
  the contenders;
* **lap points** (PI-4.2): crossing into a lap whose points are open is worth
  :attr:`Weights.point` rows a point;
* **eliminations** (PI-4.1): a move of the leader that laps a rival rider takes a
  die from that player for the rest of the game (:attr:`Weights.eliminate`); lapping
  one's own rider costs :attr:`Weights.lose_own`;
* **lane**: a hair for the inner lane (level riders move inner lane first, PI-3.1);
* **blocking**: ending in the paths of rivals still to move this round
  (:attr:`Weights.block`), off by default: measured, it did not help;
* **shelter**: ending where a teammate still to move could stop directly behind and
  take the shelter bonus (PI-3.5), or a rival could (:attr:`Weights.shelter`), off by
  default: measured, within noise.

The weights were chosen by greedy-against-greedy matches on the default track and
checked again when both bonuses became the standard game, on 2, 3 and 4 players (see
docs/pistard.md, "Bots").

In the first move (PI-2) every assignment scores the same; the greedy bot then picks
among them at random. :func:`evaluate` turns points, open lap points within reach
and riders still racing into each player's expected reward in [0, 1].
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.registry import Heuristics
from .notation import RIDE, Move
from .scoring import lap_points

if TYPE_CHECKING:
    from ...core.rng import Rng
    from .state import State

__all__ = ["HEURISTICS", "Weights", "evaluate", "outcome", "rollout_move", "score_moves"]


@dataclass(frozen=True)
class Weights:
    """The weights of :func:`score_moves` (rows)."""

    #: Rows a lap point is worth.
    point: float = 8.0
    #: Lapping a rival rider.
    eliminate: float = 12.0
    #: Lapping one's own rider.
    lose_own: float = 15.0
    #: Extra need of a rider within ``sprint_range`` rows of a line with open points.
    sprint: float = 4.0
    sprint_range: int = 40
    #: Scale the sprint need by the points the rider's place in the race for its next
    #: line would earn (3, 2, 1, 0 over 3), counting riders ahead of it.
    contend: bool = True
    #: Extra need of a rider at ``danger_range`` rows or less from being lapped (grows
    #: to ``danger`` as the gap closes).
    danger: float = 0.0
    danger_range: int = 14
    #: Preference per lane for the inner lane.
    inner: float = 0.05
    #: Ending within reach in front of a rival still to move this round (a square of
    #: its paths taken); the same, negated, for a teammate still to move.
    block: float = 0.0
    #: Ending where a teammate still to move this round could stop directly behind
    #: (and take the shelter bonus, PI-3.5); the same, negated, for a rival. Off:
    #: +0.25 to +0.8 moved the win share by -3 to +3 points (800 games each on 2, 3
    #: and 4 players), noise.
    shelter: float = 0.0


DEFAULT_WEIGHTS = Weights()


def next_line(distance: int, length: int) -> int:
    """The distance of the next line a rider at ``distance`` crosses (to score, it must
    pass it: PI-4.2; the start line behind row 1 scores nothing)."""
    return max(length, -(-distance // length) * length)


def need(state: State, rider: str, leader: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """How much a row gained by ``rider`` is worth now (1 and more)."""
    d = state.dist[rider]
    length = state.length
    value = 1.0
    line = next_line(d, length)
    crossed = state.laps.get(line // length + 1, 0)
    if line - d <= w.sprint_range and crossed < 3:
        if w.contend:
            dist = state.dist
            ahead = sum(1 for r in state.racing if d < dist[r] <= line)
            value += w.sprint * lap_points(crossed + ahead) / 3
        else:
            value += w.sprint
    behind = leader - d
    if behind > length - w.danger_range:
        value += w.danger * (behind - (length - w.danger_range)) / w.danger_range
    return value


def score_moves(
    state: State, moves: Sequence[Move], *, weights: Weights = DEFAULT_WEIGHTS
) -> list[float]:
    """A score per move (higher is better), from the position alone."""
    due = state.due
    if due is None or not moves or moves[0].kind != RIDE:
        return [0.0] * len(moves)
    w = weights
    team = due[0]
    length = state.length
    racing = state.racing
    leader = max(state.dist[r] for r in racing)
    own_need = need(state, due, leader, w)
    later = [r for r in state.order[state.idx + 1 :] if r[0] == team and r not in state.out]
    spend = sum(need(state, r, leader, w) for r in later) / len(later) if later else 0.0
    before = state.dist[due]
    start_row = (before - 1) % length
    codes = state.layout.codes
    others = [r for r in racing if r != due]
    dist, lanes = state.dist, state.lane
    pending = (
        [r for r in state.order[state.idx + 1 :] if r not in state.out]
        if w.block or w.shelter
        else []
    )
    shelters = w.shelter and state.bonus in ("both", "shelter")
    scores = []
    for m in moves:
        if not m.path:
            scores.append(-spend * m.value)
            continue
        end = codes[m.path[-1]]
        gain = ((end >> 2) - start_row) % length
        after = before + gain
        score = own_need * gain - spend * m.value - w.inner * (end & 3)
        line = -(-before // length) * length
        if 0 < line < after:
            score += w.point * lap_points(state.laps.get(line // length + 1, 0))
        if after > leader:
            for r in others:
                if after - state.dist[r] >= length > leader - state.dist[r]:
                    score += -w.lose_own if r[0] == team else w.eliminate
        for r in pending:
            ahead = (after - dist[r]) % length
            if w.block and 0 < ahead <= 6 and abs((end & 3) - lanes[r]) <= ahead:
                score += -w.block if r[0] == team else w.block
            if shelters and 1 < ahead <= 7 and abs((end & 3) - lanes[r]) <= ahead - 1:
                score += w.shelter if r[0] == team else -w.shelter
        scores.append(score)
    return scores


def rollout_move(state: State, rng: Rng, *, epsilon: float = 0.15) -> Move:
    """The playout policy: the greedy move, a random one ``epsilon`` of the time."""
    moves = state.legal_moves()
    if len(moves) == 1 or rng.random() < epsilon:
        return rng.choice(moves)
    scores = score_moves(state, moves)
    return moves[max(range(len(moves)), key=scores.__getitem__)]


def expected_points(state: State) -> dict[str, float]:
    """Each player's points plus half the open lap points its riders lead the race for:
    for each lap, the riders nearest its line (not yet across) take the points left."""
    got = {t: float(p) for t, p in state.points.items()}
    length = state.length
    racing = sorted(state.racing, key=lambda r: -state.dist[r])
    taken: dict[int, int] = {}
    for r in racing:
        lap = next_line(state.dist[r], length) // length + 1  # the lap it crosses into next
        crossed = state.laps.get(lap, 0) + taken.get(lap, 0)
        if crossed < 3:
            taken[lap] = taken.get(lap, 0) + 1
            got[r[0]] += 0.5 * lap_points(crossed)
    for r in racing:
        got[r[0]] += 0.3  # a rider racing is a die for every round to come
    return got


def evaluate(state: State, *, temperature: float = 2.5) -> dict[str, float]:
    """Each player's expected reward in [0, 1] (they sum to 1) from any position."""
    if state.is_over:
        return outcome(state)
    scores = expected_points(state)
    top = max(scores.values())
    weights = {t: math.exp((s - top) / temperature) for t, s in scores.items()}
    total = sum(weights.values())
    return {t: v / total for t, v in weights.items()}


def outcome(state: State) -> dict[str, float]:
    """1 to the winner of a finished game, 0 to the others (else :func:`evaluate`)."""
    if not state.is_over:
        return evaluate(state)
    winner = state.result.winner
    return {t: 1.0 if t == winner else 0.0 for t in state.players}


HEURISTICS: Heuristics = {
    "score_moves": score_moves,
    "rollout_move": rollout_move,
    "evaluate": evaluate,
    "outcome": outcome,
}
