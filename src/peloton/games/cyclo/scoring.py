"""Line lists, finishing order, leg times, green and red points, time-trial times,
track points and eliminations, and the result (CY-8 to CY-11).

At the end of each round (CY-3.5) :func:`end_round` appends the riders that crossed
each scoring line and the finish line to their lists, best placed first, pays their
points, takes the finishers off the run-out and makes the round's eliminations;
:func:`race_over` says whether the race ends there. :func:`result` is the standing of
a game, final once it is over (CY-8.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import SPRINT
from .position import Position
from .riders import slot_index
from .setup import Setup
from .track import ELIMINATION

#: CY-9.3: green points of a sprint line and of the finish; red points by category.
SPRINT_POINTS = (5, 3, 2, 1)
FINISH_POINTS = (15, 10, 5, 3, 2, 1)
MOUNTAIN_POINTS = {
    "3": (3, 2, 1),
    "2": (5, 3, 2, 1),
    "1": (7, 5, 3, 2, 1),
    "HC": (10, 7, 5, 3, 2, 1),
}
#: CY-9.1: seconds a round.
ROUND_SECONDS = 10


def paid(table: tuple[int, ...], place: int) -> int:
    """The points of 0-based ``place`` on a line paying ``table``."""
    return table[place] if place < len(table) else 0


def end_round(setup: Setup, position: Position) -> None:
    """CY-3.5: rank the line crossings of the round (CY-8.2) and pay their points
    (CY-9.3 in a leg, CY-11.2 on the track), list the finishers with their round and
    squares past the line (CY-8.3), take them off the run-out, then put out one rider
    for each elimination line first passed (CY-11.5)."""
    key = _square_order(setup, position)
    green = setup.mode.course_lines
    track = setup.is_track
    first_crossed: list[int] = []  # lines first crossed this round (eliminations)
    for i, line in enumerate(setup.scoring):
        listed = position.lists[i]
        if position.crossed[i] and not listed:
            first_crossed.append(i)
        for rider in sorted((r for r in position.crossed[i] if r not in listed), key=key):
            if track:
                _add(position.points, rider, paid(setup.pays[i], len(listed)))
            elif green:
                if line.kind == SPRINT:
                    _add(position.points, rider, paid(SPRINT_POINTS, len(listed)))
                else:
                    assert line.category is not None
                    _add(position.red, rider, paid(MOUNTAIN_POINTS[line.category], len(listed)))
            listed.append(rider)
        position.crossed[i] = []
    arrivals = sorted(position.crossed[-1], key=key)
    for rider in arrivals:
        if green:
            _add(position.points, rider, paid(FINISH_POINTS, len(position.finishers)))
        elif track:
            _add(position.points, rider, paid(setup.finish_pays, len(position.finishers)))
        position.finishers.append((rider, position.round, position.pos[rider] - setup.finish))
    position.crossed[-1] = []
    for rider in arrivals:
        position.remove(rider, setup.world[rider])
    for i in first_crossed:
        if setup.scoring[i].kind == ELIMINATION:
            eliminate(setup, position)


def eliminate(setup: Setup, position: Position) -> None:
    """CY-11.5: the rearmost racing rider is out (lowest distance; at equal distance
    the higher lane) and leaves the track. Finishers are never eliminated: with no
    rider left racing, the line puts nobody out (docs/cyclo.md, decisions)."""
    racing = [r for r in position.racing(setup.riders) if r in position.pos]
    if not racing:
        return
    rider = min(racing, key=lambda r: (position.pos[r], -position.lane[r]))
    position.remove(rider, setup.world[rider])
    position.out.append(rider)


def race_over(setup: Setup, position: Position) -> bool:
    """CY-8.5, CY-11.5: whether the race ends at the end of this round: a sprint
    heat or an elimination race once a rider has finished (the elimination race has
    put out all but its last two by then), every other mode once nobody races."""
    if not position.racing(setup.riders):
        return True
    return setup.mode.ends_at_first_finish and bool(position.finishers)


def _square_order(setup: Setup, position: Position) -> Any:
    """CY-8.2: higher position first, then the lower lane; riders of different worlds
    on one square (the time trials) then by seat and rider order, as CY-10.4 and
    CY-19.3 tie them (docs/cyclo.md, decision 16)."""
    pos, lane = position.pos, position.lane
    seat = {t: i for i, t in enumerate(setup.teams)}
    return lambda r: (-pos[r], lane[r], seat[r[0]], slot_index(r))


def _add(points: dict[str, int], rider: str, n: int) -> None:
    if n:
        points[rider] = points.get(rider, 0) + n


def own_time(rnd: int, past: int) -> int:
    """CY-10.2: a rider finishing in round ``rnd``, ``past`` squares past the line:
    10 seconds a round less one a square."""
    return ROUND_SECONDS * rnd - past


def team_times(setup: Setup, finishers: list[tuple[str, int, int]]) -> dict[str, int]:
    """CY-10.3, CY-19.12: a team's time is its third-best own time (once three of its
    riders have finished)."""
    if not setup.mode.team_time:
        return {}
    own: dict[str, list[int]] = {}
    for rider, rnd, past in finishers:
        own.setdefault(rider[0], []).append(own_time(rnd, past))
    return {team: sorted(times)[2] for team, times in own.items() if len(times) >= 3}


def leg_times(finishers: list[tuple[str, int, int]]) -> dict[str, int]:
    """CY-9.1, CY-9.2: the first round with finishers gives them all 0; a later round r
    gives 10·(r − r0) − p, and a rider on the run-out square of the rider before it in
    its round, or one behind, gets that rider's time (CY-19.10)."""
    times: dict[str, int] = {}
    if not finishers:
        return times
    first = finishers[0][1]
    before: tuple[int, int, int] | None = None  # round, past, time of the rider before
    for rider, rnd, past in finishers:
        if rnd == first:
            time = 0
        elif before is not None and before[0] == rnd and past in (before[1], before[1] - 1):
            time = before[2]
        else:
            time = ROUND_SECONDS * (rnd - first) - past
        times[rider] = time
        before = (rnd, past, time)
    return times


