"""The omnium (CY-12.3): four track races ridden by the same riders, a points table
over all four.

The events are, in this order, a scratch race, an elimination race, a tempo race and
a points race. Places 1 to 6 of each of the first three score 15, 10, 5, 3, 2 and 1;
the points race adds the race points each rider scored in it. The most points win;
riders level on points are split by their finishing place in the points race (the
order its last sprint, the finish line, listed them). Before the points race is
ridden, a tie goes to the better place in the latest event, then to the rider id
(our decision: the rules only break the final tie).

Saved tokens carry over as in a stage race: after each event a rider saves the own
tokens it has left (at most 5), and the next event starts it with min(5, 3 + saved)
(the game's option ``tokens``, CY-2.4). Starter riders have no tokens to save.

>>> omnium = Omnium(3)
>>> omnium.next_options()["mode"], omnium.riders
('scratch', ('AS1', 'BS1', 'CS1'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ....core.errors import ConfigError, StateError
from ..modes import LEVELS, MODES, PRO
from ..riders import TEAM_LETTERS, team_riders
from ..scoring import FINISH_POINTS, Result, paid
from ..setup import MAX_TOKENS
from ..state import State
from .competition import Competition, check_choice, check_teams, settings_of

#: The omnium's events, in the order they are ridden.
EVENTS = ("scratch", "elimination", "tempo", "points")
#: Which events score their places (1–6, :data:`PLACE_POINTS`) and which their race
#: points (the points race, CY-12.3), event by event.
SCORES_RACE_POINTS = (False, False, False, True)
#: Points of places 1–6 in the scratch, elimination and tempo races.
PLACE_POINTS = FINISH_POINTS
#: Fewest riders in an omnium (an elimination race needs three).
MIN_RIDERS = 3


class Omnium(Competition):
    """An omnium of ``players`` teams (2–6) of ``entries`` riders (1 or 2), at least
    three riders in all, at ``level`` (``pro`` or ``starter``). :class:`ConfigError`
    names a bad argument."""

    kind = "omnium"
    title = "omnium"

    def __init__(self, players: int, entries: int = 1, level: str = PRO) -> None:
        super().__init__()
        self.players = check_teams(players, self.title, 2)
        if isinstance(entries, bool) or entries not in (1, 2):
            raise ConfigError(f"an omnium's 'entries' (riders a team) is 1 or 2, not {entries!r}")
        if players * entries < MIN_RIDERS:
            raise ConfigError(
                f"an omnium needs at least {MIN_RIDERS} riders: {players} teams of {entries} "
                f"make {players * entries} (take 3 teams or 2 entries)"
            )
        self.entries = entries
        self.level = check_choice("level", level, LEVELS, self.title)
        #: Every rider, in id order (CY-19.14).
        self.riders = tuple(
            sorted(r for t in TEAM_LETTERS[:players] for r in team_riders(t, entries))
        )
        #: The points table, event by event.
        self.table = OmniumTable(self.riders, pro=self.level == PRO)

    @property
    def settings(self) -> dict[str, Any]:
        """The constructor's arguments."""
        return {"players": self.players, "entries": self.entries, "level": self.level}

    def next_options(self) -> dict[str, Any] | None:
        """The next event's options: its mode, the teams and entries, the level and
        every rider's saved tokens."""
        ridden = len(self.table.events)
        if ridden >= len(EVENTS):
            return None
        tokens = {r: n for r, n in sorted(self.table.saved.items()) if n}
        return {
            "mode": EVENTS[ridden],
            "players": self.players,
            "entries": self.entries,
            "level": self.level,
            "tokens": tokens or None,
        }

    def next_title(self) -> str:
        """``Event 2 of 4: elimination race``."""
        ridden = len(self.table.events)
        if ridden >= len(EVENTS):
            return ""
        return f"Event {ridden + 1} of {len(EVENTS)}: {MODES[EVENTS[ridden]].title}"

    def _take_game(self, state: State) -> None:
        self.table.add_event(state.result, finishing_order(state))

    def _take(self, result: Result) -> None:
        self.table.add_event(result)

    @property
    def standings(self) -> dict[str, Any]:
        """:meth:`OmniumTable.standings`."""
        return self.table.standings()

    @property
    def winner(self) -> str | None:
        """The rider with the most points once the points race is in."""
        return self.table.order()[0] if self.is_over else None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> Omnium:
        """A new omnium from a file's ``settings``."""
        return cls(**settings_of(settings, ("players", "entries", "level"), "omnium"))


