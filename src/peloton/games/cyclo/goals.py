"""What a team rides for in each mode, as MCTS's rewards: :func:`evaluate` from any
position, :func:`outcome` once the game is over. Each is a value in [0, 1] per team.

* **classic**: the win (CY-8.4): each team's chance that its best rider crosses the
  line first, by the race model (:mod:`.race_model`), exact once the first rider is
  listed across the line.
* **time modes** (``itt``, ``ttt``, ``pursuit``, ``team-pursuit``, ``team-sprint``):
  the time rank (CY-10.4, CY-11.2): the expected share of the other teams a team
  beats, its time being its best rider's, or its third rider's in the team modes
  (CY-10.3, CY-11.3). With two teams that is the chance to win; with more, second
  place is worth more than last. A team riding alone is worth less the longer it
  takes: ``1 / (1 + rounds)``.
* **track races** (CY-11.2): the finishing order in a ``keirin`` or ``scratch``
  race and survival in an ``elimination`` race (its eliminated rank last, last out
  first) as the time rank's share of teams beaten, by the race model (in an
  elimination race mixed, at its chance, with the shares once the rider most likely to
  be put out at the end of this round is out); the points rank
  in a ``tempo`` or ``points`` race: each team's best points so far plus the points
  still to pay at the chance the race model gives it to be at the front, with a
  spread that narrows as the points left to pay shrink. A ``sprint`` heat is a win.
* **leg**: the stage race's three jerseys as well as the win (CY-9, CY-12.2): the
  chance to win (:data:`LEG_WIN`), and the team's shares of the green and of the red
  points (:data:`LEG_POINTS` each); before the end the green share counts the
  finish's first prize at the chance to win it.

The result of a finished game gives the same figures exactly.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .lines import elimination_risk, ride_risk
from .race_model import race_times, rank_shares, win_shares
from .scoring import FINISH_POINTS, ROUND_SECONDS

if TYPE_CHECKING:
    from .state import State

__all__ = ["LEG_POINTS", "LEG_WIN", "NOISE", "evaluate", "outcome"]

#: The race model's noise: its variances times this fitted best the outcomes of 150
#: greedy classics (1,879 positions: log loss 0.442, against 0.446 at 1, 0.444 at 0.5
#: and 0.457 at 1.5; a constant 1/2 scores 0.693, the former softmax of the best
#: riders' spaces 0.862).
NOISE = 0.75
#: A leg's reward: the win, and the shares of the green and of the red points.
LEG_WIN = 0.6
LEG_POINTS = 0.2


def evaluate(state: State) -> dict[str, float]:
    """Each team's value in [0, 1] for the mode's goal (see the module docstring)."""
    if state.is_over:
        return outcome(state)
    setup = state.setup
    mode = setup.mode
    times = race_times(state, NOISE)
    if mode.timed:
        if len(state.players) == 1:
            rounds = state.round - 1 + min((m for m, _ in times[state.players[0]]), default=0.0)
            return {state.players[0]: 1.0 / (1.0 + rounds)}
        return rank_shares(times)
    if setup.finish_pays:
        return _points_rank(state, win_shares(times))
    if _ranked(state):
        shares = rank_shares(times)
        if mode.name == "elimination":
            shares = _with_elimination(state, shares)
        return shares
    finishers = state.p.finishers
    if finishers:  # CY-8.4: the first listed across the line has won
        first = finishers[0][0][0]
        win = {t: 1.0 if t == first else 0.0 for t in state.players}
    else:
        win = win_shares(times)
    if not mode.course_lines:
        return win
    p = state.p
    green = {t: FINISH_POINTS[0] * win[t] * (not finishers) for t in state.players}
    red = dict.fromkeys(state.players, 0.0)
    for rider, n in p.points.items():
        green[rider[0]] += n
    for rider, n in p.red.items():
        red[rider[0]] += n
    return _leg_value(win, green, red)


def outcome(state: State) -> dict[str, float]:
    """The value of a finished game for the mode's goal (else :func:`evaluate`)."""
    if not state.is_over:
        return evaluate(state)
    result = state.result
    mode = state.setup.mode
    teams = state.players
    if mode.timed and len(teams) == 1:
        team = teams[0]
        own = [t for r, t in result.times.items() if r[0] == team]
        time = result.team_times.get(team, min(own, default=0))
        return {team: 1.0 / (1.0 + time / ROUND_SECONDS)}
    if _ranked(state):
        n = len(teams)
        return {t: (n - 1 - i) / (n - 1) for i, t in enumerate(result.teams)}
    win = {t: 1.0 if t == result.winner_team else 0.0 for t in teams}
    if not mode.course_lines:
        return win
    green = dict.fromkeys(teams, 0.0)
    red = dict.fromkeys(teams, 0.0)
    for rider, n in result.points.items():
        green[rider[0]] += n
    for rider, n in result.mountain.items():
        red[rider[0]] += n
    return _leg_value(win, green, red)


def _ranked(state: State) -> bool:
    """Whether places below the first count: every mode but the classic, the leg and
    the sprint heat (two riders: the time rank is the win there anyway)."""
    mode = state.setup.mode
    return mode.timed or not mode.road


def _with_elimination(state: State, shares: dict[str, float]) -> dict[str, float]:
    """CY-11.5: the rank shares mixed with those after the rider most likely to be put
    out at the end of this round, at that chance (:mod:`.lines`)."""
    p = state.p
    risk, doomed = 0.0, None
    for rider in p.racing(state.setup.riders):
        if rider not in p.pos or p.pos[rider] > state.setup.finish:
            continue
        at = (
            elimination_risk(state, rider, p.pos[rider])
            if rider in p.turn_over or rider in p.skip
            else ride_risk(state, rider)
        )
        if at > risk:
            risk, doomed = at, rider
    if doomed is None:
        return shares
    after = rank_shares(race_times(state, NOISE, without=doomed))
    return {t: (1.0 - risk) * shares[t] + risk * after[t] for t in shares}


def _points_rank(state: State, front: dict[str, float]) -> dict[str, float]:
    """The points rank of a tempo or points race (see the module docstring)."""
    setup, p = state.setup, state.p
    left = sum(sum(pays[len(p.lists[i]) :]) for i, pays in enumerate(setup.pays))
    left += sum(setup.finish_pays[len(p.finishers) :])
    expected = {
        t: max((p.points.get(r, 0) for r in setup.team_riders(t)), default=0) + left * front[t]
        for t in state.players
    }
    spread = math.sqrt(2.0 * left) + 0.5
    n = len(expected)
    shares = dict.fromkeys(expected, 0.0)
    teams = list(expected)
    for i, a in enumerate(teams):
        for b in teams[i + 1 :]:
            # points level: the finishing order decides, where the front model says
            lead = expected[a] - expected[b] + 0.5 * (front[a] - front[b])
            beat = 0.5 * math.erfc(-lead / (spread * math.sqrt(2.0)))
            shares[a] += beat
            shares[b] += 1.0 - beat
    return {t: v / (n - 1) for t, v in shares.items()}


def _leg_value(
    win: dict[str, float], green: dict[str, float], red: dict[str, float]
) -> dict[str, float]:
    """The leg's blend of the win and the green and red shares."""
    return {t: LEG_WIN * win[t] + LEG_POINTS * (_share(green, t) + _share(red, t)) for t in win}


def _share(points: dict[str, float], team: str) -> float:
    """A team's share of points (an equal share while nobody has any)."""
    total = sum(points.values())
    return points[team] / total if total > 0 else 1.0 / len(points)
