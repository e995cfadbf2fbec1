"""The data of a Mind Cycling game in progress, and none of its rules.

A :class:`Race` holds where every rider stands, who holds a bottle, who has crossed the
line and which medals are won, the riders still to place during setup, and, during a
round, what the round's assessment fixed (:class:`RoundTables`, MC-4.2), who has had
its turn and the groups riding together (MC-6.2). :mod:`.rules` reads and changes it;
:mod:`.state` runs the turns.

Layout, chosen for the engine's hot path: a square is the int ``row << 5 | lane``
(:mod:`.course`); :attr:`Race.blocked` is one bitmask of lanes per row, marking riders
and rocks alike (the squares a path may not enter); a group is a three-item list
``[head square, riders, closed]`` indexed by :data:`HEAD`, :data:`SIZE` and
:data:`CLOSED`, cheap to copy with the race.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .course import Course

#: Indices of a group (MC-6.2): the square of its head rider (the last to relay, or its
#: founder), how many riders it holds, and whether it is closed (an attack or a finish).
HEAD, SIZE, CLOSED = 0, 1, 2


@dataclass(frozen=True, slots=True)
class RoundTables:
    """What the assessment fixed at the start of a round (MC-4.2, MC-4.3, MC-6.1), for
    every rider on the road then. The tables are never changed during the round (a new
    round gets new ones), so copies of a race share them."""

    #: The round's order (MC-4.3): furthest row first, then the lower lane letter.
    order: tuple[str, ...] = ()
    #: The section of each rider's row (MC-1.4; ``start`` for the start zone).
    section: dict[str, str] = field(default_factory=dict)
    #: Each rider's allowance (MC-5.2).
    allowance: dict[str, int] = field(default_factory=dict)
    #: The riders against the wind (MC-5.4, MC-5.5).
    against_wind: frozenset[str] = frozenset()
    #: The exhausted domestiques (MC-7.4).
    exhausted: frozenset[str] = frozenset()
    #: The riders that held a bottle (MC-7.2).
    held_bottle: frozenset[str] = frozenset()
    #: rider -> the rider it is linked to, on its shelter square (MC-6.1).
    leader: dict[str, str] = field(default_factory=dict)
    #: rider -> the rider linked to it.
    follower: dict[str, str] = field(default_factory=dict)
    #: rider -> its place in its train (MC-6.1), for the riders in a train.
    train_place: dict[str, int] = field(default_factory=dict)


#: The tables of no round (during setup).
NO_ROUND = RoundTables()


class Race:
    """The mutable data of a game in progress (see the module doc).

    The facts it is played under are kept alongside, shared by every copy: the
    ``course``, the ``teams`` (letter -> composition), every rider id (``ids``), the
    lane offset of a rider's shelter square (``shelter``: 0 front wind, -1 left, +1
    right, MC-5.5), the ``relay_limit`` (MC-6.5) and whether the game is ``solo``.
    """

    __slots__ = (
        "blocked",
        "bottles",
        "course",
        "current",
        "done",
        "finished",
        "gave",
        "group_of",
        "groups",
        "ids",
        "medals",
        "next_in_order",
        "over",
        "relay_limit",
        "rider_at",
        "round",
        "shelter",
        "solo",
        "square_of",
        "tables",
        "teams",
        "unplaced",
    )

    course: Course
    teams: Mapping[str, str]
    ids: tuple[str, ...]
    shelter: int
    relay_limit: int
    solo: bool
    #: rider -> square, for the riders on the road.
    square_of: dict[str, int]
    #: square -> rider, the other way round.
    rider_at: dict[int, str]
    #: Per row, a bitmask of the lanes a rider may not enter: riders and rocks.
    blocked: list[int]
    #: The riders holding a bottle now.
    bottles: set[str]
    #: The riders across the line, in finishing order (MC-8.1).
    finished: list[str]
    #: Medals awarded so far: ``cyclist``/``sprinter``/``climber`` -> rider, ``team`` -> team.
    medals: dict[str, str]
    #: 0 during setup, then the current round.
    round: int
    #: team -> its riders still to place (setup only).
    unplaced: dict[str, list[str]]
    #: The round's assessment.
    tables: RoundTables
    #: The riders that have had their turn this round.
    done: set[str]
    #: Whether the rider to play has already given its bottle this turn (MC-7.1).
    gave: bool
    #: This round's groups, ``[head square, riders, closed]`` (MC-6.2).
    groups: list[list[Any]]
    #: rider -> index in ``groups`` of the group it rode in this round.
    group_of: dict[str, int]
    #: The rider whose turn it is in a round, else ``None``.
    current: str | None
    #: Index in the round's order of the first rider that may not have moved yet.
    next_in_order: int
    #: Whether the game has ended.
    over: bool

    def __init__(
        self,
        course: Course,
        teams: Mapping[str, str],
        ids: tuple[str, ...],
        unplaced: dict[str, list[str]],
        *,
        shelter: int,
        relay_limit: int,
        solo: bool,
    ) -> None:
        self.course = course
        self.teams = teams
        self.ids = ids
        self.shelter = shelter
        self.relay_limit = relay_limit
        self.solo = solo
        self.square_of = {}
        self.rider_at = {}
        self.blocked = [*course.rock_mask]
        self.bottles = {rid for rid in ids if rid[1] == "D"}  # MC-2.4
        self.finished = []
        self.medals = {}
        self.round = 0
        self.unplaced = unplaced
        self.tables = NO_ROUND
        self.done = set()
        self.gave = False
        self.groups = []
        self.group_of = {}
        self.current = None
        self.next_in_order = 0
        self.over = False

    def copy(self) -> Race:
        """An independent copy: the facts and the round's tables are shared (never
        changed), everything else is copied."""
        new = Race.__new__(Race)
        new.course = self.course
        new.teams = self.teams
        new.ids = self.ids
        new.shelter = self.shelter
        new.relay_limit = self.relay_limit
        new.solo = self.solo
        new.square_of = self.square_of.copy()
        new.rider_at = self.rider_at.copy()
        new.blocked = self.blocked.copy()
        new.bottles = self.bottles.copy()
        new.finished = self.finished.copy()
        new.medals = self.medals.copy()
        new.round = self.round
        # Placement lists only change during setup; afterwards they can be shared.
        new.unplaced = (
            {t: ids.copy() for t, ids in self.unplaced.items()}
            if self.round == 0
            else self.unplaced
        )
        new.tables = self.tables
        new.done = self.done.copy()
        new.gave = self.gave
        new.groups = [g.copy() for g in self.groups]
        new.group_of = self.group_of.copy()
        new.current = self.current
        new.next_in_order = self.next_in_order
        new.over = self.over
        return new

    def put(self, rid: str, sq: int) -> None:
        """Stand rider ``rid`` on square ``sq`` (keeping the three occupancy views in step)."""
        self.square_of[rid] = sq
        self.rider_at[sq] = rid
        self.blocked[sq >> 5] |= 1 << (sq & 31)

    def key(self) -> tuple[Any, ...]:
        """Everything that tells two positions of the same game apart (for ``==``)."""
        return (
            self.round,
            tuple(sorted(self.square_of.items())),
            frozenset(self.bottles),
            tuple(self.finished),
            tuple(sorted(self.medals.items())),
            self.current,
            self.gave,
            frozenset(self.done),
            tuple(tuple(g) for g in self.groups),
            tuple(sorted(self.group_of.items())),
            tuple((t, tuple(ids)) for t, ids in self.unplaced.items()),
            self.over,
        )
