"""The stage race (CY-12.2): road legs and time trials in turn, the general
classification on time and the three jerseys.

Per rider the race keeps a time, green points, red (mountain) points and saved
tokens. After each leg a rider's time grows by its leg time (less the leg's green
points with ``bonus_seconds``), it saves the own tokens it has left, and the next leg
starts it with min(5, B + saved) own tokens, B the boards of that leg's course (the
game's option ``tokens``, CY-2.4). Team tokens are never saved: every leg gives each
team min(5, B) afresh.

Jerseys: **yellow** the lowest time (ties: the better place in the latest leg, then
the rider id); **green** the most green points and **red** the most mountain points
(ties for both: yellow order).

>>> race = StageRace(2, legs=[{"mode": "itt", "course": "prologue"}])
>>> race.next_options()["mode"], race.is_over
('itt', False)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ....core.errors import ConfigError, PelotonError
from ..course import Course
from ..modes import LEVELS, MODES, PRO
from ..scoring import ROUND_SECONDS, Result
from ..setup import MAX_TOKENS
from ..start import from_options
from .competition import Competition

#: The modes a stage race's legs are ridden in.
LEG_MODES = ("leg", "itt", "ttt")
#: ``legs="tour"``: a prologue, a flat and a mountain stage, a team time trial.
TOUR = (
    {"mode": "itt", "course": "prologue"},
    {"mode": "leg", "course": "flat-stage"},
    {"mode": "leg", "course": "mountain-stage"},
    {"mode": "ttt", "course": "ttt"},
)
#: The jerseys, in the order they are shown.
JERSEYS = ("yellow", "green", "red")


class StageRace(Competition):
    """A stage race of ``players`` teams of four over ``legs`` (``"tour"`` or a list
    of ``{"mode": "leg"|"itt"|"ttt", "course": name or course object}``).

    ``events`` puts the event cards on the road legs (never on the time trials);
    ``bonus_seconds`` takes each leg's green points off its time. :class:`ConfigError`
    names a bad argument, and a leg whose game cannot be set up."""

    kind = "stage"
    title = "stage race"

    def __init__(
        self,
        players: int,
        legs: str | Sequence[Mapping[str, Any]] = "tour",
        level: str = PRO,
        events: bool = False,
        bonus_seconds: bool = False,
    ) -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int):
            raise ConfigError(
                f"a stage race's 'players' must be a number of teams, not {players!r}"
            )
        if not isinstance(level, str) or level not in LEVELS:
            raise ConfigError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
        for name, flag in (("events", events), ("bonus_seconds", bonus_seconds)):
            if not isinstance(flag, bool):
                raise ConfigError(f"a stage race's {name!r} must be true or false, not {flag!r}")
        self.players = players
        self.level = level
        self.events = events
        self.bonus_seconds = bonus_seconds
        self._legs_given: str | list[dict[str, Any]] = (
            legs if isinstance(legs, str) else [dict(leg) for leg in _leg_list(legs)]
        )
        self.legs = _parse_legs(legs)
        for i in range(len(self.legs)):  # every leg's game must set up before the first rides
            try:
                from_options(self._options(i, {}))
            except PelotonError as exc:
                raise ConfigError(f"leg {i + 1} ({_leg_name(self.legs[i])}): {exc}") from None
        riders = tuple(sorted(from_options(self._options(0, {})).setup.riders))
        #: The general classification and the jerseys' points, leg by leg.
        self.classification = Classification(riders, bonus_seconds, pro=level == PRO)

    # ------------------------------------------------------------ Competition

    @property
    def settings(self) -> dict[str, Any]:
        """The constructor's arguments, JSON-ready (courses as names or objects)."""
        return {
            "players": self.players,
            "legs": copy.deepcopy(self._legs_given),
            "level": self.level,
            "events": self.events,
            "bonus_seconds": self.bonus_seconds,
        }

    def next_options(self) -> dict[str, Any] | None:
        """The next leg's options: its mode and course, the level, the event cards on a
        road leg, and every rider's saved tokens."""
        ridden = self.classification.ridden
        if ridden >= len(self.legs):
            return None
        return self._options(ridden, self.classification.saved)

    def _options(self, index: int, saved: Mapping[str, int]) -> dict[str, Any]:
        leg = self.legs[index]
        tokens = {r: n for r, n in sorted(saved.items()) if n}
        return {
            "mode": leg["mode"],
            "players": self.players,
            "course": leg["course"],
            "level": self.level,
            "events": self.events if MODES[leg["mode"]].cards else None,
            "tokens": tokens or None,
        }

    def next_title(self) -> str:
        """``Leg 2 of 4: stage of a stage race, flat-stage``."""
        index = self.classification.ridden
        if index >= len(self.legs):
            return ""
        leg = self.legs[index]
        return (
            f"Leg {index + 1} of {len(self.legs)}: {MODES[leg['mode']].title}, {_course_name(leg)}"
        )

    def _take(self, result: Result) -> None:
        self.classification.add_leg(result)

    @property
    def standings(self) -> dict[str, Any]:
        """The classification's standings (:meth:`Classification.standings`) and
        ``legs``, how many legs the race has."""
        return {**self.classification.standings(), "legs": len(self.legs)}

    @property
    def winner(self) -> str | None:
        """The yellow jersey once the last leg is in."""
        return self.classification.yellow()[0] if self.is_over else None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> StageRace:
        """A new stage race from a file's ``settings``; :class:`ConfigError` for an
        unknown or missing argument."""
        known = ("players", "legs", "level", "events", "bonus_seconds")
        unknown = sorted(set(settings) - set(known))
        if unknown:
            raise ConfigError(f"unknown stage race setting(s) {', '.join(map(repr, unknown))}")
        if "players" not in settings:
            raise ConfigError("a stage race's settings must say how many 'players'")
        return cls(**{k: settings[k] for k in known if k in settings})


