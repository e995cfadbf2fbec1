"""The pursuit series (CY-12.5): timed qualifying heats, then a final for the two
fastest teams.

Qualifying heats pair the teams in seat order, A with B, C with D, E with F; with an
odd number of teams the last rides alone. Teams rank by their qualifying time, ties
by seat; a team without a time (stopped by the 300-round guard, CY-3.6) ranks after
every timed team (our decision). The best two ride the final, ridden again while
their times are level. The standings are the final's winner, its runner-up, then
the other teams in qualifying order.

A ``pursuit`` heat puts one rider a team on the track, a ``team-pursuit`` heat four,
timed on the third (CY-11.3). No tokens are carried from heat to heat (our decision:
the rules carry saved tokens in the omnium only).

>>> series = PursuitSeries(5)
>>> series.heats
[('A', 'B'), ('C', 'D'), ('E',)]
>>> series.next_title()
'Qualifying heat 1 of 3: A v B'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....core.errors import StateError
from ..modes import MODES, PRO
from ..riders import TEAM_LETTERS
from ..scoring import Result
from .competition import HeatSeries

#: The modes a series' heats are ridden in.
SERIES_MODES = ("pursuit", "team-pursuit")


class PursuitSeries(HeatSeries):
    """A pursuit series of ``players`` teams (2–6), in ``mode`` ``pursuit`` (one rider
    a team) or ``team-pursuit`` (four), at ``level``. :class:`ConfigError` names a bad
    argument."""

    kind = "pursuit-series"
    title = "pursuit series"

    modes = SERIES_MODES
    table: SeriesTable

    def __init__(self, players: int, mode: str = "pursuit", level: str = PRO) -> None:
        super().__init__(players, mode, level)
        teams = TEAM_LETTERS[:players]
        #: The qualifying heats, in the order they are ridden.
        self.heats: list[tuple[str, ...]] = [
            tuple(teams[i : i + 2]) for i in range(0, len(teams), 2)
        ]
        #: Qualifying and final times so far.
        self.table = SeriesTable(tuple(teams), self.heats, self.mode)

    def next_title(self) -> str:
        """``Qualifying heat 2 of 3: C v D``, ``Final: A v C`` (``re-ride`` when the
        final is ridden again)."""
        teams = self.table.next_teams()
        if teams is None:
            return ""
        riders = " v ".join(teams) + ("" if len(teams) > 1 else " alone")
        ridden = len(self.table.qualifying)
        if ridden < len(self.heats):
            return f"Qualifying heat {ridden + 1} of {len(self.heats)}: {riders}"
        return f"Final: {riders}" + (", re-ride" if self.table.finals else "")

    @property
    def winner(self) -> str | None:
        """The final's winner."""
        return self.table.champion


def heat_times(result: Result, teams: tuple[str, ...], mode: str) -> dict[str, int | None]:
    """Each team's time in a heat: its rider's in a pursuit, its team time (the third
    rider's, CY-11.3) in a team pursuit; ``None`` for a team without one."""
    if MODES[mode].team_time:
        return {t: result.team_times.get(t) for t in teams}
    return {t: result.times.get(t + "S1") for t in teams}


def _time_key(time: int | None) -> tuple[int, int]:
    return (1, 0) if time is None else (0, time)


@dataclass
class SeriesTable:
    """The qualifying times, the final and the order of the series (CY-12.5): a
    pure function of the heats' results."""

    teams: tuple[str, ...]
    schedule: list[tuple[str, ...]]
    mode: str = "pursuit"
    #: Per qualifying heat ridden: each of its teams' time.
    qualifying: list[dict[str, int | None]] = field(init=False, default_factory=list)
    #: Per final ridden (more than one when tied): both finalists' times.
    finals: list[dict[str, int | None]] = field(init=False, default_factory=list)
    #: The final's winner and runner-up, once decided.
    champion: str | None = field(init=False, default=None)
    runner_up: str | None = field(init=False, default=None)

    def qualifying_times(self) -> dict[str, int | None]:
        """Every team's qualifying time so far."""
        return {t: time for heat in self.qualifying for t, time in heat.items()}

    def qualifying_order(self) -> list[str]:
        """The teams that have qualified so far, by time, ties by seat."""
        times = self.qualifying_times()
        return sorted(times, key=lambda t: (_time_key(times[t]), self.teams.index(t)))

    def finalists(self) -> tuple[str, str] | None:
        """The best two of qualifying, in seat order, once every heat is ridden."""
        if len(self.qualifying) < len(self.schedule):
            return None
        first, second = self.qualifying_order()[:2]
        return (first, second) if first < second else (second, first)

    def next_teams(self) -> tuple[str, ...] | None:
        """The teams of the next heat; ``None`` once the final is decided."""
        if len(self.qualifying) < len(self.schedule):
            return self.schedule[len(self.qualifying)]
        return None if self.champion is not None else self.finalists()

    def add_heat(self, result: Result) -> None:
        """A heat: a qualifying heat's times, or the final's (decided by the lower
        time; level times, or none, ride it again)."""
        teams = self.next_teams()
        if teams is None:
            raise StateError("the pursuit series' final is decided")
        times = heat_times(result, teams, self.mode)
        if len(self.qualifying) < len(self.schedule):
            self.qualifying.append(times)
            return
        self.finals.append(times)
        first, second = sorted(teams, key=lambda t: _time_key(times[t]))
        if times[first] is not None and _time_key(times[first]) != _time_key(times[second]):
            self.champion, self.runner_up = first, second

    def order(self) -> list[str]:
        """The final's winner and runner-up (once decided), then qualifying order,
        then the teams still to ride, in seat order."""
        top = [self.champion, self.runner_up] if self.champion and self.runner_up else []
        rest = [t for t in self.qualifying_order() if t not in top]
        waiting = [t for t in self.teams if t not in top and t not in rest]
        return top + rest + waiting

    def standings(self) -> dict[str, Any]:
        """JSON-ready: ``table``, per team in series order, its ``rank``, ``team``,
        qualifying ``time`` and ``gap`` to the best (``None`` without), ``final``
        (its time in the last final ridden, for the finalists) and ``place`` in
        qualifying; ``qualifying`` as ``[[team, time], …]`` in qualifying order,
        ``finals`` (every final ridden: the two times), ``winner``, ``runner_up`` and
        ``next`` (the teams of the next heat)."""
        times = self.qualifying_times()
        order = self.qualifying_order()
        best = next((times[t] for t in order if times[t] is not None), None)
        last_final = self.finals[-1] if self.finals else {}
        table = []
        for rank, team in enumerate(self.order(), start=1):
            time = times.get(team)
            table.append(
                {
                    "rank": rank,
                    "team": team,
                    "time": time,
                    "gap": None if time is None or best is None else time - best,
                    "final": last_final.get(team),
                    "place": order.index(team) + 1 if team in times else None,
                }
            )
        upcoming = self.next_teams()
        return {
            "mode": self.mode,
            "table": table,
            "qualifying": [[t, times[t]] for t in order],
            "finals": [dict(final) for final in self.finals],
            "winner": self.champion,
            "runner_up": self.runner_up,
            "next": list(upcoming) if upcoming else None,
        }