def finishing_order(state: State) -> tuple[str, ...]:
    """The order a finished race's finish line listed its riders (CY-8.3), then the
    riders it did not list in the order of its result (the 300-round guard, CY-3.6)."""
    listed = [rider for rider, _, _ in state.position.finishers]
    return tuple(listed + [r for r in state.result.places if r not in listed])


@dataclass
class OmniumTable:
    """The omnium's points, event by event (CY-12.3): a pure function of the events'
    results."""

    riders: tuple[str, ...]
    #: Pro level: own tokens left are saved for the next event (none in Starter).
    pro: bool = True
    #: Per event ridden: each rider's omnium points from it.
    events: list[dict[str, int]] = field(init=False, default_factory=list)
    #: Per event ridden: each rider's place in it (1 first).
    places: list[dict[str, int]] = field(init=False, default_factory=list)
    #: The points race's finishing order (the final tie-break), once ridden.
    finish: tuple[str, ...] = field(init=False, default=())
    #: The own tokens each rider takes into the next event.
    saved: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.saved = dict.fromkeys(self.riders, 0)

    def add_event(self, result: Result, finish: Sequence[str] | None = None) -> None:
        """A finished event: places 1–6 score in the first three, race points in the
        points race (``finish``, its finishing order, breaks the final ties; by
        default the result's places)."""
        index = len(self.events)
        if index >= len(EVENTS):
            raise StateError("the omnium has had its four events")
        place = {rider: i for i, rider in enumerate(result.places)}
        if SCORES_RACE_POINTS[index]:
            scored = {r: result.points.get(r, 0) for r in self.riders}
            self.finish = tuple(finish if finish is not None else result.places)
        else:
            scored = {r: paid(PLACE_POINTS, place.get(r, len(place))) for r in self.riders}
        self.events.append(scored)
        self.places.append({r: place.get(r, len(place)) + 1 for r in self.riders})
        if self.pro:
            self.saved = {r: min(MAX_TOKENS, result.tokens_left.get(r, 0)) for r in self.riders}

    def points(self, rider: str) -> int:
        """A rider's omnium points so far."""
        return sum(event[rider] for event in self.events)

    def order(self) -> list[str]:
        """The riders, most points first; ties by the finishing place in the points
        race, or before it by the place in the latest event, then by id."""
        if self.finish:
            tie = {r: i for i, r in enumerate(self.finish)}
        elif self.places:
            tie = self.places[-1]
        else:
            tie = {}
        return sorted(self.riders, key=lambda r: (-self.points(r), tie.get(r, 0), r))

    def standings(self) -> dict[str, Any]:
        """JSON-ready: ``points`` as ``[[id, points], …]`` best first; ``table``, per
        rider best first, its ``rank``, ``rider``, ``team``, ``points``, ``gap`` to
        the leader, and per event ridden its omnium points (``events``) and place
        (``places``); ``events`` (the four modes), ``ridden``, ``leader`` and
        ``tokens`` (saved for the next event)."""
        order = self.order()
        best = self.points(order[0]) if order else 0
        table = [
            {
                "rank": rank,
                "rider": rider,
                "team": rider[0],
                "points": self.points(rider),
                "gap": best - self.points(rider),
                "events": [event[rider] for event in self.events],
                "places": [places[rider] for places in self.places],
            }
            for rank, rider in enumerate(order, start=1)
        ]
        return {
            "events": list(EVENTS),
            "ridden": len(self.events),
            "points": [[row["rider"], row["points"]] for row in table],
            "table": table,
            "leader": order[0] if self.events else None,
            "tokens": dict(self.saved),
        }
