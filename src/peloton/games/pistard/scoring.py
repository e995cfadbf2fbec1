"""Lap points and the winner (PI-4.2, PI-4.3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: PI-4.2: points of the first, second and third rider across the line into a lap.
LAP_POINTS = (3, 2, 1)
DEFAULT_TARGET = 12
#: The most points a table may ask for (issue 11: a game must end in reasonable time).
#: Three times the printed target: each lap hands out at most 6 points, so a game to
#: 36 already lasts six laps or more (docs/pistard.md, "Every game ends").
MAX_TARGET = 36


def lap_points(crossed_before: int) -> int:
    """Points of a rider crossing into a lap after ``crossed_before`` others did."""
    return LAP_POINTS[crossed_before] if crossed_before < len(LAP_POINTS) else 0


def standings(
    teams: Sequence[str],
    points: Mapping[str, int],
    recency: Sequence[str],
    lead: Mapping[str, int],
) -> list[str]:
    """Players best first (PI-4.3): more points; then the one whose rider scored last
    (``recency`` lists players most recent scorer first); then, for players who never
    scored, the furthest rider (``lead``: a player's furthest distance), then seat."""

    def key(team: str) -> tuple[int, int, int, int]:
        latest = recency.index(team) if team in recency else len(recency)
        return (-points[team], latest, -lead.get(team, -1), teams.index(team))

    return sorted(teams, key=key)


@dataclass(frozen=True)
class Result:
    """The standing of a game; final once ``over`` is true.

    ``winner`` is set only when the game is over; ``places`` ranks every player by
    PI-4.3 (a provisional order while the race goes on). ``reason`` says why the game
    ended: ``target`` (PI-4.3) or ``stalled`` (a whole round with no rider advancing,
    a guard that the rules' minimum track length makes unreachable)."""

    points: dict[str, int]
    places: tuple[str, ...]
    eliminated: tuple[str, ...] = ()
    winner: str | None = None
    over: bool = False
    reason: str | None = None
    recency: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {
            "points": dict(self.points),
            "places": list(self.places),
            "eliminated": list(self.eliminated),
            "winner": self.winner,
            "over": self.over,
            "reason": self.reason,
        }