@dataclass
class Classification:
    """Per rider: time, green points, red points and saved tokens, after the legs
    added so far (CY-12.2), and the order of each jersey."""

    riders: tuple[str, ...]
    bonus_seconds: bool = False
    #: Pro level: own tokens are saved from leg to leg (none in Starter).
    pro: bool = True
    time: dict[str, int] = field(init=False)
    green: dict[str, int] = field(init=False)
    red: dict[str, int] = field(init=False)
    saved: dict[str, int] = field(init=False)
    #: Each rider's place (0 first) in the latest leg: yellow's first tie-break.
    last_place: dict[str, int] = field(init=False, default_factory=dict)
    ridden: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.time = dict.fromkeys(self.riders, 0)
        self.green = dict.fromkeys(self.riders, 0)
        self.red = dict.fromkeys(self.riders, 0)
        self.saved = dict.fromkeys(self.riders, 0)

    def add_leg(self, result: Result) -> None:
        """A finished leg: time += leg time (less its green points with bonus
        seconds), its green and red points added, saved = own tokens left (at most 5)."""
        times = leg_times(result, self.riders)
        for rider in self.riders:
            points = result.points.get(rider, 0)
            self.time[rider] += times[rider] - (points if self.bonus_seconds else 0)
            self.green[rider] += points
            self.red[rider] += result.mountain.get(rider, 0)
            if self.pro:
                self.saved[rider] = min(MAX_TOKENS, result.tokens_left.get(rider, 0))
        self.last_place = {rider: i for i, rider in enumerate(result.places)}
        self.ridden += 1

    def yellow(self) -> list[str]:
        """The general classification: lowest time first; ties by the better place in
        the latest leg, then by id (ascending string order, CY-19.14)."""
        last = self.last_place
        return sorted(self.riders, key=lambda r: (self.time[r], last.get(r, 0), r))

    def by_points(self, points: Mapping[str, int]) -> list[str]:
        """Most ``points`` first (green or red), ties in yellow order."""
        rank = {rider: i for i, rider in enumerate(self.yellow())}
        return sorted(self.riders, key=lambda r: (-points[r], rank[r]))

    def standings(self) -> dict[str, Any]:
        """``yellow`` (time in seconds), ``green`` and ``red`` (points) as ``[[id,
        value], …]`` best first, ``jerseys`` (who wears each: the first of each list),
        ``tokens`` (the saved tokens each rider takes into the next leg) and
        ``ridden`` (legs added)."""
        yellow = self.yellow()
        green = self.by_points(self.green)
        red = self.by_points(self.red)
        return {
            "yellow": [[r, self.time[r]] for r in yellow],
            "green": [[r, self.green[r]] for r in green],
            "red": [[r, self.red[r]] for r in red],
            "jerseys": {"yellow": yellow[0], "green": green[0], "red": red[0]},
            "tokens": dict(self.saved),
            "ridden": self.ridden,
        }


def leg_times(result: Result, riders: Sequence[str]) -> dict[str, int]:
    """Each rider's time for a leg (CY-8.6 ``times``: leg times, or the time trials'
    times). A rider the 300-round guard (CY-3.6) stopped before the line gets the
    slowest finisher's time plus one round (our decision: the rules never leave a
    rider out on the road)."""
    times = result.times
    slowest = max(times.values(), default=0)
    return {r: times[r] if r in times else slowest + ROUND_SECONDS for r in riders}


def _leg_list(legs: object) -> list[Mapping[str, Any]]:
    if isinstance(legs, str) or not isinstance(legs, Sequence) or not legs:
        raise ConfigError(
            f'a stage race\'s legs are "tour" or a list of {{"mode", "course"}}, not {legs!r}'
        )
    for i, leg in enumerate(legs):
        if not isinstance(leg, Mapping):
            raise ConfigError(f'leg {i + 1} must be {{"mode", "course"}}, not {leg!r}')
    return [
        {k: (v.to_dict() if isinstance(v, Course) else v) for k, v in leg.items()} for leg in legs
    ]


def _parse_legs(legs: object) -> list[dict[str, Any]]:
    """The legs as ``{"mode", "course"}`` (a course name or object; a missing course
    is the mode's own, CY-1.5)."""
    if legs == "tour":
        return [dict(leg) for leg in TOUR]
    if isinstance(legs, str):
        raise ConfigError(f'unknown legs {legs!r}: "tour" or a list of {{"mode", "course"}}')
    parsed = []
    for i, leg in enumerate(_leg_list(legs)):
        unknown = sorted(set(leg) - {"mode", "course"})
        if unknown:
            raise ConfigError(f"leg {i + 1} has unknown key(s) {', '.join(map(repr, unknown))}")
        mode = leg.get("mode")
        if mode not in LEG_MODES:
            raise ConfigError(
                f"leg {i + 1}: mode {mode!r} is not a stage race leg ({', '.join(LEG_MODES)})"
            )
        parsed.append({"mode": mode, "course": leg.get("course")})
    return parsed


def _leg_name(leg: Mapping[str, Any]) -> str:
    """``leg on flat-stage``: a leg's mode and course (the mode's own when not given)."""
    return f"{leg['mode']} on {_course_name(leg)}"


def _course_name(leg: Mapping[str, Any]) -> str:
    """A leg's course by name (the mode's own when not given)."""
    course = leg["course"]
    if isinstance(course, Mapping):
        course = course.get("name", "a course")
    return str(course or MODES[leg["mode"]].course)