@dataclass(frozen=True)
class Result:
    """The standing of a game (CY-8.6), final once ``over``.

    ``places`` ranks every rider: the finishing order, then riders still racing in
    position order (in a tempo or points race both by points first, CY-11.2), then
    the eliminated, last out first (a provisional order while the
    race goes on, where riders that finished in the round under way, listed and timed
    at its end, come first among those racing, furthest past the line first);
    ``winner`` and ``winner_team`` are set once it is over."""

    places: tuple[str, ...]
    teams: tuple[str, ...]
    winner: str | None = None
    winner_team: str | None = None
    times: dict[str, int] = field(default_factory=dict)
    team_times: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    mountain: dict[str, int] = field(default_factory=dict)
    eliminated: tuple[str, ...] = ()
    tokens_left: dict[str, int] = field(default_factory=dict)
    over: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (the keys of CY-8.6)."""
        return {
            "places": list(self.places),
            "winner": self.winner,
            "winner_team": self.winner_team,
            "teams": list(self.teams),
            "times": dict(self.times),
            "team_times": dict(self.team_times),
            "points": dict(self.points),
            "mountain": dict(self.mountain),
            "eliminated": list(self.eliminated),
            "tokens_left": dict(self.tokens_left),
            "over": self.over,
        }


def result(setup: Setup, position: Position) -> Result:
    """The result of CY-8.6 (CY-8.4, CY-8.5, CY-9, CY-10, CY-11.2 to CY-11.5): the
    tempo and points races rank by points, then finishing order."""
    key = _square_order(setup, position)
    # still on a square: racing, or finished this round and waiting on the run-out to be
    # listed at its end (CY-8.3); the run-out ranks first, furthest past the line first
    racing = sorted((r for r in setup.riders if r in position.pos), key=key)
    seat = {t: i for i, t in enumerate(setup.teams)}
    mode = setup.mode
    times: dict[str, int] = {}
    by_team = team_times(setup, position.finishers)
    if mode.timed:  # CY-10.2 to CY-10.4: places by time, ties by seat then rider order
        times = {r: own_time(rnd, past) for r, rnd, past in position.finishers}
        if mode.team_time:
            times = {r: by_team.get(r[0], t) for r, t in times.items()}
        finished = sorted(times, key=lambda r: (times[r], seat[r[0]], slot_index(r)))
    else:
        finished = [r for r, _, _ in position.finishers]
        if mode.leg_times:
            times = leg_times(position.finishers)
    ranked = finished + racing
    scored = bool(setup.finish_pays)  # tempo, points race: points, then finishing order
    if scored:
        order = {r: i for i, r in enumerate(ranked)}
        ranked.sort(key=lambda r: (-position.points.get(r, 0), order[r]))
    places = tuple(ranked + position.out[::-1])
    rank = {r: i for i, r in enumerate(places)}
    if mode.team_time:
        teams = tuple(
            sorted(
                setup.teams,
                key=lambda t: (
                    (0, by_team[t], seat[t])
                    if t in by_team
                    else (1, min(rank[r] for r in setup.team_riders(t)), 0)
                ),
            )
        )
    else:
        teams = tuple(sorted(setup.teams, key=lambda t: min(rank[r] for r in setup.team_riders(t))))
    leg = mode.course_lines
    return Result(
        places=places,
        teams=teams,
        winner=places[0] if position.over and not mode.team_time else None,
        winner_team=teams[0] if position.over else None,
        times=times,
        team_times=by_team,
        points={r: position.points.get(r, 0) for r in setup.riders} if leg or scored else {},
        mountain={r: position.red.get(r, 0) for r in setup.riders} if leg else {},
        eliminated=tuple(position.out),
        tokens_left={r: position.own.get(r, 0) for r in setup.riders},
        over=position.over,
    )
