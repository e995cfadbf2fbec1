"""Finish order, points, medals and the trophy (MC-8), and the solo score (MC-9.4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: MC-8.2: points for places 1 to 12.
POINTS = tuple(range(12, 0, -1))
MEDAL_KEYS = ("cyclist", "sprinter", "climber", "team")


def place_points(place: int) -> int:
    """Points for a 1-based finishing place."""
    return POINTS[place - 1] if 1 <= place <= len(POINTS) else 0


def team_points(places: Sequence[str], teams: Sequence[str]) -> dict[str, int]:
    """Each team's points from the finishing order (a rider id starts with its team)."""
    points = dict.fromkeys(teams, 0)
    for i, rid in enumerate(places[: len(POINTS)]):
        points[rid[0]] += POINTS[i]
    return points


def _best_place(team: str, places: Sequence[str]) -> int:
    for i, rid in enumerate(places):
        if rid[0] == team:
            return i
    return len(places) + 1_000  # no rider across: worse than any place


def best_team(places: Sequence[str], teams: Sequence[str]) -> str:
    """MC-8.3 Best Team: most points; ties to the better best-placed rider, then seat."""
    points = team_points(places, teams)
    return min(teams, key=lambda t: (-points[t], _best_place(t, places), teams.index(t)))


def trophy(medals: Mapping[str, str], places: Sequence[str], teams: Sequence[str]) -> str:
    """MC-8.4: most medals; among tied teams the Best Team holder, then points, then the
    better best-placed rider (then seat order, which can only matter with no finisher)."""
    count = dict.fromkeys(teams, 0)
    for key, holder in medals.items():
        count[holder if key == "team" else holder[0]] += 1
    points = team_points(places, teams)
    team_medal = medals.get("team")
    return min(
        teams,
        key=lambda t: (
            -count[t],
            t != team_medal,
            -points[t],
            _best_place(t, places),
            teams.index(t),
        ),
    )


@dataclass(frozen=True)
class Result:
    """The standing of a game (MC-10.4); final once ``over`` is true.

    ``medals`` maps ``cyclist``/``sprinter``/``climber`` to a rider id and ``team`` to a
    team letter; a key is absent while its medal is not awarded.
    """

    places: tuple[str, ...]
    points: dict[str, int]
    medals: dict[str, str] = field(default_factory=dict)
    trophy: str | None = None
    solo_score: tuple[int, int] | None = None
    over: bool = False

    def medal_count(self, team: str) -> int:
        """How many medals ``team`` holds."""
        return sum(1 for k, v in self.medals.items() if (v if k == "team" else v[0]) == team)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (what a record stores, informationally)."""
        return {
            "places": list(self.places),
            "points": dict(self.points),
            "medals": dict(self.medals),
            "trophy": self.trophy,
            "solo_score": list(self.solo_score) if self.solo_score else None,
            "over": self.over,
        }
