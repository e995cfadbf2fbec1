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
  takes: ``1 / (1 + rounds)``. In the team modes the third rider's time is the time
  model's (:func:`.timed.expected_times`, the tokens spent where they save most), and
  a rider offered a teammate's wheel is valued as it best chooses (the ride that
  offers the wheel is worth what the wheel saves).
* **track races** (CY-11.2): the finishing order in a ``keirin`` or ``scratch``
  race and survival in an ``elimination`` race (its eliminated rank last, last out
  first) as the time rank's share of teams beaten, by the race model (in an
  elimination race mixed, at its chance, with the shares once the rider most likely to
  be put out at the end of this round is out); the points rank
  in a ``tempo`` or ``points`` race: each team's best rider's expected points
  (:mod:`.points_model`: the points won, this round's crossings at the places their
  squares give them, each line's places still to pay at the race model's chances),
  compared pairwise with the spread of the points still to pay. A ``sprint`` heat is
  a win.
* **leg**: the stage race's three jerseys as well as the win (CY-9, CY-12.2): the
  chance to win (:data:`LEG_WIN`), and the team's shares of the green and of the red
  points (:data:`LEG_POINTS` each); before the end the green share counts the
  finish's first prize at the chance to win it.

The result of a finished game gives the same figures exactly.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..position import WHEEL
from ..scoring import FINISH_POINTS, ROUND_SECONDS
from .lines import elimination_risk, ride_risk
from .points_model import Expected, expected_points
from .race_model import TEAM_TIME_RIDER, race_times, rank_shares, win_shares
from .timed import expected_times

if TYPE_CHECKING:
    from ..state import State

__all__ = [
    "KEIRIN_SPREAD",
    "LEG_POINTS",
    "LEG_WIN",
    "NOISE",
    "TEAM_TIME_SPREAD",
    "evaluate",
    "outcome",
    "team_times",
]

#: The race model's noise: its variances times this fitted best the outcomes of 150
#: greedy classics (1,879 positions: log loss 0.442, against 0.446 at 1, 0.444 at 0.5
#: and 0.457 at 1.5; a constant 1/2 scores 0.693, the former softmax of the best
#: riders' spaces 0.862).
NOISE = 0.75
#: The team modes' spread: the variance of a team's time (its third rider's, CY-10.3)
#: times this. The time model's third rider and the race model's spread alone were
#: far too sure of the winner: over 717 positions of 30 greedy team time trials they
#: predicted it with a log loss of 0.80, worse than a coin (0.69); times 4 0.64, 8
#: 0.61, 16 0.61, 32 0.61. In the team pursuit (285 positions) 0.55, 0.52 at 4, 0.53
#: at 8; in the team sprint (354) 0.58, 0.57 at 4, 0.59 at 8. A search on the
#: overconfident figure saw most positions as won or lost and chose among moves on
#: differences of a few thousandths. (Widening alone did not make MCTS stronger: the
#: anchor to the greedy bot's move, ``heuristics.ANCHOR``, did; see docs/cyclo.md.)
TEAM_TIME_SPREAD = 8.0
#: The keirin's spread: the race model's variances times this as well. The model
#: knows nothing of the pacer, who holds every rider behind it for two rounds and
#: bans tokens, so it was as sure of the winner as it would be without it: over 315
#: positions of 40 greedy keirins (2 teams of 2) a log loss of 0.79, worse than a coin
#: (0.69); with the variances 2, 4, 8 or 16 times wider, 0.70, 0.65, 0.64 and 0.63.
KEIRIN_SPREAD = 8.0
#: A leg's reward: the win, and the shares of the green and of the red points.
LEG_WIN = 0.6
LEG_POINTS = 0.2


