"""The greedy bot's scores in the modes ranked by time (CY-10, CY-11.2): the
individual and team time trials, and the pursuits and team sprint once they are
played. A move is worth the seconds it saves the team, by :mod:`.time_model`.

**Who matters.** In an individual time trial a team ranks by its best rider: the
rider expected to finish first counts fully, the others little
(:data:`BEST_RIDER`: the team tokens go to the leader). In the team modes a team's time is its third
rider's (CY-10.3, CY-11.3): the team rides for the rider expected to finish third,
not for its best, so the weights follow each rider's expected place in the team
(:data:`THIRD_RIDER`): the third counts fully, the second and fourth (either may
turn out third) half, the first little. Once three riders of a team have finished
its time is fixed, and the others ride on for form's sake.

**A ride** is worth minus the seconds its rider still needs once landed (a finishing
ride: the squares past the line come off its time), times its weight; team tokens it
spends cost every teammate the seconds they would have saved with them; and a ride
that a teammate that matters may follow (a ride of at most one token, CY-5.1) adds
what that wheel saves it. **A wheel** is taken when following saves seconds on the
rider's own expected ride.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..notation import Move, Ride, Wheel
from ..riders import rider_type
from ..rules import landing, target_of, wheel_riders
from ..scoring import ROUND_SECONDS, own_time
from .time_model import landing_seconds, seconds_to_line

if TYPE_CHECKING:
    from ..state import State

__all__ = [
    "BEST_RIDER",
    "THIRD_RIDER",
    "expected_times",
    "score_timed_rides",
    "score_timed_wheel",
    "weights",
]

#: Weights of a team's riders by their expected place in the team, in the team modes.
THIRD_RIDER = (0.2, 0.5, 1.0, 0.5)
#: The same where a team ranks by its best rider: its others count little (they keep
#: the team tokens for the leader). Measured against 0.6 (the classic's helper
#: weight): see docs/cyclo.md.
BEST_RIDER = (1.0, 0.2)
#: What an own token left is worth beyond this game, in seconds: a stage race saves
#: it for the next leg (CY-12.2); a token that saves no time now is kept.
SAVED_TOKEN = 0.01
#: The place in its team whose time is the team's (CY-10.3).
TEAM_TIME_PLACE = 3


def expected_times(state: State, team: str) -> dict[str, float]:
    """Each rider of ``team``: its time if finished (CY-10.2), else the seconds ridden
    so far plus the seconds it is expected to need (a turn already ridden or lost this
    round counts its 10 seconds)."""
    setup, position = state.setup, state.position
    out: dict[str, float] = {}
    for r, rnd, past in position.finishers:
        if r[0] == team:
            out[r] = float(own_time(rnd, past))
    shared = position.team.get(team, 0)
    done = ROUND_SECONDS * (position.round - 1)
    for r in setup.team_riders(team):
        x = position.pos.get(r)
        if x is None or r in out or r in position.out:
            continue
        if x > setup.finish:  # on the run-out this round: its time is known
            out[r] = float(own_time(position.round, x - setup.finish))
            continue
        late = ROUND_SECONDS * ((r in position.turn_over) + (r in position.skip))
        out[r] = (
            done + late + seconds_to_line(setup, rider_type(r), x, position.own.get(r, 0) + shared)
        )
    return out


def weights(state: State, team: str) -> dict[str, float]:
    """How much each racing rider of ``team`` counts (see the module docstring)."""
    times = expected_times(state, team)
    order = sorted(times, key=times.__getitem__)
    racing = [
        r for r in order if r in state.position.pos and state.position.pos[r] <= state.setup.finish
    ]
    if not state.setup.mode.team_time:
        return {r: 1.0 if i == 0 else BEST_RIDER[1] for i, r in enumerate(order) if r in racing}
    finished = len(order) - len(racing)
    if finished >= TEAM_TIME_PLACE:
        return dict.fromkeys(racing, THIRD_RIDER[0])
    return {
        r: THIRD_RIDER[min(i, len(THIRD_RIDER) - 1)] for i, r in enumerate(order) if r in racing
    }


def score_timed_rides(state: State, moves: Sequence[Move]) -> list[float]:
    """The score of each ride of the rider due (see the module docstring)."""
    setup, position = state.setup, state.position
    rider = state.due
    assert rider is not None
    team = rider[0]
    weight = weights(state, team)
    mine = weight.get(rider, 0.0)
    kind = rider_type(rider)
    own, shared = position.own.get(rider, 0), position.team.get(team, 0)
    start = position.pos[rider]
    mates = [r for r in weight if r != rider]
    # What team tokens spent now cost the team: the seconds the teammate that would
    # gain most from them loses without them (only one rider can spend a token).
    token_cost = [0.0, 0.0, 0.0]
    for spent in (1, 2):
        if spent <= shared:
            for r in mates:
                x, k = position.pos[r], position.own.get(r, 0)
                loss = weight[r] * (
                    seconds_to_line(setup, rider_type(r), x, k + shared - spent)
                    - seconds_to_line(setup, rider_type(r), x, k + shared)
                )
                token_cost[spent] = max(token_cost[spent], loss)
    follower = _follower(state, rider, start, weight)
    seen: dict[int, int] = {}
    scores = []
    for m in moves:
        assert isinstance(m, Ride)
        aim = target_of(setup, m)
        end = seen.get(aim)
        if end is None:
            end = seen[aim] = landing(setup, position, rider, aim)[0]
        own_spent, team_spent = m.tokens.count("r"), m.tokens.count("t")
        left = own - own_spent + shared - team_spent
        score = -mine * landing_seconds(setup, kind, end, left) - token_cost[team_spent]
        score -= SAVED_TOKEN * own_spent
        if follower is not None and len(m.tokens) < 2 and end > start:
            score += _wheel_saving(state, follower, end) * weight[follower]
        scores.append(score)
    return scores


def _follower(state: State, rider: str, start: int, weight: dict[str, float]) -> str | None:
    """The teammate that would be asked first to take ``rider``'s wheel (CY-5.2), if it
    is the first one asked."""
    position = state.position
    if not state.setup.pro:
        return None
    # wheel_riders reads the others' squares only: the ride has not moved the rider yet.
    asked = wheel_riders(state.setup, position, rider, start, start + 1)
    if asked and asked[0][0] == rider[0] and asked[0] in weight:
        return asked[0]
    return None


def _wheel_saving(state: State, follower: str, leader_end: int) -> float:
    """Seconds ``follower`` saves by following a leader that lands on ``leader_end``
    (aiming right behind it, room ignored) rather than rolling its own ride."""
    setup, position = state.setup, state.position
    kind = rider_type(follower)
    x = position.pos[follower]
    k = position.own.get(follower, 0) + position.team.get(follower[0], 0)
    follow = ROUND_SECONDS + landing_seconds(setup, kind, max(leader_end - 1, x), k)
    return max(0.0, seconds_to_line(setup, kind, x, k) - follow)


def score_timed_wheel(state: State, move: Wheel) -> float:
    """Follow (positive) when following saves seconds on the rider's own expected
    ride, weighted by how much the rider counts; declining scores 0."""
    if move.leader is None:
        return 0.0
    setup, position = state.setup, state.position
    rider = move.rider
    end = landing(setup, position, rider, position.ride_to - 1)[0]
    kind = rider_type(rider)
    k = position.own.get(rider, 0) + position.team.get(rider[0], 0)
    follow = ROUND_SECONDS + landing_seconds(setup, kind, end, k)
    weight = weights(state, rider[0]).get(rider, 0.0)
    return weight * (seconds_to_line(setup, kind, position.pos[rider], k) - follow) + 1e-6
