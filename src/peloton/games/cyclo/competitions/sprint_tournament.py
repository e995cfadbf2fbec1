"""The sprint tournament (CY-12.4): every pair of teams meets once in a duel.

Duels go in seat order: A–B, A–C, …, A–F, B–C, …, E–F. A **sprint** duel runs
one-rider heats until a rider has won two (two or three heats); a **team-sprint**
duel is one heat of two teams of three, won by the lower team time and ridden again
when the times are level. Teams rank by duels won, then heats won, then seat (our
decision: the rules only say "then duels with other teams").

Every heat is a game of its own with option ``teams`` naming the two teams, e.g.
``["A", "C"]``; no tokens are carried from heat to heat (our decision: the rules
carry saved tokens in the omnium only), so each heat starts every rider with 3.

>>> tournament = SprintTournament(3)
>>> tournament.duels
[('A', 'B'), ('A', 'C'), ('B', 'C')]
>>> tournament.next_options()["teams"], tournament.next_title()
(['A', 'B'], 'Duel 1 of 3: A v B, heat 1')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ....core.errors import StateError
from ..modes import MODES, PRO
from ..riders import TEAM_LETTERS
from ..scoring import Result
from .competition import HeatSeries

#: The modes a tournament's heats are ridden in.
TOURNAMENT_MODES = ("sprint", "team-sprint")
#: Heats a rider must win to take a sprint duel.
HEATS_TO_WIN = 2


class SprintTournament(HeatSeries):
    """A sprint tournament of ``players`` teams (2–6), in ``mode`` ``sprint`` (one
    rider a team) or ``team-sprint`` (three), at ``level``. :class:`ConfigError` names
    a bad argument."""

    kind = "sprint-tournament"
    title = "sprint tournament"

    modes = TOURNAMENT_MODES
    table: DuelTable

    def __init__(self, players: int, mode: str = "sprint", level: str = PRO) -> None:
        super().__init__(players, mode, level)
        teams = TEAM_LETTERS[:players]
        #: The duels, in the order they are ridden.
        self.duels: list[tuple[str, str]] = list(combinations(teams, 2))
        #: Heats and duels won so far.
        self.table = DuelTable(tuple(teams), self.duels, self.mode)

    def next_title(self) -> str:
        """``Duel 2 of 3: A v C, heat 1`` (``re-ride`` after a tied team sprint)."""
        duel = self.table.next_teams()
        if duel is None:
            return ""
        index = len(self.table.duels)
        heats = self.table.heats_of(index)
        title = f"Duel {index + 1} of {len(self.duels)}: {duel[0]} v {duel[1]}"
        if MODES[self.mode].team_time:  # one heat, re-ridden when tied
            return title + (", re-ride" if heats else "")
        return f"{title}, heat {len(heats) + 1}"

    @property
    def winner(self) -> str | None:
        """The team ranked first once every duel is ridden."""
        return self.table.order()[0] if self.is_over else None


@dataclass
class Heat:
    """One heat of a duel: who won it (``None``: a tied team sprint, ridden again)
    and, in a team sprint, each team's time (``None`` when it has none)."""

    winner: str | None
    times: dict[str, int | None] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"winner": self.winner, "times": dict(self.times)}


@dataclass
class DuelTable:
    """The duels ridden and the heats of the one under way (CY-12.4): a pure
    function of the heats' results."""

    teams: tuple[str, ...]
    schedule: list[tuple[str, str]]
    mode: str = "sprint"
    #: The heats of every duel decided so far, and of the one under way.
    heats: list[list[Heat]] = field(init=False, default_factory=list)
    #: The winners of the duels decided so far, in order.
    duels: list[str] = field(init=False, default_factory=list)

    def next_teams(self) -> tuple[str, str] | None:
        """The duel under way (or next), ``None`` once every duel is decided."""
        index = len(self.duels)
        return self.schedule[index] if index < len(self.schedule) else None

    def heats_of(self, index: int) -> list[Heat]:
        """The heats ridden in duel ``index`` (0 first)."""
        return self.heats[index] if index < len(self.heats) else []

    def add_heat(self, result: Result) -> None:
        """A heat of the duel under way: the first place wins a sprint heat; the
        lower team time wins a team-sprint heat, level times (or none) re-ride it."""
        duel = self.next_teams()
        if duel is None:
            raise StateError("every duel of the sprint tournament is decided")
        index = len(self.duels)
        while len(self.heats) <= index:
            self.heats.append([])
        if MODES[self.mode].team_time:
            times = {t: result.team_times.get(t) for t in duel}
            timed = sorted((time, t) for t, time in times.items() if time is not None)
            tied = not timed or (len(timed) == 2 and timed[0][0] == timed[1][0])
            heat = Heat(None if tied else timed[0][1], times)
        else:
            winner = next((r[0] for r in result.places if r[0] in duel), None)
            heat = Heat(winner)
        self.heats[index].append(heat)
        won = sum(1 for h in self.heats[index] if h.winner == heat.winner)
        if heat.winner is not None and (MODES[self.mode].team_time or won >= HEATS_TO_WIN):
            self.duels.append(heat.winner)

    def duels_won(self, team: str) -> int:
        """Duels a team has won."""
        return self.duels.count(team)

    def heats_won(self, team: str) -> int:
        """Heats a team has won, in every duel."""
        return sum(1 for duel in self.heats for heat in duel if heat.winner == team)

    def order(self) -> list[str]:
        """The teams: most duels won, then most heats won, then seat."""
        return sorted(
            self.teams,
            key=lambda t: (-self.duels_won(t), -self.heats_won(t), self.teams.index(t)),
        )

    def standings(self) -> dict[str, Any]:
        """JSON-ready: ``table``, per team best first, its ``rank``, ``team``,
        ``duels`` and ``heats`` won and ``ridden`` (duels decided); ``duels``, per
        duel of the schedule, its ``teams``, ``heats`` and ``winner`` (``None``
        until decided); ``decided`` and ``next`` (the duel under way)."""
        decided = len(self.duels)
        table = [
            {
                "rank": rank,
                "team": team,
                "duels": self.duels_won(team),
                "heats": self.heats_won(team),
                "ridden": sum(1 for pair in self.schedule[:decided] if team in pair),
            }
            for rank, team in enumerate(self.order(), start=1)
        ]
        duels = [
            {
                "teams": list(pair),
                "heats": [heat.to_dict() for heat in self.heats_of(i)],
                "winner": self.duels[i] if i < decided else None,
            }
            for i, pair in enumerate(self.schedule)
        ]
        current = self.next_teams()
        return {
            "mode": self.mode,
            "table": table,
            "duels": duels,
            "decided": decided,
            "next": list(current) if current else None,
        }
