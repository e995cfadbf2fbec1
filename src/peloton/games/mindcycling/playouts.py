"""What Mind Cycling's MCTS needs beyond the greedy scores: rewards and playout policies.

:func:`outcome` scores a finished game for each team (the trophy counts most, then
medals, then points), :func:`evaluate` projects one from any position, where a
playout is cut off; :func:`rollout_move` is the cheap playout policy and
:func:`greedy_move` the greedy one (a top move of :func:`.move_scores.score_moves`),
which the native engine also plays whole (:func:`.heuristics.native_playout`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .move_scores import ROWS_PER_ROUND, best_moves
from .notation import ATTACK, FINISH, STAY, Move
from .scoring import Result, best_team, team_points

if TYPE_CHECKING:
    from ...core.rng import Rng
    from .state import State

__all__ = [
    "evaluate",
    "greedy_move",
    "outcome",
    "result_outcome",
    "rollout_move",
]

#: Share of a team's reward for the trophy, its medals and its points (sums to 1).
_TROPHY_SHARE, _MEDAL_SHARE, _POINTS_SHARE = 0.6, 0.25, 0.15
#: Temperature of the soft trophy of :func:`evaluate`, in medals.
_TROPHY_TEMPERATURE = 0.5
#: Chance that :func:`rollout_move` plays a uniformly random move.
_ROLLOUT_EPSILON = 0.1
_NO_MOVE = -1_000.0


def _medal_counts(medals: dict[str, str], teams: Sequence[str]) -> dict[str, int]:
    count = dict.fromkeys(teams, 0)
    for key, holder in medals.items():
        team = holder if key == "team" else holder[0]
        if team in count:
            count[team] += 1
    return count


def _rewards(
    teams: Sequence[str],
    trophy_share: dict[str, float],
    medals: dict[str, int],
    points: dict[str, int],
) -> dict[str, float]:
    total = sum(points.values()) or 1
    return {
        t: _TROPHY_SHARE * trophy_share[t]
        + _MEDAL_SHARE * medals[t] / 4
        + _POINTS_SHARE * points[t] / total
        for t in teams
    }


def outcome(state: State) -> dict[str, float]:
    """Each team's reward in [0, 1] for a finished game: the trophy counts most, then
    medals (of four), then its share of the points. The solo game rewards fewer rounds."""
    return result_outcome(state.players, state.solo, state.result, state.round)


def result_outcome(
    teams: Sequence[str], solo: bool, result: Result, rounds: int
) -> dict[str, float]:
    """:func:`outcome` from a game's :class:`~.scoring.Result` (and its round, for a solo
    game that has no score yet)."""
    if solo:
        score = result.solo_score
        rounds = score[0] if score is not None else rounds
        return {t: max(0.0, min(1.0, 1.0 - (rounds - 10) / 30)) for t in teams}
    won = {t: 1.0 if t == result.trophy else 0.0 for t in teams}
    return _rewards(teams, won, _medal_counts(result.medals, teams), result.points)


def evaluate(state: State) -> dict[str, float]:
    """Each team's expected reward (as :func:`outcome`) from any position.

    A finished game is scored exactly. Otherwise the race is *projected*: riders still
    on the road finish in the order of their rows (ahead first), after those already
    across; the open sprint (mountain) medal goes to the rider nearest below its line;
    the trophy is then a soft maximum over teams of projected medals and points, since
    a projection is only a guess.
    """
    if state.is_over:
        return outcome(state)
    teams = state.players
    race = state.race
    if state.solo:
        ahead = sum(state.course.finish - (sq >> 5) for sq in race.square_of.values())
        rounds = state.round + ahead / (ROWS_PER_ROUND * max(1, len(race.square_of)))
        return {t: max(0.0, min(1.0, 1.0 - (rounds - 10) / 30)) for t in teams}
    pos = race.square_of
    road = sorted(pos, key=lambda r: (-(pos[r] >> 5), pos[r] & 31))
    places = list(race.finished) + road
    medals = dict(race.medals)
    if places and "cyclist" not in medals:
        medals["cyclist"] = places[0]
    for medal, last in state.course.medal_lines:
        if medal not in medals:
            below = [r for r in road if pos[r] >> 5 <= last]
            if below:
                medals[medal] = below[0]
    points = team_points(places, teams)
    if places:
        medals["team"] = best_team(places, teams)
    count = _medal_counts(medals, teams)
    total = sum(points.values()) or 1
    strength = {
        t: count[t] + (0.5 if medals.get("team") == t else 0.0) + points[t] / total for t in teams
    }
    top = max(strength.values())
    weights = {t: math.exp((strength[t] - top) / _TROPHY_TEMPERATURE) for t in teams}
    norm = sum(weights.values())
    return _rewards(teams, {t: weights[t] / norm for t in teams}, count, points)


def rollout_move(state: State, rng: Rng) -> Move:
    """A cheap playout policy: mostly the move that ends furthest up the road.

    Crossing the line is best; an attack costs a little (the bottle) unless it wins a
    section medal; gifts and staying are last resorts; placements go as far forward as
    they can. One move in ten is uniformly random, to keep playouts varied. About ten
    times cheaper than :func:`.move_scores.score_moves`.
    """
    moves = state.legal_moves()
    if len(moves) == 1 or rng.random() < _ROLLOUT_EPSILON:
        return rng.choice(moves)
    codes = state.course.codes
    lines = [last for medal, last in state.course.medal_lines if medal not in state.race.medals]
    best, best_score = moves[0], _NO_MOVE - 1
    for move in moves:
        kind, rid, dest = move[0], move[1], move[2]
        if dest == FINISH:
            score = 1_000.0 if kind != ATTACK else 999.0
        elif dest is None:
            score = _NO_MOVE if kind == STAY else _NO_MOVE / 2
        else:
            row = codes[dest] >> 5
            score = row + rng.random() * 0.5
            if kind == ATTACK:
                start = state.race.square_of[rid] >> 5
                score += 50.0 if any(start <= last < row for last in lines) else -2.5
        if score > best_score:
            best, best_score = move, score
    return best


def greedy_move(state: State, rng: Rng) -> Move:
    """A stronger, slower playout policy: a top move of
    :func:`.move_scores.score_moves` (ties at random)."""
    return rng.choice(best_moves(state))