def evaluate(state: State) -> dict[str, float]:
    """Each team's value in [0, 1] for the mode's goal (see the module docstring)."""
    if state.is_over:
        return outcome(state)
    setup = state.setup
    mode = setup.mode
    if mode.team_time and state.phase == WHEEL and not state.is_chance:
        return _best_wheel(state)
    times = race_times(state, NOISE * KEIRIN_SPREAD if mode.pacer else NOISE)
    if mode.timed:
        if len(state.players) == 1:
            rounds = state.round - 1 + min((m for m, _ in times[state.players[0]]), default=0.0)
            return {state.players[0]: 1.0 / (1.0 + rounds)}
        if mode.team_time:
            return rank_shares(team_times(state, times))
        return rank_shares(times)
    if setup.finish_pays:
        return _points_rank(state, win_shares(times))
    if _ranked(state):
        shares = rank_shares(times)
        if mode.eliminations:
            shares = _with_elimination(state, shares)
        return shares
    finishers = state.position.finishers
    if finishers:  # CY-8.4: the first listed across the line has won
        first = finishers[0][0][0]
        win = {t: 1.0 if t == first else 0.0 for t in state.players}
    else:
        win = win_shares(times)
    if not mode.course_lines:
        return win
    position = state.position
    green = {t: FINISH_POINTS[0] * win[t] * (not finishers) for t in state.players}
    red = dict.fromkeys(state.players, 0.0)
    for rider, n in position.points.items():
        green[rider[0]] += n
    for rider, n in position.red.items():
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


def _best_wheel(state: State) -> dict[str, float]:
    """CY-5.1, CY-10.3: a rider offered a teammate's wheel in a team mode takes it or
    not as its team's value is best; the value is that choice's. The team's riders
    give each other wheels: the ride that offers one is worth what the wheel saves."""
    team = state.current_player
    assert team is not None
    best: dict[str, float] | None = None
    for move in state.legal_moves():
        after = state.copy()
        after.play(move)
        value = evaluate(after)
        if best is None or value[team] > best[team]:
            best = value
    assert best is not None
    return best


def team_times(
    state: State,
    times: dict[str, list[tuple[float, float]]],
    spread: float = TEAM_TIME_SPREAD,
) -> dict[str, list[tuple[float, float]]]:
    """CY-10.3: each team's time as its third rider's, in seconds, by the time model
    (:func:`.timed.expected_times`: the tokens spent where they save most, as the
    greedy bot rides) rather than the race model's rides, the variance the race
    model's times ``spread`` (``times`` holds the team's third rider's figure in
    rides; see :data:`TEAM_TIME_SPREAD`)."""
    out: dict[str, list[tuple[float, float]]] = {}
    for team in state.players:
        expected = sorted(expected_times(state, team).values())
        if not expected or not times.get(team):
            out[team] = []
            continue
        third = expected[min(TEAM_TIME_RIDER, len(expected)) - 1]
        variance = times[team][0][1] * ROUND_SECONDS**2 * spread
        out[team] = [(third, variance)]
    return out


def _ranked(state: State) -> bool:
    """Whether places below the first count: every mode but the classic, the leg and
    the sprint heat (two riders: the time rank is the win there anyway)."""
    mode = state.setup.mode
    return mode.timed or not mode.road


def _with_elimination(state: State, shares: dict[str, float]) -> dict[str, float]:
    """CY-11.5: the rank shares mixed with those after the rider most likely to be put
    out at the end of this round, at that chance (:mod:`.lines`)."""
    position = state.position
    risk, doomed = 0.0, None
    for rider in position.racing(state.setup.riders):
        if rider not in position.pos or position.pos[rider] > state.setup.finish:
            continue
        at = (
            elimination_risk(state, rider, position.pos[rider])
            if rider in position.turn_over or rider in position.skip
            else ride_risk(state, rider)
        )
        if at > risk:
            risk, doomed = at, rider
    if doomed is None:
        return shares
    after = rank_shares(race_times(state, NOISE, without=doomed))
    return {t: (1.0 - risk) * shares[t] + risk * after[t] for t in shares}


def _points_rank(state: State, front: dict[str, float]) -> dict[str, float]:
    """The points rank of a tempo or points race (see the module docstring): each
    team's best rider's expected points (:mod:`.points_model`), compared pairwise
    with the spread of the points still to pay."""
    riders = expected_points(state, NOISE)
    expected: dict[str, Expected] = {}
    for t in state.players:
        mine = [riders[r] for r in state.setup.team_riders(t) if r in riders]
        expected[t] = max(mine, key=lambda e: e.mean, default=Expected(0.0, 0.0))
    n = len(expected)
    shares = dict.fromkeys(expected, 0.0)
    teams = list(expected)
    for i, a in enumerate(teams):
        for b in teams[i + 1 :]:
            # points level: the finishing order decides, where the front model says
            lead = expected[a].mean - expected[b].mean + 0.5 * (front[a] - front[b])
            spread = expected[a].spread + expected[b].spread + 0.5
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
