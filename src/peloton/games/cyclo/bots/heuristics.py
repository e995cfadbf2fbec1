"""Bot hooks for Cyclo: the greedy bot's move scores, MCTS's evaluation and playout
length, and the figures ``peloton simulate`` reports.

:func:`score_moves` values each legal move in spaces gained for the team:

* **ride**: where the rider would really land (room and dark squares applied, so
  holding back is chosen to dodge a dark square or a full space), weighted by the
  rider's importance to its team (a classic ranks a team by its best rider: its
  leader, the rider the race model expects to cross the line first, counts fully,
  the others :attr:`Weights.helper`), less the tokens spent: own tokens are cheap
  (they are worth nothing once the race is over), team tokens dearer and kept for the
  leader; a small penalty for an event space (the deck's mean effect is slightly
  negative);
* **wheel**: follow when the space gained is at least the ride the follower would
  roll on average (its tokens are kept for later);
* **swap**: propose only to a teammate right behind who matters more (it then rides
  first from the better square, and the proposer may take its wheel); answer a rival's
  proposal yes only when it moves the answering rider forward;
* **fall**: bring down rivals beside the drawer, never teammates.

:func:`score_moves` serves each mode's goal: in a ``leg`` a ride or wheel that
crosses a sprint or mountain line adds the green or red points it takes
(:attr:`Weights.point` a point, CY-9.3; never for a helper's team token), and in a
tempo or points race the race points (:attr:`Weights.track_point`, CY-11.2); in an
elimination race a ride or wheel that may leave the rider rearmost when a line falls
costs :attr:`Weights.eliminated` times that chance (CY-11.5, :mod:`.lines`); in the
modes ranked by time (``itt``, ``ttt``, the pursuits and the team sprint) rides and
wheels are scored in seconds saved for the team instead (:mod:`.timed`, a team time
trial riding for its third rider, CY-10.3).

:func:`evaluate` and :func:`outcome` (:mod:`.goals`) give MCTS the mode's goal: the
win in a classic, the time rank in a time mode, the finishing order, survival or
points rank on the track, the win and the green and red points in a leg, by the race
model (:mod:`.race_model`: expected rides to the line from every
rider's dice, ground and tokens); :func:`horizon` asks MCTS to score the position
after each new move at once rather than play it out (a whole race is some 250 moves,
and the model judges better than a cheap playout); :func:`rollout_move` is that cheap
playout policy (the furthest ride, tokens at once, wheels taken, no swaps), for a
search told to play out; :func:`progressive_bias` and :func:`anchor` lean the search
to :func:`score_moves`'s order where the evaluation is known to be blind;
:func:`.metrics.metrics` the figures of a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....core.registry import Heuristics
from ..notation import Answer, Fall, Move, Ride, Swap, Wheel
from ..position import ANSWER, FALL, RIDE, SWAP, WHEEL
from ..riders import rider_type
from ..rules import dice_count, landing, target_of
from .goals import evaluate, outcome
from .lines import elimination_risk, line_points, pays_at_lines, ride_risk
from .metrics import metrics
from .race_model import rides_to_line
from .timed import score_timed_rides, score_timed_wheel
from .timed import weights as team_weights

if TYPE_CHECKING:
    from ....core.rng import Rng
    from ..state import State

__all__ = ["HEURISTICS", "Weights", "evaluate", "outcome", "rollout_move", "score_moves"]


@dataclass(frozen=True)
class Weights:
    """The weights of :func:`score_moves` (in spaces)."""

    #: The importance of a rider that is not its team's furthest.
    helper: float = 0.6
    #: The cost of an own token and of a team token (spent by the leader; a helper
    #: pays :attr:`team_token_helper`).
    own_token: float = 1.0
    team_token: float = 2.0
    team_token_helper: float = 4.5
    #: Ending on an event space (the deck's mean effect).
    event: float = 1.0
    #: Spaces a rider gets on average from one die.
    die: float = 3.5
    #: What a green or red point is worth in a leg (CY-9.3), in spaces.
    point: float = 0.5
    #: What a point is worth in a tempo or points race (CY-11.2): they rank by points.
    track_point: float = 3.0
    #: Being rearmost when an elimination line falls (CY-11.5): out of the race.
    eliminated: float = 40.0


DEFAULT_WEIGHTS = Weights()


def importance(state: State, rider: str, w: Weights = DEFAULT_WEIGHTS) -> float:
    """1 for the rider of its team the race model expects to cross the line first (its
    leader), else ``w.helper``.

    Expected rides to the line (:func:`.race_model.rides_to_line`, own tokens counted,
    a turn already ridden or lost counting one more) know the ground ahead: on
    ``flemish-4`` they back the sprinter, whose three dice in the last kilometre are
    worth some spaces behind. Measured against backing the furthest rider: 456 wins of
    800 seat-swapped Pro classics on ``flemish-4`` (57%, 95% 53.5-60.4%).

    In the modes ranked by time the weights of :func:`.timed.weights` (a team time
    trial rides for its third rider)."""
    setup, position = state.setup, state.position
    if setup.mode.timed:
        return team_weights(state, rider[0]).get(rider, 0.0)
    best, fewest = rider, math.inf
    for mate in setup.team_riders(rider[0]):
        where = position.pos.get(mate)
        if where is None or mate in position.finished:
            continue
        rides = rides_to_line(setup, rider_type(mate), where, position.own.get(mate, 0))[0]
        rides += (mate in position.turn_over) + (mate in position.skip)
        if rides < fewest:
            best, fewest = mate, rides
    return 1.0 if best == rider else w.helper


def score_moves(
    state: State, moves: Sequence[Move], *, weights: Weights = DEFAULT_WEIGHTS
) -> list[float]:
    """A score per move (higher is better) from the position alone."""
    phase = state.phase
    timed = state.setup.mode.timed
    if phase == RIDE:
        if timed:
            return score_timed_rides(state, moves)
        return _score_rides(state, moves, weights)
    if phase == WHEEL:
        if timed:
            return [score_timed_wheel(state, m) if isinstance(m, Wheel) else 0.0 for m in moves]
        return [_score_wheel(state, m, weights) if isinstance(m, Wheel) else 0.0 for m in moves]
    if phase == SWAP:
        return [_score_swap(state, m, weights) if isinstance(m, Swap) else 0.0 for m in moves]
    if phase == ANSWER:
        return [_score_answer(state, m) if isinstance(m, Answer) else 0.0 for m in moves]
    if phase == FALL:
        return [_score_fall(state, m, weights) if isinstance(m, Fall) else 0.0 for m in moves]
    return [0.0] * len(moves)


def _score_rides(state: State, moves: Sequence[Move], w: Weights) -> list[float]:
    setup, position = state.setup, state.position
    rider = state.due
    assert rider is not None
    start = position.pos[rider]
    weight = importance(state, rider, w)
    team_cost = w.team_token if weight == 1.0 else w.team_token_helper
    events = setup.events
    marks = setup.course.events
    point = (w.track_point if setup.is_track else w.point) if pays_at_lines(state) else 0.0
    eliminating = setup.mode.eliminations
    seen: dict[int, int] = {}
    scores = []
    for m in moves:
        assert isinstance(m, Ride)
        aim = target_of(setup, m)
        end = seen.get(aim)
        if end is None:
            end = seen[aim] = landing(setup, position, rider, aim)[0]
        score = (
            weight * (end - start)
            - w.own_token * m.tokens.count("r")
            - team_cost * m.tokens.count("t")
        )
        if events and end != start and marks[end]:
            score -= w.event * weight
        if point and (weight == 1.0 or "t" not in m.tokens):
            # A helper's team token pays no points: the leader's win needs it more (a
            # helper spending team tokens at the sprints won 68 of 200 flat-stage legs
            # against the greedy bot that scores no points; kept for the leader, 94).
            score += point * line_points(state, rider, start, end)
        if eliminating:
            score -= w.eliminated * elimination_risk(state, rider, end)
        scores.append(score)
    return scores


def _score_wheel(state: State, move: Wheel, w: Weights) -> float:
    if move.leader is None:
        return 0.0
    setup, position = state.setup, state.position
    rider = move.rider
    end = landing(setup, position, rider, position.ride_to - 1)[0]
    gain = float(end - position.pos[rider])
    if setup.events and setup.course.events[end]:
        gain -= w.event
    score = importance(state, rider, w) * (gain - w.die * dice_count(setup, position, rider))
    if pays_at_lines(state):
        # A roll would cross the lines about as often: only the sure points count.
        point = w.track_point if setup.is_track else w.point
        score += point * line_points(state, rider, position.pos[rider], end) / 2
    if setup.mode.eliminations:  # following may leave it rearmost (CY-11.5)
        score += w.eliminated * (ride_risk(state, rider) - elimination_risk(state, rider, end))
    return score


def _score_swap(state: State, move: Swap, w: Weights) -> float:
    partner = move.partner
    if partner is None:
        return 0.0
    if partner[0] != move.rider[0]:
        return -1.0  # a swap helps the rival who accepts it more than us
    position = state.position
    ahead = position.pos[move.rider] - position.pos[partner]
    if ahead < 1:
        return -0.1
    # The partner rides first from the better square; the proposer may take its wheel.
    return importance(state, partner, w) - importance(state, move.rider, w) + 0.1


def _score_answer(state: State, move: Answer) -> float:
    if not move.accept:
        return 0.0
    position = state.position
    proposer = position.proposer
    assert proposer is not None
    return 1.0 if position.pos[proposer] > position.pos[move.rider] else -1.0


def _score_fall(state: State, move: Fall, w: Weights) -> float:
    drawer = state.due
    assert drawer is not None
    turn = w.die * 2  # a lost turn: about one ride of two dice
    return sum(turn if r[0] != drawer[0] else -turn for r in move.picks)


def rollout_move(state: State, rng: Rng, *, epsilon: float = 0.1) -> Move:
    """The playout policy: the furthest ride (tokens spent at once), wheels taken, no
    swap proposed or accepted, nobody else brought down; a random move ``epsilon`` of
    the time. Cheap: no landing is computed."""
    moves = state.legal_moves()
    if len(moves) == 1 or rng.random() < epsilon:
        return rng.choice(moves)
    phase = state.phase
    if phase == RIDE:
        return max(moves, key=lambda m: m.target + 1000 * m.runout if isinstance(m, Ride) else 0)
    if phase == WHEEL:
        return moves[0]  # follow
    if phase in (SWAP, ANSWER):
        return moves[0] if phase == SWAP else moves[1]  # ride on; decline
    if phase == FALL:
        return moves[0]
    return rng.choice(moves)


def horizon(state: State) -> int:
    """MCTS playouts from ``state`` run no move: the position right after a new move is
    scored by :func:`evaluate` at once. Measured over 40 seat-swapped classics against
    the greedy bot with 200 iterations a move: 29 wins with no playout, 17 with
    playouts of 20 moves (about a round) by :func:`rollout_move`."""
    return 0


#: The progressive bias MCTS gives the greedy bot's ordering where the evaluation is
#: weakest (see :func:`progressive_bias`).
BIAS = 0.1


def progressive_bias(state: State) -> float:
    """How much MCTS leans to :func:`score_moves`'s order: :data:`BIAS` in the points
    races (tempo, points) and the team modes, where the evaluation cannot tell a
    token spent now from one kept for a line or a teammate; 0 elsewhere."""
    setup = state.setup
    return BIAS if setup.finish_pays or setup.mode.team_time else 0.0


#: The margin of win share by which MCTS's choice must beat the greedy bot's move in
#: the team modes (see :func:`anchor`).
ANCHOR = 0.05


def anchor(state: State) -> float:
    """How much better than the greedy bot's move MCTS's choice must look to be
    played: :data:`ANCHOR` in the team modes (``ttt``, ``team-pursuit``,
    ``team-sprint``) and the keirin, 0 elsewhere. The team modes' evaluation values
    a team's riders apart and sees a teammate's wheel only when the ride offering it
    ends the searched line, so more search found moves it overrated (MCTS won 16 of
    40 team time trials against the greedy bot at 0.2 s CPU, 24 of 40 at 100
    playouts); the keirin's knows nothing of the pacer (15 of 40 keirins). The
    search there overrules the greedy bot's line only where it finds a clearly
    better move (see docs/cyclo.md)."""
    mode = state.setup.mode
    return ANCHOR if mode.team_time or mode.pacer else 0.0


HEURISTICS: Heuristics = {
    "score_moves": score_moves,
    "progressive_bias": progressive_bias,
    "anchor": anchor,
    "rollout_move": rollout_move,
    "horizon": horizon,
    "evaluate": evaluate,
    "outcome": outcome,
    "metrics": metrics,
}
